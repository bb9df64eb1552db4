/* sim/engines/real/engine_real.c — the real-time engine (see engine_real.h).
 *
 * The runtime and the policy are one state machine behind one lock (rt_mu):
 * whoever completes an activity takes the lock and hands the completion
 * back. A CPU worker does it itself as soon as its kernel ends, so that the
 * runtime's next decision, and the worker's next task, follow without
 * waking another thread (what a runtime's own workers do when they pop
 * their next task). The calling thread starts the runtime and then, under
 * the same lock, polls the GPUs' events (yielding while GPU work is
 * outstanding), fires expired timers, and sleeps otherwise until a timer is
 * due or the run ends.
 *
 * Threads are pinned, each to a physical core of its own (pin.h: never two
 * on hyperthreads of one core): the calling thread (every GPU's driving) to
 * the first core of its affinity set, or with GPUs to the first on the NUMA
 * node of the first GPU when hwloc knows it, CPU worker i to the next ones,
 * so that a worker is one core, as in the model, and a run does not depend
 * on where the operating system moves its threads. */
#include "sim/engines/real/engine_real.h"
#include "base/util.h"
#include "sim/engines/real/engine_gpu.h"
#include "sim/engines/real/pin.h"
#include "sim/engines/real/topology.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cpu_thread {
    struct real_engine *eng;
    pthread_t th;
    pthread_mutex_t mu;  /* guards the job and quit */
    pthread_cond_t cv;
    atomic_bool has_job; /* set under mu; read without it while the worker watches */
    bool quit;
    int task;
    double seconds;
    struct hs_real_cb job;
};

struct timer {
    double at;
    struct hs_real_cb cb;
};

struct real_engine {
    struct hs_engine base;
    struct hs_runtime *rt;
    const struct hs_platform *pf;
    const struct hs_dag *dag;
    const struct hs_numeric *num;
    void **host;
    struct timespec t0;
    struct hs_real_gpus *gpus; /* NULL without GPUs */
    struct cpu_thread *cpu;    /* per worker; used by CPU workers */
    double *core_time;         /* per task: its worker thread's CPU time, or NULL */
    pthread_mutex_t rt_mu;     /* the runtime, the policy, and what follows */
    atomic_int waiting;        /* workers waiting for rt_mu (the polling thread lets them in) */
    pthread_cond_t cv;         /* the calling thread waits on it: a timer, the end */
    int warm;                  /* CPU threads done warming up */
    struct timer *timers;
    int ntimers, cap_timers;
    bool finished;
    bool stray_transfer;       /* asked for a copy with no GPU to make it */
};

static double elapsed(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static double now(struct hs_engine *e)
{
    return elapsed(&((struct real_engine *)e)->t0);
}

#ifdef HETSIM_HAVE_CUDA
/* A GPU error ends the run (the error is reported once the loop stops). */
static void check_gpus(struct real_engine *eng)
{
    if (eng->gpus && hs_real_gpus_error(eng->gpus))
        eng->finished = true;
}
#endif

/* ---- CPU workers --------------------------------------------------------------- */

/* A task without a real kernel: the core busy for its duration, read from
 * the monotonic clock (so the spin needs no calibration of its own: it ends
 * when the duration has passed, however fast the core). */
static void spin_for(double seconds)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (elapsed(&t0) < seconds)
        ;
}

/* Hand a completion back to the runtime (this thread's turn at it). */
static void complete(struct real_engine *eng, struct hs_real_cb d)
{
    atomic_fetch_add(&eng->waiting, 1);
    pthread_mutex_lock(&eng->rt_mu);
    atomic_fetch_sub(&eng->waiting, 1);
    if (!eng->finished)
        d.cb(d.ctx, d.id);
    if (eng->finished)
        pthread_cond_signal(&eng->cv);
    pthread_mutex_unlock(&eng->rt_mu);
}

/* The task's kernel, and the CPU time its thread had meanwhile: the wall
 * time less what other processes took of the core. */
