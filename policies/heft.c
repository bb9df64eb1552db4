/* policies/heft.c — HEFT, Topcuoglu, Hariri and Wu 2002, in two forms.
 *
 * Offline (default): in init, rank every task by its upward rank (mean
 * execution times over the workers that can run it, mean communication times
 * over pairs of workers), take ready tasks by decreasing rank (ties to the
 * lowest id) and place each on the worker giving the earliest finish time,
 * inserting it in the first idle gap that holds it (insertion=0: after the
 * worker's last task); ties go to the lowest worker id. The plan is then
 * executed in order (policies/listsched.h) and its makespan reported as the
 * prediction. `rank` selects the task weight of the rank: the mean, or the
 * variants of the HEFT-NC thesis §5.3.1 (with the slowest and fastest finite
 * time of the task): speedup ws/wf, absdiff ws−wf, composite (ws−wf)·wf/ws.
 *
 * Online (online=1), as in XKaapi (Bleuse et al. 2014, §3.1, Algorithm 1;
 * Lima 2014, §6.3.2, Algorithm 6): each batch of tasks made ready by one
 * completion (or the sources at time 0) is sorted by decreasing CPU/GPU
 * speedup (order=fifo keeps activation order), then each task goes to the
 * worker minimising available + exec + transfers (eft=additive, the default:
 * XKaapi's HEFT takes "the appropriate time slot when the worker completes
 * the execution of its last assigned task" and a task's predicted time is
 * "alpha p_i + beta T_i", its execution plus its predicted transfers, Lima
 * §6.3.2; Bleuse et al. §4.1: "the time to transfer data before executing
 * the task"), or max(available, now + transfers) + exec (eft=topcuoglu:
 * Topcuoglu's EST applied online, the transfers overlapping the queued work),
 * appended to that worker's queue; availability is corrected from the actual
 * state of the workers at every decision. A transfer is predicted as latency
 * + bytes/bandwidth (Lima 2014, Eq. 6.1) or, comm=naccel, with bytes/bandwidth
 * times the GPUs in use, as XKaapi 2.1 predicts it (Eq. 6.2, §6.2). */
#include "policies/listsched.h"
#include "base/util.h"
#include "policies/registry.h"
#include "policies/taskq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param heft_params[] = {
    {.name = "online", .type = HS_P_BOOL, .defval = "0",
     .help = "online batches at run time instead of an offline plan"},
    {.name = "insertion", .type = HS_P_BOOL, .defval = "1",
     .help = "offline: insert into idle gaps (0: append after the last task)"},
    {.name = "rank", .type = HS_P_CHOICE, .defval = "mean", .choices = "mean|speedup|absdiff|composite",
     .help = "offline: task weight in the upward rank"},
    {.name = "order", .type = HS_P_CHOICE, .defval = "speedup", .choices = "speedup|fifo",
     .help = "online: order of a batch (CPU/GPU speedup, or activation order)"},
    {.name = "eft", .type = HS_P_CHOICE, .defval = "additive", .choices = "additive|topcuoglu",
     .help = "online: finish time available + exec + transfers (XKaapi's), or "
             "max(available, now + transfers) + exec (Topcuoglu's EST applied online)"},
    {.name = "comm", .type = HS_P_CHOICE, .defval = "plain", .choices = "plain|naccel",
     .help = "online: a transfer predicted as latency + bytes/bandwidth (Lima 2014, Eq. 6.1), or "
             "with bytes/bandwidth times the GPUs in use (naccel: XKaapi 2.1's Eq. 6.2)"},
    {0},
};

/* ---- offline ---------------------------------------------------------------- */

/* Task weights of the rank variants, from the slowest and fastest finite times. */
void hs_heft_weights(const struct hs_listsched *ls, const char *variant, double *weight)
{
    /* with classes, one cost per class: the same extremes */
    int P = ls->ncls ? ls->ncls : ls->nworkers;
    const double *w = ls->ncls ? ls->wc : ls->w;
    for (int t = 0; t < ls->ntasks; t++) {
        double ws = 0, wf = INFINITY;
        for (int p = 0; p < P; p++) {
            double c = w[(size_t)t * P + p];
            if (!isfinite(c))
                continue;
            ws = fmax(ws, c);
            wf = fmin(wf, c);
        }
        if (strcmp(variant, "speedup") == 0)
            weight[t] = wf > 0 ? ws / wf : 1;
        else if (strcmp(variant, "absdiff") == 0)
            weight[t] = ws - wf;
        else if (strcmp(variant, "composite") == 0)
            weight[t] = ws > 0 ? (ws - wf) * wf / ws : 0;
        else
            weight[t] = ls->wmean[t];
    }
}

/* Worker with the earliest finish time for t (ties: the first in
 * ls->worker_order, else the lowest id); its start. */
