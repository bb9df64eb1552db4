/* analysis/sweep_grid.c — the grid of a sweep (axes, values, repetitions)
 * and the keys and seeds of its runs. */
#include "analysis/sweep.h"
#include "base/buf.h"
#include "base/util.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 10000000L

long hs_grid_size(const struct hs_grid *g)
{
    if (g->reps < 1)
        return hs_fail("a sweep needs at least one repetition"), -1;
    long n = g->reps;
    for (int a = 0; a < g->naxes; a++) {
        if (g->axes[a].n < 1)
            return hs_fail("axis %s has no value", g->axes[a].name), -1;
        if (n > MAX_RUNS / g->axes[a].n)
            return hs_fail("the sweep has more than %ld runs", MAX_RUNS), -1;
        n *= g->axes[a].n;
    }
    return n;
}

void hs_grid_point(const struct hs_grid *g, long index, int *choice, int *rep)
{
    *rep = (int)(index % g->reps);
    index /= g->reps;
    for (int a = g->naxes - 1; a >= 0; a--) {
        choice[a] = (int)(index % g->axes[a].n);
        index /= g->axes[a].n;
    }
}

static char *trimmed(const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    char *out = hs_xmalloc(len + 1);
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

/* "3..8" -> 3 and 8; 0 if the item is not such a range. */
static int parse_range(const char *item, long *lo, long *hi)
{
    const char *dots = strstr(item, "..");
    if (!dots || dots == item)
        return 0;
    char *lotext = trimmed(item, (size_t)(dots - item));
    int ok = hs_parse_long(lotext, lo) == 0 && hs_parse_long(dots + 2, hi) == 0;
    free(lotext);
    return ok;
}

static int add_item(const char *item, char ***values, int *n, size_t *cap)
{
    long lo, hi;
    if (!*item)
        return hs_fail("empty value in the list");
    if (!parse_range(item, &lo, &hi)) {
        HS_GROW(*values, *cap, (size_t)*n + 1);
        (*values)[(*n)++] = hs_xstrdup(item);
        return 0;
    }
    if (hi < lo || hi - lo >= 1000000)
        return hs_fail("range %s: expected LOW..HIGH with LOW <= HIGH (at most 10^6 values)", item);
    for (long v = lo; v <= hi; v++) {
        char text[32];
        snprintf(text, sizeof text, "%ld", v);
        HS_GROW(*values, *cap, (size_t)*n + 1);
        (*values)[(*n)++] = hs_xstrdup(text);
    }
    return 0;
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A value given twice in one list would be the same runs twice (their
 * rows would share a key): hs_fail naming it. Sorted, O(n log n). */
static int repeated_value(char *const *values, int n, const char *text)
{
    char **sorted = hs_xmalloc((size_t)(n ? n : 1) * sizeof *sorted);
    memcpy(sorted, values, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_text);
    int rc = 0;
    for (int i = 1; i < n && !rc; i++)
        if (strcmp(sorted[i], sorted[i - 1]) == 0)
            rc = hs_fail("the value '%s' is given twice in '%s': its runs are the same run (is a value "
                         "repeated?)", sorted[i], text);
    free(sorted);
    return rc;
}

/* "workload=cholesky:n=2048,nb=512" split at its commas: an item that is a
 * bare key=value after a name:params item is a parameter of that value,
 * never a value of its own (names hold no '='): hs_fail saying how to give
 * it. */
static int split_spec(char *const *values, int n, const char *text)
{
    for (int i = 1; i < n; i++)
        if (strchr(values[i], '=') && !strchr(values[i], ':') && strchr(values[i - 1], ':'))
            return hs_fail("'%s' reads as a parameter of '%s', but '%s' is split at its commas: separate the "
                           "values with ';' when one holds a comma ('KEY=A:x=1,y=2;B'), or give a single "
                           "value as its own option (-w, -s, -p)", values[i], values[i - 1], text);
    return 0;
}

int hs_sweep_split_values(const char *text, char ***values)
{
    char sep = strchr(text, ';') ? ';' : ',';
    int n = 0, rc = 0;
    size_t cap = 0;
    *values = NULL;
    for (const char *p = text; !rc;) {
        const char *end = strchr(p, sep);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char *item = trimmed(p, len);
        rc = add_item(item, values, &n, &cap);
        free(item);
        if (!end)
            break;
        p = end + 1;
    }
    if (rc || (sep == ',' && split_spec(*values, n, text)) || repeated_value(*values, n, text)) {
        for (int i = 0; i < n; i++)
            free((*values)[i]);
        free(*values);
        *values = NULL;
        return -1;
    }
    return n;
}

void hs_sweep_axis_free(struct hs_sweep_axis *axis)
{
    for (int i = 0; i < axis->n; i++)
        free(axis->values[i]);
    free(axis->values);
    free(axis->name);
    memset(axis, 0, sizeof *axis);
}

static uint64_t hash_text(const char *text, int rep, unsigned long base_seed)
{
    char suffix[64];
    int n = snprintf(suffix, sizeof suffix, "\nrep=%d\nbase_seed=%lu\n", rep, base_seed);
    uint64_t h = hs_fnv1a64(text, strlen(text), HS_FNV_OFFSET);
    return hs_fnv1a64(suffix, (size_t)n, h);
}

void hs_sweep_ident(const char *canon, const char *instance, int rep, unsigned long base_seed,
                    struct hs_sweep_id *id)
{
    id->key = hash_text(canon, rep, base_seed);
    id->instance = hash_text(instance, rep, base_seed);
    unsigned long seed = (unsigned long)((id->instance ^ (id->instance >> 32)) & 0xffffffffULL);
    id->seed = seed ? seed : 1;
}

void hs_sweep_job_free(struct hs_sweep_job *job, int nparams)
{
    for (int i = 0; job->params && i < nparams; i++)
        free(job->params[i]);
    free(job->params);
    job->params = NULL;
}
