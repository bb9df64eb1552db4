/* policies/bm/bm_model.h — the model in which Beaumont and Marchal evaluate
 * their strategies (their "ad-hoc event based simulation tool", Beaumont and
 * Marchal 2014, §3.4): communication takes no time and overlaps computation;
 * every worker asks the master for work at time 0 and again as soon as it
 * has finished the tasks it was given; a batch of c tasks keeps worker k busy
 * for c / s_k. Simultaneous requests are served in random order (a heap keyed
 * by the time and a random tag: lowest-index-first would make sorted
 * allocation a round-robin; the paper does not say); a request that yields
 * no task is repeated at the same instant. Optionally, after each task a
 * worker's speed is multiplied by 1 + U(−drift, drift) (the dyn.5 and dyn.20
 * scenarios of §3.5, Fig. 8, read as a random walk).
 *
 * On a free network this is what the runtime would compute, without
 * building the DAG, SimGrid's activities or the data-coherence machinery:
 * 10⁶ tasks take a fraction of a second instead of seconds (README, "The
 * paper's model"). */
#ifndef HS_BM_MODEL_H
#define HS_BM_MODEL_H

#include "policies/bm/bm_strategy.h"

#include <gsl/gsl_rng.h>

struct hs_bm_model_config {
    struct hs_bm_config strategy;
    const double *speeds; /* p initial speeds, in tasks per second */
    double drift;         /* 0: constant speeds */
};

struct hs_bm_model_result {
    double makespan;       /* when the last task ends */
    double switch_time;    /* when the first Phase-2 request was served (NAN: none) */
    long blocks, requests, phase1_tasks;
    long *tasks, *blocks_of; /* per worker */
    double *busy;          /* per worker: seconds computing */
};

/* Run the strategy to the end. rng drives the strategy and the order of
 * simultaneous requests; drift_rng the speed changes (may be NULL without
 * drift). -1 with hs_fail for a bad configuration. */
int hs_bm_model_run(const struct hs_bm_model_config *c, gsl_rng *rng, gsl_rng *drift_rng,
                    struct hs_bm_model_result *r);
void hs_bm_model_result_free(struct hs_bm_model_result *r);

#endif
