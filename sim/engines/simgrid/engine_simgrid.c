/* sim/engines/simgrid/engine_simgrid.c — executing the runtime's activities in SimGrid.
 *
 * A kernel is a sleep of its actual duration; a transfer is a SimGrid
 * communication between the endpoint hosts of two memory nodes, so that
 * concurrent transfers share the links of their routes (max-min sharing,
 * e.g. two GPUs behind one PCIe switch uplink). Activities are started only
 * when the runtime says they can begin — nothing is posted up front, which
 * keeps SimGrid's work proportional to what is in flight.
 *
 * Each activity is carried out by a runner actor taken from a pool: it waits
 * on its semaphore for a job, performs it, runs the runtime's completion
 * callback (cooperative scheduling, so the runtime needs no locks) and goes
 * back to the pool. Runners are daemons; the main actor starts the runtime
 * and waits until the runtime says it has finished, which ends the run.
 *
 * Where the platform declares a memory link (memory_link.h), a kernel on a
 * core naming one is also a transfer of the bytes it moves, from the core's
 * host to its memory node's, started with the kernel by a second runner:
 * the kernel ends when its duration has passed and its bytes have crossed,
 * so the cores sharing the link share its bandwidth (SimGrid's max-min).
 *
 * With energy (energy.c), the engine notes when each worker's host was at
 * work, from a task's start to its kernel's end, and once the run has ended
 * plays those spans again for SimGrid's energy plugin, so that nothing but
 * sleeps and transfers runs while the runtime does. */
#include "sim/engines/simgrid/engine_simgrid.h"
#include "base/util.h"
#include "sim/engines/simgrid/energy.h"
#include "sim/engines/simgrid/memory_link.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/instr.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sg_engine;

struct runner {
    struct sg_engine *eng;
    sg_sem_t sem;
    bool is_exec;
    double lead, seconds; /* an exec: the runtime's time before the kernel, the kernel */
    sg_host_t worker_host; /* an exec: the host that runs the kernel (a timer: NULL) */
    sg_host_t src, dst;
    double bytes;           /* a transfer; an exec: the bytes its kernel moves through memory */
    sg_host_t memory;       /* an exec: the host at the end of its memory route (NULL: none) */
    sg_sem_t joined;        /* an exec with memory: released when its bytes have crossed */
    const char *state_host; /* Paje: host whose "task" state shows the kernel */
    const char *label;
    hs_engine_cb cb;
    void *ctx;
    long id;
    struct runner *next_free;
};

struct sg_engine {
    struct hs_engine base;
    struct hs_runtime *rt;
    const struct hs_platform *pf;
    sg_host_t *node_host;
    sg_host_t *worker_host; /* per worker: the host its kernels run on */
    sg_host_t *memory;      /* per worker: its memory route's end (memory_link.h), NULL: none */
    sg_host_t home;
    sg_sem_t done;
    bool over; /* simgrid_run returned */
    bool paje;
    struct hs_energy *energy; /* NULL: no energy counted */
    struct hs_sg_busy *busy;  /* with energy: when each worker's host was at work */
    size_t nbusy, cap_busy;
    char **paje_names; /* per kernel: its name as a Paje field */
    struct runner *free_list;
    struct runner **all;
    size_t nrunners, cap;
};

static double sg_now(struct hs_engine *e)
{
    (void)e;
    return simgrid_get_clock();
}

static struct runner *take_runner(struct sg_engine *eng);

static void memory_done(void *ctx, long id)
{
    (void)id;
    sg_sem_release(((struct runner *)ctx)->joined);
}

/* A kernel that moves its bytes through a memory link: after the runtime's
 * lead, its duration and, on a second runner, the transfer of its bytes,
 * started together; it ends when both have. */
static void run_with_memory(struct runner *r)
{
    if (r->lead > 0)
        sg_actor_sleep_for(r->lead);
    bool traced = r->eng->paje && r->state_host;
    if (traced)
        TRACE_host_push_state(r->state_host, "task", r->label);
    if (!r->joined)
        r->joined = sg_sem_init(0);
    struct runner *m = take_runner(r->eng);
    m->is_exec = false;
    m->src = r->worker_host;
    m->dst = r->memory;
    m->bytes = r->bytes;
    m->cb = memory_done;
    m->ctx = r;
    m->id = 0;
    sg_sem_release(m->sem);
    sg_actor_sleep_for(r->seconds);
    sg_sem_acquire(r->joined);
    if (traced)
        TRACE_host_pop_state(r->state_host, "task");
}

