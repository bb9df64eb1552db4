/* tests/sim/engines/simgrid/test_sgplatforms.c — SimGrid platform files as SimGrid and WRENCH
 * users write them: hosts without hetsim's kind are CPU hosts (with one note
 * line), host memory takes no compute host, core="N" gives N CPU workers
 * on the host, SimGrid's 65,536-host cluster loads, and hosts that declare
 * wattage_per_state get their joules from SimGrid's energy plugin in the
 * record, the summary and the sweep's CSV, and nothing else of the record
 * changes with --energy. Expected values are computed by
 * hand from the files written here. */
#include "tests/support/testing.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A platform of one zone holding body. */
static char *platform(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text,
             "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n%s\n</zone>\n</platform>\n", body);
    return hs_test_tmp_text(".xml", text);
}

/* n independent tasks of flops each, without data, as a hetsim JSON DAG. */
static char *independent_tasks(int n, double flops)
{
    char text[8192];
    int len = snprintf(text, sizeof text, "{\"name\":\"independent\",\"tasks\":[");
    for (int i = 0; i < n; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "%s{\"label\":\"t%d\",\"flops\":%.0f,\"accesses\":[]}",
                        i ? "," : "", i, flops);
    snprintf(text + len, sizeof text - (size_t)len, "]}\n");
    return hs_test_tmp_text(".json", text);
}

static double run_makespan(const char *pf, const char *dag, int *nworkers)
{
    char args[4096];
    snprintf(args, sizeof args, "-p %s -w json:file=%s -s eager", pf, dag);
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    double makespan = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "results"), "makespan")->valuedouble;
    *nworkers = cJSON_GetArraySize(cJSON_GetObjectItem(rec, "workers"));
    cJSON_Delete(rec);
    return makespan;
}

/* SimGrid's small_platform (7 hosts, none named or marked): 7 CPU workers,
 * host memory at the first host by name (Boivin), and one note. */
static void test_default_cpu_hosts(void)
{
    char *out = NULL, *err = NULL;
    int rc = hs_test_cli("platform " HETSIM_SOURCE_DIR "/tests/data/simgrid-small_platform.xml", &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 7 cores, 0 GPUs"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "0   host     host endpoint Boivin"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "6   Tremblay cpu"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "7 of its 7 hosts have no kind"));
    free(out);
    free(err);
    /* a host named RAM* is still host memory, and the others CPU hosts */
    char *pf = platform("<host id=\"RAM\" speed=\"1f\"/><host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
                        "<link id=\"l\" bandwidth=\"1GBps\" latency=\"0\"/>");
    char args[4096];
    snprintf(args, sizeof args, "platform %s", pf);
    rc = hs_test_cli(args, &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 2 cores"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "endpoint RAM"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "2 of its 3 hosts have no kind"));
    free(out);
    free(err);
    /* -q: no note */
    char *dag = independent_tasks(1, 1e9);
    snprintf(args, sizeof args, "run -q -p %s -w json:file=%s -s eager", pf, dag);
    rc = hs_test_cli(args, &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NULL(strstr(err, "note:"));
    free(out);
    free(err);
    free(dag);
    free(pf);
}

/* core="4" at 1 Gflop/s: 4 workers; 4 independent tasks of 2 Gflop run
 * side by side in 2 s, 8 tasks in two rounds, 4 s (no runtime costs, no
 * data). The same host without core= is one worker: 4 tasks take 8 s. */
static void test_cores(void)
{
    char *pf4 = platform("<host id=\"node\" speed=\"1Gf\" core=\"4\"/>");
    char *pf1 = platform("<host id=\"node\" speed=\"1Gf\"/>");
    char *four = independent_tasks(4, 2e9), *eight = independent_tasks(8, 2e9);
    int nworkers = 0;
    CU_ASSERT_DOUBLE_EQUAL(run_makespan(pf4, four, &nworkers), 2.0, 1e-9);
    CU_ASSERT_EQUAL(nworkers, 4);
    CU_ASSERT_DOUBLE_EQUAL(run_makespan(pf4, eight, &nworkers), 4.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(run_makespan(pf1, four, &nworkers), 8.0, 1e-9);
    CU_ASSERT_EQUAL(nworkers, 1);
    char *out = NULL, *err = NULL, args[4096];
    snprintf(args, sizeof args, "platform %s", pf4);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "3   node#3   cpu"));
    free(out);
    free(err);
    free(pf4);
    free(pf1);
    free(four);
    free(eight);
}

/* SimGrid 3.32's examples/platforms/cluster_crossbar.xml: radical="0-65535",
 * so 65,536 CPU workers, and no route asked for (the hosts compute in host
 * memory, at the first host). */
static void test_crossbar(void)
{
    char *out = NULL, *err = NULL;
    int rc = hs_test_cli("platform " HETSIM_SOURCE_DIR "/tests/data/simgrid-cluster_crossbar.xml", &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "offers 65536 cores, 0 GPUs"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  65535 node-65535.simgrid.org cpu")); /* natural order */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "endpoint node-0.simgrid.org"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "65536 of its 65536 hosts have no kind"));
    free(out);
    free(err);
}

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
    char *one = platform("<host id=\"node\" speed=\"1Gf\"><prop id=\"wattage_per_state\" value=\"100.0:200.0\"/></host>"
                         "<host id=\"RAM\" speed=\"1f\"><prop id=\"wattage_per_state\" value=\"10:10\"/></host>");
    char *two = platform("<host id=\"node\" speed=\"1Gf\" core=\"2\"><prop id=\"wattage_per_state\" value=\"100:200\"/>"
                         "<prop id=\"wattage_off\" value=\"5\"/></host>");
    char *gpu = platform("<host id=\"RAM\" speed=\"1f\"/><host id=\"CPU0\" speed=\"1Gf\"><prop id=\"wattage_per_state\" "
                         "value=\"10:20\"/></host><host id=\"GPU0\" speed=\"100Gf\"><prop id=\"wattage_per_state\" "
                         "value=\"50:250\"/></host><link id=\"pcie\" bandwidth=\"1GBps\" latency=\"0\"/>"
                         "<route src=\"RAM\" dst=\"GPU0\"><link_ctn id=\"pcie\"/></route>");
    char *dag1 = independent_tasks(1, 2e9);
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
    char *dag = independent_tasks(1, 1e9), args[4096];
    snprintf(args, sizeof args, "-p " HETSIM_SOURCE_DIR "/tests/data/simgrid-small_platform.xml -w json:file=%s -s eager",
             dag);
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(results(rec), "energy"));
    cJSON_Delete(rec);
    /* a platform with power, without --energy: none counted (the plugin costs CPU) */
    char *one = platform("<host id=\"node\" speed=\"1Gf\"><prop id=\"wattage_per_state\" value=\"100.0:200.0\"/></host>");
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
        {"hosts without a kind are CPU hosts", test_default_cpu_hosts},
        {"core=N gives N workers", test_cores},
        {"SimGrid's 65,536-host crossbar cluster", test_crossbar},
        {"energy from SimGrid's plugin, by hand", test_energy},
        {"no energy without energy properties or --energy", test_no_energy},
        {"--energy changes nothing else in the record", test_energy_observes},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("sgplatforms", tests);
}
