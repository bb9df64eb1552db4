/* tests/sim/engines/real/test_cuda.c — the real engine's GPUs (built with CUDA; every
 * test skips cleanly without a GPU, and tests/sim/engines/real/test_real.c covers the
 * cores): each GPU kernel against its CPU version on the same inputs, a
 * DGEMM timed as a run issues it against its back-to-back time, calibrate
 * (its GPU entries timed as a run issues them, said in their source), then
 * measured runs on 1 GPU + 3 cores under several policies with a small
 * residual, and bad input on a GPU machine. */
#include "sim/engines/real/calibrate_gpu.h"
#include "sim/engines/real/numeric_gpu.h"
#include "base/util.h"
#include "sim/engines/real/run_real.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- with a GPU ------------------------------------------------------------- */

static bool have_gpu(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

/* The calibrated timing table has a GPU entry for a kernel iff the engine
 * has a GPU version of it, timed as a run issues it (the default timing),
 * which its source says. */
static void check_perf_table(const char *path)
{
    char *text = hs_test_read_file(path);
    cJSON *perf = cJSON_Parse(text);
    const char *gpu[] = {"dpotrf", "dtrsm", "dsyrk", "dgemm", "dgessm", "dssssm", "dormqr", "dtsmqr"};
    const char *cpu_only[] = {"dgetrf", "dtstrf", "dgeqrt", "dtsqrt"};
    for (int k = 0; k < 12; k++) {
        const char *kernel = k < 8 ? gpu[k] : cpu_only[k - 8];
        int cpu_entries = 0, gpu_entries = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(perf, "kernels"))
        {
            if (strcmp(cJSON_GetObjectItem(e, "kernel")->valuestring, kernel) != 0)
                continue;
            CU_ASSERT(cJSON_GetObjectItem(e, "seconds")->valuedouble > 0);
            bool on_gpu = strcmp(cJSON_GetObjectItem(e, "arch")->valuestring, "gpu") == 0;
            if (on_gpu) {
                CU_ASSERT_PTR_NOT_NULL(strstr(cJSON_GetObjectItem(e, "source")->valuestring,
                                              "issued one task at a time as a run issues them (--timing run"));
            }
            gpu_entries += on_gpu;
            cpu_entries += !on_gpu;
        }
        CU_ASSERT_EQUAL(cpu_entries, 2); /* nb 256 and 512 */
        CU_ASSERT_EQUAL(gpu_entries, k < 8 ? 2 : 0);
    }
    cJSON_Delete(perf);
    free(text);
}

/* Task t's real kernel on a core, on the buffers in host. */
static bool cpu_task(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **host)
{
    void *bufs[HS_NUMERIC_MAX_BUFS];
    return hs_numeric_task_bufs(dag, t, host, bufs) && hs_numeric_cpu(num, dag, t, bufs);
}

/* Task t of `dag` on the GPU, on copies of its inputs in `host`: the
 * largest difference between what it wrote and what the CPU version then
 * writes in `host`, relative to the largest magnitude written (the CPU's
 * result stays in `host`, so the next task starts from the same state). */
static double gpu_against_cpu(const struct hs_numeric *num, const struct hs_dag *dag, int t, void **host,
                              struct hs_gpu_libs *libs, cudaStream_t stream)
{
    const struct hs_task *task = &dag->tasks[t];
    void *dev[HS_NUMERIC_MAX_BUFS], *back[HS_NUMERIC_MAX_BUFS];
    CU_ASSERT_FATAL(task->naccess <= HS_NUMERIC_MAX_BUFS);
    for (int i = 0; i < task->naccess; i++) {
        size_t bytes = (size_t)dag->handles[task->access[i].handle].bytes;
        back[i] = hs_xcalloc(1, bytes);
        CU_ASSERT_FATAL(cudaMalloc(&dev[i], bytes) == cudaSuccess);
        cudaMemcpy(dev[i], host[task->access[i].handle], bytes, cudaMemcpyHostToDevice);
    }
    CU_ASSERT_FATAL(hs_numeric_gpu(num, dag, t, dev, libs));
    CU_ASSERT_FATAL(cudaStreamSynchronize(stream) == cudaSuccess);
    for (int i = 0; i < task->naccess; i++)
        cudaMemcpy(back[i], dev[i], (size_t)dag->handles[task->access[i].handle].bytes, cudaMemcpyDeviceToHost);
    CU_ASSERT_FATAL(cpu_task(num, dag, t, host));
    double diff = 0, scale = 0;
    for (int i = 0; i < task->naccess; i++) {
        int h = task->access[i].handle;
        if (HS_MODE_WRITES(task->access[i].mode) && num->kind[h] != HS_TILE_IPIV) {
            long n = (long)(dag->handles[h].bytes / (num->single ? sizeof(float) : sizeof(double)));
            for (long e = 0; e < n; e++) {
                double g = num->single ? ((float *)back[i])[e] : ((double *)back[i])[e];
                double c = num->single ? ((float *)host[h])[e] : ((double *)host[h])[e];
                diff = fmax(diff, isnan(g) ? INFINITY : fabs(g - c));
                scale = fmax(scale, fabs(c));
            }
        }
        cudaFree(dev[i]);
        free(back[i]);
    }
    return diff / (scale > 0 ? scale : 1);
}

