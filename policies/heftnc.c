/* policies/heftnc.c — HEFT-NC ("No-Cross", Shetti, Fahmy and Bretschneider,
 * PDCAT 2013; Shetti's M.Eng. thesis, NTU 2014, §5.3, Algorithm 1) and its
 * P-processor extension HEFT-NCe (thesis §6.2, Algorithm 2), one function for
 * both. Where the thesis is ambiguous the choice made here is said, and each
 * alternative is a parameter (docs/policies.md).
 *
 * Ranking (Algorithm 1 lines 1–4, §5.3.1): upward rank
 * rank(t) = weight(t) + max over successors (c̄ + rank(succ)), communication
 * included, with the composite weight of Eq. 5.1 with the slowest time ws and
 * the fastest wf of the task: (ws − wf)·wf/ws (the orientation that
 * reproduces all 32 ranks of the thesis' Table 5.1). For P > 2 this is the
 * "composite" reading of Eqs. 6.1–6.4 (our reading: Eq. 6.4 as printed is
 * inverted, and p_j is the fastest processor); it reduces to Eq. 5.1 at P = 2.
 * Tasks are taken from a ready list by decreasing rank, ties to the lowest id
 * (our choice: the thesis gives no tie rule).
 *
 * Processor selection (Algorithm 1 lines 8–26, Algorithm 2 lines 9–30, §5.3.2,
 * §6.2.2): EFT as in HEFT (Topcuoglu et al. 2002: data-ready time from the
 * predecessors' planned finish plus the transfer when on another memory node;
 * c̄ in the rank is the mean transfer time, c_ij on the uniform network of the
 * thesis' simulations), with insertion into idle gaps;
 * j = GOP = the earliest-finish-time worker (ties: lowest id); k = LOP = a
 * minimum-cost worker (ties: earliest finish, then lowest id; our choice).
 * If w(t,j) ≤ min_p w(t,p) (line 13, read as a test on costs, not on
 * indices) t goes to j. Otherwise
 *   Weight_Ltask    = (w_j − w_k)·w_k/w_j           (Eq. 5.1 on (j,k))
 *   Weight_abstract = (E_k − E_j)·E_k/E_j           (line 17 as printed, "literal")
 *                  or (E_k − E_j)·E_j/E_k           (abstract=semantic, the
 *                                                    orientation of Eq. 5.1)
 *   R = Weight_Ltask / Weight_abstract (INFINITY when Weight_abstract = 0:
 *       equal finish times go to the fastest worker)
 * and R ≤ T sends t to j (cross-over), R > T to k (no cross-over); T = 0 never
 * crosses, T = inf is HEFT's choice. At P = 2, k is the other worker and
 * Weight_Ltask is the task's Eq. 5.1 weight, so this is Algorithm 1. The
 * decisions of the thesis' worked example (Figs. 5.2, 5.3) come out as
 * printed (test_heftnc). Zero-cost tasks (the thesis' pseudo-root) always
 * take the `if` branch and occupy no time. Workers that cannot run a task
 * (infinite estimate) are left out of j, k, ws and wf.
 *
 * Parameters (defaults: the readings above):
 *   threshold=0.3          CROSS_THRESHOLD T, in [0, inf] (the thesis' value)
 *   rank=composite         task weight of the rank: composite (Eq. 5.1), or
 *                          the thesis' Approaches 1–2 speedup ws/wf, absdiff
 *                          ws−wf (§5.3.1), or HEFT's mean
 *   nce_weight=composite   with rank=composite: composite, or literal Eq. 6.4
 *                          Speedup/TimeDiff = (ws/wf)/(ws−wf), 0 when ws = wf
 *                          or wf = 0 (applies at any P — at P = 2 the thesis
 *                          has only Eq. 5.1)
 *   abstract=literal       Weight_abstract orientation: literal | semantic
 *   branches=thesis        thesis: Algorithm 1's branches; as-printed:
 *                          Algorithm 2's swapped bodies (R ≤ T → k, else j;
 *                          a misprint in our reading; for sensitivity only)
 *   insertion=1            0: append after each worker's last task
 * Ties are deterministic (no random option). The plan is executed as HEFT's
 * is (policies/listsched.h). */
#include "policies/heftnc.h"
#include "base/util.h"
#include "policies/registry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param heftnc_params[] = {
    {.name = "threshold", .type = HS_P_DOUBLE, .defval = "0.3", .range = "[0,inf]",
     .help = "CROSS_THRESHOLD T: R <= T crosses to the earliest-finish worker"},
    {.name = "rank", .type = HS_P_CHOICE, .defval = "composite",
     .choices = "mean|speedup|absdiff|composite", .help = "task weight in the upward rank"},
    {.name = "nce_weight", .type = HS_P_CHOICE, .defval = "composite",
     .choices = "composite|literal",
     .help = "rank=composite: (ws-wf)*wf/ws, or Eq. 6.4 as printed (ws/wf)/(ws-wf)"},
    {.name = "abstract", .type = HS_P_CHOICE, .defval = "literal", .choices = "literal|semantic",
     .help = "Weight_abstract = (Ek-Ej)*Ek/Ej as printed, or (Ek-Ej)*Ej/Ek"},
    {.name = "branches", .type = HS_P_CHOICE, .defval = "thesis", .choices = "thesis|as-printed",
     .help = "R <= T: earliest-finish worker (thesis) or fastest (Algorithm 2 as printed)"},
    {.name = "insertion", .type = HS_P_BOOL, .defval = "1",
     .help = "insert into idle gaps (0: after the worker's last task)"},
    {0},
};

