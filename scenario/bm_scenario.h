/* scenario/bm_scenario.h — scenarios with Beaumont and Marchal's products
 * and policies (Beaumont and Marchal 2014):
 *
 *   - on flat:P with bw=inf (their model: communication is free and takes
 *     no time) the model engine's request-level form runs their policies at
 *     the level of their requests (policies/bm/bm_engine.h), without
 *     building the DAG or the runtime, and the run record says "engine":
 *     "model";
 *   - elsewhere they run through the runtime, after a check that the DAG is
 *     the product the policy is for;
 *   - the record of any run of an outer or matrix product gets
 *     results.products: the blocks moved, the lower bound for the workers'
 *     speeds and their ratio; model runs add β, the predicted ratio (the
 *     analysis) and the share of tasks of Phase 1. */
#ifndef HS_BM_SCENARIO_H
#define HS_BM_SCENARIO_H

#include "scenario/scenario.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

/* Run one of their policies on a free flat:P (plan->free_network) through
 * the request-level form of plan->engine (its `requests`); same return codes
 * and record as hs_scenario_run. */
int hs_bm_scenario_run(const struct hs_scenario *sc, const struct hs_scenario_plan *plan,
                       cJSON **record);

/* A runtime run of one of these policies needs its product's DAG: 0, or -1
 * with hs_fail (bad input). Other policies pass. */
int hs_bm_scenario_check(const struct hs_dag *dag, const struct hs_scenario_plan *plan,
                         const char *policy_name);

/* Add results.products to the record of a runtime run of an outer or matrix
 * product (nothing for other DAGs). */
void hs_bm_scenario_volume(cJSON *record, const struct hs_run *run);

#endif