/* Every GPU kernel of Cholesky, GEMM, LU and QR gives what its CPU version
 * gives on the same inputs (the factorisation's own, task after task):
 * a wrong GPU kernel is named here, before any measured run. */
static void test_gpu_kernels(void)
{
    if (!have_gpu()) {
        printf("(no GPU here: skipped) ");
        return;
    }
    const char *workloads[] = {"cholesky:n=768,nb=256", "gemm:n=512,nb=256", "lu:n=768,nb=256,ib=64",
                               "qr:n=768,nb=256,ib=64"};
    for (int w = 0; w < 4; w++) {
        struct hs_dag *dag = hs_workload_build(workloads[w]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
        struct hs_numeric num;
        hs_numeric_init(&num, dag);
        void **host = hs_real_host_alloc(dag, false);
        CU_ASSERT_PTR_NOT_NULL_FATAL(host);
        hs_numeric_fill(&num, dag, host);
        cudaStream_t stream;
        struct hs_gpu_libs libs;
        CU_ASSERT_FATAL(cudaStreamCreate(&stream) == cudaSuccess);
        CU_ASSERT_FATAL(hs_gpu_libs_init(&libs, stream, &num) == 0);
        for (int t = 0; t < dag->ntasks; t++) { /* tasks are in the algorithm's order */
            if (!hs_numeric_has_gpu_kernel(&num, dag, t)) {
                CU_ASSERT_FATAL(cpu_task(&num, dag, t, host));
                continue;
            }
            double err = gpu_against_cpu(&num, dag, t, host, &libs, stream);
            if (err > 1e-9)
                printf("[%s %s: GPU differs by %.3g] ", workloads[w], dag->tasks[t].label, err);
            CU_ASSERT(err <= 1e-9); /* rounding differs (cuBLAS), a wrong kernel by O(1) */
        }
        hs_gpu_libs_free(&libs);
        cudaStreamDestroy(stream);
        hs_real_host_free(dag, host, false);
        hs_numeric_free(&num);
        hs_dag_free(dag);
    }
}

/* A DGEMM at nb 1024 issued as a run issues it (its inputs copied in, then
 * the kernel through the engine's streams and events), from its launch to
 * its completion seen: at least its back-to-back time, since launching and
 * noticing come on top, and not 10 times more (plus 1 ms for a slow
 * poll); an empty task through the same path takes less. */
static void test_run_like_timing(void)
{
    if (!have_gpu()) {
        printf("(no GPU here: skipped) ");
        return;
    }
    struct hs_dag *dag = hs_workload_build("gemm:n=2048,nb=1024");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL_FATAL(dag->kernels[dag->tasks[0].kernel], "dgemm");
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    void **host = hs_real_host_alloc(dag, true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(host);
    hs_numeric_fill(&num, dag, host);
    struct hs_cal_gpu *g = hs_cal_gpu_new(dag, &num, host);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    const struct hs_task *task = &dag->tasks[0];
    struct hs_cal_sample sm = {.dag = dag, .num = &num, .task = 0, .n = task->naccess};
    for (int i = 0; i < sm.n; i++) {
        sm.bytes[i] = (size_t)dag->handles[task->access[i].handle].bytes;
        sm.input[i] = host[task->access[i].handle];
    }
    double b2b = hs_cal_gpu_time(g, &sm, 3);
    double run = hs_cal_gpu_time_run(g, 0, 3);
    double empty = hs_cal_gpu_time_run(g, -1, 3);
    printf("[dgemm nb 1024: back to back %.1f us, as a run issues it %.1f us, empty task %.1f us] ", b2b * 1e6,
           run * 1e6, empty * 1e6);
    CU_ASSERT(b2b > 0);
    CU_ASSERT(run >= b2b);
    CU_ASSERT(run <= 10 * b2b + 1e-3);
    CU_ASSERT(empty > 0);
    CU_ASSERT(empty < run);
    hs_cal_gpu_free(g);
    hs_real_host_free(dag, host, true);
    hs_numeric_free(&num);
    hs_dag_free(dag);
}

/* A run of W under S on 1 GPU + 3 cores: its record, or NULL (exit code in *rc). */
static cJSON *measured(const char *cal, const char *perf, const char *w, const char *s, int *rc, char **err)
{
    char *rec = hs_test_tmp(".json"), args[8192];
    snprintf(args, sizeof args, "run -q --engine real -p %s/t.xml --perf %s -w %s -s %s --gpus 1 --cpus 3 -o %s",
             cal, perf, w, s, rec);
    *rc = hs_test_cli(args, NULL, err);
    char *text = *rc == 0 ? hs_test_read_file(rec) : NULL;
    cJSON *r = text ? cJSON_Parse(text) : NULL;
    free(text);
    free(rec);
    return r;
}

static void test_measured_runs(void)
{
    if (!have_gpu()) {
        printf("(no GPU here: calibration and measured runs skipped) ");
        return;
    }
    char *dir = hs_test_tmp(""), args[8192], cal[1024], perf[1100];
    snprintf(cal, sizeof cal, "%.*s", (int)(strrchr(dir, '/') - dir), dir);
    snprintf(perf, sizeof perf, "%s/perf/t.json", cal);
    snprintf(args, sizeof args, "calibrate -o t --dir %s --nb 256,512 --reps 3", cal);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    check_perf_table(perf);
    /* task counts: NT = 8 tiles; Cholesky 8 + 28 + 28 + 56, LU and QR 8 + 28 + 28 + 140 */
    const char *workloads[] = {"cholesky:n=2048,nb=256", "lu:n=2048,nb=256,ib=64", "qr:n=2048,nb=256,ib=64"};
    const int tasks[] = {120, 204, 204};
    const char *policies[] = {"dmda", "eager", "heft"};
    for (int w = 0; w < 3; w++)
        for (int i = 0; i < 3; i++) {
            int rc;
            cJSON *r = measured(cal, perf, workloads[w], policies[i], &rc, NULL);
            CU_ASSERT_EQUAL(rc, 0);
            CU_ASSERT_PTR_NOT_NULL_FATAL(r);
            const cJSON *res = cJSON_GetObjectItem(r, "results");
            printf("[%s %s: residual %.3g] ", workloads[w], policies[i],
                   cJSON_GetObjectItem(res, "residual")->valuedouble);
            CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(r, "measured")));
            CU_ASSERT(cJSON_GetObjectItem(res, "residual")->valuedouble < 1);
            CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(res, "residual_ok")));
            CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "tasks")->valueint, tasks[w]);
            cJSON_Delete(r);
        }
    free(dir);
}