static void run_cpu_task(struct real_engine *eng, int task, double seconds)
{
    void *bufs[HS_NUMERIC_MAX_BUFS];
    bool real = hs_numeric_task_bufs(eng->dag, task, eng->host, bufs);
    double t0 = hs_thread_seconds();
    if (!real || !hs_numeric_cpu(eng->num, eng->dag, task, bufs))
        spin_for(seconds);
    if (eng->core_time)
        eng->core_time[task] = hs_thread_seconds() - t0;
}

/* Run every real kernel of the DAG once on zeroed scratch data, so that the
 * first timed task does not pay the libraries' first-call costs. */
static void warm_up_cpu(struct real_engine *eng)
{
    const struct hs_dag *dag = eng->dag;
    for (int k = 0; k < dag->nkernels; k++)
        for (int t = 0; t < dag->ntasks; t++) {
            const struct hs_task *task = &dag->tasks[t];
            if (task->kernel != k || !hs_numeric_has_cpu_kernel(eng->num, dag, t) || task->naccess > HS_NUMERIC_MAX_BUFS)
                continue;
            void *scratch[HS_NUMERIC_MAX_BUFS];
            for (int i = 0; i < task->naccess; i++)
                scratch[i] = hs_xcalloc(1, (size_t)dag->handles[task->access[i].handle].bytes + 1);
            hs_numeric_cpu(eng->num, dag, t, scratch);
            for (int i = 0; i < task->naccess; i++)
                free(scratch[i]);
            break;
        }
}

/* How long a worker that has just finished a task, and was given none,
 * watches for the next one before it sleeps: another worker's completion
 * often brings it within this time, and a worker that is woken instead
 * waits for the scheduler (tens to hundreds of microseconds on a loaded
 * machine). The core is the worker's own. */
#define HS_WORKER_WATCH 200e-6

static void watch_for_job(struct cpu_thread *c)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!atomic_load_explicit(&c->has_job, memory_order_acquire) && elapsed(&t0) < HS_WORKER_WATCH)
        ;
}

