/* policies/ws.c — XKaapi's work stealing and its two locality heuristics
 * (Lima 2014, §4.3, §5.5, Algorithms 3 and 4, §6.1.3; where the thesis is
 * silent, XKaapi's code of 2013, as said below).
 *
 * Queues: every worker has a ready list (rtl) and a mailbox; the tasks ready
 * at the start sit in the master list (creation order), which belongs to the
 * master worker (the first core) and which everyone steals from.
 *   local push   head of the activating worker's rtl
 *   remote push  tail of the target worker's mailbox
 *   pop          own mailbox, then own rtl (the master also its master list),
 *                from the head, the first task its architecture can run
 *   steal        victims drawn uniformly among all workers (drawing oneself or
 *                a worker without a task for the thief's architecture is a
 *                failed attempt); the victim's rtl, mailbox, then master
 *                list are scanned from the tail for a task the thief can run.
 *                Each attempt holds the victim's lock for steal_cost seconds
 *                (attempts on one victim are serialised); the thief is
 *                charged the time until its successful attempt ended. After
 *                `attempts` failed draws the thief visits every worker in
 *                turn, so that a ready task is never left behind.
 * How the steal is drawn (issue 55 item 3; policies/victims.c): a set of the
 * workers with work for each architecture is kept as queues fill and empty,
 * and the failed draws are not made one by one. Among draws uniform over
 * the P workers, the failures before the first draw that hits one of the k
 * workers with work number G - 1, G geometric with p = k/P; given that hit,
 * the victim is uniform over the k, whatever G. So the thief draws G
 * (gsl_ran_geometric) and, if G - 1 < attempts, is charged G - 1 failed
 * attempts and draws the victim uniformly among the k; else it is charged
 * the attempts and the workers without work it passes in its visit in turn,
 * up to the first worker with work (a bit set finds it). The same law as
 * drawing every attempt (until 2026-11-29 this file did), in O(1) draws
 * instead of O(P/k), with these differences: a failed attempt holds no lock
 * (before, it held the lock of the worker it drew, and could delay by up to
 * steal_cost a later thief drawing that worker once it had work); a thief
 * when no other worker has work for its architecture draws nothing and holds
 * no lock (before: `attempts` draws and a visit of all, each holding a lock);
 * and the draws from the policy's stream differ, so runs under ws differ from
 * those before 2026-11-29 (a seed still gives one run). A pop that finds
 * nothing thus changes nothing, and the runtime offers work only while some
 * queue holds a task for the worker's architecture (hs_sched_offer_arch).
 * victim=neighbour (lws) visits every other worker in turn, each attempt
 * holding its lock, as before.
 * Where a newly activated task goes (push=):
 *   default   local push (XKaapi "default")
 *   locality  H1 (Algorithm 3): the memory node holding the most valid bytes
 *             of its arguments; host memory or the activating worker's own
 *             node: local push, else remote push to that node's worker
 *   writer    H2 (Algorithm 4), as XKaapi's 2013 code does it: the first written
 *             argument not valid on the activating worker's node goes to
 *             the worker of its lowest-index valid copy if that is a device;
 *             writer=thesis draws a worker uniformly among those holding a
 *             valid copy of the first written argument
 * Order of the activated tasks (order=):
 *   chain     local push at the head of the activating worker's rtl, popped
 *             before anything else: a chain of tasks (DGEMM's C(i,j) += A B
 *             over k) runs to its end on one worker, depth first (XKaapi's
 *             code: a local push goes to the head of the ready list)
 *   fifo      a local push joins the tail of the master (root frame) list,
 *             which every worker pops from the head after its mailbox and
 *             rtl, before stealing: tasks run in activation order, so DGEMM
 *             advances all chains together over k (the order Table 5.1's
 *             1- and 2-GPU volumes of the thesis point to: only it moves the
 *             minimum 8.00 GiB on one GPU)
 * scope=gpu applies H1/H2 only to activations by GPU workers (the 2013
 * code); a target that cannot run the task gets it in the master list instead
 * (a GPU worker activating a CPU-only task). steal=0 disables stealing
 * (everyone then pops the master list), for tests and studies. */
#include "policies/deque.h"
#include "base/util.h"
#include "policies/registry.h"
#include "policies/victims.h"
#include "policies/ws.h"

#include <gsl/gsl_randist.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum push_rule { PUSH_LOCAL, PUSH_LOCALITY, PUSH_WRITER };

