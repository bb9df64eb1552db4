/* tests/cli/test_cmd_calibrate_sim.c — `hetsim calibrate-sim`
 * (cli/cmd_calibrate_sim.c) end to end: it records the host-observed time of
 * GPU tasks (Beniamine 2013, §3.2.1, §3.2.3; by hand on Mapuche: the input
 * transfer plus the kernel when nothing overlaps), its bad input, and shipped
 * tables found by name with --perf. */
#include "base/util.h"
#include "platforms/perfmodel.h"
#include "policies/registry.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    cJSON *j = hs_test_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    return j;
}

/* A single 100×100 single-precision tile on Mapuche's GPU: its POTRF is seen
 * from the start of its input's copy: the H2D copy (10 µs + 40,000 B at
 * 3 GB/s), the runtime's 9.49 µs of work for a GPU task and the kernel (LAWN
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
    double expect = 10e-6 + 40000 / 3e9 + 9.49e-6 + 338350.0 / 4e9 + 5e-6;
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
        {"calibrate-sim: host-observed time by hand, replacement, lower bound", test_calibrate_sim},
        {"calibrate-sim and --perf: bad input, shipped names", test_cli_errors},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_calibrate_sim", tests);
}
