/* scenario/sweep_def.c — building a sweep definition and resolving its axis
 * keys against the scenario parameters and the parameter tables of the
 * workloads, policies and flat platforms it involves. */
#include "scenario/scenario.h"
#include "base/buf.h"
#include "analysis/sweep.h"
#include "policies/registry.h"
#include "base/params.h"
#include "base/util.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const category[] = {"scenario", "workload", "policy", "platform"};

int hs_sweep_def_fail(const struct hs_sweep_def *d)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", hs_last_error()); /* hs_fail writes over it */
    return hs_fail("%s%s", d->where, msg);
}

void hs_sweep_def_init(struct hs_sweep_def *d, const char *where)
{
    memset(d, 0, sizeof *d);
    d->where = hs_xstrdup(where);
    d->reps = 1;
}

void hs_sweep_def_set(struct hs_sweep_def *d, const char *key, const char *value)
{
    for (int i = 0; i < d->nbase; i++)
        if (strcmp(d->base[i].key, key) == 0) {
            free(d->base[i].value);
            d->base[i].value = hs_xstrdup(value);
            return;
        }
    HS_GROW_IMPLIED(d->base, d->nbase, d->nbase + 1);
    d->base[d->nbase].key = hs_xstrdup(key);
    d->base[d->nbase++].value = hs_xstrdup(value);
}

static void add_axis(struct hs_sweep_def *d, struct hs_sweep_axis axis)
{
    for (int a = 0; a < d->naxes; a++)
        if (strcmp(d->axes[a].name, axis.name) == 0) {
            hs_sweep_axis_free(&d->axes[a]);
            d->axes[a] = axis;
            return;
        }
    HS_GROW_IMPLIED(d->axes, d->naxes, d->naxes + 1);
    d->axes[d->naxes++] = axis;
}

int hs_sweep_def_vary(struct hs_sweep_def *d, const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1])
        return hs_fail("--vary '%s': expected KEY=V1,V2,... (or KEY=LOW..HIGH)", text);
    struct hs_sweep_axis axis = {.name = hs_xmalloc((size_t)(eq - text) + 1)};
    memcpy(axis.name, text, (size_t)(eq - text));
    axis.name[eq - text] = '\0';
    axis.n = hs_sweep_split_values(eq + 1, &axis.values);
    if (axis.n < 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "--vary %s: %s", axis.name, hs_last_error());
        axis.n = 0;
        hs_sweep_axis_free(&axis);
        return hs_fail("%s", msg);
    }
    add_axis(d, axis);
    return 0;
}

void hs_sweep_def_study(struct hs_sweep_def *d, const struct hs_study *st)
{
    for (int i = 0; i < st->nbase; i++)
        hs_sweep_def_set(d, st->base[i].key, st->base[i].value);
    for (int a = 0; a < st->naxes; a++) {
        struct hs_sweep_axis axis = {.name = hs_xstrdup(st->axes[a].name), .n = st->axes[a].n};
        axis.values = hs_xmalloc((size_t)axis.n * sizeof *axis.values);
        for (int i = 0; i < axis.n; i++)
            axis.values[i] = hs_xstrdup(st->axes[a].values[i]);
        add_axis(d, axis);
    }
    d->reps = st->reps;
}

static bool is_scenario_name(const char *name)
{
    for (const char *const *n = hs_scenario_names(); *n; n++)
        if (strcmp(*n, name) == 0)
            return true;
    return false;
}

static int apply_base(struct hs_sweep_def *d)
{
    hs_scenario_defaults(&d->sc);
    for (int i = 0; i < d->nbase; i++) {
        const char *k = d->base[i].key;
        if (!is_scenario_name(k) || hs_scenario_set(&d->sc, k, d->base[i].value)) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", is_scenario_name(k) ? hs_last_error() : "unknown setting");
            return hs_fail("%sbase %s: %s", d->where, k, msg);
        }
    }
    return 0;
}

/* ---- which parameters the sweep's workloads, policies and platforms have -- */

static const struct hs_param *workload_params(const char *text)
{
    struct hs_spec spec;
    const struct hs_param *params = NULL;
    if (hs_workload_spec_parse(text, &spec))
        return NULL;
    for (const struct hs_workload *const *w = hs_workloads(); *w; w++)
        if (strcmp((*w)->name, spec.name) == 0)
            params = (*w)->params;
    hs_spec_free(&spec);
    return params;
}

