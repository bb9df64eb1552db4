/* sim/engines/real/calibrate.c — measuring a real machine.
 *
 * Kernels: every kernel of the sample DAGs the caller gives (small tiled
 * Cholesky, LU and QR for each tile size), on the inputs a run would give
 * them. On the cores they run on --cpu-threads pinned cores at once, as in
 * a run where several workers compute (a core is slower when its neighbours
 * work), timed in each thread's CPU time (what the kernel takes of its
 * core, however loaded the machine): by default inside a run of the sample
 * DAG on each of those cores (calibrate_run.c: a kernel then finds some of
 * its tiles cached, as in a real run), or alone on freshly restored inputs,
 * evicted from the caches first (--timing cold) or left in them (warm), the
 * median of --reps kept. On a GPU
 * (kernels that have a GPU version, when GPUs are calibrated) they are
 * issued as a run issues them by default (--timing run: one task at a time
 * through the real engine's streams and events, from the launch to the
 * completion seen, less an empty task's, which the per-task overhead below
 * holds), else back to back (calibrate_gpu.c; a GPU kernel inside a run
 * took 8-17% longer than back to back on an H200 node, 2026-11-27). A
 * kernel with no GPU version gets no gpu entry: the simulation then never
 * puts it on a GPU.
 * What a real run adds to each task — noticing a completion, the runtime's
 * and the policy's work, handing the next task to its worker — is measured
 * by running tasks of a known length through the runtime and the real
 * engine on one worker of each architecture (what they took beyond their
 * length, per task: see overhead_run), and added
 * to every entry of that architecture: the task times a measured run
 * records hold it too. The platform file therefore states
 * no runtime costs of its own (its comment says so).
 * Co-running: a core's kernel slows as its neighbours work (they share the
 * caches, the memory bandwidth and the clock's turbo budget), so the CPU
 * kernels are timed again, the same way, with each other number of cores
 * busy that --corun lists (by default 1 beside --cpu-threads), and, with
 * GPUs, with --cpu-threads cores busy while GPU 0's copies stream both ways
 * (calibrate_gpu.c); a GPU kernel is timed again while GPU 0's copies
 * stream: the table's "corun" list, which the simulation executes for the
 * number of workers busy and the copies in flight when a task starts
 * (platforms/perfmodel.h).
 * Links (GPUs only): see calibrate_gpu.c.
 * Output: NAME.machine.json (cores, GPUs, links, overheads), NAME.xml (a
 * SimGrid platform of the machine), perf/NAME.json (timing table, every
 * entry marked as measured here). */
#include "sim/engines/real/calibrate.h"
#include "sim/engines/real/blas_core.h"
#include "sim/engines/real/blas_threads.h"
#include "sim/engines/real/calibrate_gpu.h"
#include "sim/engines/real/calibrate_run.h"
#ifdef HETSIM_HAVE_CUDA
#include "sim/engines/real/engine_gpu.h"
#endif
#include "sim/engines/real/machine.h"
#include "base/util.h"
#include "sim/engines/real/numeric.h"
#include "sim/engines/real/pin.h"
#include "sim/engines/real/run_real.h"
#include "sim/outfile.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
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

int hs_calibrate_gpus_visible(void)
{
#ifdef HETSIM_HAVE_CUDA
    return hs_cal_gpus_visible();
#else
    return 0;
#endif
}

/* What a calibration builds up. */
struct calib {
    const struct hs_calibrate_opts *o;
    struct hs_machine m;
    int cpu_threads;
    char model[256];  /* the processors measured, for the sources */
    char source[1024]; /* of every entry */
    char cpu_source[1536]; /* of the CPU entries of the sample DAG being timed */
    cJSON *entries;
    cJSON *corun;     /* the co-running curve's entries */
};

/* ---- samples ----------------------------------------------------------------- */

static void sample_take(struct hs_cal_sample *sm, const struct hs_dag *dag, const struct hs_numeric *num,
                        int t, void **host)
{
    const struct hs_task *task = &dag->tasks[t];
    *sm = (struct hs_cal_sample){.dag = dag, .num = num, .task = t, .n = task->naccess};
    for (int i = 0; i < sm->n; i++) {
        sm->bytes[i] = (size_t)dag->handles[task->access[i].handle].bytes;
        sm->input[i] = hs_xmalloc(sm->bytes[i]);
        memcpy(sm->input[i], host[task->access[i].handle], sm->bytes[i]);
    }
}