static void runner_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct runner *r = sg_actor_self_get_data();
    sg_actor_daemonize(sg_actor_self());
    for (;;) {
        sg_sem_acquire(r->sem);
        double start = simgrid_get_clock();
        if (r->is_exec && r->memory) {
            run_with_memory(r);
        } else if (r->is_exec) {
            bool traced = r->eng->paje && r->state_host;
            if (traced) { /* the state covers the kernel alone */
                if (r->lead > 0)
                    sg_actor_sleep_for(r->lead);
                TRACE_host_push_state(r->state_host, "task", r->label);
                sg_actor_sleep_for(r->seconds);
                TRACE_host_pop_state(r->state_host, "task");
            } else {
                sg_actor_sleep_for(r->lead + r->seconds); /* one event */
            }
        } else {
            sg_host_sendto(r->src, r->dst, r->bytes);
        }
        if (r->is_exec && r->eng->energy && r->worker_host) { /* the host at work, for the energy plugin */
            struct sg_engine *eng = r->eng;
            HS_GROW(eng->busy, eng->cap_busy, eng->nbusy + 1);
            eng->busy[eng->nbusy++] = (struct hs_sg_busy){r->worker_host, start, simgrid_get_clock()};
        }
        r->cb(r->ctx, r->id);
        r->next_free = r->eng->free_list;
        r->eng->free_list = r;
    }
}

static struct runner *take_runner(struct sg_engine *eng)
{
    struct runner *r = eng->free_list;
    if (r) {
        eng->free_list = r->next_free;
        return r;
    }
    r = hs_xcalloc(1, sizeof *r);
    r->eng = eng;
    r->sem = sg_sem_init(0);
    HS_GROW(eng->all, eng->cap, eng->nrunners + 1);
    eng->all[eng->nrunners++] = r;
    char name[32];
    snprintf(name, sizeof name, "runner%zu", eng->nrunners);
    sg_actor_t a = sg_actor_init(name, eng->home);
    sg_actor_set_data(a, r);
    sg_actor_start_(a, runner_main, 0, NULL);
    return r;
}

static void sg_exec(struct hs_engine *e, int worker, int task, double lead, double seconds,
                    hs_engine_cb cb, void *ctx, long id)
{
    struct sg_engine *eng = (struct sg_engine *)e;
    struct runner *r = take_runner(eng);
    const struct hs_dag *dag = hs_runtime_dag(eng->rt);
    r->is_exec = true;
    r->lead = lead;
    r->seconds = seconds;
    r->state_host = eng->pf->workers[worker].host;
    r->worker_host = eng->worker_host[worker];
    r->memory = eng->memory ? eng->memory[worker] : NULL;
    r->bytes = r->memory ? hs_sg_kernel_bytes(dag, &dag->tasks[task]) : 0;
    if (!(r->bytes > 0))
        r->memory = NULL; /* nothing crosses: a plain kernel */
    r->label = eng->paje_names ? eng->paje_names[dag->tasks[task].kernel] : NULL;
    r->cb = cb;
    r->ctx = ctx;
    r->id = id;
    sg_sem_release(r->sem);
}

static void sg_transfer(struct hs_engine *e, int handle, int src, int dst, double bytes,
                        hs_engine_cb cb, void *ctx, long id)
{
    (void)handle;
    struct sg_engine *eng = (struct sg_engine *)e;
    struct runner *r = take_runner(eng);
    r->is_exec = false;
    r->memory = NULL;
    r->src = eng->node_host[src];
    r->dst = eng->node_host[dst];
    r->bytes = bytes;
    r->cb = cb;
    r->ctx = ctx;
    r->id = id;
    sg_sem_release(r->sem);
}

static void sg_timer(struct hs_engine *e, double seconds, hs_engine_cb cb, void *ctx, long id)
{
    struct sg_engine *eng = (struct sg_engine *)e;
    struct runner *r = take_runner(eng);
    r->is_exec = true;
    r->lead = 0;
    r->seconds = seconds;
    r->state_host = NULL; /* no Paje state: it is not a kernel */
    r->worker_host = NULL;
    r->memory = NULL;
    r->cb = cb;
    r->ctx = ctx;
    r->id = id;
    sg_sem_release(r->sem);
}

static void sg_finished(struct hs_engine *e)
{
    struct sg_engine *eng = (struct sg_engine *)e;
    if (!eng->over) /* after the simulation ended, there is no actor to wake */
        sg_sem_release(eng->done);
}

static void main_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct sg_engine *eng = sg_actor_self_get_data();
    hs_runtime_start(eng->rt, &eng->base);
    sg_sem_acquire(eng->done);
    if (eng->energy)
        hs_sg_energy_replay(eng->busy, eng->nbusy, eng->energy);
}

