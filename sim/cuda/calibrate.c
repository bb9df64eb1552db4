/* sim/cuda/calibrate.c — measuring a real machine.
 *
 * Links: pinned host<->device copies of 4 KiB to 64 MiB, each timed
 * (median of the repetitions) and fitted as latency + bytes / bandwidth by
 * weighted least squares (GSL, weights 1/t² so that small and large copies
 * count alike in relative terms).
 * Kernels: every kernel of the sample DAGs the caller gives (small tiled
 * Cholesky, LU and QR for each tile size), on the inputs a run would give
 * them. On the GPU (kernels that have a GPU version) they run back to back
 * (so that the GPU is at its working clocks) between CUDA events, the
 * restoring of their inputs timed apart and taken off, and what a real run
 * adds to each task added: measured by running 2,000 zero-length GPU tasks
 * through the runtime and the engine (noticing a completion, the runtime's
 * and policy's work, launching the next kernel). On the cores they run on
 * --cpu-threads pinned cores at once, as in a run where several workers
 * compute. A kernel with no GPU version gets no gpu entry: the simulation
 * then never puts it on a GPU.
 * Output: NAME.machine.json (cores, GPUs, links), NAME.xml (a SimGrid
 * platform of the machine), perf/NAME.json (timing table, every entry marked
 * as measured here). */
#include "sim/cuda/calibrate.h"
#include "sim/cuda/pin.h"
#include "sim/cuda/machine.h"
#include "sim/cuda/numeric.h"
#include "sim/cuda/run_cuda.h"
#include "sim/util.h"


#include <cblas.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <lapacke.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* One kernel's real inputs, in its access order: a sample DAG's data just
 * before the first task of that kernel ran, the DAG run in submission order
 * on a core (so that pivots, reflectors and factors are the ones a run
 * feeds the kernel). */
struct sample {
    const struct hs_dag *dag;
    const struct hs_numeric *num;
    int task, n;
    size_t bytes[16];
    void *input[16];
};

static void sample_take(struct sample *sm, const struct hs_dag *dag, const struct hs_numeric *num, int t,
                        void **host)
{
    const struct hs_task *task = &dag->tasks[t];
    *sm = (struct sample){.dag = dag, .num = num, .task = t, .n = task->naccess};
    for (int i = 0; i < sm->n; i++) {
        sm->bytes[i] = (size_t)dag->handles[task->access[i].handle].bytes;
        sm->input[i] = hs_xmalloc(sm->bytes[i]);
        memcpy(sm->input[i], host[task->access[i].handle], sm->bytes[i]);
    }
}

static void sample_free(struct sample *sm)
{
    for (int i = 0; i < sm->n; i++)
        free(sm->input[i]);
}

/* reps × (restore the inputs, kernel when `run`), timed with CUDA events. */
static double gpu_batch(const struct sample *sm, void **pristine, void **dev, struct hs_gpu_libs *libs,
                        cudaStream_t s, int reps, bool run)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, s);
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < sm->n; i++)
            cudaMemcpyAsync(dev[i], pristine[i], sm->bytes[i], cudaMemcpyDeviceToDevice, s);
        if (run)
            hs_numeric_gpu(sm->num, sm->dag, sm->task, dev, libs);
    }
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms * 1e-3;
}

/* Steady-state kernel time: back-to-back runs (the GPU at working clocks),
 * minus the time of restoring the inputs between them. */
static double time_gpu_kernel(const struct sample *sm, int reps, struct hs_gpu_libs *libs, cudaStream_t s)
{
    void *pristine[16], *dev[16];
    for (int i = 0; i < sm->n; i++) {
        cudaMalloc(&pristine[i], sm->bytes[i]);
        cudaMalloc(&dev[i], sm->bytes[i]);
        cudaMemcpy(pristine[i], sm->input[i], sm->bytes[i], cudaMemcpyHostToDevice);
    }
    gpu_batch(sm, pristine, dev, libs, s, 3, true); /* warm-up */
    int n = reps * 4;
    double with = gpu_batch(sm, pristine, dev, libs, s, n, true);
    double without = gpu_batch(sm, pristine, dev, libs, s, n, false);
    for (int i = 0; i < sm->n; i++) {
        cudaFree(pristine[i]);
        cudaFree(dev[i]);
    }
    return (with - without) / n;
}

struct cpu_job {
    const struct sample *sm;
    int reps;
    double median;
};

