/* policies/cpop.c — CPOP, Critical-Path-On-a-Processor (Topcuoglu, Hariri and
 * Wu 2002). Priority = upward + downward rank (mean costs); the tasks whose
 * priority equals the entry's form the critical path and all go to the one
 * worker minimising their total execution time; every other task, taken by
 * decreasing priority from the ready list, goes to the worker with the
 * earliest finish time (insertion into idle gaps). The plan is executed as
 * HEFT's is (policies/listsched.h). */
#include "policies/listsched.h"
#include "base/util.h"
#include "policies/registry.h"

#include <math.h>
#include <stdlib.h>

static const struct hs_param cpop_params[] = {
    {.name = "insertion", .type = HS_P_BOOL, .defval = "1",
     .help = "insert into idle gaps (0: after the worker's last task)"},
    {0},
};

static bool same_priority(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Follow the critical path from the entry of highest priority. */
static void mark_critical_path(const struct hs_listsched *ls, const double *prio, bool *on_cp)
{
    const struct hs_dag *dag = ls->dag;
    int t = -1;
    for (int i = 0; i < dag->ntasks; i++)
        if (dag->tasks[i].npred == 0 && (t < 0 || prio[i] > prio[t]))
            t = i;
    double cp = prio[t];
    while (t >= 0) {
        on_cp[t] = true;
        int next = -1;
        for (int k = 0; k < dag->tasks[t].nsucc && next < 0; k++) {
            int d = dag->edges[dag->tasks[t].succ[k]].dst;
            if (same_priority(prio[d], cp))
                next = d;
        }
        t = next;
    }
}

static int cp_worker(const struct hs_listsched *ls, const bool *on_cp)
{
    int best = -1;
    double best_sum = INFINITY;
    for (int p = 0; p < ls->nworkers; p++) {
        double sum = 0;
        for (int t = 0; t < ls->ntasks; t++)
            if (on_cp[t])
                sum += ls->w[(size_t)t * ls->nworkers + p];
        if (sum < best_sum) {
            best_sum = sum;
            best = p;
        }
    }
    return best;
}

static int cpop_init(struct hs_runtime *s)
{
    struct hs_listsched *ls = hs_ls_new(s);
    int V = ls->ntasks;
    double *up = hs_xmalloc((size_t)V * sizeof(double)), *down = hs_xmalloc((size_t)V * sizeof(double));
    double *prio = hs_xmalloc((size_t)V * sizeof(double));
    bool *on_cp = hs_xcalloc((size_t)V, sizeof(bool));
    hs_ls_rank_up(ls, ls->wmean, up);
    hs_ls_rank_down(ls, ls->wmean, down);
    for (int t = 0; t < V; t++)
        prio[t] = up[t] + down[t];
    mark_critical_path(ls, prio, on_cp);
    int pcp = cp_worker(ls, on_cp);
    bool insertion = hs_spec_bool(hs_sched_params(s), "insertion");
    struct hs_ready *ready = hs_ls_ready_new(ls, prio);
    for (int t; (t = hs_ls_ready_take(ready)) >= 0;) {
        double start = 0;
        int p = pcp;
        if (on_cp[t] && pcp >= 0)
            start = hs_ls_est(ls, t, p, insertion);
        else
            p = hs_heft_best_worker(ls, t, insertion, &start);
        hs_ls_place(ls, t, p, start);
    }
    hs_ls_ready_free(ready);
    free(up);
    free(down);
    free(prio);
    free(on_cp);
    hs_ls_commit(ls);
    hs_ls_offer_mode(ls);
    return 0;
}

const struct hs_policy hs_policy_cpop = {
    .name = "cpop",
    .summary = "CPOP (Topcuoglu 2002): critical-path tasks on one worker, the rest by earliest "
               "finish time",
    .params = cpop_params,
    .init = cpop_init,
    .push = hs_ls_push,
    .pop = hs_ls_pop,
    .done = hs_ls_done,
    .fini = hs_ls_fini,
};