/* A kernel name as a field of a Paje file, which SimGrid writes as it is
 * given: fields are separated by blanks, a field holding blanks goes in
 * double quotes, and nothing inside quotes is escaped, so a quote becomes ',
 * and a line break or tab (a WfFormat category can be a shell script) a
 * space. Plain names stay as they are. */
static char *paje_name(const char *name)
{
    size_t n = strlen(name);
    bool quote = n == 0 || name[strcspn(name, " \t\r\n\"")];
    char *out = hs_xmalloc(n + 3), *q = out;
    if (quote)
        *q++ = '"';
    for (const char *p = name; *p; p++)
        *q++ = *p == '"' ? '\'' : (*p == '\n' || *p == '\r' || *p == '\t') ? ' ' : *p;
    if (quote)
        *q++ = '"';
    *q = '\0';
    return out;
}

/* One Paje state value per kernel, coloured from a fixed palette. */
static char **declare_paje_states(const struct hs_dag *dag)
{
    static const char *palette[] = {"0.894 0.102 0.110", "0.216 0.494 0.722", "0.302 0.686 0.290",
                                    "0.596 0.306 0.639", "1.000 0.498 0.000", "0.651 0.337 0.157",
                                    "0.969 0.506 0.749", "0.600 0.600 0.600"};
    char **names = hs_xcalloc((size_t)dag->nkernels + 1, sizeof *names);
    TRACE_host_state_declare("task");
    for (int k = 0; k < dag->nkernels; k++) {
        names[k] = paje_name(dag->kernels[k]);
        TRACE_host_state_declare_value("task", names[k], palette[k % 8]);
    }
    return names;
}

void hs_sg_engine_run(struct hs_runtime *rt, const struct hs_platform *pf, bool paje, struct hs_energy *energy)
{
    struct sg_engine eng = {
        .base = {.now = sg_now, .exec = sg_exec, .transfer = sg_transfer, .timer = sg_timer,
                 .finished = sg_finished},
        .rt = rt,
        .pf = pf,
        .paje = paje,
        .energy = energy,
    };
    eng.node_host = hs_xmalloc((size_t)pf->nnodes * sizeof(sg_host_t));
    for (int n = 0; n < pf->nnodes; n++)
        eng.node_host[n] = sg_host_by_name(pf->nodes[n].host);
    eng.home = eng.node_host[0];
    eng.worker_host = hs_xmalloc((size_t)pf->nworkers * sizeof(sg_host_t) + 1);
    for (int w = 0; w < pf->nworkers; w++)
        eng.worker_host[w] = sg_host_by_name(pf->workers[w].host);
    if (hs_sg_memory_links(pf->name, pf, NULL, &eng.memory)) /* checked when the platform was opened */
        hs_runtime_fail(rt, hs_last_error());
    eng.done = sg_sem_init(0);
    if (paje)
        eng.paje_names = declare_paje_states(hs_runtime_dag(rt));
    sg_actor_t main = sg_actor_init("hetsim-main", eng.home);
    sg_actor_set_data(main, &eng);
    sg_actor_start_(main, main_actor, 0, NULL);
    simgrid_run();
    /* SimGrid's run ends when no actor can go on: a host turned off (a profile or plugin the
     * platform check does not catch) kills the actors on it, and their tasks never end; an
     * activity whose remainder falls below SimGrid's precision at a clock of 1e10 s and more
     * (flat:8,bw=1 under heftnc: 3.35e10 s) never ends either. Never a result. */
    eng.over = true;
    int done = hs_runtime_tasks_done(rt), ntasks = hs_runtime_dag(rt)->ntasks;
    if (!hs_runtime_error(rt) && done < ntasks) {
        char msg[256];
        snprintf(msg, sizeof msg, "the simulation ended with %d of %d tasks not finished (SimGrid stopped at "
                 "%.6f s with nothing left to run: a host or link turned off, or a clock too large for "
                 "SimGrid's precision?), so it has no result",
                 ntasks - done, ntasks, simgrid_get_clock());
        hs_runtime_fail(rt, msg);
    }
    for (size_t i = 0; i < eng.nrunners; i++) {
        sg_sem_destroy(eng.all[i]->sem);
        if (eng.all[i]->joined)
            sg_sem_destroy(eng.all[i]->joined);
        free(eng.all[i]);
    }
    free(eng.all);
    free(eng.busy);
    sg_sem_destroy(eng.done);
    free(eng.node_host);
    free(eng.worker_host);
    free(eng.memory);
    for (int k = 0; eng.paje_names && k < hs_runtime_dag(rt)->nkernels; k++)
        free(eng.paje_names[k]);
    free(eng.paje_names);
}