static void sample_free(struct hs_cal_sample *sm)
{
    for (int i = 0; i < sm->n; i++)
        free(sm->input[i]);
}

/* ---- kernels on cores ----------------------------------------------------------- */

struct cpu_job {
    const struct hs_cal_sample *sm;
    int reps;
    bool warm;
    double median;
};

/* Bytes to write to push a kernel's inputs out of the caches: twice the
 * largest cache, between 8 and 512 MiB. */
static size_t eviction_bytes(void)
{
    size_t bytes = 2 * hs_calibrate_cache_bytes();
    if (bytes < ((size_t)8 << 20))
        return (size_t)8 << 20;
    return bytes > ((size_t)512 << 20) ? (size_t)512 << 20 : bytes;
}

/* Write one byte per cache line of junk, so that what the kernel reads next
 * comes from memory. */
static void evict_caches(volatile unsigned char *junk, size_t bytes)
{
    for (size_t k = 0; k < bytes; k += 64)
        junk[k]++;
}

/* reps timings of the kernel on restored inputs, in the thread's CPU time:
 * what the kernel takes of its core, whatever else runs on the machine (a
 * measured run records both its tasks' wall and CPU times, so that
 * `hetsim compare` tells a slower kernel from a core taken by others). */
static void *cpu_thread_main(void *arg)
{
    struct cpu_job *job = arg;
    const struct hs_cal_sample *sm = job->sm;
    void *bufs[HS_NUMERIC_MAX_BUFS];
    double t[64];
    size_t junk_bytes = job->warm ? 0 : eviction_bytes();
    unsigned char *junk = junk_bytes ? hs_xcalloc(1, junk_bytes) : NULL;
    for (int i = 0; i < sm->n; i++)
        bufs[i] = hs_xmalloc(sm->bytes[i]);
    for (int r = 0; r <= job->reps; r++) { /* r == 0 warms up */
        for (int i = 0; i < sm->n; i++)
            memcpy(bufs[i], sm->input[i], sm->bytes[i]);
        if (junk)
            evict_caches(junk, junk_bytes);
        double t0 = hs_thread_seconds();
        hs_numeric_cpu(sm->num, sm->dag, sm->task, bufs);
        if (r)
            t[r - 1] = hs_thread_seconds() - t0;
    }
    for (int i = 0; i < sm->n; i++)
        free(bufs[i]);
    free(junk);
    job->median = median(t, job->reps);
    return NULL;
}

/* The kernel on `threads` cores at once, each thread pinned to a core of its
 * own after the first (as the real engine pins its CPU workers): the mean of
 * the per-thread medians. */