struct ws {
    struct hs_deque *rtl, *mailbox, master;
    double *lock_free;  /* per victim: when its lock is free again */
    double *valid;      /* per memory node: scratch for H1 */
    int current;        /* worker whose completion is being processed, -1 at start */
    int master_worker;
    enum push_rule rule;
    struct hs_victims victims; /* the workers whose queues hold work, per architecture */
    bool writer_thesis, gpu_scope, steal, neighbour, fifo;
    double steal_cost;
    int attempts;
    long empty_visits; /* attempts on a worker without a task for the thief's architecture */
};

static const struct hs_param ws_params[] = {
    {.name = "push", .type = HS_P_CHOICE, .defval = "default", .choices = "default|locality|writer",
     .help = "where an activated task goes: local, H1 (most valid bytes), H2 (written data)"},
    {.name = "writer", .type = HS_P_CHOICE, .defval = "code", .choices = "code|thesis",
     .help = "H2 variant: lowest-index valid copy (code) or a random holder (thesis)"},
    {.name = "scope", .type = HS_P_CHOICE, .defval = "all", .choices = "all|gpu",
     .help = "apply H1/H2 to every activation, or only to GPU workers' (2013 code)"},
    {.name = "order", .type = HS_P_CHOICE, .defval = "chain", .choices = "chain|fifo",
     .help = "activated tasks: head of the local list (chains run to their end) or the tail of the "
             "shared frame list (activation order)"},
    {.name = "steal", .type = HS_P_BOOL, .defval = "1", .help = "idle workers steal"},
    {.name = "steal_cost", .type = HS_P_DOUBLE, .defval = "2e-6", .range = "[0,inf)",
     .help = "seconds a steal attempt holds the victim's lock"},
    {.name = "attempts", .type = HS_P_INT, .defval = "0", .range = "[0,100000]",
     .help = "random victims drawn before visiting all (0: twice the workers)"},
    {0},
};

static bool runnable(const struct hs_task *t, void *ctx)
{
    void **c = ctx;
    return hs_sched_can_run(c[0], t, *(int *)c[1]);
}

static const char *param(const struct hs_runtime *s, const char *key, const char *dflt)
{
    const char *v = hs_spec_get(hs_sched_params(s), key);
    return v ? v : dflt;
}

int hs_ws_init(struct hs_runtime *s)
{
    int P = hs_sched_nworkers(s);
    struct ws *ws = hs_xcalloc(1, sizeof *ws);
    ws->rtl = hs_xcalloc((size_t)P, sizeof *ws->rtl);
    ws->mailbox = hs_xcalloc((size_t)P, sizeof *ws->mailbox);
    ws->lock_free = hs_xcalloc((size_t)P, sizeof(double));
    ws->valid = hs_xcalloc((size_t)hs_sched_platform(s)->nnodes, sizeof(double));
    ws->current = -1;
    for (int w = P - 1; w >= 0; w--) /* the master thread runs on the first core */
        if (hs_sched_worker(s, w)->arch == HS_ARCH_CPU)
            ws->master_worker = w;
    const char *push = param(s, "push", "default");
    ws->rule = strcmp(push, "locality") == 0 ? PUSH_LOCALITY
               : strcmp(push, "writer") == 0 ? PUSH_WRITER
                                             : PUSH_LOCAL;
    ws->writer_thesis = strcmp(param(s, "writer", "code"), "thesis") == 0;
    ws->gpu_scope = strcmp(param(s, "scope", "all"), "gpu") == 0;
    ws->steal = strcmp(param(s, "steal", "1"), "0") != 0;
    ws->fifo = strcmp(param(s, "order", "chain"), "fifo") == 0;
    ws->neighbour = strcmp(param(s, "victim", "random"), "neighbour") == 0;
    ws->steal_cost = hs_spec_double(hs_sched_params(s), "steal_cost");
    if (!(ws->steal_cost >= 0))
        ws->steal_cost = 2e-6;
    ws->attempts = (int)hs_spec_int(hs_sched_params(s), "attempts");
    if (ws->attempts <= 0)
        ws->attempts = 2 * P;
    hs_victims_init(&ws->victims, P);
    if (!ws->neighbour) /* a pop that finds nothing changes nothing */
        hs_sched_offer_mode(s);
    hs_sched_set_data(s, ws);
    return 0;
}

/* The worker owning a memory node: a GPU's or a processor's worker; -1 for host memory. */
static int worker_of_node(const struct hs_runtime *s, int node)
{
    if (node == 0)
        return -1;
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        if (hs_sched_worker(s, w)->node == node)
            return w;
    return -1;
}

