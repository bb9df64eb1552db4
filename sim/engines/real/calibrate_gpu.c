/* sim/engines/real/calibrate_gpu.c — what `hetsim calibrate` measures on GPUs (see
 * calibrate_gpu.h).
 *
 * Links: pinned host<->device copies of 4 KiB to 64 MiB, each timed
 * (median of the repetitions) and fitted as latency + bytes / bandwidth by
 * weighted least squares (GSL, weights 1/t² so that small and large copies
 * count alike in relative terms).
 * Kernels: back to back (so that the GPU is at its working clocks) between
 * CUDA events, the restoring of their inputs timed apart and taken off. */
#include "sim/engines/real/calibrate_gpu.h"
#include "base/util.h"
#include "sim/engines/real/calibrate_run.h"
#include "sim/engines/real/numeric_gpu.h"
#include "sim/engines/real/pin.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double median(double *v, int n)
{
    gsl_sort(v, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(v, 1, (size_t)n);
}

int hs_cal_gpus_visible(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

char *hs_cal_gpu_model(int device, double *memsize)
{
    struct cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    *memsize = (double)prop.totalGlobalMem;
    return hs_xstrdup(prop.name);
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
        double t0 = hs_now();
        cudaMemcpyAsync(dst, src, bytes, kind, s);
        cudaStreamSynchronize(s);
        t[r] = hs_now() - t0;
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

int hs_cal_links(int device, int reps, struct hs_machine_gpu *g, bool verbose)
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

struct hs_cal_gpu {
    cudaStream_t s;
    struct hs_gpu_libs libs;
};

struct hs_cal_gpu *hs_cal_gpu_new(const struct hs_numeric *num)
{
    struct hs_cal_gpu *g = hs_xcalloc(1, sizeof *g);
    cudaSetDevice(0);
    if (cudaStreamCreate(&g->s)) {
        free(g);
        hs_fail("calibrate: cannot create a CUDA stream");
        return NULL;
    }
    if (hs_gpu_libs_init(&g->libs, g->s, num)) {
        cudaStreamDestroy(g->s);
        free(g);
        hs_fail("calibrate: cannot create the cuBLAS/cuSOLVER handles");
        return NULL;
    }
    return g;
}

void hs_cal_gpu_free(struct hs_cal_gpu *g)
{
    if (!g)
        return;
    hs_gpu_libs_free(&g->libs);
    cudaStreamDestroy(g->s);
    free(g);
}

/* reps × (restore the inputs, kernel when `run`), timed with CUDA events. */
static double batch(struct hs_cal_gpu *g, const struct hs_cal_sample *sm, void **pristine, void **dev,
                    int reps, bool run)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, g->s);
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < sm->n; i++)
            cudaMemcpyAsync(dev[i], pristine[i], sm->bytes[i], cudaMemcpyDeviceToDevice, g->s);
        if (run)
            hs_numeric_gpu(sm->num, sm->dag, sm->task, dev, &g->libs);
    }
    cudaEventRecord(b, g->s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms * 1e-3;
}

double hs_cal_gpu_time(struct hs_cal_gpu *g, const struct hs_cal_sample *sm, int reps)
{
    void *pristine[HS_NUMERIC_MAX_BUFS], *dev[HS_NUMERIC_MAX_BUFS];
    for (int i = 0; i < sm->n; i++) {
        cudaMalloc(&pristine[i], sm->bytes[i]);
        cudaMalloc(&dev[i], sm->bytes[i]);
        cudaMemcpy(pristine[i], sm->input[i], sm->bytes[i], cudaMemcpyHostToDevice);
    }
    batch(g, sm, pristine, dev, 3, true); /* warm-up */
    int n = reps * 4;
    double with = batch(g, sm, pristine, dev, n, true);
    double without = batch(g, sm, pristine, dev, n, false);
    for (int i = 0; i < sm->n; i++) {
        cudaFree(pristine[i]);
        cudaFree(dev[i]);
    }
    return (with - without) / n;
}

/* ---- copies streaming beside kernels -------------------------------------------- */

struct hs_cal_copies {
    pthread_t th;
    atomic_bool stop;
    long copies; /* done; -1: could not be set up */
};

static void *stream_copies(void *arg)
{
    struct hs_cal_copies *st = arg;
    size_t bytes = 64u << 20;
    void *h_in = NULL, *h_out = NULL, *d_in = NULL, *d_out = NULL;
    cudaStream_t in, out;
    cudaSetDevice(0);
    if (cudaHostAlloc(&h_in, bytes, cudaHostAllocPortable) || cudaHostAlloc(&h_out, bytes, cudaHostAllocPortable) ||
        cudaMalloc(&d_in, bytes) || cudaMalloc(&d_out, bytes) || cudaStreamCreate(&in) ||
        cudaStreamCreate(&out)) {
        st->copies = -1;
        return NULL;
    }
    memset(h_in, 1, bytes);
    while (!atomic_load(&st->stop)) {
        cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, in);
        cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, out);
        cudaStreamSynchronize(in);
        cudaStreamSynchronize(out);
        st->copies += 2;
    }
    cudaStreamDestroy(in);
    cudaStreamDestroy(out);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return NULL;
}

struct hs_cal_copies *hs_cal_copies_start(void)
{
    struct hs_cal_copies *st = hs_xcalloc(1, sizeof *st);
    atomic_init(&st->stop, false);
    if (pthread_create(&st->th, NULL, stream_copies, st)) {
        free(st);
        return NULL;
    }
    struct hs_cores *cores = hs_cores_get();
    hs_cores_pin(cores, st->th, 0); /* the runtime's core, which drives the GPUs in a run */
    hs_cores_free(cores);
    return st;
}

long hs_cal_copies_stop(struct hs_cal_copies *st)
{
    if (!st)
        return -1;
    atomic_store(&st->stop, true);
    pthread_join(st->th, NULL);
    long n = st->copies;
    free(st);
    return n;
}

double *hs_cal_in_run_copying(const struct hs_dag *dag, const struct hs_numeric *num, int threads)
{
    struct hs_cal_copies *st = hs_cal_copies_start();
    if (!st)
        return NULL;
    double *med = hs_calibrate_in_run(dag, num, threads);
    if (hs_cal_copies_stop(st) <= 0) { /* the copies could not be set up, or none ran: no such point */
        free(med);
        return NULL;
    }
    return med;
}
