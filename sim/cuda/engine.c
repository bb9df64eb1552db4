/* sim/cuda/engine.c — the real-time engine (see engine.h).
 *
 * The main loop hands completions back to the runtime in this order: work
 * finished by CPU threads, GPU operations whose event has completed (each
 * stream in FIFO order), expired timers; when nothing happened it yields if
 * GPU work is outstanding (events are polled) or waits on a condition
 * variable for the CPU threads.
 *
 * Threads are pinned: the calling thread (the runtime, the policy and every
 * GPU's driving) to the first core of its affinity set, CPU worker i to the
 * next ones, so that a worker is one core, as in the model, and a run does
 * not depend on where the operating system moves its threads. */
#include "sim/cuda/engine.h"
#include "sim/cuda/pin.h"
#include "sim/util.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int hs_cuda_spin(double seconds, cudaStream_t stream); /* spin.cu */

enum { S_H2D, S_KERNEL, S_D2H, NSTREAMS };

struct op {
    cudaEvent_t ev;
    hs_engine_cb cb;
    void *ctx;
    long id;
};

struct stream_q {
    cudaStream_t s;
    struct op *ops;
    int head, len, cap;
};

struct gpu {
    int device;
    struct stream_q q[NSTREAMS];
    struct hs_gpu_libs libs;
    void **dev; /* per datum */
};

struct done {
    hs_engine_cb cb;
    void *ctx;
    long id;
};

struct cpu_thread {
    struct cuda_engine *eng;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool has_job, quit;
    int task;
    double seconds;
    struct done job;
};

struct timer {
    double at;
    struct done cb;
};

struct cuda_engine {
    struct hs_engine base;
    struct hs_sched *rt;
    const struct hs_platform *pf;
    const struct hs_dag *dag;
    const struct hs_numeric *num;
    void **host;
    struct timespec t0;
    struct gpu **gpu;       /* per memory node; NULL for host memory */
    struct cpu_thread *cpu; /* per worker; used by CPU workers */
    cudaEvent_t *free_ev;
    int nfree_ev, cap_ev;
    pthread_mutex_t mu;     /* guards done and ndone */
    pthread_cond_t cv;
    struct done *done;
    int ndone, cap_done;
    int warm;               /* CPU threads done warming up (guarded by mu) */
    struct timer *timers;
    int ntimers, cap_timers;
    bool finished;
    char error[256];
};

static double elapsed(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static double now(struct hs_engine *e)
{
    return elapsed(&((struct cuda_engine *)e)->t0);
}

static void fail(struct cuda_engine *eng, const char *what, int err)
{
    if (!eng->error[0])
        snprintf(eng->error, sizeof eng->error, "CUDA engine: %s failed (error %d)", what, err);
    eng->finished = true;
}

/* ---- CPU workers --------------------------------------------------------------- */

static void spin_for(double seconds)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (elapsed(&t0) < seconds)
        ;
}

static void post_done(struct cuda_engine *eng, struct done d)
{
    pthread_mutex_lock(&eng->mu);
    if (eng->ndone == eng->cap_done) {
        eng->cap_done = eng->cap_done ? 2 * eng->cap_done : 64;
        eng->done = hs_xrealloc(eng->done, (size_t)eng->cap_done * sizeof *eng->done);
    }
    eng->done[eng->ndone++] = d;
    pthread_cond_signal(&eng->cv);
    pthread_mutex_unlock(&eng->mu);
}

static void run_cpu_task(struct cuda_engine *eng, int task, double seconds)
{
    const struct hs_task *t = &eng->dag->tasks[task];
    void *bufs[16];
    for (int i = 0; i < t->naccess && i < 16; i++)
        bufs[i] = eng->host[t->access[i].handle];
    if (!hs_numeric_cpu(eng->num, eng->dag, task, bufs))
        spin_for(seconds);
}

/* Run every real kernel of the DAG once on zeroed scratch data, so that the
 * first timed task does not pay the libraries' first-call costs. */