/* H1: the node with the most valid bytes of t's arguments (first to reach the maximum). */
static int locality_target(struct hs_runtime *s, struct ws *ws, const struct hs_task *t, int cur)
{
    const struct hs_platform *pf = hs_sched_platform(s);
    const struct hs_dag *dag = hs_sched_dag(s);
    memset(ws->valid, 0, (size_t)pf->nnodes * sizeof(double));
    int best = -1;
    for (int a = 0; a < t->naccess; a++)
        for (int n = 0; n < pf->nnodes; n++)
            if (hs_sched_valid(s, t->access[a].handle, n)) {
                ws->valid[n] += dag->handles[t->access[a].handle].bytes;
                if (best < 0 || ws->valid[n] > ws->valid[best])
                    best = n;
            }
    if (best <= 0 || best == hs_sched_worker(s, cur)->node)
        return cur;
    int w = worker_of_node(s, best);
    return w >= 0 ? w : cur;
}

/* H2, thesis variant: a random worker holding the first written argument. */
static int writer_thesis_target(struct hs_runtime *s, const struct hs_task *t, int cur)
{
    for (int a = 0; a < t->naccess; a++) {
        if (!HS_MODE_WRITES(t->access[a].mode))
            continue;
        int P = hs_sched_nworkers(s), n = 0, *eligible = hs_xmalloc((size_t)P * sizeof(int));
        for (int w = 0; w < P; w++)
            if (hs_sched_valid(s, t->access[a].handle, hs_sched_worker(s, w)->node))
                eligible[n++] = w;
        int target = n ? eligible[gsl_rng_uniform_int(hs_sched_rng(s), (unsigned long)n)] : cur;
        free(eligible);
        return target;
    }
    return cur;
}

/* H2, code variant. */
static int writer_target(struct hs_runtime *s, const struct hs_task *t, int cur)
{
    int own = hs_sched_worker(s, cur)->node;
    for (int a = 0; a < t->naccess; a++) {
        int h = t->access[a].handle;
        if (!HS_MODE_WRITES(t->access[a].mode) || hs_sched_valid(s, h, own))
            continue;
        for (int n = 0; n < hs_sched_platform(s)->nnodes; n++)
            if (hs_sched_valid(s, h, n)) {
                int w = n != 0 && n != own ? worker_of_node(s, n) : -1;
                return w >= 0 ? w : cur;
            }
    }
    return cur;
}

static int push_target(struct hs_runtime *s, struct ws *ws, const struct hs_task *t, int cur)
{
    if (ws->gpu_scope && hs_sched_worker(s, cur)->arch != HS_ARCH_GPU)
        return cur;
    switch (ws->rule) {
    case PUSH_LOCALITY: return locality_target(s, ws, t, cur);
    case PUSH_WRITER: return ws->writer_thesis ? writer_thesis_target(s, t, cur) : writer_target(s, t, cur);
    default: return cur;
    }
}

/* Whether v's queues hold a task that architecture a may run. */
static bool has_work(const struct ws *ws, int v, enum hs_arch a)
{
    return hs_deque_admits(&ws->rtl[v], a) || hs_deque_admits(&ws->mailbox[v], a) ||
           (v == ws->master_worker && hs_deque_admits(&ws->master, a));
}

/* Worker v's queues changed: its membership among the victims, and which
 * architectures the runtime offers work to. */
static void note_work(struct hs_runtime *s, struct ws *ws, int v)
{
    for (int a = 0; a < HS_NARCH; a++) {
        hs_victims_set(&ws->victims, a, v, has_work(ws, v, a));
        if (!ws->neighbour)
            hs_sched_offer_arch(s, a, ws->victims.n[a] > 0);
    }
}

void hs_ws_push(struct hs_runtime *s, struct hs_task *t)
{
    struct ws *ws = hs_sched_data(s);
    int cur = ws->current, owner = ws->master_worker;
    int target = cur < 0 ? cur : push_target(s, ws, t, cur);
    if (cur < 0 || !hs_sched_can_run(s, t, target) || (target == cur && ws->fifo)) {
        hs_deque_push_tail(&ws->master, t);
    } else if (target == cur) {
        hs_deque_push_head(&ws->rtl[cur], t);
        owner = cur;
    } else {
        hs_deque_push_tail(&ws->mailbox[target], t);
        owner = target;
    }
    note_work(s, ws, owner);
}

void hs_ws_done(struct hs_runtime *s, struct hs_task *t, int w)
{
    (void)t;
    ((struct ws *)hs_sched_data(s))->current = w;
}

