/* tests/platforms/test_calibration.c — the calibration effect (Beniamine
 * 2013, §3.2.1, §3.2.3): a timing table's "calibrated" list is what
 * policies are told while the engine executes the table's own durations;
 * `hetsim calibrate-sim` records the host-observed time of GPU tasks (by hand
 * on Mapuche: the input transfer plus the kernel when nothing overlaps);
 * shipped tables are found by name with --perf and are what their script
 * writes with today's model. */
#include "platforms/perfmodel.h"
#include "base/util.h"
#include "policies/registry.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *table_text =
    "{\"kernels\": ["
    "{\"kernel\": \"k\", \"arch\": \"cpu\", \"nb\": 0, \"seconds\": 1.0, \"source\": \"test\"},"
    "{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 0, \"seconds\": 0.1, \"source\": \"test\"}],"
    " \"calibrated\": ["
    "{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 10, \"seconds\": 10, \"gpus\": 8, \"source\": \"test\"}]}";

static void test_estimate_lookup(void)
{
    char *path = hs_test_tmp_text(".json", table_text), err[256];
    struct hs_perfmodel pm;
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(path, &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.ncalibrated, 1);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_estimate(&pm, "k", "gpu", 10, 1), 10, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "k", "gpu", 10, 1), 0.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_estimate(&pm, "k", "gpu", 20, 1), 0.1, 1e-12); /* other nb */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_estimate(&pm, "k", "cpu", 10, 1), 1.0, 1e-12);
    hs_perf_free(&pm);
    free(path);
}

static void test_bad_calibrated(void)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"seconds\": 1, \"source\": \"t\"}],"
         " \"calibrated\": [{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 1, \"seconds\": -1, \"source\": \"t\"}]}",
         "calibrated[0]: 'seconds' or 'gflops' must be a positive number"},
        {"{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"seconds\": 1, \"source\": \"t\"}],"
         " \"calibrated\": 3}",
         "field 'calibrated' must be an array"},
        /* the engine would have no duration to execute */
        {"{\"kernels\": [{\"kernel\": \"k\", \"arch\": \"cpu\", \"seconds\": 1, \"source\": \"t\"}],"
         " \"calibrated\": [{\"kernel\": \"k\", \"arch\": \"gpu\", \"nb\": 1, \"seconds\": 1, \"source\": \"t\"}]}",
         "calibrated[0]: kernel 'k' on gpu is not timed in 'kernels'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = hs_test_tmp_text(".json", cases[i].text), err[256];
        struct hs_perfmodel pm;
        CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].message));
        free(path);
    }
}

/* One task of kernel k (nb 10) on Mapuche: the calibrated 10 s on the GPU
 * sends it to a core (1 s); forced onto the GPU it runs in the true 0.1 s
 * while the plan predicts 10. */
static void test_policy_sees_calibration(void)
{
    struct hs_dag *dag = hs_dag_new("one");
    hs_dag_add_task(dag, "k", "t", 1, 10);
    hs_dag_finalize(dag);
    char *path = hs_test_tmp_text(".json", table_text);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = hs_test_data("mapuche.xml");
    cfg.platform_name = "mapuche";
    hs_test_no_costs(&cfg);
    cfg.perf_file = path;
    cJSON *r = hs_test_simulate(&cfg, dag, &hs_policy_heft, "heft");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 1.0, 1e-9);
    cJSON_Delete(r);
    cfg.select.cpus = 0;
    r = hs_test_simulate(&cfg, dag, &hs_policy_heft, "heft");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "makespan")->valuedouble, 0.1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(r, "predicted")->valuedouble, 10, 1e-9);
    cJSON_Delete(r);
    free(path);
    hs_dag_free(dag);
}

