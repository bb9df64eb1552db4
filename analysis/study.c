/* analysis/study.c — loading and checking study files (cJSON). */
#include "analysis/study.h"
#include "base/buf.h"
#include "base/datadir.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "base/nearest.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a value sits in the file, for messages. */
struct where {
    const char *file;
    char path[256];
};

static int bad(const struct where *w, const char *what)
{
    return hs_fail("%s: %s: %s", w->file, w->path[0] ? w->path : "(top)", what);
}

static void append(char *dst, size_t size, const char *text)
{
    size_t n = strlen(dst), m = strlen(text);
    if (n + m >= size)
        m = size - n - 1;
    memcpy(dst + n, text, m);
    dst[n + m] = '\0';
}

/* The path of a key (key != NULL) or an index of w. */
static struct where sub(const struct where *w, const char *key, int index)
{
    struct where s = *w;
    char item[32];
    snprintf(item, sizeof item, "[%d]", index);
    if (key && s.path[0])
        append(s.path, sizeof s.path, ".");
    append(s.path, sizeof s.path, key ? key : item);
    return s;
}

/* Only these keys may appear in object o. */
static int known_keys(const struct where *w, const cJSON *o, const char *const *keys)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, o)
    {
        bool ok = false;
        for (int i = 0; keys[i] && !ok; i++)
            ok = strcmp(item->string, keys[i]) == 0;
        if (!ok) {
            struct hs_buf list = {0};
            for (int i = 0; keys[i]; i++)
                hs_buf_printf(&list, "%s%s", i ? ", " : "", keys[i]);
            struct where s = sub(w, item->string, 0);
            char msg[512];
            snprintf(msg, sizeof msg, "unknown key (valid here: %s)", hs_buf_str(&list));
            hs_buf_free(&list);
            return bad(&s, msg);
        }
    }
    return 0;
}

/* A string, number or boolean as text (numbers in their shortest exact form). */
static int scalar_text(const struct where *w, const cJSON *v, char **out)
{
    char buf[64];
    if (cJSON_IsString(v)) {
        *out = hs_xstrdup(v->valuestring);
    } else if (cJSON_IsBool(v)) {
        *out = hs_xstrdup(cJSON_IsTrue(v) ? "1" : "0");
    } else if (cJSON_IsNumber(v)) {
        snprintf(buf, sizeof buf, "%.15g", v->valuedouble);
        if (strtod(buf, NULL) != v->valuedouble)
            snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
        *out = hs_xstrdup(buf);
    } else {
        return bad(w, "expected a string or a number");
    }
    return 0;
}

static int opt_string(const struct where *w, const cJSON *o, const char *key, char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = NULL;
    if (!v)
        return 0;
    struct where s = sub(w, key, 0);
    if (!cJSON_IsString(v))
        return bad(&s, "expected a string");
    *out = hs_xstrdup(v->valuestring);
    return 0;
}

static int opt_number(const struct where *w, const cJSON *o, const char *key, double lo, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return 0;
    struct where s = sub(w, key, 0);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= lo) || !isfinite(v->valuedouble)) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected a number >= %g", lo);
        return bad(&s, msg);
    }
    *out = v->valuedouble;
    return 0;
}

static int opt_bool(const struct where *w, const cJSON *o, const char *key, bool *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return 0;
    struct where s = sub(w, key, 0);
    if (!cJSON_IsBool(v))
        return bad(&s, "expected true or false");
    *out = cJSON_IsTrue(v);
    return 0;
}

/* An array of strings (a single string is a list of one). */
static int string_list(const struct where *w, const cJSON *o, const char *key, char ***out, int *n)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key), *item;
    if (!v)
        return 0;
    struct where s = sub(w, key, 0);
    if (cJSON_IsString(v)) {
        HS_GROW_IMPLIED(*out, *n, *n + 1);
        (*out)[(*n)++] = hs_xstrdup(v->valuestring);
        return 0;
    }
    if (!cJSON_IsArray(v))
        return bad(&s, "expected a list of strings");
    int i = 0, more = cJSON_GetArraySize(v);
    if (more) /* room for all at once, not one realloc per string */
        HS_GROW_IMPLIED(*out, *n, *n + more);
    cJSON_ArrayForEach(item, v)
    {
        struct where e = sub(&s, NULL, i++);
        if (!cJSON_IsString(item))
            return bad(&e, "expected a string");
        (*out)[(*n)++] = hs_xstrdup(item->valuestring);
    }
    return 0;
}

