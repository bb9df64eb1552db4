/* sim/cuda/calibrate.c — measuring a real machine.
 *
 * Links: pinned host<->device copies of 4 KiB to 64 MiB, each timed
 * (median of the repetitions) and fitted as latency + bytes / bandwidth by
 * weighted least squares (GSL, weights 1/t² so that small and large copies
 * count alike in relative terms).
 * Kernels: the Cholesky kernels (potrf, trsm, syrk, gemm) for every tile size,
 * on one core (OpenBLAS/LAPACKE, one thread) and on the GPU (cuBLAS/cuSOLVER),
 * timed from launch to completion as the engine sees them; a POTRF input is
 * restored (untimed) before each repetition.
 * Output: NAME.machine.json (cores, GPUs, links), NAME.xml (a SimGrid
 * platform of the machine), perf/NAME.json (timing table, every entry marked
 * as measured here). */
#include "sim/cuda/calibrate.h"
#include "sim/cuda/machine.h"
#include "sim/cuda/numeric.h"
#include "sim/util.h"

#include <cblas.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double median(double *v, int n)
{
    gsl_sort(v, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(v, 1, (size_t)n);
}

/* ---- links ------------------------------------------------------------------- */

static double time_copy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                        cudaStream_t s, int reps)
{
    double t[64];
    reps = reps > 64 ? 64 : reps;
    cudaMemcpyAsync(dst, src, bytes, kind, s); /* warm-up */
    cudaStreamSynchronize(s);
    for (int r = 0; r < reps; r++) {
        double t0 = wall();
        cudaMemcpyAsync(dst, src, bytes, kind, s);
        cudaStreamSynchronize(s);
        t[r] = wall() - t0;
    }
    return median(t, reps);
}

static int fit_link(void *host, void *dev, enum cudaMemcpyKind kind, cudaStream_t s, int reps,
                    struct hs_link_fit *fit, bool verbose, const char *what)
{
    double x[16], y[16], w[16], c0, c1, cov00, cov01, cov11, chisq;
    int n = 0;
    for (size_t bytes = 4096; bytes <= 64u << 20; bytes *= 4, n++) {
        x[n] = (double)bytes;
        y[n] = kind == cudaMemcpyHostToDevice ? time_copy(dev, host, bytes, kind, s, reps)
                                              : time_copy(host, dev, bytes, kind, s, reps);
        w[n] = 1 / (y[n] * y[n]);
        if (verbose)
            printf("  %s %10zu B  %.3f us\n", what, bytes, y[n] * 1e6);
    }
    gsl_fit_wlinear(x, 1, w, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &chisq);
    if (!(c1 > 0))
        return hs_fail("calibrate: the %s copies do not fit latency + bytes/bandwidth", what);
    fit->latency = c0 > 0 ? c0 : 0;
    fit->bandwidth = 1 / c1;
    return 0;
}

static int measure_links(int device, int reps, struct hs_machine_gpu *g, bool verbose)
{
    size_t max = 64u << 20;
    void *host = NULL, *dev = NULL;
    cudaStream_t s;
    cudaSetDevice(device);
    if (cudaHostAlloc(&host, max, cudaHostAllocPortable) || cudaMalloc(&dev, max) ||
        cudaStreamCreate(&s))
        return hs_fail("calibrate: cannot allocate %zu bytes on GPU %d", max, device);
    memset(host, 1, max);
    int rc = fit_link(host, dev, cudaMemcpyHostToDevice, s, reps, &g->h2d, verbose, "h2d");
    if (!rc)
        rc = fit_link(host, dev, cudaMemcpyDeviceToHost, s, reps, &g->d2h, verbose, "d2h");
    cudaStreamDestroy(s);
    cudaFree(dev);
    cudaFreeHost(host);
    return rc;
}

/* ---- kernels ------------------------------------------------------------------ */

static const char *ops[] = {"potrf", "trsm", "syrk", "gemm"};

static double op_flops(int op, double b)
{
    switch (op) {
    case 0: return b * b * b / 3 + b * b / 2 + b / 6;
    case 1:
    case 2: return b * b * (b + 1);
    default: return 2 * b * b * b;
    }
}

