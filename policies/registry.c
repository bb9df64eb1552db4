/* policies/registry.c — every policy, by name. */
#include "policies/registry.h"
#include "base/util.h"
#include "base/nearest.h"

#include <stdbool.h>

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

/* the built-in policies, then the plugins' */
static const struct hs_policy **known;
static int nknown;
static size_t cap_known;

const struct hs_policy *const *hs_policies(void)
{
    if (!known) {
        nknown = (int)(sizeof all_policies / sizeof *all_policies) - 1;
        known = hs_xmalloc(sizeof all_policies);
        memcpy(known, all_policies, sizeof all_policies);
        cap_known = (size_t)nknown + 1;
    }
    return known;
}

int hs_policy_register(const struct hs_policy *p)
{
    hs_policies();
    for (int i = 0; i < nknown; i++)
        if (strcmp(known[i]->name, p->name) == 0)
            return known[i] == p ? 0 : -1;
    HS_GROW(known, cap_known, (size_t)nknown + 2); /* doubling, not one policy per realloc */
    known[nknown++] = p;
    known[nknown] = NULL;
    return 0;
}

static bool is_plugin_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') || (n > 3 && strcmp(name + n - 3, ".so") == 0);
}

const struct hs_policy *hs_policy_find(const char *name)
{
    if (is_plugin_path(name))
        return hs_policy_load_plugin(name, false);
    for (const struct hs_policy *const *p = hs_policies(); *p; p++)
        if (strcmp((*p)->name, name) == 0)
            return *p;
    char names[2048];
    size_t len = 0;
    names[0] = '\0';
    for (const struct hs_policy *const *p = hs_policies(); *p && len < sizeof names; p++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", (*p)->name);
    hs_fail("unknown policy '%s' (valid: %s; or the path of a policy plugin, lib*.so)%s", name, names,
            hs_did_you_mean(name, names));
    return NULL;
}

const struct hs_policy *hs_policy_parse(const char *text, struct hs_spec *spec)
{
    if (hs_spec_parse(text, spec))
        return NULL;
    const struct hs_policy *p = hs_policy_find(spec->name);
    char what[1100];
    snprintf(what, sizeof what, "policy %s", p ? p->name : "");
    if (!p || hs_spec_check(spec, p->params, what)) {
        hs_spec_free(spec);
        return NULL;
    }
    return p;
}