int hs_heft_best_worker(struct hs_listsched *ls, int t, bool insertion, double *start)
{
    if (ls->classes && !ls->worker_order)
        return hs_ls_classes_best(ls, t, insertion, start);
    int best = -1;
    double best_eft = INFINITY;
    for (int i = 0; i < ls->nworkers; i++) {
        int p = ls->worker_order ? ls->worker_order[i] : i;
        double est = hs_ls_est(ls, t, p, insertion);
        double eft = est + hs_ls_cost(ls, t, p);
        if (eft < best_eft) {
            best_eft = eft;
            best = p;
            *start = est;
        }
    }
    return best;
}

int hs_heft_place_all(struct hs_listsched *ls, const char *variant, bool insertion)
{
    double *weight = hs_xmalloc((size_t)ls->ntasks * sizeof(double));
    double *rank = hs_xmalloc((size_t)ls->ntasks * sizeof(double));
    hs_heft_weights(ls, variant, weight);
    hs_ls_rank_up(ls, weight, rank);
    struct hs_ready *ready = hs_ls_ready_new(ls, rank);
    int rc = 0;
    for (int t; rc == 0 && (t = hs_ls_ready_take(ready)) >= 0;) {
        double start = 0;
        int p = hs_heft_best_worker(ls, t, insertion, &start);
        if (p < 0)
            rc = hs_fail("task %s can run on none of the selected workers", ls->dag->tasks[t].label);
        else
            hs_ls_place(ls, t, p, start);
    }
    hs_ls_ready_free(ready);
    free(weight);
    free(rank);
    return rc;
}

static int plan_offline(struct hs_runtime *s)
{
    const struct hs_spec *params = hs_sched_params(s);
    /* costs and choices per class of identical workers where there are fewer
     * classes than workers: the same plan in O(V x classes) memory */
    struct hs_listsched *ls = hs_sched_nclasses(s) < hs_sched_nworkers(s) ? hs_ls_new_classes(s) : hs_ls_new(s);
    if (hs_heft_place_all(ls, hs_spec_get(params, "rank"), hs_spec_bool(params, "insertion"))) {
        hs_ls_free(ls);
        return -1;
    }
    hs_ls_commit(ls);
    hs_ls_offer_mode(ls);
    return 0;
}

/* ---- online ----------------------------------------------------------------- */

struct online {
    bool online; /* first field: tells the callbacks which mode runs */
    struct hs_taskq batch;
    struct hs_taskq *q; /* per worker */
    double *queued;     /* estimated execution time of each queue */
    double *speedup;    /* per task of the batch being sorted */
    bool by_speedup;
    bool additive;      /* eft=additive: transfers do not overlap the queued work */
    double *slow;       /* comm=naccel: the factor on bytes/bandwidth per memory node */
};

/* The fastest estimate of t on a worker of arch: one member per class of
 * identical workers (sim/sched.h) has each class's. */
static double best_on_arch(struct hs_runtime *s, const struct hs_task *t, enum hs_arch arch)
{
    double best = INFINITY;
    for (int c = 0; c < hs_sched_nclasses(s); c++) {
        const int *m;
        hs_sched_class_members(s, c, &m);
        if (hs_sched_worker(s, m[0])->arch == arch)
            best = fmin(best, hs_sched_exec_estimate(s, t, m[0]));
    }
    return best;
}

static double cpu_gpu_speedup(struct hs_runtime *s, const struct hs_task *t)
{
    double cpu = best_on_arch(s, t, HS_ARCH_CPU), gpu = best_on_arch(s, t, HS_ARCH_GPU);
    if (!isfinite(gpu))
        return isfinite(cpu) ? 0 : 1;
    if (!isfinite(cpu))
        return INFINITY;
    return gpu > 0 ? cpu / gpu : INFINITY;
}

static struct online *sort_online; /* qsort has no context argument */

static int cmp_speedup(const void *a, const void *b)
{
    const struct hs_task *x = *(struct hs_task *const *)a, *y = *(struct hs_task *const *)b;
    double sx = sort_online->speedup[x->id], sy = sort_online->speedup[y->id];
    if (sx != sy)
        return sx > sy ? -1 : 1;
    return x->id - y->id; /* activation order is id order within a batch */
}

/* XKaapi's finish time of a task on w from its estimates; non-decreasing in avail. */
struct fit_ctx {
    const struct online *o;
    double now;
};

static double online_eft(void *ctx, int w, double avail, double transfer, double exec)
{
    (void)w;
    const struct fit_ctx *f = ctx;
    return (f->o->additive ? avail + transfer : fmax(avail, f->now + transfer)) + exec;
}

