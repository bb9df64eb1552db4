/* tests/sim/engines/real/test_calibrate.c — `hetsim calibrate` of the cores
 * (sim/engines/real/calibrate.c): with --timing warm the kernels are timed
 * alone on cached inputs, said in every entry's source with its sample DAG;
 * with --cpu-threads 2 the copies timed at once share the cache; a
 * calibration ended by SIGTERM leaves no machine file without its table.
 * Checked for the mechanism, never a timing. */
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

/* ---- the loop, end to end ---------------------------------------------------- */

/* ---- bad input ------------------------------------------------------------------- */

/* The timing table of a calibration of the cores at nb 64, one repetition,
 * with OPTIONS (fails the test if there is none). */
static cJSON *cores_table(const char *options)
{
    char *dir = hs_test_tmp(""), args[2048], path[2100];
    snprintf(args, sizeof args, "calibrate -o t --dir %s --gpus 0 --nb 64 --reps 1 %s", dir, options);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/perf/t.json", dir);
    free(dir);
    cJSON *perf = hs_test_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(perf);
    return perf;
}

/* --timing warm times each kernel alone on cached inputs, and every
 * entry's source says how the kernel was timed (the shared calibration
 * above times them inside a run). */
static void test_warm_calibration(void)
{
    cJSON *perf = cores_table("--workloads lu --timing warm");
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(perf, "kernels"))
    {
        const char *source = cJSON_GetObjectItem(e, "source")->valuestring;
        CU_ASSERT_PTR_NOT_NULL(strstr(source, "medians of 1 calls on inputs left in the caches (--timing warm)"));
        CU_ASSERT_PTR_NULL(strstr(source, "in a run"));
        n++;
    }
    CU_ASSERT_EQUAL(n, 4); /* dgetrf, dtstrf, dgessm, dssssm */
    cJSON_Delete(perf);
}

/* With two cores timing at once, each runs its own copy of the sample DAG:
 * the copies share the cache, so each holds twice the cache over two. */
static void test_copies_share_the_cache(void)
{
    cJSON *perf = cores_table("--workloads cholesky --cpu-threads 2");
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(perf, "kernels"))
    {
        CU_ASSERT_PTR_NOT_NULL(strstr(cJSON_GetObjectItem(e, "source")->valuestring, "MiB, 2 copies at once"));
        hs_test_check_sample_size(cJSON_GetObjectItem(e, "source")->valuestring);
        n++;
    }
    CU_ASSERT_EQUAL(n, 4);
    cJSON_Delete(perf);
}

/* A calibration ended by SIGTERM (timeout(1)) halfway leaves no NAME.xml
 * or NAME.machine.json without perf/NAME.json (issue 54): the overhead runs
 * use a scratch copy of the machine files, removed by the signal, and the
 * machine files are written after the table. Killed as soon as the first
 * machine file (scratch or not) is on disk. */
static void test_killed_leaves_no_machine(void)
{
    char *dir = hs_test_tmp_dir(".cal"), cmd[8192], *out = NULL;
    snprintf(cmd, sizeof cmd,
             "'%s' calibrate -o m --dir '%s' --gpus 0 --nb 64 --reps 1 --workloads cholesky & pid=$!; i=0; "
             "while [ ! -e '%s/.m.calibrating.xml' ] && [ ! -e '%s/m.xml' ] && [ $i -lt 1200 ]; do sleep 0.05; "
             "i=$((i+1)); done; kill -TERM $pid; wait $pid; echo rc=$?; ls -A '%s'",
             HETSIM_BIN, dir, dir, dir, dir);
    CU_ASSERT_EQUAL(hs_test_sh(NULL, cmd, &out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "rc=143")); /* ended by the signal */
    CU_ASSERT_PTR_NULL(strstr(out, "m.xml"));
    CU_ASSERT_PTR_NULL(strstr(out, "m.machine.json"));
    CU_ASSERT_PTR_NULL(strstr(out, "calibrating"));
    free(out);
    free(dir);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"calibrate --timing warm: kernels alone on cached inputs, said in every source", test_warm_calibration},
        {"calibrate --cpu-threads 2: the copies timed at once share the cache", test_copies_share_the_cache},
        {"calibrate ended by SIGTERM: no machine file without its table", test_killed_leaves_no_machine},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("calibrate", tests);
}
