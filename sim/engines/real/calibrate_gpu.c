/* sim/engines/real/calibrate_gpu.c — what `hetsim calibrate` measures on GPUs (see
 * calibrate_gpu.h).
 *
 * Links: pinned host<->device copies of 4 KiB to 64 MiB, each timed
 * (median of the repetitions) and fitted as latency + bytes / bandwidth by
 * weighted least squares (GSL, weights 1/t² so that small and large copies
 * count alike in relative terms).
 * Kernels, two ways. As a run issues them (what --timing run, the default,
 * puts in the table): the sample DAG on the real engine's own GPU code
 * (engine_gpu.h: its streams, events and polling), one task at a time, its
 * inputs copied in on the copy stream and seen there first, then the
 * kernel launched on the kernel stream and timed from the launch to the
 * moment this thread, polling the events and yielding between polls as a
 * run's driving thread does, sees it complete: what a task costs a run,
 * GPU clocks between tasks and launch latencies included. Back to back (so
 * that the GPU is at its working clocks) between CUDA events, the
 * restoring of their inputs timed apart and taken off: the kernel alone. */
#include "sim/engines/real/calibrate_gpu.h"
#include "base/util.h"
#include "sim/engines/real/calibrate_run.h"
#include "sim/engines/real/engine_gpu.h"
#include "sim/engines/real/numeric_gpu.h"
#include "sim/engines/real/pin.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
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
    cudaStream_t s; /* back to back: a stream and handles of its own */
    struct hs_gpu_libs libs;
    const struct hs_dag *dag; /* as a run: the sample DAG on the engine's GPU code, */
    struct hs_memnode nodes[2]; /* host memory as node 0, GPU 0 as node 1 */
    struct hs_platform pf;
    struct hs_real_gpus *run;
};

struct hs_cal_gpu *hs_cal_gpu_new(const struct hs_dag *dag, const struct hs_numeric *num, void **host)
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
    g->dag = dag;
    g->nodes[0] = (struct hs_memnode){.id = 0, .kind = HS_NODE_HOST};
    g->nodes[1] = (struct hs_memnode){.id = 1, .kind = HS_NODE_GPU};
    g->pf = (struct hs_platform){.nnodes = 2, .nodes = g->nodes};
    if (hs_real_gpus_check_memory(&g->pf, dag) || !(g->run = hs_real_gpus_new(&g->pf, dag, num, host))) {
        hs_cal_gpu_free(g);
        return NULL;
    }
    return g;
}

void hs_cal_gpu_free(struct hs_cal_gpu *g)
{
    if (!g)
        return;
    hs_real_gpus_free(g->run);
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

/* Operations handed to the engine's GPU code, not yet seen complete, and
 * when the last one was. */
struct seen {
    int left;
    double at;
};

static void seen_one(void *ctx, long id)
{
    struct seen *s = ctx;
    (void)id;
    s->left--;
    s->at = hs_now();
}

/* Poll the GPU's events until every operation of s is seen complete,
 * yielding between polls as a run's driving thread does while GPU work is
 * outstanding: 0, or -1 with hs_fail on a CUDA error. */
static int wait_seen(struct hs_cal_gpu *g, struct seen *s)
{
    bool pending = true;
    while (s->left > 0 && pending) {
        hs_real_gpus_drain(g->run, &pending);
        if (hs_real_gpus_error(g->run))
            return hs_fail("calibrate: %s", hs_real_gpus_error(g->run));
        if (s->left > 0)
            sched_yield();
    }
    return s->left > 0 ? hs_fail("calibrate: a GPU operation was never seen complete") : 0;
}

/* Task `task` of the sample DAG (an empty task: -1) issued as a run issues
 * it: the data it reads copied in from host memory and seen there, then
 * its kernel; from the launch to its completion seen (NAN with hs_fail). */
static double issue(struct hs_cal_gpu *g, int task)
{
    struct seen in = {0, 0}, kernel = {1, 0};
    struct hs_real_cb cb = {seen_one, &in, 0};
    for (int i = 0; task >= 0 && i < g->dag->tasks[task].naccess; i++) {
        const struct hs_access *a = &g->dag->tasks[task].access[i];
        if (!HS_MODE_READS(a->mode))
            continue;
        in.left++;
        hs_real_gpus_transfer(g->run, a->handle, 0, 1, g->dag->handles[a->handle].bytes, cb);
    }
    if (wait_seen(g, &in))
        return NAN;
    cb.ctx = &kernel;
    double t0 = hs_now();
    if (task >= 0)
        hs_real_gpus_exec(g->run, 1, task, 0, cb);
    else
        hs_real_gpus_spin(g->run, 1, 0, cb);
    return wait_seen(g, &kernel) ? NAN : kernel.at - t0;
}

double hs_cal_gpu_time_run(struct hs_cal_gpu *g, int task, int reps)
{
    double t[64];
    int n = reps * 4 > 64 ? 64 : reps * 4;
    if (isnan(issue(g, task))) /* warm-up */
        return NAN;
    for (int r = 0; r < n; r++)
        if (isnan(t[r] = issue(g, task)))
            return NAN;
    return median(t, n);
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