static const struct hs_param *policy_params(const char *text)
{
    struct hs_spec spec;
    const struct hs_param *params = NULL;
    if (hs_spec_parse(text, &spec))
        return NULL;
    const struct hs_policy *p = hs_policy_find(spec.name);
    params = p ? p->params : NULL;
    hs_spec_free(&spec);
    return params;
}

static bool has_param(const struct hs_param *params, const char *key)
{
    for (const struct hs_param *p = params; p && p->name; p++)
        if (strcmp(p->name, key) == 0)
            return true;
    return false;
}

/* Is key a parameter of the base's or an axis's workload (kind 1), policy (2), platform (3)? */
static bool kind_has(const struct hs_sweep_def *d, enum hs_axis_kind kind, const char *key)
{
    static const char *const axis_of[] = {NULL, "workload", "policy", "platform"};
    const struct hs_param *(*lookup[])(const char *) = {NULL, workload_params, policy_params,
                                                         hs_platform_params};
    const char *base[] = {NULL, d->sc.workload, d->sc.policy, d->sc.platform};
    if (has_param(lookup[kind](base[kind]), key))
        return true;
    for (int a = 0; a < d->naxes; a++)
        if (strcmp(d->axes[a].name, axis_of[kind]) == 0)
            for (int i = 0; i < d->axes[a].n; i++)
                if (has_param(lookup[kind](d->axes[a].values[i]), key))
                    return true;
    return false;
}

static void add_unique(struct hs_buf *b, const char *name)
{
    char item[128];
    snprintf(item, sizeof item, ", %s,", name);
    struct hs_buf probe = {0};
    hs_buf_printf(&probe, ", %s,", hs_buf_str(b));
    bool seen = strstr(hs_buf_str(&probe), item) != NULL;
    hs_buf_free(&probe);
    if (!seen)
        hs_buf_printf(b, "%s%s", b->len ? ", " : "", name);
}

static void add_table(struct hs_buf *b, const struct hs_param *params)
{
    for (const struct hs_param *p = params; p && p->name; p++)
        add_unique(b, p->name);
}

/* Every key an axis of this sweep may take, for messages. */
static void valid_keys(const struct hs_sweep_def *d, struct hs_buf *b)
{
    for (const char *const *n = hs_scenario_names(); *n; n++)
        if (strcmp(*n, "seed") != 0)
            add_unique(b, *n);
    add_table(b, workload_params(d->sc.workload));
    add_table(b, policy_params(d->sc.policy));
    add_table(b, hs_platform_params(d->sc.platform));
    for (int a = 0; a < d->naxes; a++)
        for (int i = 0; i < d->axes[a].n; i++) {
            const char *v = d->axes[a].values[i];
            if (strcmp(d->axes[a].name, "workload") == 0)
                add_table(b, workload_params(v));
            else if (strcmp(d->axes[a].name, "policy") == 0)
                add_table(b, policy_params(v));
            else if (strcmp(d->axes[a].name, "platform") == 0)
                add_table(b, hs_platform_params(v));
        }
    hs_buf_add(b, "; or workload.KEY, policy.KEY, platform.KEY");
}

static int qualified(struct hs_sweep_def *d, int a, const char *dot)
{
    const char *name = d->axes[a].name;
    for (int k = HS_AXIS_WORKLOAD; k <= HS_AXIS_PLATFORM; k++)
        if (strncmp(name, category[k], (size_t)(dot - name)) == 0 && !category[k][dot - name]) {
            d->kind[a] = (enum hs_axis_kind)k;
            d->param[a] = hs_xstrdup(dot + 1);
            if (!kind_has(d, (enum hs_axis_kind)k, dot + 1))
                return hs_fail("%s--vary %s: no %s of this sweep has a parameter %s", d->where, name,
                               category[k], dot + 1);
            return 0;
        }
    return hs_fail("%s--vary %s: unknown key (qualify a key with workload., policy. or platform.)",
                   d->where, name);
}

