/* scenario/sweep_runs.c — one run of a resolved sweep definition: its
 * scenario (base, then the axes), the texts its key and instance hash (the
 * canonical specifications with every default filled in, so that two ways of
 * writing one run give one key), its parameter columns; and running it in
 * the child from those columns alone. */
#include "base/buf.h"
#include "policies/registry.h"
#include "scenario/scenario.h"
#include "base/params.h"
#include "base/util.h"
#include "base/nearest.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shortest text that reads back as the same double. */
static char *number_text(double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    return hs_xstrdup(buf);
}

static char *int_text(long v, bool is_default)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", v);
    return hs_xstrdup(is_default ? "default" : buf);
}

/* "name:k=v,…" with bare values for positional parameters. */
static char *spec_render(const struct hs_spec *spec)
{
    struct hs_buf b = {0};
    hs_buf_add(&b, spec->name);
    for (int i = 0; i < spec->n; i++) {
        hs_buf_add(&b, i ? "," : ":");
        if (*spec->kv[i].key)
            hs_buf_printf(&b, "%s=", spec->kv[i].key);
        hs_buf_add(&b, spec->kv[i].value);
    }
    return hs_buf_take(&b);
}

static const struct hs_param *first_positional(const struct hs_param *params)
{
    for (const struct hs_param *p = params; p && p->name; p++)
        if (p->positional)
            return p;
    return NULL;
}

/* Set key=value in the name:key=value text *text whose parameters are `params`. */
static int override(char **text, const char *key, const char *value, const struct hs_param *params,
                    const char *what)
{
    struct hs_spec spec;
    if (hs_spec_parse(*text, &spec))
        return -1;
    bool known = false;
    for (const struct hs_param *p = params; p && p->name; p++)
        known |= strcmp(p->name, key) == 0;
    if (!known) {
        char names[512];
        hs_params_names(params, names, sizeof names);
        hs_fail("%s %s has no parameter %s (valid: %s)", what, spec.name, key, names);
        hs_spec_free(&spec);
        return -1;
    }
    const struct hs_param *pos = first_positional(params);
    int i = 0;
    while (i < spec.n && strcmp(spec.kv[i].key, key) != 0 &&
           !(!*spec.kv[i].key && pos && strcmp(pos->name, key) == 0))
        i++;
    if (i == spec.n) {
        HS_GROW_IMPLIED(spec.kv, spec.n, spec.n + 1); /* as hs_spec_parse grows it */
        spec.kv[spec.n].key = hs_xstrdup(key);
        spec.kv[spec.n++].value = hs_xstrdup(value);
    } else {
        free(spec.kv[i].value);
        spec.kv[i].value = hs_xstrdup(value);
    }
    free(*text);
    *text = spec_render(&spec);
    hs_spec_free(&spec);
    return 0;
}

static const struct hs_param *table_of(enum hs_axis_kind kind, const char *text)
{
    struct hs_spec spec;
    const struct hs_param *params = NULL;
    if (kind == HS_AXIS_WORKLOAD ? hs_workload_spec_parse(text, &spec) : hs_spec_parse(text, &spec))
        return NULL;
    if (kind == HS_AXIS_WORKLOAD)
        for (const struct hs_workload *const *w = hs_workloads(); *w; w++)
            params = strcmp((*w)->name, spec.name) == 0 ? (*w)->params : params;
    const struct hs_policy *p = kind == HS_AXIS_POLICY ? hs_policy_find(spec.name) : NULL;
    params = p ? p->params : params;
    hs_spec_free(&spec);
    return kind == HS_AXIS_PLATFORM ? hs_platform_params(text) : params;
}

static char *policy_canonical(const char *text)
{
    struct hs_spec spec;
    if (!hs_policy_parse(text, &spec))
        return NULL;
    char *out = hs_spec_text(&spec);
    hs_spec_free(&spec);
    return out;
}

