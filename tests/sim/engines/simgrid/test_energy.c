/* tests/sim/engines/simgrid/test_energy.c — a run's energy
 * (sim/engines/simgrid/energy.c): hosts that declare wattage_per_state get
 * their joules from SimGrid's energy plugin in the record, the summary and
 * the sweep's CSV, by hand from the files written here; no energy without
 * energy properties or --energy; nothing else of the record changes with
 * --energy. */
#include "tests/support/testing.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *results(cJSON *rec)
{
    return cJSON_GetObjectItem(rec, "results");
}

static double host_joules(cJSON *rec, const char *host)
{
    const cJSON *j = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(results(rec), "energy"), "hosts"), host);
    return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

/* Energy, by hand (SimGrid 3.32: a host draws Idle watts while nothing runs,
 * else Epsilon + load x (AllCores - Epsilon), Epsilon = Idle for
 * "Idle:AllCores"; load = share of its cores at work):
 * - one core at "100:200", one task of 2 s alone: 200 W x 2 s = 400 J; the
 *   RAM host at "10:10" idles the 2 s: 20 J; total 420 J;
 * - two cores at "100:200", tasks of 2 s and 1 s side by side: both cores
 *   for 1 s (200 W), one for 1 s (100 + 0.5 x 100 = 150 W): 350 J;
 * - a GPU at "50:250" running a 1 s task (its timing given, GPU only) while
 *   the core that drives it idles at "10:20": 250 J and 10 J. */