static void warm_up_cpu(struct cuda_engine *eng)
{
    const struct hs_dag *dag = eng->dag;
    for (int k = 0; k < dag->nkernels; k++)
        for (int t = 0; t < dag->ntasks; t++) {
            const struct hs_task *task = &dag->tasks[t];
            if (task->kernel != k || !hs_numeric_has_cpu_kernel(eng->num, dag, t) || task->naccess > 16)
                continue;
            void *scratch[16];
            for (int i = 0; i < task->naccess; i++)
                scratch[i] = hs_xcalloc(1, (size_t)dag->handles[task->access[i].handle].bytes + 1);
            hs_numeric_cpu(eng->num, dag, t, scratch);
            for (int i = 0; i < task->naccess; i++)
                free(scratch[i]);
            break;
        }
}

static void *cpu_main(void *arg)
{
    struct cpu_thread *c = arg;
    warm_up_cpu(c->eng);
    pthread_mutex_lock(&c->eng->mu);
    c->eng->warm++;
    pthread_cond_broadcast(&c->eng->cv);
    pthread_mutex_unlock(&c->eng->mu);
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (!c->has_job && !c->quit)
            pthread_cond_wait(&c->cv, &c->mu);
        if (c->quit)
            break;
        c->has_job = false;
        int task = c->task;
        double seconds = c->seconds;
        struct done d = c->job;
        pthread_mutex_unlock(&c->mu);
        run_cpu_task(c->eng, task, seconds);
        post_done(c->eng, d);
        pthread_mutex_lock(&c->mu);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

/* ---- GPU operations ------------------------------------------------------------ */

static cudaEvent_t take_event(struct cuda_engine *eng)
{
    if (eng->nfree_ev)
        return eng->free_ev[--eng->nfree_ev];
    cudaEvent_t ev = NULL;
    int err = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    if (err)
        fail(eng, "cudaEventCreate", err);
    return ev;
}

static void give_event(struct cuda_engine *eng, cudaEvent_t ev)
{
    if (eng->nfree_ev == eng->cap_ev) {
        eng->cap_ev = eng->cap_ev ? 2 * eng->cap_ev : 64;
        eng->free_ev = hs_xrealloc(eng->free_ev, (size_t)eng->cap_ev * sizeof *eng->free_ev);
    }
    eng->free_ev[eng->nfree_ev++] = ev;
}

/* Follow the operation just enqueued on stream q with an event. */
static void track(struct cuda_engine *eng, struct gpu *g, int stream, hs_engine_cb cb, void *ctx, long id)
{
    struct stream_q *q = &g->q[stream];
    cudaEvent_t ev = take_event(eng);
    int err = cudaEventRecord(ev, q->s);
    if (err) {
        fail(eng, "cudaEventRecord", err);
        return;
    }
    if (q->len == q->cap) {
        int cap = q->cap ? 2 * q->cap : 16;
        struct op *ops = hs_xmalloc((size_t)cap * sizeof *ops);
        for (int i = 0; i < q->len; i++)
            ops[i] = q->ops[(q->head + i) % q->cap];
        free(q->ops);
        q->ops = ops;
        q->head = 0;
        q->cap = cap;
    }
    q->ops[(q->head + q->len++) % q->cap] = (struct op){ev, cb, ctx, id};
}

static void exec_task(struct hs_engine *e, int worker, int task, double lead, double seconds,
                      hs_engine_cb cb, void *ctx, long id)
{
    (void)lead; /* the runtime's own costs are real here: it charges none */
    struct cuda_engine *eng = (struct cuda_engine *)e;
    const struct hs_worker *w = &eng->pf->workers[worker];
    if (w->arch == HS_ARCH_CPU) {
        struct cpu_thread *c = &eng->cpu[worker];
        pthread_mutex_lock(&c->mu);
        c->task = task;
        c->seconds = seconds;
        c->job = (struct done){cb, ctx, id};
        c->has_job = true;
        pthread_cond_signal(&c->cv);
        pthread_mutex_unlock(&c->mu);
        return;
    }
    struct gpu *g = eng->gpu[w->node];
    const struct hs_task *t = &eng->dag->tasks[task];
    void *bufs[16];
    for (int i = 0; i < t->naccess && i < 16; i++)
        bufs[i] = g->dev[t->access[i].handle];
    cudaSetDevice(g->device);
    if (hs_numeric_has_gpu_kernel(eng->num, eng->dag, task)) {
        if (!hs_numeric_gpu(eng->num, eng->dag, task, bufs, &g->libs))
            fail(eng, "a cuBLAS/cuSOLVER call", (int)cudaGetLastError());
    } else if (hs_cuda_spin(seconds, g->q[S_KERNEL].s)) {
        fail(eng, "the spin kernel launch", (int)cudaGetLastError());
    }
    track(eng, g, S_KERNEL, cb, ctx, id);
}

static void transfer(struct hs_engine *e, int handle, int src, int dst, double bytes, hs_engine_cb cb,
                     void *ctx, long id)
{
    struct cuda_engine *eng = (struct cuda_engine *)e;
    struct gpu *gs = eng->gpu[src], *gd = eng->gpu[dst];
    size_t n = (size_t)bytes;
    int err;
    if (gd && !gs) {
        cudaSetDevice(gd->device);
        err = cudaMemcpyAsync(gd->dev[handle], eng->host[handle], n, cudaMemcpyHostToDevice, gd->q[S_H2D].s);
        track(eng, gd, S_H2D, cb, ctx, id);
    } else if (gs && !gd) {
        cudaSetDevice(gs->device);
        err = cudaMemcpyAsync(eng->host[handle], gs->dev[handle], n, cudaMemcpyDeviceToHost, gs->q[S_D2H].s);
        track(eng, gs, S_D2H, cb, ctx, id);
    } else if (gs && gd) {
        cudaSetDevice(gd->device);
        err = cudaMemcpyPeerAsync(gd->dev[handle], gd->device, gs->dev[handle], gs->device, n, gd->q[S_H2D].s);
        track(eng, gd, S_H2D, cb, ctx, id);
    } else {
        err = -1; /* host to host never happens: cores share host memory */
    }
    if (err)
        fail(eng, "cudaMemcpyAsync", err);
}

static void timer(struct hs_engine *e, double seconds, hs_engine_cb cb, void *ctx, long id)
{
    struct cuda_engine *eng = (struct cuda_engine *)e;
    if (eng->ntimers == eng->cap_timers) {
        eng->cap_timers = eng->cap_timers ? 2 * eng->cap_timers : 16;
        eng->timers = hs_xrealloc(eng->timers, (size_t)eng->cap_timers * sizeof *eng->timers);
    }
    eng->timers[eng->ntimers++] = (struct timer){now(e) + seconds, {cb, ctx, id}};
}

static void finished(struct hs_engine *e)
{
    ((struct cuda_engine *)e)->finished = true;
}

/* ---- the main loop ----------------------------------------------------------- */

static int drain_cpu(struct cuda_engine *eng)
{
    pthread_mutex_lock(&eng->mu);
    int n = eng->ndone;
    struct done *batch = NULL;
    if (n) {
        batch = hs_xmalloc((size_t)n * sizeof *batch);
        memcpy(batch, eng->done, (size_t)n * sizeof *batch);
        eng->ndone = 0;
    }
    pthread_mutex_unlock(&eng->mu);
    for (int i = 0; i < n; i++)
        batch[i].cb(batch[i].ctx, batch[i].id);
    free(batch);
    return n;
}

static int drain_gpus(struct cuda_engine *eng, bool *pending)
{
    int n = 0;
    *pending = false;
    for (int node = 0; node < eng->pf->nnodes; node++) {
        struct gpu *g = eng->gpu[node];
        for (int s = 0; g && s < NSTREAMS; s++) {
            struct stream_q *q = &g->q[s];
            while (q->len > 0) {
                struct op op = q->ops[q->head];
                int err = cudaEventQuery(op.ev);
                if (err == cudaErrorNotReady)
                    break;
                if (err) {
                    fail(eng, "a GPU operation", err);
                    return n;
                }
                q->head = (q->head + 1) % q->cap;
                q->len--;
                give_event(eng, op.ev);
                op.cb(op.ctx, op.id);
                n++;
            }
            *pending |= q->len > 0;
        }
    }
    return n;
}

static int drain_timers(struct cuda_engine *eng, double *next)
{
    int n = 0;
    *next = INFINITY;
    double t = now(&eng->base);
    for (int i = 0; i < eng->ntimers;) {
        if (eng->timers[i].at <= t) {
            struct done d = eng->timers[i].cb;
            eng->timers[i] = eng->timers[--eng->ntimers];
            d.cb(d.ctx, d.id);
            n++;
        } else {
            *next = fmin(*next, eng->timers[i++].at);
        }
    }
    return n;
}

static void idle_wait(struct cuda_engine *eng, bool gpu_pending, double next_timer)
{
    if (gpu_pending) {
        sched_yield();
        return;
    }
    double wait = fmin(next_timer - now(&eng->base), 1e-3);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    long ns = until.tv_nsec + (long)(fmax(wait, 0) * 1e9);
    until.tv_sec += ns / 1000000000L;
    until.tv_nsec = ns % 1000000000L;
    pthread_mutex_lock(&eng->mu);
    if (eng->ndone == 0)
        pthread_cond_timedwait(&eng->cv, &eng->mu, &until);
    pthread_mutex_unlock(&eng->mu);
}

static void main_loop(struct cuda_engine *eng)
{
    while (!eng->finished) {
        bool pending = false;
        double next = INFINITY;
        int n = drain_cpu(eng);
        if (!eng->finished)
            n += drain_gpus(eng, &pending);
        if (!eng->finished)
            n += drain_timers(eng, &next);
        if (!n && !eng->finished)
            idle_wait(eng, pending, next);
    }
}

/* ---- set-up and tear-down ---------------------------------------------------------- */

/* First launches of cuBLAS/cuSOLVER kernels load modules and initialise
 * heuristics (tens of ms): run each kernel once on the task's own device
 * buffers (the runtime brings the real data in before any use) and wait. */
static void warm_up_gpu(struct cuda_engine *eng, struct gpu *g)
{
    const struct hs_dag *dag = eng->dag;
    for (int k = 0; k < dag->nkernels; k++)
        for (int t = 0; t < dag->ntasks; t++) {
            if (dag->tasks[t].kernel != k || !hs_numeric_has_gpu_kernel(eng->num, dag, t))
                continue;
            void *bufs[16];
            for (int i = 0; i < dag->tasks[t].naccess && i < 16; i++)
                bufs[i] = g->dev[dag->tasks[t].access[i].handle];
            hs_numeric_gpu(eng->num, dag, t, bufs, &g->libs);
            break;
        }
    hs_cuda_spin(0, g->q[S_KERNEL].s);
    cudaStreamSynchronize(g->q[S_KERNEL].s);
}

static int setup_gpu(struct cuda_engine *eng, int node, int device)
{
    struct gpu *g = hs_xcalloc(1, sizeof *g);
    eng->gpu[node] = g;
    g->device = device;
    int err = cudaSetDevice(device);
    for (int s = 0; !err && s < NSTREAMS; s++)
        err = cudaStreamCreateWithFlags(&g->q[s].s, cudaStreamNonBlocking);
    if (err)
        return hs_fail("CUDA engine: cannot set up GPU %d (error %d)", device, err);
    if (hs_gpu_libs_init(&g->libs, g->q[S_KERNEL].s, eng->num))
        return hs_fail("CUDA engine: cannot create the cuBLAS/cuSOLVER handles on GPU %d", device);
    g->dev = hs_xcalloc((size_t)eng->dag->nhandles, sizeof(void *));
    for (int h = 0; h < eng->dag->nhandles; h++) {
        size_t bytes = (size_t)eng->dag->handles[h].bytes;
        if (bytes && cudaMalloc(&g->dev[h], bytes) != cudaSuccess)
            return hs_fail("CUDA engine: GPU %d has not enough memory for the data of %s "
                           "(datum %s, %zu bytes)", device, eng->dag->name, eng->dag->handles[h].name, bytes);
    }
    warm_up_gpu(eng, g);
    return 0;
}

static void teardown(struct cuda_engine *eng)
{
    for (int w = 0; w < eng->pf->nworkers; w++)
        if (eng->pf->workers[w].arch == HS_ARCH_CPU && eng->cpu[w].eng) {
            pthread_mutex_lock(&eng->cpu[w].mu);
            eng->cpu[w].quit = true;
            pthread_cond_signal(&eng->cpu[w].cv);
            pthread_mutex_unlock(&eng->cpu[w].mu);
            pthread_join(eng->cpu[w].th, NULL);
        }
    for (int node = 0; node < eng->pf->nnodes; node++) {
        struct gpu *g = eng->gpu[node];
        if (!g)
            continue;
        cudaSetDevice(g->device);
        cudaDeviceSynchronize();
        for (int h = 0; g->dev && h < eng->dag->nhandles; h++)
            cudaFree(g->dev[h]);
        hs_gpu_libs_free(&g->libs);
        for (int s = 0; s < NSTREAMS; s++) {
            for (int i = 0; i < g->q[s].len; i++)
                cudaEventDestroy(g->q[s].ops[(g->q[s].head + i) % g->q[s].cap].ev);
            if (g->q[s].s)
                cudaStreamDestroy(g->q[s].s);
            free(g->q[s].ops);
        }
        free(g->dev);
        free(g);
    }
    for (int i = 0; i < eng->nfree_ev; i++)
        cudaEventDestroy(eng->free_ev[i]);
    free(eng->free_ev);
    free(eng->gpu);
    free(eng->cpu);
    free(eng->done);
    free(eng->timers);
}

/* Start the CPU worker threads, each on a core of its own after the calling
 * thread's, and wait until they are warm. */
static int start_cpus(struct cuda_engine *eng, const struct hs_cores *cores)
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
            return hs_fail("CUDA engine: cannot start a CPU worker thread");
        }
        hs_cores_pin(cores, c->th, ++started);
    }
    pthread_mutex_lock(&eng->mu);
    while (eng->warm < started)
        pthread_cond_wait(&eng->cv, &eng->mu);
    pthread_mutex_unlock(&eng->mu);
    return 0;
}