/* ---- sweep ------------------------------------------------------------------ */

/* The caller made room for one more. */
static void set_kv(struct hs_study_kv **kv, int *n, const char *key, char *value)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*kv)[i].key, key) == 0) {
            free((*kv)[i].value);
            (*kv)[i].value = value;
            return;
        }
    (*kv)[*n].key = hs_xstrdup(key);
    (*kv)[(*n)++].value = value;
}

static int load_kv(const struct where *w, const cJSON *o, struct hs_study_kv **kv, int *n)
{
    if (!cJSON_IsObject(o))
        return bad(w, "expected an object of key: value");
    const cJSON *item;
    int more = cJSON_GetArraySize(o);
    if (more) /* room for every key at once, not one realloc per key */
        HS_GROW_IMPLIED(*kv, *n, *n + more); /* implied: `hetsim ledger` may add one more */
    cJSON_ArrayForEach(item, o)
    {
        struct where s = sub(w, item->string, 0);
        char *value;
        if (scalar_text(&s, item, &value))
            return -1;
        set_kv(kv, n, item->string, value);
    }
    return 0;
}

static int load_axis(const struct where *w, const cJSON *v, struct hs_sweep_axis *axis)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
        return bad(w, "expected a non-empty list of values");
    const cJSON *item;
    int i = 0;
    /* room for every value at once, not one realloc per value */
    axis->values = hs_xrealloc(axis->values, (size_t)(axis->n + cJSON_GetArraySize(v)) * sizeof *axis->values);
    cJSON_ArrayForEach(item, v)
    {
        struct where e = sub(w, NULL, i++);
        char *text;
        if (scalar_text(&e, item, &text))
            return -1;
        axis->values[axis->n++] = text;
    }
    return 0;
}

static int load_vary(const struct where *w, const cJSON *o, struct hs_study *st)
{
    if (!cJSON_IsObject(o))
        return bad(w, "expected an object of key: [values]");
    const cJSON *item;
    int more = cJSON_GetArraySize(o);
    if (more) /* room for every axis at once, not one realloc per axis */
        st->axes = hs_xrealloc(st->axes, (size_t)(st->naxes + more) * sizeof *st->axes);
    cJSON_ArrayForEach(item, o)
    {
        struct where s = sub(w, item->string, 0);
        struct hs_sweep_axis axis = {.name = hs_xstrdup(item->string)};
        if (load_axis(&s, item, &axis)) {
            hs_sweep_axis_free(&axis);
            return -1;
        }
        int a = 0;
        while (a < st->naxes && strcmp(st->axes[a].name, axis.name) != 0)
            a++;
        if (a == st->naxes)
            st->naxes++;
        else
            hs_sweep_axis_free(&st->axes[a]);
        st->axes[a] = axis;
    }
    return 0;
}

/* "sweep", or "quick" over it. */
static int load_sweep(const struct where *w, const cJSON *o, struct hs_study *st)
{
    static const char *const keys[] = {"base", "vary", "reps", "timeout", NULL};
    if (!cJSON_IsObject(o))
        return bad(w, "expected an object");
    if (known_keys(w, o, keys))
        return -1;
    const cJSON *base = cJSON_GetObjectItemCaseSensitive(o, "base");
    const cJSON *vary = cJSON_GetObjectItemCaseSensitive(o, "vary");
    struct where wb = sub(w, "base", 0), wv = sub(w, "vary", 0);
    double reps = st->reps;
    if ((base && load_kv(&wb, base, &st->base, &st->nbase)) || (vary && load_vary(&wv, vary, st)) ||
        opt_number(w, o, "reps", 1, &reps) || opt_number(w, o, "timeout", 0, &st->timeout))
        return -1;
    if (reps != floor(reps) || reps > 1e6) {
        struct where wr = sub(w, "reps", 0);
        return bad(&wr, "expected a whole number of repetitions");
    }
    st->reps = (int)reps;
    return 0;
}