static void place_online(struct hs_runtime *s, struct online *o, struct hs_task *t)
{
    double eft;
    /* the worker of earliest finish, ties to the lowest id, through the
     * classes of identical workers (sim/sched.h): the scan's choice */
    int best_w = hs_sched_best_worker(s, t, o->queued, o->slow, online_eft,
                                      &(struct fit_ctx){.o = o, .now = hs_sched_now(s)}, &eft);
    hs_taskq_push(&o->q[best_w], t, 0);
    hs_sched_offer(s, best_w, true);
    o->queued[best_w] += hs_sched_exec_estimate(s, t, best_w);
    hs_sched_queued_changed(s, best_w);
}

static void schedule_batch(struct hs_runtime *s, struct online *o)
{
    int n = o->batch.len;
    struct hs_task **tasks = hs_xmalloc((size_t)n * sizeof *tasks);
    for (int i = 0; i < n; i++)
        tasks[i] = hs_taskq_take(&o->batch, 0);
    for (int a = 0; a < HS_NARCH; a++) /* from now on only the workers given tasks */
        hs_sched_offer_arch(s, a, false);
    if (o->by_speedup) {
        for (int i = 0; i < n; i++)
            o->speedup[tasks[i]->id] = cpu_gpu_speedup(s, tasks[i]);
        sort_online = o;
        qsort(tasks, (size_t)n, sizeof *tasks, cmp_speedup);
    }
    for (int i = 0; i < n; i++)
        place_online(s, o, tasks[i]);
    free(tasks);
}

static void online_push(struct hs_runtime *s, struct hs_task *t)
{
    struct online *o = hs_sched_data(s);
    hs_taskq_push(&o->batch, t, 0);
    for (int a = 0; a < HS_NARCH; a++) /* the next pop, whichever worker's, places the batch */
        hs_sched_offer_arch(s, a, true);
}

/* The runtime asks for work right after a completion's successors were pushed:
 * the batch is complete then. */
static struct hs_task *online_pop(struct hs_runtime *s, int w)
{
    struct online *o = hs_sched_data(s);
    if (o->batch.len)
        schedule_batch(s, o);
    if (!o->q[w].len)
        return NULL;
    struct hs_task *t = hs_taskq_take(&o->q[w], 0);
    o->queued[w] -= hs_sched_exec_estimate(s, t, w);
    if (!o->q[w].len) {
        o->queued[w] = 0;
        hs_sched_offer(s, w, false);
    }
    hs_sched_queued_changed(s, w);
    return t;
}

static int init_online(struct hs_runtime *s)
{
    struct online *o = hs_xcalloc(1, sizeof *o);
    int n = hs_sched_nworkers(s);
    o->online = true;
    hs_sched_set_decision(s, HS_DECIDE_WORKERS); /* an EFT on every worker per task */
    hs_sched_offer_mode(s); /* a pop gives or changes something only as said in online_push */
    o->q = hs_xcalloc((size_t)n, sizeof *o->q);
    o->queued = hs_xcalloc((size_t)n, sizeof(double));
    o->speedup = hs_xcalloc((size_t)hs_sched_dag(s)->ntasks, sizeof(double));
    o->by_speedup = strcmp(hs_spec_get(hs_sched_params(s), "order"), "speedup") == 0;
    o->additive = strcmp(hs_spec_get(hs_sched_params(s), "eft"), "additive") == 0;
    if (strcmp(hs_spec_get(hs_sched_params(s), "comm"), "naccel") == 0)
        o->slow = hs_sched_gpu_factors(s, 1);
    hs_sched_set_data(s, o);
    return 0;
}

/* ---- the policy: one name, two modes ---------------------------------------- */

static bool is_online(const struct hs_runtime *s)
{
    return hs_spec_bool(hs_sched_params(s), "online");
}

static int heft_init(struct hs_runtime *s)
{
    return is_online(s) ? init_online(s) : plan_offline(s);
}

static void heft_push(struct hs_runtime *s, struct hs_task *t)
{
    is_online(s) ? online_push(s, t) : hs_ls_push(s, t);
}

static struct hs_task *heft_pop(struct hs_runtime *s, int w)
{
    return is_online(s) ? online_pop(s, w) : hs_ls_pop(s, w);
}

static void heft_done(struct hs_runtime *s, struct hs_task *t, int w)
{
    if (!is_online(s))
        hs_ls_done(s, t, w);
}

static void heft_fini(struct hs_runtime *s)
{
    if (!is_online(s)) {
        hs_ls_fini(s);
        return;
    }
    struct online *o = hs_sched_data(s);
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        hs_taskq_free(&o->q[w]);
    hs_taskq_free(&o->batch);
    free(o->q);
    free(o->queued);
    free(o->speedup);
    free(o->slow);
    free(o);
}

const struct hs_policy hs_policy_heft = {
    .name = "heft",
    .summary = "HEFT (Topcuoglu 2002): offline upward-rank list scheduling with insertion; "
               "online=1: XKaapi's online variant on each batch of ready tasks",
    .params = heft_params,
    .init = heft_init,
    .push = heft_push,
    .pop = heft_pop,
    .done = heft_done,
    .fini = heft_fini,
};