static double time_cpu_kernel(const struct hs_cal_sample *sm, int reps, bool warm, int threads)
{
    struct cpu_job jobs[64];
    pthread_t th[64];
    struct hs_cores *cores = hs_cores_get();
    threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
    for (int i = 0; i < threads; i++) {
        jobs[i] = (struct cpu_job){sm, reps > 64 ? 64 : reps, warm, 0};
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

/* ---- what the engine and the runtime add to every task ------------------------ */

/* A FIFO policy for the measurement (the policies library is not linked here). */
static struct hs_task *fifo[4096];
static int fifo_head, fifo_len;

static void fifo_push(struct hs_runtime *s, struct hs_task *t)
{
    (void)s;
    fifo[(fifo_head + fifo_len++) % 4096] = t;
}

static struct hs_task *fifo_pop(struct hs_runtime *s, int w)
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

/* The typical time from one task's start to the next's on the run's one
 * worker, less the tasks' length: the median, so that a moment another
 * process took the core (a loaded machine) does not count as the engine's. */
static double median_cycle(const struct hs_runtime *rt, double length)
{
    int n = hs_sched_dag(rt)->ntasks;
    double *start = hs_xmalloc((size_t)n * sizeof *start);
    for (int t = 0; t < n; t++)
        start[t] = hs_runtime_task_event(rt, t)->start;
    gsl_sort(start, 1, (size_t)n);
    for (int t = 0; t + 1 < n; t++)
        start[t] = start[t + 1] - start[t];
    double m = median(start, n - 1) - length;
    free(start);
    return m;
}

/* One run of n independent tasks of `length` seconds each (spins: no real
 * kernel) through the runtime and the real engine on one worker of `arch`:
 * what each task takes beyond its length. On a core, the median cycle (see
 * median_cycle); on a GPU, with a window of 2 (the next task is ready when
 * one ends, as in a run, so cycles overlap), makespan / n. */
static int overhead_run(const char *platform_file, enum hs_arch arch, int n, double length, double *per_task)
{
    struct hs_dag *dag = hs_dag_new("calibration:overhead");
    for (int i = 0; i < n; i++) {
        int t = hs_dag_add_task(dag, "null", NULL, 0, 0);
        dag->tasks[t].arch_cost[arch] = length;
        dag->tasks[t].arch_mask = HS_ARCH_BIT(arch);
    }
    hs_dag_finalize(dag);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = platform_file;
    cfg.platform_name = "calibration";
    cfg.select.gpus = arch == HS_ARCH_GPU;
    cfg.select.cpus = arch == HS_ARCH_CPU;
    struct hs_run run;
    fifo_head = fifo_len = 0;
    struct hs_spec none = {0};
    int rc = hs_run_real(&cfg, dag, &fifo_policy, &none, &run);
    if (rc == 0)
        *per_task = fmax(0, arch == HS_ARCH_CPU ? median_cycle(run.rt, length) : hs_runtime_makespan(run.rt) / n - length);
    else
        hs_fail("calibrate: the overhead run failed: %s", run.rt && hs_runtime_error(run.rt) ? hs_runtime_error(run.rt) : hs_last_error());
    hs_run_free(&run);
    hs_dag_free(dag);
    return rc ? -1 : 0;
}

/* The median of five runs. On a core 300 tasks of 1 ms, as a kernel lasts
 * (a worker that has waited that long for a core's kernel must notice its
 * end), on a GPU 2,000 empty ones. */
static int task_overhead(const char *platform_file, enum hs_arch arch, double *overhead)
{
    double v[5];
    for (int i = 0; i < 5; i++)
        if (overhead_run(platform_file, arch, arch == HS_ARCH_CPU ? 300 : 2000, arch == HS_ARCH_CPU ? 1e-3 : 0,
                         &v[i]))
            return -1;
    *overhead = median(v, 5);
    return 0;
}

/* ---- the timing table ----------------------------------------------------------- */

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

/* A point of the co-running curve: the kernel with `busy` cores running
 * kernels (and GPU copies streaming if copies). */
static void add_corun(struct calib *c, const char *kernel, enum hs_arch arch, int nb, int busy, bool copies,
                      double seconds)
{
    char source[2048];
    if (arch == HS_ARCH_CPU)
        snprintf(source, sizeof source, "%s; %d core%s busy%s", c->cpu_source, busy, busy == 1 ? "" : "s",
                 copies ? ", GPU 0's copies streaming both ways" : "");
    else
        snprintf(source, sizeof source, "%s; on GPU 0%s", c->source,
                 copies ? " while its copies stream both ways" : " alone");
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "kernel", kernel);
    cJSON_AddStringToObject(e, "arch", hs_arch_name(arch));
    cJSON_AddNumberToObject(e, "nb", nb);
    cJSON_AddNumberToObject(e, "busy", busy);
    if (copies)
        cJSON_AddTrueToObject(e, "copies");
    cJSON_AddNumberToObject(e, "seconds", seconds + c->m.task_overhead[arch]);
    cJSON_AddStringToObject(e, "source", source);
    cJSON_AddItemToArray(c->corun, e);
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

#ifdef HETSIM_HAVE_CUDA
/* A GPU kernel's time before the per-task overhead: with --timing run as a
 * run issues it, from its launch to its completion seen less an empty
 * task's (the overhead, measured on empty tasks, holds that one), else back
 * to back; the back-to-back time in *b2b when asked. NAN with hs_fail. */
static double gpu_kernel_time(const struct calib *c, struct hs_cal_gpu *gpu, const struct hs_cal_sample *sm,
                              double *b2b)
{
    bool run = c->o->timing == HS_CAL_IN_RUN;
    double back = b2b || !run ? hs_cal_gpu_time(gpu, sm, c->o->reps) : NAN;
    if (b2b)
        *b2b = back;
    if (!run)
        return back;
    return fmax(0, hs_cal_gpu_time_run(gpu, sm->task, c->o->reps) - hs_cal_gpu_time_run(gpu, -1, c->o->reps));
}
#endif

/* Time one kernel (task t of the sample DAG, its inputs in host) on a core
 * and, when it has a GPU version and GPUs are calibrated, on GPU 0: 0, or
 * -1 with hs_fail. */
static int measure_kernel(struct calib *c, const struct hs_dag *dag, const struct hs_numeric *num, int t,
                           void **host, struct hs_cal_gpu *gpu, double in_run, double *const *levels,
                           double *copying)
{
    const struct hs_task *task = &dag->tasks[t];
    const char *kernel = dag->kernels[task->kernel];
    struct hs_cal_sample sm = {0};
    if (host) /* the kernel alone, or on a GPU: on a copy of the task's inputs */
        sample_take(&sm, dag, num, t, host);
    double cpu = c->o->timing == HS_CAL_IN_RUN
                     ? in_run
                     : time_cpu_kernel(&sm, c->o->reps, c->o->timing == HS_CAL_WARM, c->cpu_threads);
    double gpu_time = NAN, b2b = NAN;
    add_entry(c->entries, kernel, "cpu", num->nb, cpu + c->m.task_overhead[HS_ARCH_CPU], c->cpu_source);
    if (c->o->ncorun || copying)
        add_corun(c, kernel, HS_ARCH_CPU, num->nb, c->cpu_threads, false, cpu);
    for (int l = 0; l < c->o->ncorun; l++) /* the curve's other points */
        add_corun(c, kernel, HS_ARCH_CPU, num->nb, c->o->corun[l], false,
                  levels ? levels[l][task->kernel]
                         : time_cpu_kernel(&sm, c->o->reps, c->o->timing == HS_CAL_WARM, c->o->corun[l]));
    if (copying && !isnan(copying[task->kernel]))
        add_corun(c, kernel, HS_ARCH_CPU, num->nb, c->cpu_threads, true, copying[task->kernel]);
#ifdef HETSIM_HAVE_CUDA
    if (gpu && hs_numeric_has_gpu_kernel(num, dag, t)) {
        double alone = gpu_kernel_time(c, gpu, &sm, &b2b);
        if (isnan(alone)) {
            sample_free(&sm);
            return -1;
        }
        gpu_time = alone + c->m.task_overhead[HS_ARCH_GPU];
        add_entry(c->entries, kernel, "gpu", num->nb, gpu_time, c->source);
        /* and while the GPU's copies stream, as they do beside its kernels in a run */
        struct hs_cal_copies *copies = hs_cal_copies_start();
        double beside = copies ? gpu_kernel_time(c, gpu, &sm, NULL) : NAN;
        if (hs_cal_copies_stop(copies) > 0 && !isnan(beside)) {
            add_corun(c, kernel, HS_ARCH_GPU, num->nb, 1, false, alone);
            add_corun(c, kernel, HS_ARCH_GPU, num->nb, 1, true, beside);
        }
    }
#else
    (void)gpu;
#endif
    sample_free(&sm);
    if (c->o->verbose) {
        printf("  %-7s nb %5d  cpu %12.3f us", kernel, num->nb, cpu * 1e6);
        if (!isnan(gpu_time)) /* GPUs calibrated, and this kernel has a GPU version */
            printf("  gpu %9.3f us (back to back %.3f us)", gpu_time * 1e6, b2b * 1e6);
        printf("\n");
    }
    if (strcmp(kernel, "dgemm") == 0) { /* nominal speeds: DGEMM at the largest tile */
        c->m.core_speed = task->flops / cpu;
        for (int g = 0; g < c->m.ngpus; g++)
            c->m.gpus[g].speed = task->flops / gpu_time;
    }
    return 0;
}

/* Has every kernel of dag with a CPU version an entry at this tile size? */
static bool all_timed(const struct calib *c, const struct hs_dag *dag, const struct hs_numeric *num)
{
    for (int k = 0; k < dag->nkernels; k++)
        if (!timed(c->entries, dag->kernels[k], num->nb))
            return false;
    return true;
}

/* The source of the CPU entries a sample DAG gives: timed inside a run, it
 * names the DAG and how much data it held against the caches. */
static void write_cpu_source(struct calib *c, const struct hs_dag *dag)
{
    if (c->o->timing == HS_CAL_IN_RUN)
        snprintf(c->cpu_source, sizeof c->cpu_source, "%s; sample DAG %s: %.0f MiB of data, the largest cache "
                 "%.0f MiB, %d cop%s at once", c->source, dag->name ? dag->name : "(unnamed)",
                 hs_dag_data_bytes(dag) / 1048576.0, (double)hs_calibrate_cache_bytes() / 1048576.0, c->cpu_threads,
                 c->cpu_threads == 1 ? "y" : "ies");
    else
        snprintf(c->cpu_source, sizeof c->cpu_source, "%s", c->source);
}

/* Time every kernel of one sample DAG (its first task of each kernel). */
static int measure_dag(struct calib *c, const struct hs_dag *dag)
{
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    if (num.family == HS_FAMILY_NONE)
        return hs_fail("calibrate: %s has no real kernels", dag->name);
    /* Kernels timed alone, and GPU kernels, run on the inputs the DAG's own
     * order gives them (pinned for the GPUs' copies); timed in a run, CPU
     * kernels need none. */
    bool gpus = c->m.ngpus > 0;
    void **host = NULL;
    if (c->o->timing != HS_CAL_IN_RUN || gpus) {
        if (!(host = hs_real_host_alloc(dag, gpus))) {
            hs_numeric_free(&num);
            return -1;
        }
        hs_numeric_fill(&num, dag, host);
    }
    struct hs_cal_gpu *gpu = NULL;
#ifdef HETSIM_HAVE_CUDA
    if (gpus && !(gpu = hs_cal_gpu_new(dag, &num, host))) {
        hs_real_host_free(dag, host, gpus);
        hs_numeric_free(&num);
        return -1;
    }
#endif
    write_cpu_source(c, dag);
    double *in_run = c->o->timing == HS_CAL_IN_RUN ? hs_calibrate_in_run(dag, &num, c->cpu_threads) : NULL;
    /* the co-running curve's other points, timed the same way */
    double **levels = in_run && c->o->ncorun ? hs_xcalloc((size_t)c->o->ncorun, sizeof *levels) : NULL;
    for (int l = 0; levels && l < c->o->ncorun; l++)
        levels[l] = hs_calibrate_in_run(dag, &num, c->o->corun[l]);
    double *copying = NULL;
#ifdef HETSIM_HAVE_CUDA
    if (in_run && c->o->ncorun && gpu) /* and with GPU 0's copies streaming */
        copying = hs_cal_in_run_copying(dag, &num, c->cpu_threads);
#endif
    int rc = 0;
    for (int t = 0; !rc && t < dag->ntasks; t++) {
        const struct hs_task *task = &dag->tasks[t];
        if (task->naccess > HS_NUMERIC_MAX_BUFS)
            continue;
        if (hs_numeric_has_cpu_kernel(&num, dag, t) && !timed(c->entries, dag->kernels[task->kernel], num.nb))
            rc = measure_kernel(c, dag, &num, t, host, gpu, in_run ? in_run[task->kernel] : NAN, levels, copying);
        if (all_timed(c, dag, &num))
            break; /* the rest of the DAG would only advance the inputs */
        void *bufs[HS_NUMERIC_MAX_BUFS];
        if (host && hs_numeric_task_bufs(dag, t, host, bufs))
            hs_numeric_cpu(&num, dag, t, bufs); /* on to the next kernel's inputs */
    }
#ifdef HETSIM_HAVE_CUDA
    hs_cal_gpu_free(gpu); /* before the host buffers it copies from */
#endif
    if (host)
        hs_real_host_free(dag, host, gpus);
    free(in_run);
    for (int l = 0; levels && l < c->o->ncorun; l++)
        free(levels[l]);
    free(levels);
    free(copying);
    hs_numeric_free(&num);
    return rc;
}

static int write_perf(const char *path, const char *model, cJSON *entries, cJSON *corun)
{
    cJSON *root = cJSON_CreateObject();
    char desc[768];
    snprintf(desc, sizeof desc, "Kernel timings measured on %s by hetsim calibrate", model);
    cJSON_AddStringToObject(root, "description", desc);
    cJSON_AddItemToObject(root, "kernels", entries);
    if (cJSON_GetArraySize(corun))
        cJSON_AddItemToObject(root, "corun", corun);
    else
        cJSON_Delete(corun);
    return hs_machine_write_json(path, root);
}

/* ---- the machine ------------------------------------------------------------------ */

/* Cores and GPUs to declare, each GPU's model, memory and links. */
static int describe_machine(struct calib *c)
{
    const struct hs_calibrate_opts *o = c->o;
#ifdef HETSIM_HAVE_CUDA
    const char *why = "";
#else
    const char *why = " (this hetsim was built without CUDA)";
#endif
    int visible = hs_calibrate_gpus_visible();
    if (o->gpus > visible)
        return hs_fail("calibrate: --gpus %d, but %d GPU%s visible here%s", o->gpus, visible,
                       visible == 1 ? " is" : "s are", why);
    struct hs_machine *m = &c->m;
    m->name = hs_xstrdup(o->name);
    m->ngpus = o->gpus >= 0 ? o->gpus : visible;
    m->cores = hs_calibrate_cores(o, m->ngpus);
    m->core_speed = 1e9; /* placeholders until the kernels are timed */
    m->gpus = hs_xcalloc((size_t)(m->ngpus ? m->ngpus : 1), sizeof *m->gpus);
    m->task_overhead[HS_ARCH_CPU] = m->task_overhead[HS_ARCH_GPU] = NAN;
    c->cpu_threads = hs_calibrate_cpu_threads(o, m->ngpus);
    /* the machine as hwloc sees it (what a measured run checks it runs on) */
    struct hs_topology here;
    if (hs_topology_describe(&here))
        memset(&m->topology, 0, sizeof m->topology); /* hwloc cannot read it: record none */
    else
        m->topology = here;
    snprintf(c->model, sizeof c->model, "%s", here.cpu_model);
    snprintf(m->blas, sizeof m->blas, "%s", hs_blas_config()); /* what the kernels run on */
    char note[512];
    if (hs_blas_generic_note(note, sizeof note))
        fprintf(stderr, "hetsim calibrate: %s\n", note);
    int rc = 0;
#ifdef HETSIM_HAVE_CUDA
    m->places = hs_xcalloc((size_t)(m->ngpus ? m->ngpus : 1), sizeof *m->places);
    for (int g = 0; !rc && g < m->ngpus; g++) {
        free(m->gpu_model);
        m->gpu_model = hs_cal_gpu_model(g, &m->gpus[g].memsize);
        m->gpus[g].speed = 1e12;
        struct hs_machine_place *p = &m->places[g]; /* where it sits: its NUMA node */
        p->numa_node = -1;
        if (hs_real_gpus_pci_bus_id(g, p->pci_bus_id, (int)sizeof p->pci_bus_id))
            p->pci_bus_id[0] = '\0';
        else
            p->numa_node = hs_topology_gpu_numa_node(p->pci_bus_id);
        rc = hs_cal_links(g, o->reps, &m->gpus[g], o->verbose);
    }
#endif
    if (!m->gpu_model)
        m->gpu_model = hs_xstrdup("");
    return rc;
}

/* Every entry's source: how it was measured. */
static void write_source(struct calib *c)
{
    const struct hs_machine *m = &c->m;
    char how[160];
    if (c->o->timing == HS_CAL_IN_RUN)
        snprintf(how, sizeof how, "medians over every task of the kernel in a run of a sample DAG larger "
                                  "than the caches (--timing run)");
    else
        snprintf(how, sizeof how, "medians of %d calls on inputs %s", c->o->reps,
                 c->o->timing == HS_CAL_WARM ? "left in the caches (--timing warm)"
                                             : "evicted from the caches first (--timing cold)");
    int n = snprintf(c->source, sizeof c->source, "measured by hetsim calibrate on %s: %s and LAPACKE "
                     "with %d pinned cores busy, thread CPU time, %s, plus %.1f us of engine and runtime "
                     "overhead per task", c->model, hs_blas_config(), c->cpu_threads, how, m->task_overhead[HS_ARCH_CPU] * 1e6);
    if (m->ngpus && n > 0 && (size_t)n < sizeof c->source)
        snprintf(c->source + n, sizeof c->source - (size_t)n, "; %s: cuBLAS/cuSOLVER %s plus %.1f us per task",
                 m->gpu_model, c->o->timing == HS_CAL_IN_RUN
                     ? "issued one task at a time as a run issues them (--timing run: its inputs copied in, then "
                       "the kernel through the real engine's streams and events, from its launch to its "
                       "completion seen, less an empty task's; medians)"
                     : "back to back (CUDA events)", m->task_overhead[HS_ARCH_GPU] * 1e6);
}

/* The machine files, at dir/BASE.xml and dir/BASE.machine.json. */
static int save_machine(const struct calib *c, const char *base)
{
    char path[8300], xml[8300];
    snprintf(path, sizeof path, "%.4000s/%.4000s.machine.json", c->o->dir, base);
    snprintf(xml, sizeof xml, "%.4000s/%.4000s.xml", c->o->dir, base);
    return hs_machine_save(path, &c->m) || hs_machine_write_platform(&c->m, xml) ? -1 : 0;
}

static int measure_overheads(struct calib *c, const char *xml)
{
    struct hs_machine *m = &c->m;
    int rc = task_overhead(xml, HS_ARCH_CPU, &m->task_overhead[HS_ARCH_CPU]);
    if (!rc && m->ngpus)
        rc = task_overhead(xml, HS_ARCH_GPU, &m->task_overhead[HS_ARCH_GPU]);
    if (!rc && c->o->verbose) {
        printf("  engine and runtime overhead per task: %.3f us on a core", m->task_overhead[HS_ARCH_CPU] * 1e6);
        if (m->ngpus)
            printf(", %.3f us on a GPU", m->task_overhead[HS_ARCH_GPU] * 1e6);
        printf("\n");
    }
    return rc;
}

static int write_table(struct calib *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/perf", c->o->dir);
    if (mkdir(path, 0777) && errno != EEXIST)
        return hs_fail("cannot create %s: %s", path, strerror(errno));
    snprintf(path, sizeof path, "%s/perf/%s.json", c->o->dir, c->o->name);
    char model[640];
    snprintf(model, sizeof model, "%s%s%s", c->model, c->m.ngpus ? " and " : "", c->m.gpu_model);
    int rc = write_perf(path, model, c->entries, c->corun);
    c->entries = c->corun = NULL; /* the table's now */
    return rc;
}

int hs_calibrate_cores(const struct hs_calibrate_opts *o, int ngpus)
{
    struct hs_topology t; /* physical cores: a worker per core, never two on its hyperthreads */
    hs_topology_describe(&t);
    long online = t.cores > 0 ? t.cores : 1;
    return o->cores > 0 ? o->cores : (int)(ngpus || online == 1 ? online : online - 1);
}

int hs_calibrate_cpu_threads(const struct hs_calibrate_opts *o, int ngpus)
{
    int workers = hs_calibrate_cores(o, ngpus) - ngpus;
    return o->cpu_threads > 0 ? o->cpu_threads : workers < 1 ? 1 : workers > 4 ? 4 : workers;
}

/* The machine files appear last, after the timing table: the overhead runs
 * need them on disk, so they run on a scratch copy, dir/.NAME.calibrating.xml
 * and its machine file, removed at the end and by a SIGTERM, SIGINT or SIGHUP
 * (timeout(1)), so that a calibration stopped halfway leaves no NAME.xml or
 * NAME.machine.json without perf/NAME.json. */
int hs_calibrate(const struct hs_calibrate_opts *o)
{
    struct calib c = {.o = o, .entries = cJSON_CreateArray(), .corun = cJSON_CreateArray()};
    char xml[8300], scratch[4096], scratch_machine[8300];
    snprintf(scratch, sizeof scratch, ".%.4000s.calibrating", o->name);
    snprintf(xml, sizeof xml, "%.4000s/%.4000s.xml", o->dir, scratch);
    snprintf(scratch_machine, sizeof scratch_machine, "%.4000s/%.4000s.machine.json", o->dir, scratch);
    hs_outfile_remove_on_signal(xml);
    hs_outfile_remove_on_signal(scratch_machine);
    int rc = describe_machine(&c);
    int most = c.cpu_threads; /* threads calling OpenBLAS at once */
    for (int i = 0; i < o->ncorun; i++)
        most = o->corun[i] > most ? o->corun[i] : most;
    if (!rc)
        rc = hs_blas_threads_ready(most);
    if (!rc) /* the overhead runs need the machine's files: a scratch copy */
        rc = save_machine(&c, scratch);
    if (!rc)
        rc = measure_overheads(&c, xml);
    if (!rc)
        write_source(&c);
    for (int i = 0; !rc && i < o->nsamples; i++) /* sorted by tile size: dgemm's largest comes last */
        rc = measure_dag(&c, o->samples[i]);
    if (!rc)
        rc = write_table(&c);
    if (!rc) /* the machine files, with the speeds the kernels gave and the overheads */
        rc = save_machine(&c, o->name);
    unlink(xml);
    unlink(scratch_machine);
    hs_outfile_forget(xml);
    hs_outfile_forget(scratch_machine);
    cJSON_Delete(c.entries);
    cJSON_Delete(c.corun);
    hs_machine_free(&c.m);
    return rc;
}