/* A one-task DAG "<p><op>" with the Cholesky access pattern, to reuse the
 * engine's kernels. */
static struct hs_dag *one_task(int op, int nb, bool single)
{
    char spec[96], kernel[16];
    snprintf(spec, sizeof spec, "cholesky:n=%d,nb=%d,precision=%c", 3 * nb, nb, single ? 's' : 'd');
    snprintf(kernel, sizeof kernel, "%c%s", single ? 's' : 'd', ops[op]);
    struct hs_dag *dag = hs_dag_new(spec);
    double bytes = (double)nb * nb * (single ? 4 : 8);
    const char *names[3] = {"A(0,0)", "A(1,0)", "A(1,1)"};
    for (int i = 0; i < 3; i++)
        hs_dag_add_handle(dag, names[i], bytes);
    int t = hs_dag_add_task(dag, kernel, kernel, op_flops(op, nb), nb);
    int acc[4][3] = {{0, -1, -1}, {0, 1, -1}, {1, 2, -1}, {1, 1, 2}};
    for (int i = 0; i < 3 && acc[op][i] >= 0; i++)
        hs_dag_access(dag, t, acc[op][i], i == (op == 3 ? 2 : op == 0 ? 0 : 1) ? HS_MODE_RW : HS_MODE_R);
    hs_dag_finalize(dag);
    return dag;
}

struct kernel_times {
    double cpu, gpu;
};

static struct kernel_times time_kernel(int op, int nb, bool single, int reps, struct hs_gpu_libs *libs,
                                       cudaStream_t s)
{
    struct hs_dag *dag = one_task(op, nb, single);
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    size_t bytes = (size_t)dag->handles[0].bytes;
    void *host[3], *pristine[3], *dev[3];
    for (int i = 0; i < 3; i++) {
        host[i] = hs_xmalloc(bytes);
        pristine[i] = hs_xmalloc(bytes);
        cudaMalloc(&dev[i], bytes);
    }
    hs_numeric_fill(&num, dag, pristine);
    double tc[64], tg[64];
    reps = reps > 64 ? 64 : reps;
    for (int r = 0; r <= reps; r++) { /* r == 0 warms up */
        for (int i = 0; i < 3; i++) {
            memcpy(host[i], pristine[i], bytes);
            cudaMemcpy(dev[i], pristine[i], bytes, cudaMemcpyHostToDevice);
        }
        void *hb[3], *db[3]; /* the task's buffers in access order */
        for (int a = 0; a < dag->tasks[0].naccess; a++) {
            hb[a] = host[dag->tasks[0].access[a].handle];
            db[a] = dev[dag->tasks[0].access[a].handle];
        }
        double t0 = wall();
        hs_numeric_cpu(&num, dag, 0, hb);
        double t1 = wall();
        hs_numeric_gpu(&num, dag, 0, db, libs);
        cudaStreamSynchronize(s);
        double t2 = wall();
        if (r) {
            tc[r - 1] = t1 - t0;
            tg[r - 1] = t2 - t1;
        }
    }
    for (int i = 0; i < 3; i++) {
        free(host[i]);
        free(pristine[i]);
        cudaFree(dev[i]);
    }
    hs_numeric_free(&num);
    hs_dag_free(dag);
    return (struct kernel_times){median(tc, reps), median(tg, reps)};
}

static void add_entry(cJSON *arr, const char *kernel, const char *arch, int nb, double seconds,
                      const char *source)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "kernel", kernel);
    cJSON_AddStringToObject(e, "arch", arch);
    cJSON_AddNumberToObject(e, "nb", nb);
    cJSON_AddNumberToObject(e, "seconds", seconds);
    cJSON_AddStringToObject(e, "source", source);
    cJSON_AddItemToArray(arr, e);
}