static void workload_names(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (const struct hs_workload *const *w = hs_workloads(); *w && len < size; w++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", (*w)->name);
}

/* A platform file's or shipped name's parameters (after ".xml:", or the
 * first ':' of a name without '/', as platforms/resolve.c reads them)
 * checked against their table, so that a sweep refuses a value out of range
 * (--vary cpu_speed=0) before anything runs: 0, or -1 with hs_fail. */
static int check_file_params(const char *text)
{
    const char *xml = strstr(text, ".xml:");
    const char *colon = xml ? xml + 4 : strchr(text, '/') ? NULL : strchr(text, ':');
    if (!colon)
        return 0;
    char *params = hs_xmalloc(strlen(colon) + 2), label[512];
    sprintf(params, "p%s", colon);
    snprintf(label, sizeof label, "platform %.*s", (int)(colon - text), text);
    struct hs_spec spec;
    int rc = hs_spec_parse(params, &spec);
    if (!rc) {
        rc = hs_spec_check(&spec, hs_platform_params(text), label);
        hs_spec_free(&spec);
    }
    free(params);
    return rc;
}

/* Canonical "name:k=v,…" (every parameter, in table order); NULL with hs_fail. */
static char *canonical(enum hs_axis_kind kind, const char *text)
{
    if (kind == HS_AXIS_POLICY)
        return policy_canonical(text);
    if (kind == HS_AXIS_PLATFORM && strncmp(text, "flat", 4) != 0)
        return check_file_params(text) ? NULL : hs_xstrdup(text);
    struct hs_spec spec;
    if (kind == HS_AXIS_WORKLOAD ? hs_workload_spec_parse(text, &spec) : hs_spec_parse(text, &spec))
        return NULL;
    const struct hs_param *params = table_of(kind, text);
    char label[128], names[256];
    snprintf(label, sizeof label, "%s %s", kind == HS_AXIS_WORKLOAD ? "workload" : "platform", spec.name);
    char *out = NULL;
    if (!params) {
        workload_names(names, sizeof names);
        hs_fail("unknown workload '%s' (valid: %s)%s", spec.name, names, hs_did_you_mean(spec.name, names));
    } else if (!hs_spec_check(&spec, params, label)) {
        out = hs_spec_text(&spec);
    }
    hs_spec_free(&spec);
    return out;
}

/* ---- describing run i ----------------------------------------------------- */

struct run_texts {
    char *text[4];  /* as given with the axes applied: -, workload, policy, platform */
    char *canon[4];
};

static void texts_free(struct run_texts *t)
{
    for (int k = 0; k < 4; k++)
        free(t->text[k]), free(t->canon[k]);
}

static int axis_fail(const struct hs_sweep_def *d, int a)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", hs_last_error());
    return hs_fail("%s--vary %s: %s", d->where, d->axes[a].name, msg);
}

/* A worker selection the platform cannot give, named by the axes that made it. */
static int selection_fail(const struct hs_sweep_def *d, const int *choice)
{
    struct hs_buf b = {0};
    hs_buf_add(&b, hs_last_error());
    const char *sep = " (run with";
    for (int a = 0; a < d->naxes; a++) {
        hs_buf_printf(&b, "%s --vary %s=%s", sep, d->axes[a].name, d->axes[a].values[choice[a]]);
        sep = ",";
    }
    if (d->naxes)
        hs_buf_add(&b, ")");
    int rc = hs_fail("%s%s", d->where, hs_buf_str(&b));
    hs_buf_free(&b);
    return rc;
}

/* The run's scenario and its specification texts (given and canonical). */
static int build(const struct hs_sweep_def *d, const int *choice, struct hs_scenario *sc,
                 struct run_texts *t)
{
    *sc = d->sc;
    memset(t, 0, sizeof *t);
    for (int a = 0; a < d->naxes; a++)
        if (d->kind[a] == HS_AXIS_SCENARIO && hs_scenario_set(sc, d->param[a], d->axes[a].values[choice[a]]))
            return axis_fail(d, a);
    t->text[HS_AXIS_WORKLOAD] = hs_xstrdup(sc->workload);
    t->text[HS_AXIS_POLICY] = hs_xstrdup(sc->policy);
    t->text[HS_AXIS_PLATFORM] = hs_xstrdup(sc->platform);
    static const char *const what[] = {"", "workload", "policy", "platform"};
    for (int a = 0; a < d->naxes; a++) {
        enum hs_axis_kind k = d->kind[a];
        if (k != HS_AXIS_SCENARIO && override(&t->text[k], d->param[a], d->axes[a].values[choice[a]],
                                               table_of(k, t->text[k]), what[k]))
            return axis_fail(d, a);
    }
    for (int k = HS_AXIS_WORKLOAD; k <= HS_AXIS_PLATFORM; k++)
        if (!(t->canon[k] = canonical((enum hs_axis_kind)k, t->text[k])))
            return hs_sweep_def_fail(d);
    if (hs_platform_select_check(sc->platform, &sc->cfg.select))
        return selection_fail(d, choice);
    return 0;
}

/* The policy column: a plugin's policy by its own name ("lcf:cost=here" for
 * "./liblcf.so:cost=here"), as its run record names it, so that tables and
 * plots label its runs by it; the plugin is made known by that name, so that
 * the run's child (forked after) reads the column back. The text as given
 * where it names no plugin, or where its policy's name is another policy's
 * (it would be ambiguous). */
static char *policy_column(const char *text)
{
    struct hs_spec spec;
    if (hs_spec_parse(text, &spec))
        return hs_xstrdup(text);
    const struct hs_policy *p = hs_policy_find(spec.name);
    char *out = NULL;
    if (p && strcmp(p->name, spec.name) != 0 && hs_policy_load_plugin(spec.name, true) == p) {
        free(spec.name);
        spec.name = hs_xstrdup(p->name);
        out = spec_render(&spec);
    }
    hs_spec_free(&spec);
    return out ? out : hs_xstrdup(text);
}

