/* policies/registry.c — every policy, by name. */
#include "policies/registry.h"
#include "sim/util.h"

#include <stdio.h>
#include <string.h>

static const struct hs_policy *const all_policies[] = {
    &hs_policy_eager,
    &hs_policy_random,
    &hs_policy_dmda,
    &hs_policy_heft,
    &hs_policy_cpop,
    &hs_policy_peft,
    &hs_policy_ws,
    &hs_policy_lws,
    &hs_policy_heftnc,
    &hs_policy_dada,
    &hs_policy_dada0,
    &hs_policy_dada_cp,
    &hs_policy_dada0_cp,
    &hs_policy_dda,
    &hs_policy_cluster,
    &hs_policy_random_outer,
    &hs_policy_sorted_outer,
    &hs_policy_dynamic_outer,
    &hs_policy_dynamic_outer_2phases,
    &hs_policy_random_matrix,
    &hs_policy_sorted_matrix,
    &hs_policy_dynamic_matrix,
    &hs_policy_dynamic_matrix_2phases,
    NULL,
};

const struct hs_policy *const *hs_policies(void)
{
    return all_policies;
}

const struct hs_policy *hs_policy_parse(const char *text, struct hs_spec *spec)
{
    if (hs_spec_parse(text, spec))
        return NULL;
    for (int i = 0; all_policies[i]; i++) {
        const struct hs_policy *p = all_policies[i];
        if (strcmp(p->name, spec->name) != 0)
            continue;
        char what[96];
        snprintf(what, sizeof what, "policy %s", p->name);
        if (hs_spec_check(spec, p->params, what)) {
            hs_spec_free(spec);
            return NULL;
        }
        return p;
    }
    char names[512];
    int len = 0;
    for (int i = 0; all_policies[i]; i++)
        len += snprintf(names + len, sizeof names - (size_t)len, "%s%s", i ? ", " : "",
                        all_policies[i]->name);
    hs_fail("unknown policy '%s' (valid: %s)", spec->name, names);
    hs_spec_free(spec);
    return NULL;
}