/* "analysis": an analysis computed in place of a sweep. */
static int load_analysis(const struct where *w, const cJSON *o, struct hs_study *st)
{
    static const char *const keys[] = {"kind", "problem", "draws", "seed", NULL};
    if (!cJSON_IsObject(o))
        return bad(w, "expected an object");
    char *problem = NULL;
    double draws = 0, seed = 1;
    struct where wk = sub(w, "kind", 0), wp = sub(w, "problem", 0), wd = sub(w, "draws", 0);
    struct where wsd = sub(w, "seed", 0);
    int rc = known_keys(w, o, keys) || opt_string(w, o, "kind", &st->analysis) ||
             opt_string(w, o, "problem", &problem) || opt_number(w, o, "draws", 0, &draws) ||
             opt_number(w, o, "seed", 0, &seed);
    if (!rc && (!st->analysis || strcmp(st->analysis, "beta-grid") != 0))
        rc = bad(&wk, "expected beta-grid");
    else if (!rc && (!problem || (strcmp(problem, "outer") != 0 && strcmp(problem, "matmul") != 0)))
        rc = bad(&wp, "expected outer or matmul");
    else if (!rc && (draws != floor(draws) || draws > 1e5))
        rc = bad(&wd, "expected a whole number of draws (0: the paper's)");
    else if (!rc && (seed != floor(seed) || seed > 4294967295.0))
        rc = bad(&wsd, "expected a whole number below 2^32");
    if (!rc) {
        st->analysis_dim = strcmp(problem, "outer") == 0 ? 2 : 3;
        st->analysis_draws = (int)draws;
        st->analysis_seed = (unsigned long)seed;
    }
    free(problem);
    return rc;
}

/* ---- report ----------------------------------------------------------------- */

static int load_table(const struct where *w, const cJSON *o, struct hs_study *st)
{
    static const char *const keys[] = {"by", "metrics", "pairwise", NULL};
    if (!cJSON_IsObject(o))
        return bad(w, "expected an object");
    return known_keys(w, o, keys) || string_list(w, o, "by", &st->by, &st->nby) ||
                   string_list(w, o, "metrics", &st->metrics, &st->nmetrics) ||
                   opt_string(w, o, "pairwise", &st->pairwise)
               ? -1
               : 0;
}

int hs_study_misplaced_versus(const char *x, char *const *by, int nby, const struct hs_study_kv *versus,
                              int nversus)
{
    for (int v = 0; v < nversus; v++) {
        bool placed = strcmp(x, versus[v].key) == 0;
        for (int b = 0; b < nby && !placed; b++)
            placed = strcmp(by[b], versus[v].key) == 0;
        if (!placed)
            return v;
    }
    return -1;
}

/* A comparison plot's stat and versus go together, and versus names x or
 * --by columns: each point is compared with the curve or x those values pick. */
static int comparison_plot(const struct where *w, const struct hs_study_plot *p)
{
    struct where ws = sub(w, "stat", 0);
    if (p->stat && strcmp(p->stat, "gain_pct") != 0 && strcmp(p->stat, "ratio") != 0)
        return bad(&ws, "expected gain_pct or ratio");
    if (p->stat && p->overlay)
        return bad(w, "a plot with a stat draws no overlay");
    if (!p->stat != !p->nversus)
        return bad(w, p->stat ? "a plot's stat needs versus (the curve compared against)"
                              : "a plot's versus goes with stat gain_pct or ratio");
    int v = hs_study_misplaced_versus(p->x, p->by, p->nby, p->versus, p->nversus);
    if (v < 0)
        return 0;
    struct where wv = sub(w, "versus", 0), wk = sub(&wv, p->versus[v].key, 0);
    return bad(&wk, "neither x nor one of by (versus picks the curve or the x compared against)");
}