int hs_cuda_engine_run(struct hs_sched *rt, const struct hs_platform *pf,
                       const struct hs_numeric *num, void **host)
{
    struct cuda_engine eng = {
        .base = {.now = now, .exec = exec_task, .transfer = transfer, .timer = timer,
                 .finished = finished},
        .rt = rt, .pf = pf, .dag = rt->dag, .num = num, .host = host,
    };
    pthread_mutex_init(&eng.mu, NULL);
    pthread_cond_init(&eng.cv, NULL);
    eng.gpu = hs_xcalloc((size_t)pf->nnodes, sizeof *eng.gpu);
    eng.cpu = hs_xcalloc((size_t)pf->nworkers, sizeof *eng.cpu);
    int rc = 0, device = 0;
    struct hs_cores *cores = hs_cores_get();
    hs_cores_pin(cores, pthread_self(), 0);
    for (int node = 0; !rc && node < pf->nnodes; node++)
        if (pf->nodes[node].kind == HS_NODE_GPU)
            rc = setup_gpu(&eng, node, device++);
    if (!rc)
        rc = start_cpus(&eng, cores);
    if (!rc) {
        clock_gettime(CLOCK_MONOTONIC, &eng.t0);
        hs_runtime_start(rt, &eng.base);
        main_loop(&eng);
        if (eng.error[0])
            rc = hs_fail("%s", eng.error);
    }
    teardown(&eng);
    hs_cores_unpin(cores, pthread_self());
    hs_cores_free(cores);
    return rc;
}
