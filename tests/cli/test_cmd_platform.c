/* tests/cli/test_cmd_platform.c — `hetsim platform NAME` (cli/cmd_platform.c)
 * as a researcher reads it for where each number comes from: every scalar
 * parameter of a shipped name or a file with its value, unit and source
 * (given in the name, or the default with what that default is), flat:P's
 * with theirs, and the runtime costs named as the file's properties. */
#include "tests/support/testing.h"

#include <stdlib.h>
#include <string.h>

/* idgraf with two parameters given: those two "given", the others default
 * with their meaning; the values as typed (0.5, dgemm:dsyrk). */
static void test_shipped_parameters(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL_FATAL(hs_test_cli("platform idgraf:bw_scale=0.5,gpu_kernels=dgemm:dsyrk", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "parameters (NAME:key=value; value, unit, source):\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  bw_scale      0.5          factor           given in the platform's name\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  gpu_kernels   dgemm:dsyrk  kernel names     given in the platform's name\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  gpu_speed     1            factor           default: GPU kernels as the timing "
                                       "table times them\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  copy_engines  file         engines per GPU  default: each GPU host's "
                                       "copy_engines property in the platform file"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "runtime costs (seconds; the zone's runtime/* properties of "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "idgraf.xml): task_cpu 9.49e-06"));
    /* each cost's source: the comment platforms/idgraf.xml writes just before its property */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  task_cpu: ASSUMPTION, carried from Mapuche: XKaapi's per-task cost"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  transfer_issue: READING: the sampled latencies (11-12 us, StarPU's bus "
                                       "sampling) time whole cudaMemcpy calls"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  decide_push: ASSUMPTION: one push into a queue (a lock and a few pointer "
                                       "writes)\n"));
    free(out);
    free(err);
}

/* Mapuche writes one comment before its five costs: printed once, the others
 * pointing to it. */
static void test_one_comment_for_several(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL_FATAL(hs_test_cli("platform mapuche", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  task_cpu: The runtime's costs (sim/costs.h). task_cpu and task_gpu: "
                                       "CALIBRATED, XKaapi's per-task cost"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  task_gpu: the same comment as task_cpu\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  decide_worker: the same comment as task_cpu\n"));
    free(out);
    free(err);
}

/* flat:3,bw=2G: p (positional) and bw given, the others flat:P's defaults. */
static void test_flat_parameters(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL_FATAL(hs_test_cli("platform flat:3,bw=2G", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "parameters (flat:key=value):\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  p             3            given in the platform's name\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  bw            2G           given in the platform's name\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  speed         1G           default of flat:P\n"));
    CU_ASSERT_PTR_NULL(strstr(out, "bw_scale")); /* a shipped name's parameters are not flat:P's */
    free(out);
    free(err);
}

/* gpu_mem_scale=0.875 on Idgraf (the C2050 with ECC on): each GPU's memsize
 * 3220551387 B (platforms/idgraf.xml, ECC off) times 0.875 = 2817982463.625,
 * 2817982464 B rounded (StarPU's sampled value), and its cache at the
 * default --cache-fraction 0.8: 2254385971.2, printed 2254385971 B. */
static void test_gpu_mem_scale(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL_FATAL(hs_test_cli("platform idgraf:gpu_mem_scale=0.875", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  GPU0     gpu     3.164e+11 flop/s  memory 2817982464 B"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  1   GPU0     gpu  endpoint GPU0     cache 2254385971 B"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  gpu_mem_scale 0.875        factor           given in the platform's name\n"));
    free(out);
    free(err);
    hs_test_bad_cli("platform idgraf:gpu_mem_scale=0", "platform idgraf: parameter gpu_mem_scale: 0 is outside the "
                                                        "allowed range (0,inf)");
}

/* A bad parameter: exit 2, one line naming the parameter and the value. */
static void test_bad_parameters(void)
{
    hs_test_bad_cli("platform idgraf:cpu_speed=-1", "platform idgraf: parameter cpu_speed: -1 is outside the "
                                                     "allowed range (0,inf)");
    hs_test_bad_cli("platform mapuche:hosts_map=x", "platform mapuche: unknown parameter 'hosts_map'");
    hs_test_bad_cli("platform mapuche:bw_scale=half", "platform mapuche: parameter bw_scale: 'half' is not a number");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"a shipped name's parameters with their sources", test_shipped_parameters},
        {"one comment as the source of several costs", test_one_comment_for_several},
        {"flat:P's parameters with their sources", test_flat_parameters},
        {"gpu_mem_scale: every GPU's memory scaled", test_gpu_mem_scale},
        {"bad parameters refused, named", test_bad_parameters},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_platform", tests);
}