static void test_energy(void)
{
    char *one = hs_test_platform_file("<host id=\"node\" speed=\"1Gf\"><prop id=\"wattage_per_state\" value=\"100.0:200.0\"/></host>"
                         "<host id=\"RAM\" speed=\"1f\"><prop id=\"wattage_per_state\" value=\"10:10\"/></host>");
    char *two = hs_test_platform_file("<host id=\"node\" speed=\"1Gf\" core=\"2\"><prop id=\"wattage_per_state\" value=\"100:200\"/>"
                         "<prop id=\"wattage_off\" value=\"5\"/></host>");
    char *gpu = hs_test_platform_file("<host id=\"RAM\" speed=\"1f\"/><host id=\"CPU0\" speed=\"1Gf\"><prop id=\"wattage_per_state\" "
                         "value=\"10:20\"/></host><host id=\"GPU0\" speed=\"100Gf\"><prop id=\"wattage_per_state\" "
                         "value=\"50:250\"/></host><link id=\"pcie\" bandwidth=\"1GBps\" latency=\"0\"/>"
                         "<route src=\"RAM\" dst=\"GPU0\"><link_ctn id=\"pcie\"/></route>");
    char *dag1 = hs_test_independent_tasks(1, 2e9);
    char *dag2 = hs_test_tmp_text(".json", "{\"name\":\"two\",\"tasks\":[{\"flops\":2e9,\"accesses\":[]},"
                                           "{\"flops\":1e9,\"accesses\":[]}]}\n");
    char *dagg = hs_test_tmp_text(".json", "{\"name\":\"g\",\"tasks\":[{\"flops\":0,\"accesses\":[],"
                                           "\"costs\":{\"cpu\":5,\"gpu\":1},\"archs\":[\"gpu\"]}]}\n");
    char args[4096];
    snprintf(args, sizeof args, "-p %s -w json:file=%s -s eager --energy", one, dag1);
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(results(rec), "makespan")->valuedouble, 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(host_joules(rec, "node"), 400.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(host_joules(rec, "RAM"), 20.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(results(rec), "energy"), "total_joules")->valuedouble,
                           420.0, 1e-9);
    cJSON_Delete(rec);
    snprintf(args, sizeof args, "-p %s -w json:file=%s -s eager --energy", two, dag2);
    rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_DOUBLE_EQUAL(host_joules(rec, "node"), 350.0, 1e-9);
    cJSON_Delete(rec);
    snprintf(args, sizeof args, "-p %s -w json:file=%s -s eager --energy", gpu, dagg);
    rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_DOUBLE_EQUAL(host_joules(rec, "GPU0"), 250.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(host_joules(rec, "CPU0"), 10.0, 1e-9);
    CU_ASSERT(isnan(host_joules(rec, "RAM"))); /* no wattage_per_state: not listed */
    cJSON_Delete(rec);
    /* the summary's line and the sweep's column */
    char *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "run -p %s -w json:file=%s -s eager --energy", one, dag1);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  energy       420 J (SimGrid's host energy plugin) = RAM 20 + node 400\n"));
    free(out);
    free(err);
    char *csv = hs_test_tmp(".csv");
    snprintf(args, sizeof args, "sweep -q -p %s -w json:file=%s --vary policy=eager --energy -o %s", one, dag1, csv);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    free(out);
    free(err);
    char *text = hs_test_read_file(csv);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ",phase1_share,energy_joules,sim_seconds,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, ",,420,")); /* after the empty product columns */
    free(text);
    free(csv);
    free(one);
    free(two);
    free(gpu);
    free(dag1);
    free(dag2);
    free(dagg);
}

/* Energy only observes: a run's record with --energy is, but for
 * results.energy, byte for byte the record without, over policies that read
 * the clock online (HEFT online, dmda, work stealing, eager) and workloads of
 * microsecond to millisecond tasks on the shipped Idgraf and Mapuche (whose
 * files declare power). Online HEFT on Cholesky 800/80 on 8 GPUs used to
 * differ (2.715 ms without, 2.619 ms with, when the plugin's loads ran
 * beside the run). */
static void test_energy_observes(void)
{
    static const char *runs[] = {
        "-p idgraf --gpus 8 --perf idgraf-cal8 -w xkcholesky:n=800,nb=80,precision=s -s heft:online=1,order=fifo",
        "-p idgraf --gpus 8 --perf idgraf-cal8 -w xkcholesky:n=800,nb=80,precision=s -s dmda",
        "-p idgraf --gpus 8 --perf idgraf-cal8 -w xkcholesky:n=800,nb=80,precision=s -s ws",
        "-p idgraf --gpus 8 --perf idgraf-cal8 -w xkcholesky:n=800,nb=80,precision=s -s eager",
        "-p idgraf -w lu:n=2048,nb=256 -s heft:online=1",
        "-p idgraf -w qr:n=2048,nb=512 -s dmda",
        "-p mapuche -w cholesky:n=1024,nb=128,precision=s -s heft:online=1",
        "-p mapuche -w cholesky:n=1024,nb=128,precision=s -s ws",
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        char args[4096];
        snprintf(args, sizeof args, "%s --energy", runs[i]);
        cJSON *plain = hs_test_run_record(runs[i]), *counted = hs_test_run_record(args);
        CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
        CU_ASSERT_PTR_NOT_NULL_FATAL(counted);
        cJSON *energy = cJSON_DetachItemFromObject(results(counted), "energy");
        CU_ASSERT(cJSON_IsObject(energy) && cJSON_GetObjectItem(energy, "total_joules")->valuedouble > 0);
        cJSON_Delete(energy);
        char *a = cJSON_PrintUnformatted(plain), *b = cJSON_PrintUnformatted(counted);
        CU_ASSERT_STRING_EQUAL(a, b);
        if (strcmp(a, b))
            fprintf(stderr, "\n--energy changed the record of: hetsim run %s\n", runs[i]);
        free(a);
        free(b);
        cJSON_Delete(plain);
        cJSON_Delete(counted);
    }
}

/* A platform without energy properties: no energy in the record. */
static void test_no_energy(void)
{
    char *dag = hs_test_independent_tasks(1, 1e9), args[4096];
    snprintf(args, sizeof args, "-p " HETSIM_SOURCE_DIR "/tests/data/simgrid-small_platform.xml -w json:file=%s -s eager",
             dag);
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(results(rec), "energy"));
    cJSON_Delete(rec);
    /* a platform with power, without --energy: none counted (the plugin costs CPU) */
    char *one = hs_test_platform_file("<host id=\"node\" speed=\"1Gf\"><prop id=\"wattage_per_state\" value=\"100.0:200.0\"/></host>");
    snprintf(args, sizeof args, "-p %s -w json:file=%s -s eager", one, dag);
    rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(results(rec), "energy"));
    cJSON_Delete(rec);
    /* --energy where nothing declares power, or with an engine that cannot count it: one line, exit 2 */
    char *err = NULL;
    snprintf(args, sizeof args, "run -q -p flat:2 -w json:file=%s --energy", dag);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 2);
    CU_ASSERT(err && strstr(err, "--energy: platform flat:2 declares no power"));
    free(err);
    snprintf(args, sizeof args, "run -q -p %s -w json:file=%s --engine model --energy", one, dag);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 2);
    CU_ASSERT(err && strstr(err, "--energy: the model engine cannot count energy"));
    free(err);
    free(one);
    free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"energy from SimGrid's plugin, by hand", test_energy},
        {"no energy without energy properties or --energy", test_no_energy},
        {"--energy changes nothing else in the record", test_energy_observes},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("energy", tests);
}
