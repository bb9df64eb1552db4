/* tests/unit/test_cuda.c — the CUDA validation engine. Without a GPU: the real
 * kernels on a core factor and multiply correctly and the residual catches a
 * wrong result; machine descriptions round-trip and give a platform that
 * SimGrid loads. With a GPU (skipped cleanly otherwise): calibrate, then
 * measured runs under several policies with a small residual. */
#include "sim/cuda/machine.h"
#include "sim/cuda/numeric.h"
#include "sim/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void **host_buffers(const struct hs_dag *dag)
{
    void **host = hs_xcalloc((size_t)dag->nhandles, sizeof(void *));
    for (int h = 0; h < dag->nhandles; h++)
        host[h] = hs_xcalloc(1, (size_t)dag->handles[h].bytes);
    return host;
}

/* Every task in submission order (a valid sequential order) on the core. */
static double run_sequentially(const char *spec, int corrupt_task)
{
    struct hs_dag *dag = hs_workload_build(spec);
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    CU_ASSERT_NOT_EQUAL_FATAL(num.family, HS_FAMILY_NONE);
    void **host = host_buffers(dag);
    hs_numeric_fill(&num, dag, host);
    for (int t = 0; t < dag->ntasks; t++) {
        if (t == corrupt_task)
            continue; /* a schedule that skips a task must not pass */
        void *bufs[8];
        for (int i = 0; i < dag->tasks[t].naccess; i++)
            bufs[i] = host[dag->tasks[t].access[i].handle];
        CU_ASSERT_TRUE(hs_numeric_cpu(&num, dag, t, bufs));
    }
    double r = hs_numeric_residual(&num, dag, host);
    for (int h = 0; h < dag->nhandles; h++)
        free(host[h]);
    free(host);
    hs_numeric_free(&num);
    hs_dag_free(dag);
    return r;
}

static void test_cpu_kernels_and_residual(void)
{
    const char *specs[] = {"cholesky:n=384,nb=64", "cholesky:n=256,nb=64,precision=s",
                           "gemm:n=256,nb=64", "gemm:n=192,nb=64,precision=s",
                           "lu:n=384,nb=64,ib=16", "lu:n=320,nb=64,ib=24,precision=s",
                           "qr:n=384,nb=64,ib=16", "qr:n=320,nb=64,ib=24,precision=s"};
    for (int i = 0; i < 8; i++) {
        double good = run_sequentially(specs[i], -1), bad = run_sequentially(specs[i], 7);
        CU_ASSERT(good < 1);  /* hs_numeric_residual: a right result is well below 1 */
        CU_ASSERT(bad > 5);   /* single precision gives about 10 for one missing task */
    }
    struct hs_dag *dag = hs_workload_build("cholesky:n=64,nb=64");
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    CU_ASSERT_EQUAL(num.nt, 1);
    hs_numeric_free(&num);
    hs_dag_free(dag);
}

static void test_machine_files(void)
{
    struct hs_machine_gpu g = {8e10, 5e13, {2.5e10, 8e-6}, {2.6e10, 9e-6}};
    struct hs_machine m = {.name = "box", .gpu_model = "Test GPU", .cores = 6, .ngpus = 1,
                           .core_speed = 4e10, .gpus = &g};
    char *dir = hs_test_tmp(""), path[1024], args[2048];
    snprintf(path, sizeof path, "%s.machine.json", dir);
    CU_ASSERT_EQUAL_FATAL(hs_machine_save(path, &m), 0);
    struct hs_machine back;
    CU_ASSERT_EQUAL_FATAL(hs_machine_load(path, &back), 0);
    CU_ASSERT_EQUAL(back.cores, 6);
    CU_ASSERT_EQUAL(back.ngpus, 1);
    CU_ASSERT_DOUBLE_EQUAL(back.gpus[0].h2d.bandwidth, 2.5e10, 0);
    CU_ASSERT_DOUBLE_EQUAL(back.gpus[0].d2h.latency, 9e-6, 0);
    double lat, bw;
    CU_ASSERT_TRUE(hs_machine_route(&back, "GPU0", "RAM0", &lat, &bw));
    CU_ASSERT_DOUBLE_EQUAL(bw, 2.6e10, 0);
    CU_ASSERT_FALSE(hs_machine_route(&back, "GPU0", "GPU1", &lat, &bw));
    hs_machine_free(&back);
    snprintf(path, sizeof path, "%s.xml", dir);
    CU_ASSERT_EQUAL_FATAL(hs_machine_write_platform(&m, path), 0);
    if (!getenv("HETSIM_TEST_BIN")) { /* a deployed hetsim-cuda has no SimGrid to load it */
        char *out;
        snprintf(args, sizeof args, "platform %s", path);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "host     -> GPU0       25000.00 MB/s     8.000 us"));
        free(out);
    }
    char *bad = hs_test_tmp(".machine.json");
    hs_test_write_file(bad, "{\"cores\": 4, \"gpus\": [{\"memsize\": 1}]}");
    CU_ASSERT_EQUAL(hs_machine_load(bad, &back), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "needs cores >= 1"));
    free(bad);
    free(dir);
}

/* ---- with a GPU ------------------------------------------------------------- */

static bool have_gpu(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

/* The calibrated timing table has a GPU entry for a kernel iff the engine
 * has a GPU version of it. */
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
            gpu_entries += on_gpu;
            cpu_entries += !on_gpu;
        }
        CU_ASSERT_EQUAL(cpu_entries, 2); /* nb 256 and 512 */
        CU_ASSERT_EQUAL(gpu_entries, k < 8 ? 2 : 0);
    }
    cJSON_Delete(perf);
    free(text);
}

/* A run of W under S on 1 GPU + 3 cores: its record, or NULL (exit code in *rc). */
static cJSON *measured(const char *cal, const char *perf, const char *w, const char *s, int *rc, char **err)
{
    char *rec = hs_test_tmp(".json"), args[8192];
    snprintf(args, sizeof args, "run -q --engine cuda -p %s/t.xml --perf %s -w %s -s %s --gpus 1 --cpus 3 -o %s",
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
    snprintf(args, sizeof args, "calibrate --engine cuda -o t --dir %s --nb 256,512 --reps 3", cal);
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
    cJSON *r = measured(cal, bad, "lu:n=1024,nb=256,ib=64", "dmda", &rc, &err);
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
        {"real kernels on a core, residual catches a missing task", test_cpu_kernels_and_residual},
        {"machine descriptions and their platform", test_machine_files},
        {"calibration and measured runs (GPU only)", test_measured_runs},
        {"measured runs refuse bad input (GPU only)", test_measured_bad_input},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cuda", tests);
}