static int measure_kernels(const struct hs_calibrate_opts *o, const char *model, cJSON *entries,
                           struct hs_machine *m)
{
    cudaStream_t s;
    cudaSetDevice(0);
    if (cudaStreamCreate(&s))
        return hs_fail("calibrate: cannot create a CUDA stream");
    char source[256];
    snprintf(source, sizeof source, "measured by hetsim calibrate on %s (one core with OpenBLAS; "
             "cuBLAS/cuSOLVER), median of %d runs", model, o->reps);
    for (int prec = 0; prec < (o->single ? 2 : 1); prec++)
        for (int i = 0; i < o->nnb; i++) {
            int nb = o->nbs[i];
            struct hs_gpu_libs libs;
            if (hs_gpu_libs_init(&libs, s, nb, prec == 1))
                return hs_fail("calibrate: cannot create the cuBLAS/cuSOLVER handles");
            for (int op = 0; op < 4; op++) {
                struct kernel_times t = time_kernel(op, nb, prec == 1, o->reps, &libs, s);
                char kernel[16];
                snprintf(kernel, sizeof kernel, "%c%s", prec ? 's' : 'd', ops[op]);
                add_entry(entries, kernel, "cpu", nb, t.cpu, source);
                add_entry(entries, kernel, "gpu", nb, t.gpu, source);
                if (o->verbose)
                    printf("  %-7s nb %5d  cpu %10.3f us  gpu %9.3f us\n", kernel, nb, t.cpu * 1e6,
                           t.gpu * 1e6);
                if (op == 3 && prec == 0 && i == o->nnb - 1) { /* nominal speeds: DGEMM */
                    m->core_speed = op_flops(3, nb) / t.cpu;
                    for (int g = 0; g < m->ngpus; g++)
                        m->gpus[g].speed = op_flops(3, nb) / t.gpu;
                }
            }
            hs_gpu_libs_free(&libs);
        }
    cudaStreamDestroy(s);
    return 0;
}

static int write_perf(const char *path, const char *model, cJSON *entries)
{
    cJSON *root = cJSON_CreateObject();
    char desc[256];
    snprintf(desc, sizeof desc, "Kernel timings measured on %s by hetsim calibrate", model);
    cJSON_AddStringToObject(root, "description", desc);
    cJSON_AddItemToObject(root, "kernels", entries);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    FILE *f = fopen(path, "w");
    int rc = !f || fputs(text, f) < 0 || fputc('\n', f) == EOF;
    if (f)
        rc |= fclose(f) != 0;
    free(text);
    return rc ? hs_fail("cannot write %s", path) : 0;
}

int hs_calibrate(const struct hs_calibrate_opts *o)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
        return hs_fail("calibrate --engine cuda needs a GPU: none is visible here");
    struct cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    struct hs_machine m = {.name = hs_xstrdup(o->name), .gpu_model = hs_xstrdup(prop.name),
                           .ngpus = devices};
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    m.cores = o->cores > 0 ? o->cores : (int)(online > 0 ? online : 1);
    m.gpus = hs_xcalloc((size_t)devices, sizeof *m.gpus);
    int rc = 0;
    for (int g = 0; !rc && g < devices; g++) {
        cudaGetDeviceProperties(&prop, g);
        m.gpus[g].memsize = (double)prop.totalGlobalMem;
        rc = measure_links(g, o->reps, &m.gpus[g], o->verbose);
    }
    cJSON *entries = cJSON_CreateArray();
    if (!rc)
        rc = measure_kernels(o, m.gpu_model, entries, &m);
    char path[4096];
    if (!rc) {
        snprintf(path, sizeof path, "%s/perf", o->dir);
        if (mkdir(path, 0777) && errno != EEXIST)
            rc = hs_fail("cannot create %s: %s", path, strerror(errno));
    }
    if (!rc) {
        snprintf(path, sizeof path, "%s/perf/%s.json", o->dir, o->name);
        rc = write_perf(path, m.gpu_model, entries);
        entries = NULL;
    }
    if (!rc) {
        snprintf(path, sizeof path, "%s/%s.machine.json", o->dir, o->name);
        rc = hs_machine_save(path, &m);
    }
    if (!rc) {
        snprintf(path, sizeof path, "%s/%s.xml", o->dir, o->name);
        rc = hs_machine_write_platform(&m, path);
    }
    cJSON_Delete(entries);
    hs_machine_free(&m);
    return rc;
}
