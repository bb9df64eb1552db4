/* policies/heftnc.h — the pieces of HEFT-NC / HEFT-NCe (policies/heftnc.c)
 * that tests and experiments use directly: the options of the policy, the
 * task weights of its rank, and the planner with an optional log of every
 * processor-selection decision (the thesis' worked example is such a
 * decision, Figs. 5.2 and 5.3). */
#ifndef HS_HEFTNC_H
#define HS_HEFTNC_H

#include "policies/listsched.h"

#include <stdbool.h>

struct hs_nc_options {
    double threshold;  /* CROSS_THRESHOLD T, >= 0, may be INFINITY */
    const char *rank;  /* mean | speedup | absdiff | composite */
    bool nce_literal;  /* rank=composite: Eq. 6.4 as printed instead of Eq. 5.1 */
    bool semantic;     /* Weight_abstract with EFT_j/EFT_k (Eq. 5.1's orientation) */
    bool as_printed;   /* Algorithm 2's swapped branch bodies */
    bool insertion;    /* insertion into idle gaps (false: append) */
};

/* One processor selection. gop: the worker with the earliest finish time
 * (ties: lowest id); lop: a minimum-cost worker (ties: earliest finish time,
 * then lowest id). When w(t,gop) is already minimal (the `if` of line 13) the
 * task goes to gop and compared is false; otherwise weight = Weight_Ltask,
 * weight_abstract and ratio = weight / weight_abstract (INFINITY when the
 * abstract weight is 0) were computed and chosen is gop (cross-over) or lop.
 * seq: the position of the decision in the planning order (from 0). */
struct hs_nc_decision {
    int seq, gop, lop, chosen;
    bool compared;
    double weight, weight_abstract, ratio;
    double eft_gop, eft_lop, start;
};

/* Options from the policy's validated parameters. */
void hs_nc_options_from(const struct hs_spec *params, struct hs_nc_options *o);

/* Task weight of the rank (per o->rank, o->nce_literal). */
void hs_nc_weights(const struct hs_listsched *ls, const struct hs_nc_options *o, double *weight);

/* Decide where t goes, given the current partial plan (does not place it). */
void hs_nc_decide(const struct hs_listsched *ls, int t, const struct hs_nc_options *o,
                  struct hs_nc_decision *d);

/* Plan every task: upward rank of the weights, ready list by decreasing rank
 * (ties: lowest id), hs_nc_decide, placement. rank ([ntasks]) receives the
 * ranks and log ([ntasks], indexed by task) the decisions, when not NULL. */
void hs_nc_plan(struct hs_listsched *ls, const struct hs_nc_options *o, double *rank,
                struct hs_nc_decision *log);

#endif
