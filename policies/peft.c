/* policies/peft.c — PEFT, Predict Earliest Finish Time (Arabnejad and Barbosa
 * 2014). The optimistic cost table gives, for every task t and worker p, the
 * longest path from t to an exit when each successor runs on its best worker,
 * assuming t runs on p:
 *   OCT(t,p) = max over successors s of min over workers q of
 *              OCT(s,q) + w(s,q) + c̄(t,s)·[q's memory node differs from p's]
 *   OCT(exit,p) = 0.
 * Tasks are taken from the ready list by decreasing mean OCT over the workers
 * (ties to the lowest id) and placed on the worker minimising EFT(t,p) +
 * OCT(t,p), EFT with insertion into idle gaps. Executed as HEFT's plan is. */
#include "policies/listsched.h"
#include "base/util.h"
#include "policies/registry.h"

#include <math.h>
#include <stdlib.h>

static const struct hs_param peft_params[] = {
    {.name = "insertion", .type = HS_P_BOOL, .defval = "1",
     .help = "insert into idle gaps (0: after the worker's last task)"},
    {0},
};

static void optimistic_costs(const struct hs_listsched *ls, double *oct)
{
    const struct hs_dag *dag = ls->dag;
    int P = ls->nworkers;
    for (int i = dag->ntasks - 1; i >= 0; i--) {
        const struct hs_task *t = &dag->tasks[dag->topo[i]];
        for (int p = 0; p < P; p++) {
            int np = hs_sched_worker(ls->s, p)->node;
            double worst = 0;
            for (int k = 0; k < t->nsucc; k++) {
                int e = t->succ[k], s = dag->edges[e].dst;
                double best = INFINITY;
                for (int q = 0; q < P; q++) {
                    double comm = hs_sched_worker(ls->s, q)->node == np ? 0 : hs_ls_comm_mean(ls, e);
                    double v = oct[(size_t)s * P + q] + ls->w[(size_t)s * P + q] + comm;
                    best = fmin(best, v);
                }
                worst = fmax(worst, best);
            }
            oct[(size_t)t->id * P + p] = worst;
        }
    }
}

static int peft_init(struct hs_runtime *s)
{
    struct hs_listsched *ls = hs_ls_new(s);
    int V = ls->ntasks, P = ls->nworkers;
    double *oct = hs_xmalloc((size_t)V * P * sizeof(double));
    double *rank = hs_xmalloc((size_t)V * sizeof(double));
    optimistic_costs(ls, oct);
    for (int t = 0; t < V; t++) {
        double sum = 0;
        for (int p = 0; p < P; p++)
            sum += oct[(size_t)t * P + p];
        rank[t] = sum / P;
    }
    bool insertion = hs_spec_bool(hs_sched_params(s), "insertion");
    struct hs_ready *ready = hs_ls_ready_new(ls, rank);
    for (int t; (t = hs_ls_ready_take(ready)) >= 0;) {
        int best = -1;
        double best_oeft = INFINITY, best_start = 0;
        for (int p = 0; p < P; p++) {
            double est = hs_ls_est(ls, t, p, insertion);
            double oeft = est + ls->w[(size_t)t * P + p] + oct[(size_t)t * P + p];
            if (oeft < best_oeft) {
                best_oeft = oeft;
                best = p;
                best_start = est;
            }
        }
        hs_ls_place(ls, t, best, best_start);
    }
    hs_ls_ready_free(ready);
    free(oct);
    free(rank);
    hs_ls_commit(ls);
    hs_ls_offer_mode(ls);
    return 0;
}

const struct hs_policy hs_policy_peft = {
    .name = "peft",
    .summary = "PEFT (Arabnejad and Barbosa 2014): optimistic cost table look-ahead list scheduling",
    .params = peft_params,
    .init = peft_init,
    .push = hs_ls_push,
    .pop = hs_ls_pop,
    .done = hs_ls_done,
    .fini = hs_ls_fini,
};