static void *cpu_thread_main(void *arg)
{
    struct cpu_job *job = arg;
    const struct sample *sm = job->sm;
    void *bufs[16];
    double t[64];
    for (int i = 0; i < sm->n; i++)
        bufs[i] = hs_xmalloc(sm->bytes[i]);
    for (int r = 0; r <= job->reps; r++) { /* r == 0 warms up */
        for (int i = 0; i < sm->n; i++)
            memcpy(bufs[i], sm->input[i], sm->bytes[i]);
        double t0 = hs_now();
        hs_numeric_cpu(sm->num, sm->dag, sm->task, bufs);
        if (r)
            t[r - 1] = hs_now() - t0;
    }
    for (int i = 0; i < sm->n; i++)
        free(bufs[i]);
    job->median = median(t, job->reps);
    return NULL;
}

/* The kernel on `threads` cores at once, each thread pinned to a core of its
 * own after the first (as the CUDA engine pins its CPU workers; a core is
 * slower when its neighbours work, as they do in a run): the mean of the
 * per-thread medians. */
static double time_cpu_kernel(const struct sample *sm, int reps, int threads)
{
    struct cpu_job jobs[64];
    pthread_t th[64];
    struct hs_cores *cores = hs_cores_get();
    threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
    for (int i = 0; i < threads; i++) {
        jobs[i] = (struct cpu_job){sm, reps > 64 ? 64 : reps, 0};
        pthread_create(&th[i], NULL, cpu_thread_main, &jobs[i]);
        hs_cores_pin(cores, th[i], i + 1);
    }
    double sum = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(th[i], NULL);
        sum += jobs[i].median;
    }
    hs_cores_free(cores);
    return sum / threads;
}

/* ---- what the engine and the runtime add to every GPU task ---------------- */

/* A FIFO policy for the measurement (the policies library is not linked here). */
static struct hs_task *fifo[4096];
static int fifo_head, fifo_len;

static void fifo_push(struct hs_sched *s, struct hs_task *t)
{
    (void)s;
    fifo[(fifo_head + fifo_len++) % 4096] = t;
}

static struct hs_task *fifo_pop(struct hs_sched *s, int w)
{
    (void)s, (void)w;
    if (!fifo_len)
        return NULL;
    fifo_len--;
    struct hs_task *t = fifo[fifo_head];
    fifo_head = (fifo_head + 1) % 4096;
    return t;
}

static const struct hs_policy fifo_policy = {.name = "calibration-fifo", .push = fifo_push, .pop = fifo_pop};

/* Run n independent zero-length GPU tasks through the runtime and the CUDA
 * engine (window 2: the next task is ready when one ends, as in a run): the
 * time per task is what a real run adds to each kernel — noticing the
 * completion, the runtime's and policy's work, launching the next one. */
static int gpu_task_overhead(const char *platform_file, double *overhead)
{
    enum { N = 2000 };
    struct hs_dag *dag = hs_dag_new("calibration:overhead");
    for (int i = 0; i < N; i++) {
        int t = hs_dag_add_task(dag, "null", NULL, 0, 0);
        dag->tasks[t].arch_cost[HS_ARCH_GPU] = 0;
        dag->tasks[t].arch_mask = HS_ARCH_BIT(HS_ARCH_GPU);
    }
    hs_dag_finalize(dag);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = platform_file;
    cfg.platform_name = "calibration";
    cfg.select.gpus = 1;
    cfg.select.cpus = 0;
    struct hs_run run;
    fifo_head = fifo_len = 0;
    struct hs_spec none = {0};
    int rc = hs_run_cuda(&cfg, dag, &fifo_policy, &none, &run);
    if (rc == 0)
        *overhead = run.rt->makespan / N;
    else
        hs_fail("calibrate: the overhead run failed: %s", run.rt && run.rt->error ? run.rt->error : hs_last_error());
    hs_run_free(&run);
    hs_dag_free(dag);
    return rc ? -1 : 0;
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

/* Has (kernel, nb) been timed already? Cholesky and GEMM share dgemm. */
static bool timed(const cJSON *entries, const char *kernel, int nb)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, entries)
    {
        if (strcmp(cJSON_GetObjectItem(e, "kernel")->valuestring, kernel) == 0 &&
            cJSON_GetObjectItem(e, "nb")->valueint == nb)
            return true;
    }
    return false;
}