/* The parameter columns of the run. */
static char **columns(const struct hs_sweep_def *d, const int *choice, const struct hs_scenario *sc,
                      const struct run_texts *t)
{
    const struct hs_select *sel = &sc->cfg.select;
    char **p = hs_xcalloc((size_t)d->ncolumns, sizeof *p);
    int i = 0;
    p[i++] = hs_xstrdup(t->text[HS_AXIS_PLATFORM]);
    p[i++] = hs_xstrdup(t->text[HS_AXIS_WORKLOAD]);
    p[i++] = policy_column(t->text[HS_AXIS_POLICY]);
    p[i++] = int_text(sel->gpus, sel->gpus < 0);
    p[i++] = int_text(sel->cpus, sel->cpus < 0);
    p[i++] = hs_xstrdup(hs_gpu_order_name(sel->gpu_order));
    p[i++] = int_text(sel->window, false);
    p[i++] = number_text(sel->cache_fraction);
    p[i++] = hs_xstrdup(sel->p2p ? "1" : "0");
    p[i++] = hs_xstrdup(sc->cfg.opts.flush ? "1" : "0");
    p[i++] = number_text(sc->cfg.opts.noise);
    p[i++] = hs_xstrdup(sc->perf ? sc->perf : "");
    p[i++] = hs_xstrdup(sc->costs);
    p[i++] = hs_xstrdup(sc->cfg.energy ? "1" : "0");
    for (int a = 0; a < d->naxes; a++)
        if (d->kind[a] != HS_AXIS_SCENARIO)
            p[i++] = hs_xstrdup(d->axes[a].values[choice[a]]);
    return p;
}

/* What the key hashes: every canonical parameter; the instance leaves out the policy. */
static void hashed_texts(const char *const *p, const struct run_texts *t, char **canon, char **inst)
{
    struct hs_buf b = {0};
    hs_buf_printf(&b, "platform=%s\nworkload=%s\n", t->canon[HS_AXIS_PLATFORM], t->canon[HS_AXIS_WORKLOAD]);
    static const char *const names[] = {"gpus", "cpus", "gpu_order", "window", "cache_fraction",
                                        "p2p", "flush", "noise", "perf"};
    for (int i = 0; i < 9; i++)
        hs_buf_printf(&b, "%s=%s\n", names[i], p[3 + i]);
    if (strcmp(p[12], "platform") != 0) /* keys of runs with the platform's costs as before */
        hs_buf_printf(&b, "costs=%s\n", p[12]);
    if (strcmp(p[13], "1") == 0) /* keys of runs without energy as before */
        hs_buf_printf(&b, "energy=1\n");
    *inst = hs_xstrdup(hs_buf_str(&b));
    hs_buf_printf(&b, "policy=%s\n", t->canon[HS_AXIS_POLICY]);
    *canon = hs_buf_take(&b);
}

static int describe(void *ctx, long index, struct hs_sweep_job *job, char **canon, char **inst)
{
    const struct hs_sweep_def *d = ctx;
    int *choice = hs_xcalloc((size_t)d->naxes + 1, sizeof *choice);
    hs_grid_point(&d->grid, index, choice, &job->rep);
    struct hs_scenario sc;
    struct run_texts t;
    int rc = build(d, choice, &sc, &t);
    if (!rc) {
        job->params = columns(d, choice, &sc, &t);
        job->inputs = hs_inputs_fingerprint(t.text[HS_AXIS_PLATFORM], sc.perf, t.text[HS_AXIS_WORKLOAD]);
        hashed_texts((const char *const *)job->params, &t, canon, inst);
    }
    texts_free(&t);
    free(choice);
    return rc;
}

/* In the child: the scenario from the row's own parameter columns. */
static int run(void *ctx, const struct hs_sweep_job *job, cJSON **record)
{
    const struct hs_sweep_def *d = ctx;
    struct hs_scenario sc;
    hs_scenario_defaults(&sc);
    for (int i = 0; i < hs_sweep_def_fixed_columns(); i++) {
        const char *v = job->params[i];
        if (*v && strcmp(v, "default") != 0 && hs_scenario_set(&sc, d->columns[i], v))
            return HS_EXIT_USAGE;
    }
    sc.cfg.opts.seed = job->id.seed;
    int rc = hs_scenario_run(&sc, record);
    if (rc == 0)
        cJSON_DeleteItemFromObject(*record, "events");
    return rc;
}

void hs_sweep_def_ops(struct hs_sweep_def *d, struct hs_sweep_ops *ops)
{
    *ops = (struct hs_sweep_ops){
        .nparams = d->ncolumns,
        .param_names = (const char *const *)d->columns,
        .nruns = d->nruns,
        .base_seed = d->sc.cfg.opts.seed,
        .sweep = d->id,
        .describe = describe,
        .run = run,
        .ctx = d,
    };
}