static int load_plot(const struct where *w, const cJSON *o, struct hs_study_plot *p)
{
    static const char *const keys[] = {"file", "x", "y", "by", "title", "xlabel", "ylabel", "logx",
                                       "logy", "overlay", "errors", "stat", "versus", "where", NULL};
    char *errors = NULL;
    if (!cJSON_IsObject(o))
        return bad(w, "expected an object");
    const cJSON *versus = cJSON_GetObjectItemCaseSensitive(o, "versus");
    const cJSON *where = cJSON_GetObjectItemCaseSensitive(o, "where");
    struct where wv = sub(w, "versus", 0), ww = sub(w, "where", 0);
    if (known_keys(w, o, keys) || opt_string(w, o, "stat", &p->stat) ||
        (versus && load_kv(&wv, versus, &p->versus, &p->nversus)) ||
        (where && load_kv(&ww, where, &p->where, &p->nwhere)) ||
        opt_string(w, o, "file", &p->file) || opt_string(w, o, "x", &p->x) ||
        opt_string(w, o, "y", &p->y) || string_list(w, o, "by", &p->by, &p->nby) ||
        opt_string(w, o, "title", &p->title) || opt_string(w, o, "xlabel", &p->xlabel) ||
        opt_string(w, o, "ylabel", &p->ylabel) || opt_bool(w, o, "logx", &p->logx) ||
        opt_bool(w, o, "logy", &p->logy) || opt_string(w, o, "overlay", &p->overlay) ||
        opt_string(w, o, "errors", &errors))
        return free(errors), -1;
    p->sd = errors && strcmp(errors, "sd") == 0;
    if (errors && !p->sd && strcmp(errors, "ci95") != 0) {
        free(errors);
        return bad(w, "errors: ci95 or sd");
    }
    free(errors);
    if (!p->file || !p->x || !p->y)
        return bad(w, "a plot needs file, x and y");
    if (strchr(p->file, '/'))
        return bad(w, "file: a plain file name (it is written in the output folder)");
    return comparison_plot(w, p);
}

double hs_study_ref_null(const char *stat)
{
    return stat && (strcmp(stat, "ratio") == 0 || strcmp(stat, "column_ratio") == 0) ? 1 : 0;
}

/* A bound's part of the rule: a direction ("better", "rises", strict) is
 * checked as a direction, at its null with no margin; a bound at its null
 * with a tolerance is a claim of no gain ("does not scale", "similar or
 * better"), one-sided, and says in margin where its tolerance comes from;
 * a bound elsewhere is a number the paper states. */
static int bound_rule(const struct where *w, const struct hs_study_ref *r)
{
    bool at_null = fabs(r->value - r->null_value) <= 1e-12 * fmax(1, fabs(r->value));
    double tol = isnan(r->tolerance) ? 0 : r->tolerance;
    if (r->strict && !at_null) {
        char what[200];
        snprintf(what, sizeof what, "a direction (strict) is checked at its null, %g, not %g", r->null_value,
                 r->value);
        return bad(w, what);
    }
    if (r->strict && tol > 0)
        return bad(w, "a direction (strict) is checked as a direction: no tolerance");
    if (at_null && tol > 0 && !r->margin)
        return bad(w, "a bound at its null with a tolerance is a claim of no gain: say in margin where the "
                      "tolerance comes from");
    return 0;
}

/* The ledger's rule for one value (study.h, docs/fidelity.md). */
static int ref_rule(const struct where *w, struct hs_study_ref *r)
{
    if (isnan(r->null_value))
        r->null_value = hs_study_ref_null(r->stat);
    if (isnan(r->tolerance) && !r->bound)
        return bad(w, "a published value needs a check: a tolerance (at most half the effect it states) "
                      "or a bound");
    if (!isnan(r->spread) && !r->margin)
        return bad(w, "spread (the paper's own spread) needs margin: where the paper shows it");
    if (r->bound)
        return bound_rule(w, r);
    double effect = fabs(r->value - r->null_value), widest = effect / (2 * fabs(r->value));
    struct where wt = sub(w, "tolerance", 0);
    if (!isnan(r->spread)) /* the paper's own spread, in place of half the effect */
        widest = r->spread;
    else if (effect < 1e-12 * fabs(r->value) || r->value == 0) {
        if (!r->margin)
            return bad(&wt, "the value states no effect (it equals its null): say in margin where the "
                            "tolerance comes from");
        return 0;
    }
    if (r->tolerance > widest * (1 + 1e-9)) {
        double unit = pow(10, floor(log10(widest)) - 3); /* four digits, rounded down */
        widest = floor(widest / unit) * unit;
        char what[256];
        if (!isnan(r->spread))
            snprintf(what, sizeof what, "%g is wider than the paper's own spread: at most %.4g", r->tolerance,
                     widest);
        else
            snprintf(what, sizeof what, "%g is wider than half the effect the value states (|%g - %g| / 2): at "
                     "most %.4g", r->tolerance, r->value, r->null_value, widest);
        return bad(&wt, what);
    }
    return 0;
}