static void *cpu_main(void *arg)
{
    struct cpu_thread *c = arg;
    warm_up_cpu(c->eng);
    pthread_mutex_lock(&c->eng->rt_mu);
    c->eng->warm++;
    pthread_cond_broadcast(&c->eng->cv);
    pthread_mutex_unlock(&c->eng->rt_mu);
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (!c->has_job && !c->quit)
            pthread_cond_wait(&c->cv, &c->mu);
        if (c->quit)
            break;
        c->has_job = false;
        int task = c->task;
        double seconds = c->seconds;
        struct hs_real_cb d = c->job;
        pthread_mutex_unlock(&c->mu);
        run_cpu_task(c->eng, task, seconds);
        complete(c->eng, d);
        watch_for_job(c);
        pthread_mutex_lock(&c->mu);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* ---- what the runtime asks ------------------------------------------------------ */

static void exec_task(struct hs_engine *e, int worker, int task, double lead, double seconds,
                      hs_engine_cb cb, void *ctx, long id)
{
    (void)lead; /* 0: the runtime's costs are real here, not simulated (run_real.c refuses --costs) */
    struct real_engine *eng = (struct real_engine *)e;
    const struct hs_worker *w = &eng->pf->workers[worker];
    struct hs_real_cb done = {cb, ctx, id};
    if (w->arch == HS_ARCH_CPU) {
        struct cpu_thread *c = &eng->cpu[worker];
        pthread_mutex_lock(&c->mu);
        c->task = task;
        c->seconds = seconds;
        c->job = done;
        c->has_job = true;
        pthread_cond_signal(&c->cv);
        pthread_mutex_unlock(&c->mu);
        return;
    }
#ifdef HETSIM_HAVE_CUDA
    hs_real_gpus_exec(eng->gpus, w->node, task, seconds, done);
    check_gpus(eng);
    pthread_cond_signal(&eng->cv); /* a worker's completion may start GPU work: poll it */
#endif
}

static void transfer(struct hs_engine *e, int handle, int src, int dst, double bytes, hs_engine_cb cb,
                     void *ctx, long id)
{
    struct real_engine *eng = (struct real_engine *)e;
#ifdef HETSIM_HAVE_CUDA
    hs_real_gpus_transfer(eng->gpus, handle, src, dst, bytes, (struct hs_real_cb){cb, ctx, id});
    check_gpus(eng);
    pthread_cond_signal(&eng->cv);
#else
    /* without GPUs every worker uses host memory: the runtime moves nothing */
    (void)handle, (void)src, (void)dst, (void)bytes, (void)cb, (void)ctx, (void)id;
    eng->stray_transfer = eng->finished = true;
    pthread_cond_signal(&eng->cv);
#endif
}

static void timer(struct hs_engine *e, double seconds, hs_engine_cb cb, void *ctx, long id)
{
    struct real_engine *eng = (struct real_engine *)e;
    if (eng->ntimers == eng->cap_timers) {
        eng->cap_timers = eng->cap_timers ? 2 * eng->cap_timers : 16;
        eng->timers = hs_xrealloc(eng->timers, (size_t)eng->cap_timers * sizeof *eng->timers);
    }
    eng->timers[eng->ntimers++] = (struct timer){now(e) + seconds, {cb, ctx, id}};
    pthread_cond_signal(&eng->cv); /* the calling thread may sleep past it */
}

static void finished(struct hs_engine *e)
{
    struct real_engine *eng = (struct real_engine *)e;
    eng->finished = true;
    pthread_cond_signal(&eng->cv);
}

/* ---- the calling thread's loop (rt_mu held) ------------------------------------ */

static int drain_gpus(struct real_engine *eng, bool *pending)
{
    *pending = false;
#ifdef HETSIM_HAVE_CUDA
    if (eng->gpus) {
        int n = hs_real_gpus_drain(eng->gpus, pending);
        check_gpus(eng);
        return n;
    }
#else
    (void)eng;
#endif
    return 0;
}

static int drain_timers(struct real_engine *eng, double *next)
{
    int n = 0;
    *next = INFINITY;
    double t = now(&eng->base);
    for (int i = 0; i < eng->ntimers && !eng->finished;) {
        if (eng->timers[i].at <= t) {
            struct hs_real_cb d = eng->timers[i].cb;
            eng->timers[i] = eng->timers[--eng->ntimers];
            d.cb(d.ctx, d.id);
            n++;
        } else {
            *next = fmin(*next, eng->timers[i++].at);
        }
    }
    return n;
}

/* Nothing to hand back: yield while GPU work is outstanding (its events are
 * polled; workers waiting for the lock go first), else sleep until the next
 * timer (at most a second: a worker's completion that ends the run or sets
 * a timer signals). */
static void idle_wait(struct real_engine *eng, bool gpu_pending, double next_timer)
{
    if (gpu_pending) {
        pthread_mutex_unlock(&eng->rt_mu);
        do
            sched_yield();
        while (atomic_load(&eng->waiting) > 0);
        pthread_mutex_lock(&eng->rt_mu);
        return;
    }
    double wait = fmin(next_timer - now(&eng->base), 1.0);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long ns = until.tv_nsec + (long)(fmax(wait, 0) * 1e9);
    until.tv_sec += ns / 1000000000L;
    until.tv_nsec = ns % 1000000000L;
    pthread_cond_timedwait(&eng->cv, &eng->rt_mu, &until);
}

static void main_loop(struct real_engine *eng)
{
    while (!eng->finished) {
        bool pending = false;
        double next = INFINITY;
        int n = drain_gpus(eng, &pending);
        if (!eng->finished)
            n += drain_timers(eng, &next);
        if (!n && !eng->finished)
            idle_wait(eng, pending, next);
    }
}

/* ---- set-up and tear-down ---------------------------------------------------------- */

static void stop_cpus(struct real_engine *eng)
{
    for (int w = 0; w < eng->pf->nworkers; w++)
        if (eng->pf->workers[w].arch == HS_ARCH_CPU && eng->cpu[w].eng) {
            pthread_mutex_lock(&eng->cpu[w].mu);
            eng->cpu[w].quit = true;
            pthread_cond_signal(&eng->cpu[w].cv);
            pthread_mutex_unlock(&eng->cpu[w].mu);
            pthread_join(eng->cpu[w].th, NULL);
        }
}

/* Start the CPU worker threads, each on a physical core of its own after
 * the calling thread's, and wait until they are warm. */
static int start_cpus(struct real_engine *eng, const struct hs_cores *cores)
{
    int started = 0;
    for (int w = 0; w < eng->pf->nworkers; w++) {
        if (eng->pf->workers[w].arch != HS_ARCH_CPU)
            continue;
        struct cpu_thread *c = &eng->cpu[w];
        c->eng = eng;
        pthread_mutex_init(&c->mu, NULL);
        pthread_cond_init(&c->cv, NULL);
        if (pthread_create(&c->th, NULL, cpu_main, c)) {
            c->eng = NULL;
            return hs_fail("real engine: cannot start a CPU worker thread");
        }
        hs_cores_pin(cores, c->th, ++started);
    }
    pthread_mutex_lock(&eng->rt_mu);
    while (eng->warm < started)
        pthread_cond_wait(&eng->cv, &eng->rt_mu);
    pthread_mutex_unlock(&eng->rt_mu);
    return 0;
}

static int setup_gpus(struct real_engine *eng)
{
    bool any = false;
    for (int node = 0; node < eng->pf->nnodes; node++)
        any |= eng->pf->nodes[node].kind == HS_NODE_GPU;
    if (!any)
        return 0;
#ifdef HETSIM_HAVE_CUDA
    eng->gpus = hs_real_gpus_new(eng->pf, eng->dag, eng->num, eng->host);
    return eng->gpus ? 0 : -1;
#else
    return hs_fail("this real engine was built without CUDA: it has no GPUs (select none: --gpus 0)");
#endif
}

/* The run's error, if any: a GPU's, or an activity this engine cannot carry. */
static int run_error(struct real_engine *eng)
{
#ifdef HETSIM_HAVE_CUDA
    if (eng->gpus && hs_real_gpus_error(eng->gpus))
        return hs_fail("%s", hs_real_gpus_error(eng->gpus));
#endif
    if (eng->stray_transfer)
        return hs_fail("real engine: the runtime asked for a transfer, but there is no GPU here");
    return 0;
}

/* The NUMA node of the first GPU the run uses (device 0, setup_gpus' first),
 * where the calling thread drives the GPUs from; -1 without GPUs or when
 * it is not known. */
static int gpus_numa_node(const struct hs_platform *pf)
{
#ifdef HETSIM_HAVE_CUDA
    char id[32];
    for (int node = 0; node < pf->nnodes; node++)
        if (pf->nodes[node].kind == HS_NODE_GPU)
            return hs_real_gpus_pci_bus_id(0, id, (int)sizeof id) ? -1 : hs_topology_gpu_numa_node(id);
#else
    (void)pf;
#endif
    return -1;
}

int hs_real_engine_run(struct hs_runtime *rt, const struct hs_platform *pf,
                       const struct hs_numeric *num, void **host, double *core_time)
{
    struct real_engine eng = {
        .base = {.now = now, .exec = exec_task, .transfer = transfer, .timer = timer,
                 .finished = finished},
        .rt = rt, .pf = pf, .dag = hs_sched_dag(rt), .num = num, .host = host, .core_time = core_time,
    };
    pthread_mutex_init(&eng.rt_mu, NULL);
    pthread_cond_init(&eng.cv, NULL);
    eng.cpu = hs_xcalloc((size_t)pf->nworkers, sizeof *eng.cpu);
    struct hs_cores *cores = hs_cores_get();
    hs_cores_pin_near(cores, pthread_self(), gpus_numa_node(pf));
    int rc = setup_gpus(&eng);
    if (!rc)
        rc = start_cpus(&eng, cores);
    if (!rc) {
        pthread_mutex_lock(&eng.rt_mu);
        clock_gettime(CLOCK_MONOTONIC, &eng.t0);
        hs_runtime_start(rt, &eng.base);
        main_loop(&eng);
        pthread_mutex_unlock(&eng.rt_mu);
        rc = run_error(&eng);
    }
    stop_cpus(&eng);
#ifdef HETSIM_HAVE_CUDA
    hs_real_gpus_free(eng.gpus);
#endif
    hs_cores_unpin(cores, pthread_self());
    hs_cores_free(cores);
    free(eng.cpu);
    free(eng.timers);
    return rc;
}