static int resolve_axis(struct hs_sweep_def *d, int a)
{
    const char *name = d->axes[a].name, *dot = strchr(name, '.');
    if (strcmp(name, "seed") == 0)
        return hs_fail("%s--vary seed: every run's seed derives from --seed and its repetition "
                       "(use --reps); to draw another DAG of a random workload, vary its own seed: "
                       "--vary workload.seed=1..20", d->where);
    if (is_scenario_name(name)) {
        d->kind[a] = HS_AXIS_SCENARIO;
        d->param[a] = hs_xstrdup(name);
        return 0;
    }
    if (dot)
        return qualified(d, a, dot);
    int found = 0;
    for (int k = HS_AXIS_WORKLOAD; k <= HS_AXIS_PLATFORM; k++)
        if (kind_has(d, (enum hs_axis_kind)k, name)) {
            found++;
            d->kind[a] = (enum hs_axis_kind)k;
        }
    if (found == 1) {
        d->param[a] = hs_xstrdup(name);
        return 0;
    }
    if (found > 1)
        return hs_fail("%s--vary %s: ambiguous key: more than one of the workload, the policy and the "
                       "platform has it (write workload.%s, policy.%s or platform.%s)",
                       d->where, name, name, name, name);
    struct hs_buf keys = {0};
    valid_keys(d, &keys);
    hs_fail("%s--vary %s: unknown key (valid: %s)", d->where, name, hs_buf_str(&keys));
    hs_buf_free(&keys);
    return -1;
}

/* The fixed parameter columns: the scenario parameters a run needs. */
static const char *const fixed_columns[] = {"platform", "workload", "policy", "gpus", "cpus",
                                            "gpu_order", "window", "cache_fraction", "p2p", "flush",
                                            "noise", "perf", "costs", "energy", NULL};

int hs_sweep_def_fixed_columns(void)
{
    int n = 0;
    while (fixed_columns[n])
        n++;
    return n;
}

static bool taken(const struct hs_sweep_def *d, const char *name)
{
    static const char *const reserved[] = {"key", "instance", "rep", "seed", "sweep", "inputs", "status",
                                           "error", NULL};
    for (int i = 0; reserved[i]; i++)
        if (strcmp(reserved[i], name) == 0)
            return true;
    for (const char *const *m = hs_sweep_metric_names(); *m; m++)
        if (strcmp(*m, name) == 0)
            return true;
    for (int i = 0; i < d->ncolumns; i++)
        if (strcmp(d->columns[i], name) == 0)
            return true;
    return hs_sweep_is_wallclock_column(name);
}

static void make_columns(struct hs_sweep_def *d)
{
    d->columns = hs_xmalloc((size_t)(hs_sweep_def_fixed_columns() + d->naxes) * sizeof *d->columns);
    for (int i = 0; fixed_columns[i]; i++)
        d->columns[d->ncolumns++] = hs_xstrdup(fixed_columns[i]);
    for (int a = 0; a < d->naxes; a++) {
        if (d->kind[a] == HS_AXIS_SCENARIO)
            continue;
        char *name = hs_xstrdup(d->axes[a].name);
        if (taken(d, name)) {
            free(name);
            name = hs_xmalloc(strlen(d->param[a]) + 16);
            sprintf(name, "%s.%s", category[d->kind[a]], d->param[a]);
        }
        d->columns[d->ncolumns++] = name;
    }
}

static int same_parameter_twice(const struct hs_sweep_def *d)
{
    for (int a = 0; a < d->naxes; a++)
        for (int b = 0; b < a; b++)
            if (d->kind[a] == d->kind[b] && strcmp(d->param[a], d->param[b]) == 0)
                return hs_fail("%s--vary %s and --vary %s vary the same parameter", d->where,
                               d->axes[b].name, d->axes[a].name);
    return 0;
}

/* Shipped platform names and files must exist (flat:P is checked per run). */
static int check_platform(const struct hs_sweep_def *d, const char *text)
{
    struct hs_platform_ref ref;
    if (hs_platform_is_flat(text))
        return 0;
    if (hs_resolve_platform(text, NULL, &ref))
        return hs_sweep_def_fail(d);
    hs_platform_ref_free(&ref);
    return 0;
}