/* The first task q holds that w can run, from the head or from the tail. */
static struct hs_task *take_runnable(struct hs_deque *q, bool from_tail, void **ctx)
{
    const struct hs_runtime *s = ctx[0];
    if (!hs_deque_admits(q, hs_sched_worker(s, *(int *)ctx[1])->arch))
        return NULL; /* nothing there for w's architecture: no scan */
    return from_tail ? hs_deque_pop_tail(q, runnable, ctx) : hs_deque_pop_head(q, runnable, ctx);
}

/* One steal attempt on victim v: its rtl, mailbox, then master list, from the tail. */
static struct hs_task *steal_from(struct ws *ws, int v, void **ctx)
{
    struct hs_task *t = take_runnable(&ws->rtl[v], true, ctx);
    if (!t)
        t = take_runnable(&ws->mailbox[v], true, ctx);
    if (!t && v == ws->master_worker)
        t = take_runnable(&ws->master, true, ctx);
    return t;
}

/* Time of an attempt on v starting at *clock, serialised on v's lock. */
static void hold_lock(struct ws *ws, int v, double *clock)
{
    double start = fmax(*clock, ws->lock_free[v]);
    *clock = start + ws->steal_cost;
    ws->lock_free[v] = *clock;
}

/* An attempt on a worker with work (hs_victims_steal), after `missed` failed
 * draws or visits, each charged steal_cost (they hold no lock: see above). */
struct attempt {
    struct ws *ws;
    void **ctx;
    enum hs_arch arch; /* the thief's */
    double clock;
    struct hs_task *t;
};

static bool try_victim(int v, long missed, void *p)
{
    struct attempt *at = p;
    at->clock += (double)missed * at->ws->steal_cost;
    hold_lock(at->ws, v, &at->clock);
    at->t = steal_from(at->ws, v, at->ctx);
    if (!at->t && !has_work(at->ws, v, at->arch))
        at->ws->empty_visits++;
    return at->t != NULL;
}

static struct hs_task *steal(struct hs_runtime *s, struct ws *ws, int w, void **ctx)
{
    int P = hs_sched_nworkers(s), v = -1;
    enum hs_arch arch = hs_sched_worker(s, w)->arch;
    struct attempt at = {.ws = ws, .ctx = ctx, .arch = arch, .clock = hs_sched_now(s)};
    if (ws->neighbour) { /* every other worker in turn, each attempt holding its lock */
        for (int i = 1; i < P && !at.t; i++)
            if (try_victim((w + i) % P, 0, &at))
                v = (w + i) % P;
    } else {
        v = hs_victims_steal(&ws->victims, arch, w, ws->attempts, hs_sched_rng(s), try_victim, &at);
    }
    if (!at.t)
        return NULL;
    note_work(s, ws, v);
    hs_sched_delay(s, w, at.clock - hs_sched_now(s));
    return at.t;
}

struct hs_task *hs_ws_pop(struct hs_runtime *s, int w)
{
    struct ws *ws = hs_sched_data(s);
    void *ctx[2] = {s, &w};
    struct hs_task *t = take_runnable(&ws->mailbox[w], false, ctx);
    if (!t)
        t = take_runnable(&ws->rtl[w], false, ctx);
    if (!t && (w == ws->master_worker || !ws->steal || ws->fifo))
        t = take_runnable(&ws->master, false, ctx);
    if (t) {
        note_work(s, ws, w);
        note_work(s, ws, ws->master_worker);
    } else if (ws->steal) {
        t = steal(s, ws, w, ctx);
    }
    return t;
}

long hs_ws_empty_visits(const struct hs_runtime *s)
{
    return ((const struct ws *)hs_sched_data(s))->empty_visits;
}

void hs_ws_fini(struct hs_runtime *s)
{
    struct ws *ws = hs_sched_data(s);
    for (int w = 0; w < hs_sched_nworkers(s); w++) {
        hs_deque_free(&ws->rtl[w]);
        hs_deque_free(&ws->mailbox[w]);
    }
    hs_deque_free(&ws->master);
    hs_victims_free(&ws->victims);
    free(ws->rtl);
    free(ws->mailbox);
    free(ws->lock_free);
    free(ws->valid);
    free(ws);
}

const struct hs_policy hs_policy_ws = {
    .name = "ws",
    .summary = "XKaapi work stealing: local ready lists, mailboxes, random victims; push=locality "
               "(H1) or push=writer (H2) send activated tasks where their data is",
    .params = ws_params,
    .init = hs_ws_init,
    .push = hs_ws_push,
    .pop = hs_ws_pop,
    .done = hs_ws_done,
    .fini = hs_ws_fini,
};