void hs_nc_options_from(const struct hs_spec *params, struct hs_nc_options *o)
{
    o->threshold = hs_spec_double(params, "threshold");
    o->rank = hs_spec_get(params, "rank");
    o->nce_literal = strcmp(hs_spec_get(params, "nce_weight"), "literal") == 0;
    o->semantic = strcmp(hs_spec_get(params, "abstract"), "semantic") == 0;
    o->as_printed = strcmp(hs_spec_get(params, "branches"), "as-printed") == 0;
    o->insertion = hs_spec_bool(params, "insertion");
}

/* Slowest and fastest finite time of t (0 and INFINITY if none). */
static void extremes(const struct hs_listsched *ls, int t, double *ws, double *wf)
{
    *ws = 0;
    *wf = INFINITY;
    for (int p = 0; p < ls->nworkers; p++) {
        double c = ls->w[(size_t)t * ls->nworkers + p];
        if (isfinite(c)) {
            *ws = fmax(*ws, c);
            *wf = fmin(*wf, c);
        }
    }
}

void hs_nc_weights(const struct hs_listsched *ls, const struct hs_nc_options *o, double *weight)
{
    hs_heft_weights(ls, o->rank, weight);
    if (!o->nce_literal || strcmp(o->rank, "composite") != 0)
        return;
    for (int t = 0; t < ls->ntasks; t++) {
        double ws, wf;
        extremes(ls, t, &ws, &wf);
        weight[t] = ws > wf && wf > 0 ? (ws / wf) / (ws - wf) : 0;
    }
}

/* The `else` branch: Weight_Ltask / Weight_abstract against T. */
static void compare(const struct hs_nc_options *o, double wj, double wk, struct hs_nc_decision *d)
{
    double ej = d->eft_gop, ek = d->eft_lop;
    d->compared = true;
    d->weight = (wj - wk) * wk / wj;
    d->weight_abstract = (ek - ej) * (o->semantic ? ej / ek : ek / ej);
    d->ratio = d->weight_abstract > 0 ? d->weight / d->weight_abstract : INFINITY;
    bool to_gop = (d->ratio <= o->threshold) != o->as_printed;
    d->chosen = to_gop ? d->gop : d->lop;
}

void hs_nc_decide(const struct hs_listsched *ls, int t, const struct hs_nc_options *o,
                  struct hs_nc_decision *d)
{
    const double *w = &ls->w[(size_t)t * ls->nworkers];
    double wmin = INFINITY, est_gop = 0, est_lop = 0;
    memset(d, 0, sizeof *d);
    d->gop = d->lop = -1;
    d->eft_gop = d->eft_lop = INFINITY;
    for (int p = 0; p < ls->nworkers; p++) {
        if (!isfinite(w[p]))
            continue;
        double est = hs_ls_est(ls, t, p, o->insertion), eft = est + w[p];
        if (eft < d->eft_gop) {
            d->gop = p;
            d->eft_gop = eft;
            est_gop = est;
        }
        if (w[p] < wmin || (w[p] == wmin && eft < d->eft_lop)) {
            d->lop = p;
            wmin = w[p];
            d->eft_lop = eft;
            est_lop = est;
        }
    }
    d->chosen = d->gop;
    if (d->gop >= 0 && w[d->gop] > wmin)
        compare(o, w[d->gop], wmin, d);
    d->start = d->chosen == d->gop ? est_gop : est_lop;
}

void hs_nc_plan(struct hs_listsched *ls, const struct hs_nc_options *o, double *rank,
                struct hs_nc_decision *log)
{
    double *weight = hs_xmalloc((size_t)ls->ntasks * sizeof(double));
    double *prio = hs_xmalloc((size_t)ls->ntasks * sizeof(double));
    hs_nc_weights(ls, o, weight);
    hs_ls_rank_up(ls, weight, prio);
    struct hs_ready *ready = hs_ls_ready_new(ls, prio);
    for (int t, seq = 0; (t = hs_ls_ready_take(ready)) >= 0; seq++) {
        struct hs_nc_decision d;
        hs_nc_decide(ls, t, o, &d);
        d.seq = seq;
        hs_ls_place(ls, t, d.chosen, d.start);
        if (log)
            log[t] = d;
    }
    hs_ls_ready_free(ready);
    if (rank)
        memcpy(rank, prio, (size_t)ls->ntasks * sizeof(double));
    free(weight);
    free(prio);
}

static int heftnc_init(struct hs_runtime *s)
{
    struct hs_nc_options o;
    hs_nc_options_from(hs_sched_params(s), &o);
    struct hs_listsched *ls = hs_ls_new(s);
    hs_nc_plan(ls, &o, NULL, NULL);
    hs_ls_commit(ls);
    hs_ls_offer_mode(ls);
    return 0;
}

const struct hs_policy hs_policy_heftnc = {
    .name = "heftnc",
    .summary = "HEFT-NC/HEFT-NCe (Shetti 2014): composite-weight rank; a task crosses to its "
               "earliest-finish worker only if that beats its fastest one by enough (threshold)",
    .params = heftnc_params,
    .init = heftnc_init,
    .push = hs_ls_push,
    .pop = hs_ls_pop,
    .done = hs_ls_done,
    .fini = hs_ls_fini,
};
