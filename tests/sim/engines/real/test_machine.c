/* tests/sim/engines/real/test_machine.c — machine descriptions
 * (sim/engines/real/machine.c), with GPUs and without: they round-trip
 * through their JSON file and give a platform that SimGrid loads, by hand
 * from the description. */
#include "base/util.h"
#include "sim/engines/real/calibrate.h"
#include "sim/engines/real/machine.h"
#include "sim/engines/real/numeric.h"
#include "tests/support/testing_real.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_machine_files(void)
{
    struct hs_machine m = hs_test_gpu_machine();
    char *base = hs_test_tmp(""), path[1024], args[2048];
    hs_test_write_machine(&m, base);
    snprintf(path, sizeof path, "%s.machine.json", base);
    struct hs_machine back;
    CU_ASSERT_EQUAL_FATAL(hs_machine_load(path, &back), 0);
    CU_ASSERT_EQUAL(back.cores, 6);
    CU_ASSERT_EQUAL(back.ngpus, 1);
    CU_ASSERT_DOUBLE_EQUAL(back.gpus[0].h2d.bandwidth, 2.5e10, 0);
    CU_ASSERT_DOUBLE_EQUAL(back.gpus[0].d2h.latency, 9e-6, 0);
    CU_ASSERT_TRUE(isnan(back.task_overhead[HS_ARCH_CPU]));
    double lat, bw;
    CU_ASSERT_TRUE(hs_machine_route(&back, "GPU0", "RAM0", &lat, &bw));
    CU_ASSERT_DOUBLE_EQUAL(bw, 2.6e10, 0);
    CU_ASSERT_FALSE(hs_machine_route(&back, "GPU0", "GPU1", &lat, &bw));
    hs_machine_free(&back);
    char *out;
    snprintf(args, sizeof args, "platform %s.xml", base);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "host     -> GPU0       25000.00 MB/s     8.000 us"));
    free(out);

    /* cores only, with the engine's measured overhead: the platform says
     * where that overhead went instead of stating runtime costs */
    struct hs_machine cores = {.name = "cores", .gpu_model = "", .cores = 3, .core_speed = 2e10,
                               .task_overhead = {12.5e-6, NAN}};
    hs_test_write_machine(&cores, base);
    CU_ASSERT_EQUAL_FATAL(hs_machine_load(path, &back), 0);
    CU_ASSERT_EQUAL(back.ngpus, 0);
    CU_ASSERT_DOUBLE_EQUAL(back.task_overhead[HS_ARCH_CPU], 12.5e-6, 0);
    CU_ASSERT_TRUE(isnan(back.task_overhead[HS_ARCH_GPU]));
    hs_machine_free(&back);
    snprintf(path, sizeof path, "%s.xml", base);
    char *xml = hs_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "No runtime/* costs (sim/costs.h)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "12.50 us on a core"));
    CU_ASSERT_PTR_NULL(strstr(xml, "<prop id=\"runtime/"));
    free(xml);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "CPU2"));
    free(out);

    char *bad = hs_test_tmp(".machine.json");
    hs_test_write_file(bad, "{\"cores\": 4, \"gpus\": [{\"memsize\": 1}]}");
    CU_ASSERT_EQUAL(hs_machine_load(bad, &back), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "needs cores >= 1"));
    hs_test_write_file(bad, "{\"cores\": 4, \"core_speed\": 1e9, \"gpus\": [], \"task_overhead\": {\"cpu\": -1}}");
    CU_ASSERT_EQUAL(hs_machine_load(bad, &back), -1);
    free(bad);
    free(base);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"machine descriptions (GPUs, cores only) and their platform", test_machine_files},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("machine", tests);
}