/* Bad input on a GPU machine: a kernel the engine has only for cores given a
 * GPU time, data larger than the GPU. */
static void test_measured_bad_input(void)
{
    if (!have_gpu()) {
        printf("(no GPU here: skipped) ");
        return;
    }
    char *dir = hs_test_tmp(""), args[8192], cal[1024], perf[1100], *err = NULL;
    snprintf(cal, sizeof cal, "%.*s", (int)(strrchr(dir, '/') - dir), dir);
    snprintf(perf, sizeof perf, "%s/perf/t.json", cal);
    snprintf(args, sizeof args, "calibrate --engine cuda -o t --dir %s --nb 256 --reps 2 --workloads cholesky,lu", cal);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    char *text = hs_test_read_file(perf);
    cJSON *table = cJSON_Parse(text);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "kernel", "dtstrf");
    cJSON_AddStringToObject(e, "arch", "gpu");
    cJSON_AddNumberToObject(e, "nb", 256);
    cJSON_AddNumberToObject(e, "seconds", 1e-5);
    cJSON_AddStringToObject(e, "source", "a GPU version the engine does not have");
    cJSON_AddItemToArray(cJSON_GetObjectItem(table, "kernels"), e);
    char *bad = hs_test_tmp(".json"), *out = cJSON_Print(table);
    hs_test_write_file(bad, out);
    int rc;
    /* gpu_tstrf=1 lets TSTRF go to a GPU (by default the workload keeps it on
     * cores, and a GPU time in the table is then never used: on the H100 of
     * 2026-11-27 that run went through) */
    cJSON *r = measured(cal, bad, "lu:n=1024,nb=256,ib=64,gpu_tstrf=1", "dmda", &rc, &err);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT(err && strstr(err, "no GPU version of dtstrf"));
    free(err);
    r = measured(cal, perf, "cholesky:n=262144,nb=4096", "dmda", &rc, &err);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT(err && strstr(err, "GiB free; the data of"));
    free(err);
    free(out), free(bad), free(text), free(dir);
    cJSON_Delete(table);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"each GPU kernel gives its CPU version's result (GPU only)", test_gpu_kernels},
        {"a DGEMM timed as a run issues it, against back to back (GPU only)", test_run_like_timing},
        {"calibration and measured runs (GPU only)", test_measured_runs},
        {"measured runs refuse bad input (GPU only)", test_measured_bad_input},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cuda", tests);
}