/* What makes the sweep: its base settings, axes, repetitions and base seed
 * (not --shard, -j or the output), so that its shards and resumptions agree. */
static int cmp_kv(const void *a, const void *b)
{
    return strcmp(((const struct hs_study_kv *)a)->key, ((const struct hs_study_kv *)b)->key);
}

static uint64_t definition_hash(const struct hs_sweep_def *d)
{
    struct hs_buf b = {0};
    struct hs_study_kv *base = hs_xmalloc((size_t)(d->nbase + 1) * sizeof *base);
    if (d->nbase) /* in key order: the order of the options does not matter */
        memcpy(base, d->base, (size_t)d->nbase * sizeof *base);
    qsort(base, (size_t)d->nbase, sizeof *base, cmp_kv);
    for (int i = 0; i < d->nbase; i++)
        hs_buf_printf(&b, "base %s=%s\n", base[i].key, base[i].value);
    free(base);
    for (int a = 0; a < d->naxes; a++) {
        hs_buf_printf(&b, "axis %s", d->axes[a].name);
        for (int i = 0; i < d->axes[a].n; i++)
            hs_buf_printf(&b, "%c%s", i ? '\n' : '=', d->axes[a].values[i]);
        hs_buf_add(&b, "\n");
    }
    hs_buf_printf(&b, "reps=%d\nseed=%lu\n", d->reps, d->sc.cfg.opts.seed);
    uint64_t h = hs_fnv1a64(b.s, b.len, HS_FNV_OFFSET);
    hs_buf_free(&b);
    return h;
}

int hs_sweep_def_resolve(struct hs_sweep_def *d)
{
    if (apply_base(d) || check_platform(d, d->sc.platform))
        return -1;
    d->kind = hs_xcalloc((size_t)d->naxes + 1, sizeof *d->kind);
    d->param = hs_xcalloc((size_t)d->naxes + 1, sizeof *d->param);
    for (int a = 0; a < d->naxes; a++)
        if (resolve_axis(d, a))
            return -1;
    for (int a = 0; a < d->naxes; a++)
        for (int i = 0; strcmp(d->axes[a].name, "platform") == 0 && i < d->axes[a].n; i++)
            if (check_platform(d, d->axes[a].values[i]))
                return -1;
    if (same_parameter_twice(d))
        return -1;
    make_columns(d);
    d->grid = (struct hs_grid){d->naxes, d->axes, d->reps};
    d->nruns = hs_grid_size(&d->grid);
    if (d->nruns < 0)
        return hs_sweep_def_fail(d);
    d->id = definition_hash(d);
    return 0;
}

/* Is this workload a generator whose DAG comes from its own seed= parameter? */
static bool seeded_generator(const char *workload)
{
    const struct hs_param *params = workload_params(workload);
    for (const struct hs_param *p = params; p && p->name; p++)
        if (strcmp(p->name, "seed") == 0)
            return true;
    return false;
}

const char *hs_sweep_def_same_dag(const struct hs_sweep_def *d)
{
    if (d->reps < 2)
        return NULL;
    for (int a = 0; a < d->naxes; a++)
        if (d->kind && d->kind[a] == HS_AXIS_WORKLOAD && strcmp(d->param[a], "seed") == 0)
            return NULL;
    if (seeded_generator(d->sc.workload))
        return d->sc.workload;
    for (int a = 0; a < d->naxes; a++)
        for (int i = 0; strcmp(d->axes[a].name, "workload") == 0 && i < d->axes[a].n; i++)
            if (seeded_generator(d->axes[a].values[i]))
                return d->axes[a].values[i];
    return NULL;
}

void hs_sweep_def_free(struct hs_sweep_def *d)
{
    for (int i = 0; i < d->nbase; i++) {
        free(d->base[i].key);
        free(d->base[i].value);
    }
    free(d->base);
    for (int a = 0; a < d->naxes; a++) {
        hs_sweep_axis_free(&d->axes[a]);
        if (d->param)
            free(d->param[a]);
    }
    free(d->axes);
    free(d->kind);
    free(d->param);
    for (int i = 0; i < d->ncolumns; i++)
        free(d->columns[i]);
    free(d->columns);
    free(d->where);
    memset(d, 0, sizeof *d);
}
