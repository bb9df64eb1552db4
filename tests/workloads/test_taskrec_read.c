/* tests/workloads/test_taskrec_read.c — the "taskrec" workload
 * (workloads/taskrec_read.c, taskrec_records.c): a StarPU tasks.rec against
 * StarPU's own performance-model means, bad files refused in one line,
 * descriptors and comments read as recutils reads them, and a value
 * continued over many lines joined in linear time (CPU times compared as a
 * ratio). */
#include "base/buf.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cost a task was given on the CPU. */
static double cpu_cost(const struct hs_dag *dag, const char *job)
{
    int i = hs_test_task_named(dag, job);
    return i < 0 ? -1 : dag->tasks[i].arch_cost[HS_ARCH_CPU];
}

static void test_taskrec(void)
{
    struct hs_dag *dag = hs_test_build_file("%s", "starpu-lu-rank0.rec");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 118);
    /* a simulated StarPU run: each duration is the mean of StarPU's own
     * performance model, which StarVZ's platform_file.rec of that trace
     * gives: dplrnt 5.076191e+03 us, dgetrf_nopiv 2.573344e+04, dtrsm 3.526222e+04 */
    CU_ASSERT_DOUBLE_EQUAL(cpu_cost(dag, "0_1"), 5076.191e-6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cpu_cost(dag, "0_129"), 25733.44e-6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cpu_cost(dag, "0_130"), 35262.22e-6, 1e-12);
    int t = hs_test_task_named(dag, "0_130");
    CU_ASSERT_EQUAL(dag->tasks[t].arch_mask, HS_ARCH_BIT(HS_ARCH_CPU)); /* MemoryNode 0 */
    CU_ASSERT_STRING_EQUAL(dag->kernels[dag->tasks[t].kernel], "dtrsm");
    /* StarPU's internal tasks (no worker) cost nothing */
    CU_ASSERT_EQUAL(cpu_cost(dag, "0_34"), 0);
    hs_dag_free(dag);
    /* workers 0-18 said to be GPUs: every timed task is GPU-only */
    dag = hs_test_build_file("taskrec:file=%s,gpu_workers=0-18", "starpu-lu-rank0.rec");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "0_130")].arch_mask, HS_ARCH_BIT(HS_ARCH_GPU));
    hs_dag_free(dag);
    char args[1200];
    snprintf(args, sizeof args, "-p flat:19,bw=inf -s dmda -w %s", hs_test_datafile("starpu-lu-rank0.rec"));
    double m = hs_test_run_makespan(args);
    CU_ASSERT(m >= 5076.191e-6 + 25733.44e-6 + 35262.22e-6); /* dplrnt, getrf, trsm in a row */
}

/* Records of another type (after a %rec descriptor) and comments are
 * read as recutils reads them: every record with a JobId is a task; CR LF
 * line ends as LF, more than one blank after a colon as one. */
static void test_taskrec_descriptors(void)
{
    char *path = hs_test_tmp_text(".rec", "%rec: Task\n\n# a comment\nJobId: 1\nWorkerId: 0\nStartTime: 0\n"
                                          "EndTime: 2\n\n%rec: Other\n\nJobId: 2\nDependsOn: 1\n"
                                          "# inside\nWorkerId: 0\nStartTime: 2\nEndTime: 5\n");
    char *crlf = hs_test_tmp_text(".rec", "JobId: 1\r\nWorkerId: 0\r\nStartTime: 0\r\nEndTime: 2\r\n\r\n"
                                          "JobId: 2\r\nDependsOn: 1\r\nWorkerId: 0\r\nStartTime: 2\r\nEndTime: 5\r\n");
    /* and with more blanks after the colons than rec's one (a hand-edited file) */
    char *blanks = hs_test_tmp_text(".rec", "JobId:   1\nWorkerId:  0\nStartTime:\t 0\nEndTime: 2\n\n"
                                            "JobId: 2\nDependsOn:   1\nWorkerId:\t0\nStartTime: 2\nEndTime:  5\n");
    const char *files[] = {path, crlf, blanks}; /* the same tasks with CR LF line ends (Windows) */
    for (int i = 0; i < 3; i++) {
        char args[1024], *out = NULL;
        snprintf(args, sizeof args, "dag taskrec:file=%s --stats", files[i]);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
        CU_ASSERT(out && strstr(out, "tasks: 2\n"));
        CU_ASSERT(out && strstr(out, "edges: 1\n"));
        free(out);
        unlink(files[i]);
    }
    free(path);
    free(crlf);
    free(blanks);
}