/* by and of go together, with gain_pct; argmax names one column. */
static int groups_rule(const struct where *w, const struct hs_study_ref *r)
{
    static const char *const ofs[] = {"mean", "min", "max", "argmax", NULL};
    if (!r->nby != !r->of)
        return bad(w, r->of ? "of goes with by (the columns whose groups it summarises)"
                            : "by needs of: mean, min, max or argmax of the groups' gains");
    if (!r->of)
        return 0;
    if (!r->stat || strcmp(r->stat, "gain_pct") != 0)
        return bad(w, "by and of go with a gain_pct statistic");
    int k = 0;
    while (ofs[k] && strcmp(ofs[k], r->of) != 0)
        k++;
    struct where wo = sub(w, "of", 0);
    if (!ofs[k])
        return bad(&wo, "expected mean, min, max or argmax");
    if (strcmp(r->of, "argmax") == 0 && r->nby != 1)
        return bad(&wo, "argmax names the value of one by column");
    return 0;
}

static int load_ref(const struct where *w, const cJSON *o, struct hs_study_ref *r)
{
    static const char *const keys[] = {"where",  "metric", "value", "tolerance", "scale",    "source", "stat",
                                       "versus", "bound",  "claim", "over",      "null",     "margin", "strict",
                                       "circular", "by", "of", "spread", NULL};
    static const char *const stats[] = {"mean", "median", "sd", "min", "max", "better_pct", "equal_pct",
                                        "worse_pct", "gain_pct", "ratio", "column_ratio", "loglog_slope", NULL};
    r->tolerance = NAN;
    r->scale = 1;
    r->value = NAN;
    r->null_value = NAN;
    r->spread = NAN;
    if (!cJSON_IsObject(o))
        return bad(w, "expected an object");
    const cJSON *where = cJSON_GetObjectItemCaseSensitive(o, "where");
    const cJSON *versus = cJSON_GetObjectItemCaseSensitive(o, "versus");
    struct where ww = sub(w, "where", 0), wv = sub(w, "versus", 0);
    if (known_keys(w, o, keys) || (where && load_kv(&ww, where, &r->where, &r->nwhere)) ||
        (versus && load_kv(&wv, versus, &r->versus, &r->nversus)) || opt_string(w, o, "stat", &r->stat) ||
        opt_string(w, o, "bound", &r->bound) || opt_string(w, o, "claim", &r->claim) ||
        opt_string(w, o, "over", &r->over) ||
        opt_string(w, o, "metric", &r->metric) || opt_string(w, o, "source", &r->source) ||
        opt_number(w, o, "value", -INFINITY, &r->value) || opt_number(w, o, "tolerance", 0, &r->tolerance) ||
        opt_number(w, o, "scale", 1e-300, &r->scale) || opt_number(w, o, "null", -INFINITY, &r->null_value) ||
        opt_string(w, o, "margin", &r->margin) || opt_bool(w, o, "strict", &r->strict) ||
        opt_string(w, o, "circular", &r->circular) || string_list(w, o, "by", &r->by, &r->nby) ||
        opt_string(w, o, "of", &r->of) || opt_number(w, o, "spread", 0, &r->spread))
        return -1;
    if (!r->metric || isnan(r->value))
        return bad(w, "a published value needs metric and value");
    int k = 0;
    while (r->stat && stats[k] && strcmp(stats[k], r->stat) != 0)
        k++;
    struct where ws = sub(w, "stat", 0);
    if (r->stat && !stats[k])
        return bad(&ws, "expected mean, median, sd, min, max, better_pct, equal_pct, worse_pct, gain_pct, "
                        "ratio, column_ratio or loglog_slope");
    bool by_column = r->stat && (strcmp(r->stat, "column_ratio") == 0 || strcmp(r->stat, "loglog_slope") == 0);
    if (by_column != (r->over != NULL))
        return bad(w, by_column ? "a column_ratio or loglog_slope statistic needs over (the column divided by, "
                                  "or fitted against)"
                                : "over goes with a column_ratio or loglog_slope statistic");
    bool pct = r->stat && (strstr(r->stat, "_pct") || strcmp(r->stat, "ratio") == 0);
    if (pct != (r->nversus > 0))
        return bad(w, pct ? "a *_pct or ratio statistic needs versus (the rows compared against)"
                          : "versus goes with a better_pct, equal_pct, worse_pct, gain_pct or ratio statistic");
    struct where wb = sub(w, "bound", 0);
    if (r->bound && strcmp(r->bound, "upper") != 0 && strcmp(r->bound, "lower") != 0)
        return bad(&wb, "expected upper or lower");
    if (r->strict && !r->bound)
        return bad(w, "strict goes with a bound");
    if (groups_rule(w, r))
        return -1;
    return ref_rule(w, r);
}

