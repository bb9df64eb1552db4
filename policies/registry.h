/* policies/registry.h — the list of policies and the parsing of
 * "name:key=value,…" policy specifications. Adding a policy is one file plus
 * one line in registry.c. */
#ifndef HS_POLICY_REGISTRY_H
#define HS_POLICY_REGISTRY_H

#include "policies/policy.h"

extern const struct hs_policy hs_policy_eager;
extern const struct hs_policy hs_policy_random;
extern const struct hs_policy hs_policy_dmda;
extern const struct hs_policy hs_policy_heft;
extern const struct hs_policy hs_policy_cpop;
extern const struct hs_policy hs_policy_peft;
extern const struct hs_policy hs_policy_ws;
extern const struct hs_policy hs_policy_lws;
extern const struct hs_policy hs_policy_heftnc;
extern const struct hs_policy hs_policy_dada;
extern const struct hs_policy hs_policy_dada0;
extern const struct hs_policy hs_policy_dada_cp;
extern const struct hs_policy hs_policy_dada0_cp;
extern const struct hs_policy hs_policy_dda;
extern const struct hs_policy hs_policy_cluster;
extern const struct hs_policy hs_policy_random_outer;
extern const struct hs_policy hs_policy_sorted_outer;
extern const struct hs_policy hs_policy_dynamic_outer;
extern const struct hs_policy hs_policy_dynamic_outer_2phases;
extern const struct hs_policy hs_policy_random_matrix;
extern const struct hs_policy hs_policy_sorted_matrix;
extern const struct hs_policy hs_policy_dynamic_matrix;
extern const struct hs_policy hs_policy_dynamic_matrix_2phases;

/* NULL-terminated list of every policy. */
const struct hs_policy *const *hs_policies(void);

/* Parse and validate a policy spec; returns the policy, or NULL with hs_fail
 * (unknown policy or parameter, listing the valid ones). */
const struct hs_policy *hs_policy_parse(const char *text, struct hs_spec *spec);

#endif
