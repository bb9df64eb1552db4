/* policies/registry.h — the list of policies and the parsing of
 * "name:key=value,…" policy specifications. Adding a policy to hetsim is one
 * file plus one line in registry.c; a policy written out of tree is a shared
 * library loaded at run time (policies/plugin.c). */
#ifndef HS_POLICY_REGISTRY_H
#define HS_POLICY_REGISTRY_H

#include "sim/policy.h"

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

/* NULL-terminated list of every policy: the built-in ones, then those loaded
 * from plugins (valid until the next plugin is loaded). */
const struct hs_policy *const *hs_policies(void);

/* The policy a spec names: a built-in or loaded policy's name, or the path of
 * a plugin (a name with a '/' or ending in ".so"), which is loaded on first
 * use. NULL with hs_fail when there is none. */
const struct hs_policy *hs_policy_find(const char *name);

/* Load a policy plugin (once per path): a shared library that exports
 *   const struct hs_policy hs_policy_plugin = {.name = "mine", ...};
 * (and, optionally, const int hs_policy_abi = HS_POLICY_ABI;). With by_name
 * (--plugin) its policy is then known by its name too. Returns it, or NULL
 * with hs_fail naming the file (cannot be opened, no such symbol, another
 * ABI, no name, no pop, its name taken by another policy). */
const struct hs_policy *hs_policy_load_plugin(const char *path, bool by_name);

/* Add a policy to the known ones (0), unless another has its name (-1). */
int hs_policy_register(const struct hs_policy *p);

/* Parse and validate a policy spec; returns the policy, or NULL with hs_fail
 * (unknown policy or parameter, listing the valid ones). */
const struct hs_policy *hs_policy_parse(const char *text, struct hs_spec *spec);

#endif