static const cJSON *calibrated(const cJSON *table, const char *kernel, int nb, int *count)
{
    const cJSON *e, *found = NULL;
    *count = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(table, "calibrated"))
        if (strcmp(cJSON_GetObjectItem(e, "kernel")->valuestring, kernel) == 0 &&
            cJSON_GetObjectItem(e, "nb")->valueint == nb) {
            found = e;
            (*count)++;
        }
    return found;
}

static cJSON *read_table(const char *path)
{
    char *text = hs_test_read_file(path);
    cJSON *j = cJSON_Parse(text);
    free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    return j;
}

/* A single 100×100 single-precision tile on Mapuche's GPU: its POTRF is seen
 * from the start of its input's copy: the H2D copy (10 µs + 40,000 B at
 * 3 GB/s), the runtime's 5 µs of work for a GPU task and the kernel (LAWN
 * 41's 338,350 flops at 4 GFlop/s plus 5 µs of launch), all figures of
 * platforms/mapuche.xml and perf/mapuche.json. */
static void test_calibrate_sim(void)
{
    char *out = hs_test_tmp(".json"), args[512];
    snprintf(args, sizeof args, "calibrate-sim -p mapuche --gpus 1 -w cholesky:n=100,nb=100,precision=s -o %s", out);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0); /* replaces, does not add */
    cJSON *table = read_table(out);
    int count;
    const cJSON *e = calibrated(table, "spotrf", 100, &count);
    CU_ASSERT_EQUAL(count, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    double expect = 10e-6 + 40000 / 3e9 + 5e-6 + 338350.0 / 4e9 + 5e-6;
    HS_ASSERT_NEAR_REL(cJSON_GetObjectItem(e, "seconds")->valuedouble, expect, 1e-9);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(e, "gpus")->valueint, 1);
    CU_ASSERT(cJSON_GetArraySize(cJSON_GetObjectItem(table, "kernels")) >= 8); /* the base table */
    cJSON_Delete(table);
    /* a 10×10-tile run: no GEMM is seen faster than its kernel (2·10⁶ flops at 25 GFlop/s + 5 µs) */
    snprintf(args, sizeof args, "calibrate-sim -p mapuche --gpus 1 -w cholesky:n=1000,nb=100,precision=s -o %s", out);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    table = read_table(out);
    e = calibrated(table, "sgemm", 100, &count);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT(cJSON_GetObjectItem(e, "seconds")->valuedouble >= (2e6 / 25e9 + 5e-6) * (1 - 1e-9));
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(e, "tasks")->valueint, 120);
    cJSON_Delete(table);
    free(out);
}

static int same_int(const cJSON *x, const cJSON *y, const char *field)
{
    return cJSON_GetObjectItem(x, field)->valueint == cJSON_GetObjectItem(y, field)->valueint;
}

/* The same entry (kernel, nb, gpus) in both calibrated lists, with the same
 * time and task count, and the same kernel table: the shipped table is what
 * the script writes today. */
static void check_same_calibrated(const char *name, const cJSON *shipped, const cJSON *fresh)
{
    const cJSON *a = cJSON_GetObjectItem(shipped, "calibrated"), *b = cJSON_GetObjectItem(fresh, "calibrated");
    CU_ASSERT_EQUAL_FATAL(cJSON_GetArraySize(a), cJSON_GetArraySize(b));
    CU_ASSERT(cJSON_Compare(cJSON_GetObjectItem(shipped, "kernels"), cJSON_GetObjectItem(fresh, "kernels"), 1));
    for (int i = 0; i < cJSON_GetArraySize(a); i++) {
        const cJSON *x = cJSON_GetArrayItem(a, i), *y = cJSON_GetArrayItem(b, i);
        double sx = cJSON_GetObjectItem(x, "seconds")->valuedouble, sy = cJSON_GetObjectItem(y, "seconds")->valuedouble;
        int same = strcmp(cJSON_GetObjectItem(x, "kernel")->valuestring, cJSON_GetObjectItem(y, "kernel")->valuestring) == 0 &&
                   same_int(x, y, "nb") && same_int(x, y, "gpus") && same_int(x, y, "tasks") &&
                   fabs(sx - sy) <= 1e-9 * sy;
        if (!same)
            fprintf(stderr, "\n%s: calibrated entry %d is %s nb=%d %.9g s, the script writes %.9g s "
                    "(rerun platforms/tools/calibrate_beniamine.sh)\n", name, i,
                    cJSON_GetObjectItem(x, "kernel")->valuestring, cJSON_GetObjectItem(x, "nb")->valueint, sx, sy);
        CU_ASSERT(same);
    }
}

