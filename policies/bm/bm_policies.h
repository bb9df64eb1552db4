/* policies/bm/bm_policies.h — Beaumont and Marchal's eight strategies as
 * policies (random-outer, sorted-outer, dynamic-outer, dynamic-outer-2phases
 * and their -matrix twins), and what the paper's model (bm_model.h) needs to
 * run them from a policy specification: which problem and strategy a name
 * means, and the strategy's configuration (the two-phase threshold from
 * beta=auto|estimate|B or phase2=F). */
#ifndef HS_BM_POLICIES_H
#define HS_BM_POLICIES_H

#include "policies/bm/bm_strategy.h"
#include "base/params.h"

#include <stdbool.h>

/* Is `name` one of the eight? Then its dimension (2 outer, 3 matrix) and kind. */
bool hs_bm_policy_kind(const char *name, int *dim, enum hs_bm_kind *kind);

/* The configuration of the checked policy spec for n blocks, p workers of
 * the given speeds (NULL: equal). *beta is the β of a two-phase policy (NAN
 * otherwise), *how how it was chosen ("given", "phase2", "auto: closed
 * form", …). -1 with hs_fail if the analysis cannot be set up. */
int hs_bm_policy_config(const struct hs_spec *spec, int n, int p, const double *speeds,
                        struct hs_bm_config *c, double *beta, const char **how);

#endif