static int load_array(const struct where *w, const cJSON *root, const char *key, size_t size,
                      void **items, int *n, int (*load)(const struct where *, const cJSON *, void *))
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key), *item;
    if (!v)
        return 0;
    struct where s = sub(w, key, 0);
    if (!cJSON_IsArray(v))
        return bad(&s, "expected a list");
    int more = cJSON_GetArraySize(v);
    if (more) /* room for every item at once, not one realloc per item */
        *items = hs_xrealloc(*items, (size_t)(*n + more) * size);
    cJSON_ArrayForEach(item, v)
    {
        char *slot = (char *)*items + (size_t)*n * size;
        memset(slot, 0, size);
        struct where e = sub(&s, NULL, *n);
        (*n)++;
        if (load(&e, item, slot))
            return -1;
    }
    return 0;
}

static int plot_loader(const struct where *w, const cJSON *o, void *p)
{
    return load_plot(w, o, p);
}

static int ref_loader(const struct where *w, const cJSON *o, void *r)
{
    return load_ref(w, o, r);
}

static int load_root(const struct where *w, const cJSON *root, struct hs_study *st)
{
    static const char *const keys[] = {"name", "title", "description", "source", "sweep", "quick",
                                       "analysis", "table", "plots", "published", NULL};
    if (!cJSON_IsObject(root))
        return bad(w, "expected an object");
    const cJSON *sweep = cJSON_GetObjectItemCaseSensitive(root, "sweep");
    const cJSON *quick = cJSON_GetObjectItemCaseSensitive(root, "quick");
    const cJSON *table = cJSON_GetObjectItemCaseSensitive(root, "table");
    const cJSON *analysis = cJSON_GetObjectItemCaseSensitive(root, "analysis");
    struct where ws = sub(w, "sweep", 0), wq = sub(w, "quick", 0), wt = sub(w, "table", 0);
    struct where wa = sub(w, "analysis", 0);
    char *name = NULL;
    st->reps = 1;
    if (known_keys(w, root, keys) || opt_string(w, root, "name", &name) ||
        opt_string(w, root, "title", &st->title) || opt_string(w, root, "description", &st->description) ||
        opt_string(w, root, "source", &st->source))
        return free(name), -1;
    if (name) {
        free(st->name);
        st->name = name;
    }
    if (!sweep == !analysis || (analysis && quick))
        return bad(w, analysis ? "a study with an analysis has no sweep and no quick"
                               : "a study needs a sweep (or an analysis)");
    if ((analysis ? load_analysis(&wa, analysis, st) : load_sweep(&ws, sweep, st)) ||
        (table && load_table(&wt, table, st)))
        return -1;
    if (quick && st->quick && load_sweep(&wq, quick, st))
        return -1;
    if (quick && !st->quick) { /* checked all the same */
        struct hs_study scratch = {.reps = 1};
        int rc = load_sweep(&wq, quick, &scratch);
        hs_study_free(&scratch);
        if (rc)
            return -1;
    }
    return load_array(w, root, "plots", sizeof *st->plots, (void **)&st->plots, &st->nplots, plot_loader) ||
                   load_array(w, root, "published", sizeof *st->refs, (void **)&st->refs, &st->nrefs,
                              ref_loader)
               ? -1
               : 0;
}

/* ---- files ------------------------------------------------------------------ */

#ifndef HETSIM_SOURCE_STUDYDIR
#define HETSIM_SOURCE_STUDYDIR NULL
#endif
#ifndef HETSIM_INSTALL_STUDYDIR
#define HETSIM_INSTALL_STUDYDIR NULL
#endif

static const struct hs_data_kind study_kind = {"studies", "HETSIM_STUDYDIR", HETSIM_SOURCE_STUDYDIR,
                                               HETSIM_INSTALL_STUDYDIR};

const char *const *hs_study_dir_list(void)
{
    return hs_data_kind_dirs(&study_kind);
}

const char *hs_study_dirs(void)
{
    return hs_data_kind_describe(&study_kind);
}