/* Time every kernel of one sample DAG (its first task of each kernel). */
static int measure_dag(const struct hs_calibrate_opts *o, const struct hs_dag *dag, double overhead,
                       const char *source, cudaStream_t s, cJSON *entries, struct hs_machine *m)
{
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    if (num.family == HS_FAMILY_NONE)
        return hs_fail("calibrate: %s has no real kernels", dag->name);
    struct hs_gpu_libs libs;
    if (hs_gpu_libs_init(&libs, s, &num)) {
        hs_numeric_free(&num);
        return hs_fail("calibrate: cannot create the cuBLAS/cuSOLVER handles");
    }
    void **host = hs_xcalloc((size_t)dag->nhandles, sizeof(void *));
    for (int h = 0; h < dag->nhandles; h++)
        host[h] = hs_xcalloc(1, (size_t)dag->handles[h].bytes + 1);
    hs_numeric_fill(&num, dag, host);
    for (int t = 0; t < dag->ntasks; t++) {
        const struct hs_task *task = &dag->tasks[t];
        const char *kernel = dag->kernels[task->kernel];
        void *bufs[16];
        for (int i = 0; i < task->naccess && i < 16; i++)
            bufs[i] = host[task->access[i].handle];
        if (task->naccess <= 16 && hs_numeric_has_cpu_kernel(&num, dag, t) && !timed(entries, kernel, num.nb)) {
            struct sample sm;
            sample_take(&sm, dag, &num, t, host);
            double cpu = time_cpu_kernel(&sm, o->reps, o->cpu_threads), gpu = NAN;
            add_entry(entries, kernel, "cpu", num.nb, cpu, source);
            if (hs_numeric_has_gpu_kernel(&num, dag, t)) {
                gpu = time_gpu_kernel(&sm, o->reps, &libs, s) + overhead;
                add_entry(entries, kernel, "gpu", num.nb, gpu, source);
            }
            sample_free(&sm);
            if (o->verbose)
                printf("  %-7s nb %5d  cpu %12.3f us  gpu %9.3f us\n", kernel, num.nb, cpu * 1e6, gpu * 1e6);
            if (strcmp(kernel, "dgemm") == 0) { /* nominal speeds: DGEMM at the largest tile */
                m->core_speed = task->flops / cpu;
                for (int g = 0; g < m->ngpus; g++)
                    m->gpus[g].speed = task->flops / gpu;
            }
        }
        if (task->naccess <= 16)
            hs_numeric_cpu(&num, dag, t, bufs); /* on to the next kernel's inputs */
    }
    for (int h = 0; h < dag->nhandles; h++)
        free(host[h]);
    free(host);
    hs_gpu_libs_free(&libs);
    hs_numeric_free(&num);
    return 0;
}

static int measure_kernels(const struct hs_calibrate_opts *o, const char *model, double overhead,
                           cJSON *entries, struct hs_machine *m)
{
    cudaStream_t s;
    cudaSetDevice(0);
    if (cudaStreamCreate(&s))
        return hs_fail("calibrate: cannot create a CUDA stream");
    char source[384];
    snprintf(source, sizeof source, "measured by hetsim calibrate on %s: cuBLAS/cuSOLVER back to "
             "back (CUDA events) plus %.1f us of engine and runtime overhead per task; "
             "OpenBLAS/LAPACKE with %d cores busy; medians of %d runs", model, overhead * 1e6,
             o->cpu_threads, o->reps);
    int rc = 0;
    for (int i = 0; !rc && i < o->nsamples; i++) /* sorted by tile size: dgemm's largest comes last */
        rc = measure_dag(o, o->samples[i], overhead, source, s, entries, m);
    cudaStreamDestroy(s);
    return rc;
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
    m.core_speed = 1e9; /* placeholders until the kernels are timed */
    m.gpus = hs_xcalloc((size_t)devices, sizeof *m.gpus);
    int rc = 0;
    for (int g = 0; !rc && g < devices; g++) {
        cudaGetDeviceProperties(&prop, g);
        m.gpus[g].memsize = (double)prop.totalGlobalMem;
        m.gpus[g].speed = 1e12;
        rc = measure_links(g, o->reps, &m.gpus[g], o->verbose);
    }
    char path[4096], xml[4096];
    snprintf(xml, sizeof xml, "%s/%s.xml", o->dir, o->name);
    snprintf(path, sizeof path, "%s/%s.machine.json", o->dir, o->name);
    if (!rc) /* the overhead run needs the machine description */
        rc = hs_machine_save(path, &m) || hs_machine_write_platform(&m, xml);
    double overhead = 0;
    if (!rc)
        rc = gpu_task_overhead(xml, &overhead);
    if (!rc && o->verbose)
        printf("  engine and runtime overhead per GPU task: %.3f us\n", overhead * 1e6);
    cJSON *entries = cJSON_CreateArray();
    if (!rc)
        rc = measure_kernels(o, m.gpu_model, overhead, entries, &m);
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
    if (!rc) { /* again, with the speeds the kernels gave */
        snprintf(path, sizeof path, "%s/%s.machine.json", o->dir, o->name);
        rc = hs_machine_save(path, &m) || hs_machine_write_platform(&m, xml);
    }
    cJSON_Delete(entries);
    hs_machine_free(&m);
    return rc;
}