#define REC(fields) "JobId: 1\nWorkerId: 0\nStartTime: 0\nEndTime: 1\n" fields "\n"

static void test_bad_taskrec(void)
{
    hs_test_bad_workload_file("taskrec", "Name: x\nWorkerId: 0\n\n", ":1: a task record with no JobId");
    hs_test_bad_workload_file("taskrec", "# only a comment\n", "no task record");
    hs_test_bad_workload_file("taskrec", REC("") "JobId: 1\n\n", ":6: JobId 1 given twice");
    hs_test_bad_workload_file("taskrec", REC("DependsOn: 7\n"), ":1: JobId 1: DependsOn 7 is not the JobId of a task");
    hs_test_bad_workload_file("taskrec", "JobId: 1\nWorkerId: 0\nStartTime: 5\nEndTime: 1\n\n",
             "JobId 1: StartTime and EndTime must be numbers, EndTime >= StartTime ('5', '1')");
    hs_test_bad_workload_file("taskrec", REC("Handles: a b\nModes: R\nSizes: 8 8\n"),
             "JobId 1: handle b needs a mode (R, W, RW) and a size in bytes");
    hs_test_bad_workload_file("taskrec", REC("Handles: a\nModes: Q\nSizes: 8\n"), "JobId 1: handle a needs a mode");
    hs_test_bad_workload_file("taskrec", "JobId: 1\nDependsOn: 2\n\nJobId: 2\nDependsOn: 1\n\n",
             "the DependsOn links have a cycle");
    hs_test_bad_workload_file("taskrec", "JobId: 1\nWorkerId: one\nStartTime: 0\nEndTime: 1\n\n",
             "JobId 1: WorkerId 'one' is not a worker number");
    hs_test_bad_workload_file("taskrec", "JobId 1\n\n", ":1: 'JobId 1' is not a 'Field: value' line");
    /* librec's parse errors, at the line it stopped */
    hs_test_bad_workload_file("taskrec", REC("") "+ more\nJobId: 2\n\n", ":6: '+ more' is not a 'Field: value' line of rec");
    hs_test_bad_workload_file("taskrec", REC("Bad-Name: x\n"), ":5: 'Bad-Name: x' is not a 'Field: value' line of rec");
    hs_test_bad_workload_file("taskrec", REC("") "JobId: 2\n%rec: Task\nWorkerId: 0\n\n",
             ":6: a record with both %rec (a record descriptor, which rec readers do not count as a record) and JobId");
    hs_test_bad_cli("dag taskrec:file=x.rec,gpu_workers=a", "gpu_workers 'a' is not a list of worker numbers");
}

/* One task record whose field `key` (Name: the kernel; Nope: a field hetsim
 * ignores) goes on over n continuation lines. */
static char *rec_file(const char *key, int n)
{
    struct hs_buf b = {0};
    hs_buf_printf(&b, "JobId: 1\nWorkerId: 0\nStartTime: 0\nEndTime: 1\n%s: k\n", key);
    for (int i = 0; i < n; i++)
        hs_buf_add(&b, "+ y\n");
    hs_buf_add(&b, "\n");
    char *path = hs_test_tmp_text(".rec", hs_buf_str(&b));
    hs_buf_free(&b);
    return path;
}

static void test_taskrec_continuation_cost(void)
{
    /* 32,000 lines: a Name of 64,001 bytes, under HS_NAME_MAX */
    char *joined = rec_file("Name", 32000), *ignored = rec_file("Nope", 32000), spec[1200];
    bool read_joined, read_ignored;
    snprintf(spec, sizeof spec, "taskrec:file=%s", ignored);
    double t_ignored = hs_test_read_seconds(spec, &read_ignored);
    snprintf(spec, sizeof spec, "taskrec:file=%s", joined);
    double t_joined = hs_test_read_seconds(spec, &read_joined);
    CU_ASSERT(read_ignored && read_joined);
    double ratio = t_joined / fmax(t_ignored, 1e-6);
    fprintf(stderr, "  tasks.rec of 32,000 continuation lines: joined %.2f ms, ignored %.2f ms, ratio %.3f\n",
            1e3 * t_joined, 1e3 * t_ignored, ratio);
    CU_ASSERT(ratio < 5);
    free(joined);
    free(ignored);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"StarPU tasks.rec: StarPU's model means", test_taskrec},
        {"bad tasks.rec", test_bad_taskrec},
        {"tasks.rec: descriptors and comments as recutils reads them", test_taskrec_descriptors},
        {"a tasks.rec value of many continuation lines is joined in linear time", test_taskrec_continuation_cost},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("taskrec_read", tests);
}
