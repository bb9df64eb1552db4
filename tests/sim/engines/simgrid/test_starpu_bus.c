/* tests/sim/engines/simgrid/test_starpu_bus.c — the platform files of StarPU's bus sampling
 * as StarPU 1.3 writes them (tests/data/starpu/: a CPU-only machine's
 * HOST.platform.v4.xml and its version-3 HOST.platform.xml): the v4 file runs
 * as written (its unused "Host" link of 0 B/s kept), the v3 file is refused in
 * one line naming the .v4.xml file beside it; a link of 0 B/s that a route of
 * the run crosses is still refused with its id. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* StarPU 1.3's CPU-only file (2 cores, no GPU): Cholesky 2048 in 512-tiles
 * is 4 x 4 tiles, 4 POTRF + 6 TRSM + 6 SYRK + 4 GEMM = 20 tasks, on the two
 * CPU hosts StarPU names (CPU0, CPU1); no transfer (no GPU). */
static void test_cpu_only_v4_runs(void)
{
    char args[1024];
    snprintf(args, sizeof args, "-p %s -w cholesky:n=2048,nb=512 -s eager",
             hs_test_datafile("starpu/vm.platform.v4.xml"));
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *in = cJSON_GetObjectItem(r, "inputs"), *res = cJSON_GetObjectItem(r, "results");
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(in, "cpus")->valueint, 2);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(in, "gpus")->valueint, 0);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "tasks")->valueint, 20);
    CU_ASSERT(cJSON_GetObjectItem(res, "makespan")->valuedouble > 0);
    cJSON_Delete(r);
}

/* The version-3 file beside it: one line naming the .v4.xml file, which is
 * there; a copy alone in a folder: the same line says it is not there. */
static void test_v3_points_to_v4(void)
{
    char args[2048], want[1024], *err;
    const char *v3 = hs_test_datafile("starpu/vm.platform.xml");
    snprintf(args, sizeof args, "run -q -p %s -w cholesky:n=2048,nb=512 -s eager", v3);
    snprintf(want, sizeof want, "%s: SimGrid platform version 3 (StarPU's older format); use the .v4.xml "
             "file StarPU writes beside it: %s (it is there)", v3, hs_test_datafile("starpu/vm.platform.v4.xml"));
    hs_test_bad_cli(args, want);
    char *dir = hs_test_tmp_dir(""), copy[1024];
    snprintf(copy, sizeof copy, "%s/vm.platform.xml", dir);
    char *text = hs_test_read_file(v3);
    hs_test_write_file(copy, text);
    snprintf(args, sizeof args, "platform %s", copy);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 2);
    snprintf(want, sizeof want, "beside it: %s/vm.platform.v4.xml (not there: ", dir);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    free(err);
    free(text);
    unlink(copy);
    rmdir(dir);
    free(dir);
}

/* tests/data/bad/link-zero-bandwidth.xml: RAM0 -> GPU0 crosses the link
 * "pcie" of 0 B/s, and a link "unused" of 0 B/s is on no route. With the GPU
 * the run uses that route: refused, naming the link; without it (--gpus 0)
 * no route is used and the file runs. */
static void test_zero_link_only_where_used(void)
{
    char args[1024];
    const char *pf = hs_test_datafile("bad/link-zero-bandwidth.xml");
    snprintf(args, sizeof args, "run -q -p %s -w cholesky:n=1024,nb=512", pf);
    hs_test_bad_cli(args, "link pcie has bandwidth 0 B/s and the route from RAM0 to GPU0");
    snprintf(args, sizeof args, "-p %s --gpus 0 -w cholesky:n=1024,nb=512", pf);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL(r);
    cJSON_Delete(r);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"StarPU 1.3's CPU-only platform.v4.xml runs as written", test_cpu_only_v4_runs},
        {"StarPU's version-3 platform.xml: one line naming the .v4.xml", test_v3_points_to_v4},
        {"a link of 0 B/s is refused only on a route the run uses", test_zero_link_only_where_used},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("starpu_bus", tests);
}