/* The shipped calibrated tables (idgraf-cal1..8, mapuche-cal1) were written
 * by platforms/tools/calibrate_beniamine.sh: after a change of the model
 * (kernel rates, runtime costs, links) they must be rewritten, or the
 * Beniamine studies plan with another machine's calibration. */
static void test_shipped_tables_current(void)
{
    char *dir = hs_test_tmp_dir(".cal"), cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "sh %s/platforms/tools/calibrate_beniamine.sh %s %s", HETSIM_SOURCE_DIR, HETSIM_BIN, dir);
    CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, cmd, &out), 0);
    free(out);
    /* every table the script wrote, against the shipped file of that name */
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int tables = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        char shipped[1024], fresh[1024];
        snprintf(shipped, sizeof shipped, "%s/platforms/perf/%s", HETSIM_SOURCE_DIR, de->d_name);
        snprintf(fresh, sizeof fresh, "%s/%s", dir, de->d_name);
        cJSON *a = read_table(shipped), *b = read_table(fresh);
        check_same_calibrated(de->d_name, a, b);
        cJSON_Delete(a), cJSON_Delete(b);
        remove(fresh);
        tables++;
    }
    closedir(d);
    CU_ASSERT_EQUAL(tables, 5); /* idgraf-cal1, -cal2, -cal4, -cal8, mapuche-cal1 */
    rmdir(dir), free(dir);
}

static void test_cli_errors(void)
{
    char *o, *e;
    CU_ASSERT_EQUAL(hs_test_cli("calibrate-sim -p mapuche --gpus 0 -w cholesky:n=100,nb=100 -o x.json", &o, &e), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "--gpus"));
    free(o), free(e);
    CU_ASSERT_EQUAL(hs_test_cli("calibrate-sim -p mapuche -w cholesky:n=100,nb=100", &o, &e), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "-o TABLE"));
    free(o), free(e);
    char *notable = hs_test_tmp(".json"), args[512]; /* TABLE exists but is no timing table */
    hs_test_write_file(notable, "[1, 2]");
    snprintf(args, sizeof args, "calibrate-sim -p mapuche --gpus 1 -w cholesky:n=100,nb=100 -o %s", notable);
    CU_ASSERT_EQUAL(hs_test_cli(args, &o, &e), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "field 'kernels' must be a non-empty array"));
    free(o), free(e);
    remove(notable), free(notable);
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p mapuche -w cholesky:n=200,nb=100,precision=s --perf nosuch", &o, &e), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(e, "unknown timing table 'nosuch'"));
    free(o), free(e);
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p mapuche -w cholesky:n=200,nb=100,precision=s --perf mapuche-cal1 -o -",
                                &o, &e), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(o, "perf/mapuche-cal1.json"));
    free(o), free(e);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"calibrated entries: what policies are told", test_estimate_lookup},
        {"malformed calibrated lists are refused", test_bad_calibrated},
        {"policies plan with the calibrated time, runs take the true one", test_policy_sees_calibration},
        {"calibrate-sim: host-observed time by hand, replacement, lower bound", test_calibrate_sim},
        {"calibrate-sim and --perf: bad input, shipped names", test_cli_errors},
        {"shipped calibrated tables are what calibrate_beniamine.sh writes", test_shipped_tables_current},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("calibration", tests);
}