char *hs_study_find_file(const char *relative)
{
    for (const char *const *dir = hs_study_dir_list(); *dir; dir++) {
        char *path = hs_xmalloc(strlen(*dir) + strlen(relative) + 2);
        sprintf(path, "%s/%s", *dir, relative);
        FILE *f = fopen(path, "r");
        if (f) {
            fclose(f);
            return path;
        }
        free(path);
    }
    return NULL;
}

/* A path as given, or NAME.json in the first study directory holding it. */
static char *find_study(const char *name)
{
    if (strchr(name, '/') || strstr(name, ".json"))
        return hs_xstrdup(name);
    char *file = hs_xmalloc(strlen(name) + 6);
    sprintf(file, "%s.json", name);
    char *path = hs_study_find_file(file);
    free(file);
    return path;
}

static char *read_text(const char *path, size_t *len)
{
    struct hs_buf b = {0};
    if (hs_buf_read_file(&b, path)) {
        hs_buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return hs_buf_take(&b);
}

static char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *name = hs_xstrdup(slash ? slash + 1 : path);
    char *dot = strstr(name, ".json");
    if (dot)
        *dot = '\0';
    return name;
}

int hs_study_load(const char *name_or_path, bool quick, struct hs_study *st)
{
    memset(st, 0, sizeof *st);
    st->path = find_study(name_or_path);
    if (!st->path) {
        int n;
        char **paths;
        struct hs_buf names = {0};
        n = hs_study_paths(&paths);
        for (int i = 0; i < n; i++) {
            char *b = base_name(paths[i]);
            hs_buf_printf(&names, "%s%s", i ? ", " : "", b);
            free(b);
        }
        hs_study_paths_free(paths, n);
        if (n)
            hs_fail("unknown study '%s'%s (shipped: %s)", name_or_path, /* before the long list, which may be cut */
                    hs_did_you_mean(name_or_path, hs_buf_str(&names)), hs_buf_str(&names));
        else
            hs_fail("unknown study '%s' (no study found in %s)", name_or_path, hs_study_dirs());
        hs_buf_free(&names);
        return -1;
    }
    st->name = base_name(st->path);
    st->quick = quick;
    size_t len = 0;
    char *text = read_text(st->path, &len);
    if (!text)
        return hs_study_free(st), -1;
    char err[1024];
    cJSON *root = hs_json_parse_strict(st->path, text, len, err, sizeof err);
    if (!root) {
        hs_fail("%s", err);
        free(text);
        hs_study_free(st);
        return -1;
    }
    struct where w = {st->path, ""};
    int rc = load_root(&w, root, st);
    cJSON_Delete(root);
    free(text);
    if (rc)
        hs_study_free(st);
    return rc;
}

static void free_list(char **list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void hs_study_kv_free(struct hs_study_kv *kv, int n)
{
    for (int i = 0; i < n; i++) {
        free(kv[i].key);
        free(kv[i].value);
    }
    free(kv);
}

void hs_study_free(struct hs_study *st)
{
    free(st->path), free(st->name), free(st->title), free(st->description), free(st->source);
    free(st->analysis);
    hs_study_kv_free(st->base, st->nbase);
    for (int a = 0; a < st->naxes; a++)
        hs_sweep_axis_free(&st->axes[a]);
    free(st->axes);
    free_list(st->by, st->nby);
    free_list(st->metrics, st->nmetrics);
    free(st->pairwise);
    for (int i = 0; i < st->nplots; i++) {
        struct hs_study_plot *p = &st->plots[i];
        free(p->file), free(p->x), free(p->y), free(p->title), free(p->xlabel), free(p->ylabel);
        free(p->overlay), free(p->stat);
        hs_study_kv_free(p->versus, p->nversus), hs_study_kv_free(p->where, p->nwhere);
        free_list(p->by, p->nby);
    }
    free(st->plots);
    for (int i = 0; i < st->nrefs; i++) {
        hs_study_kv_free(st->refs[i].where, st->refs[i].nwhere);
        free(st->refs[i].metric), free(st->refs[i].source), free(st->refs[i].stat);
        free(st->refs[i].bound), free(st->refs[i].claim), free(st->refs[i].over);
        free(st->refs[i].margin), free(st->refs[i].circular), free(st->refs[i].of);
        free_list(st->refs[i].by, st->refs[i].nby);
        hs_study_kv_free(st->refs[i].versus, st->refs[i].nversus);
    }
    free(st->refs);
    memset(st, 0, sizeof *st);
}
