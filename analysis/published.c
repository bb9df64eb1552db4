/* analysis/published.c — our value of a published figure of a study, from a
 * sweep's CSV rows: the mean (with its 95% interval), median or standard
 * deviation of a metric over the ok rows matching the figure's where pairs,
 * or a pairwise percentage (better/equal/worse, instance by instance,
 * against the rows named by its versus pairs), or a ratio of means, or a
 * gain of means summarised over groups of rows (its by and of), or the
 * exponent of a power law fitted to the rows (GSL's least squares on
 * logarithms); and whether ours meets the published figure or bound. */
#include "analysis/published.h"
#include "analysis/sweep.h"
#include "base/util.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Do these cells match the ref's where pairs (with its versus pairs in
 * place of theirs when against is set)? wcol and vcol index the cells; a
 * column -1 (a run's parameters lack it) is no restriction. */
static bool cells_match(const char *const *cells, const struct hs_study_ref *r, const int *wcol,
                        const int *vcol, bool against)
{
    for (int w = 0; w < r->nwhere; w++) {
        bool replaced = false;
        for (int v = 0; against && v < r->nversus; v++)
            replaced |= strcmp(r->versus[v].key, r->where[w].key) == 0;
        if (!replaced && wcol[w] >= 0 && hs_cmp_cells(cells[wcol[w]], r->where[w].value) != 0)
            return false;
    }
    for (int v = 0; against && v < r->nversus; v++)
        if (vcol[v] >= 0 && hs_cmp_cells(cells[vcol[v]], r->versus[v].value) != 0)
            return false;
    return true;
}

/* Is the row ok and does it match the ref's where pairs (cells_match)? */
static bool matches(const struct hs_csv *csv, long row, const struct hs_study_ref *r, const int *wcol,
                    const int *vcol, int st, bool against)
{
    const char *const *cells = (const char *const *)csv->rows[row];
    if (st >= 0 && strcmp(cells[st], "ok") != 0)
        return false;
    return cells_match(cells, r, wcol, vcol, against);
}

/* better_pct / equal_pct / worse_pct: instance by instance, the where-rows
 * against the versus-rows; s->mean is the percentage, s->n the instances. */
static int pairwise_pct(const struct hs_csv *csv, const char *file, const struct hs_study_ref *r,
                        const int *wcol, const int *vcol, int mcol, int st, struct hs_stat *s)
{
    int icol = hs_csv_need_col(csv, "instance", file);
    if (icol < 0)
        return -1;
    bool lower = hs_metric_lower_is_better(r->metric);
    int want = strncmp(r->stat, "better", 6) == 0 ? -1 : strncmp(r->stat, "equal", 5) == 0 ? 0 : 1;
    long common = 0, hits = 0;
    for (long a = 0; a < csv->nrows; a++) {
        double x, y;
        if (!matches(csv, a, r, wcol, vcol, st, false) || !hs_is_number(csv->rows[a][mcol], &x))
            continue;
        for (long b = 0; b < csv->nrows; b++)
            if (b != a && strcmp(csv->rows[a][icol], csv->rows[b][icol]) == 0 &&
                matches(csv, b, r, wcol, vcol, st, true) && hs_is_number(csv->rows[b][mcol], &y)) {
                common++;
                hits += hs_compare_values(x, y, lower) == want;
                break;
            }
    }
    hs_stat_compute(NULL, 0, s);
    s->n = common;
    s->mean = common ? 100.0 * (double)hits / (double)common : NAN;
    return 0;
}

/* A group of rows: those whose cells in the columns col hold the cells of
 * row rep (struct hs_study_ref's by); n = 0: every row. */
struct group {
    const int *col;
    int n;
    long rep;
};

static bool in_group(const struct hs_csv *csv, long row, const struct group *g)
{
    for (int i = 0; i < g->n; i++)
        if (hs_cmp_cells(csv->rows[row][g->col[i]], csv->rows[g->rep][g->col[i]]) != 0)
            return false;
    return true;
}

/* Statistics of the metric over the rows of the group matching where
 * (against: with the versus pairs in place). */
static void rows_stat(const struct hs_csv *csv, const struct hs_study_ref *r, const int *wcol,
                      const int *vcol, int mcol, int st, bool against, const struct group *g,
                      struct hs_stat *s)
{
    double *x = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *x);
    long n = 0;
    for (long row = 0; row < csv->nrows; row++)
        if (matches(csv, row, r, wcol, vcol, st, against) && in_group(csv, row, g) &&
            hs_is_number(csv->rows[row][mcol], &x[n]))
            x[n++] /= r->scale;
    hs_stat_compute(x, n, s);
    free(x);
}

static const struct group every_row = {NULL, 0, 0};

/* gain_pct: how much better the where-rows' mean is than the versus-rows'
 * (100 (b - a) / b when lower is better, 100 (a - b) / b otherwise), within
 * the group. */
static void mean_gain(const struct hs_csv *csv, const struct hs_study_ref *r, const int *wcol,
                      const int *vcol, int mcol, int st, const struct group *g, struct hs_stat *s)
{
    struct hs_stat b;
    rows_stat(csv, r, wcol, vcol, mcol, st, false, g, s);
    rows_stat(csv, r, wcol, vcol, mcol, st, true, g, &b);
    double gain = 100 * (s->mean - b.mean) / b.mean;
    s->mean = (hs_metric_lower_is_better(r->metric) ? -gain : gain) + 0.0; /* no -0 */
    s->n = s->n < b.n ? s->n : b.n;
    s->ci95 = NAN;
}

/* gain_pct over the groups of r->by (struct hs_study_ref): the mean, min or
 * max of the groups' gains, or the first by column's value (a number) where
 * the gain is largest; s->n the groups with a gain. */
static int groups_gain(const struct hs_csv *csv, const char *file, const struct hs_study_ref *r,
                       const int *wcol, const int *vcol, int mcol, int st, struct hs_stat *s)
{
    int *bcol = hs_xmalloc((size_t)r->nby * sizeof *bcol);
    long *reps = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *reps), ngroups = 0;
    int rc = 0;
    for (int i = 0; i < r->nby && !rc; i++)
        rc = (bcol[i] = hs_csv_need_col(csv, r->by[i], file)) < 0 ? -1 : 0;
    for (long row = 0; row < csv->nrows && !rc; row++) { /* a group's first where-row */
        if (!matches(csv, row, r, wcol, vcol, st, false))
            continue;
        long k = 0;
        while (k < ngroups && !in_group(csv, row, &(struct group){bcol, r->nby, reps[k]}))
            k++;
        if (k == ngroups)
            reps[ngroups++] = row;
    }
    double sum = 0, lo = INFINITY, hi = -INFINITY, at = NAN;
    long n = 0;
    for (long k = 0; k < ngroups && !rc; k++) {
        struct hs_stat gs;
        mean_gain(csv, r, wcol, vcol, mcol, st, &(struct group){bcol, r->nby, reps[k]}, &gs);
        if (!isfinite(gs.mean))
            continue;
        n++;
        sum += gs.mean;
        lo = fmin(lo, gs.mean);
        if (gs.mean > hi) {
            hi = gs.mean;
            if (!hs_is_number(csv->rows[reps[k]][bcol[0]], &at))
                at = NAN;
        }
    }
    hs_stat_compute(NULL, 0, s);
    s->n = n;
    s->mean = !n                              ? NAN
              : strcmp(r->of, "mean") == 0 ? sum / (double)n
              : strcmp(r->of, "min") == 0  ? lo
              : strcmp(r->of, "max") == 0  ? hi
                                           : at;
    free(bcol), free(reps);
    return rc;
}

/* ratio: the versus-rows' mean over the where-rows' mean. */
static void mean_ratio(const struct hs_csv *csv, const struct hs_study_ref *r, const int *wcol,
                       const int *vcol, int mcol, int st, struct hs_stat *s)
{
    struct hs_stat b;
    rows_stat(csv, r, wcol, vcol, mcol, st, false, &every_row, s);
    rows_stat(csv, r, wcol, vcol, mcol, st, true, &every_row, &b);
    s->mean = b.mean / s->mean;
    s->n = s->n < b.n ? s->n : b.n;
    s->ci95 = NAN;
}

/* column_ratio: the where-rows' mean of the metric over their mean of the
 * column `over` (e.g. the simulated communication over the analysis'). */
static int column_ratio(const struct hs_csv *csv, const char *file, const struct hs_study_ref *r,
                        const int *wcol, int mcol, int st, struct hs_stat *s)
{
    int ocol = hs_csv_need_col(csv, r->over, file);
    if (ocol < 0)
        return -1;
    struct hs_stat o;
    rows_stat(csv, r, wcol, NULL, mcol, st, false, &every_row, s);
    rows_stat(csv, r, wcol, NULL, ocol, st, false, &every_row, &o);
    s->mean /= o.mean;
    s->n = s->n < o.n ? s->n : o.n;
    s->ci95 = NAN;
    return 0;
}

/* loglog_slope: the least-squares slope of log(metric) against log(over)
 * over the where-rows, the exponent k of metric = c over^k (Beniamine's
 * planner time against |V|). Rows where either is not positive are left
 * out; fewer than two distinct x give NAN. */
static int loglog_slope(const struct hs_csv *csv, const char *file, const struct hs_study_ref *r,
                        const int *wcol, int mcol, int st, struct hs_stat *s)
{
    int ocol = hs_csv_need_col(csv, r->over, file);
    if (ocol < 0)
        return -1;
    double *x = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *x), *y = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *y);
    size_t n = 0;
    bool spread = false;
    for (long row = 0; row < csv->nrows; row++)
        if (matches(csv, row, r, wcol, NULL, st, false) && hs_is_number(csv->rows[row][ocol], &x[n]) &&
            hs_is_number(csv->rows[row][mcol], &y[n]) && x[n] > 0 && y[n] > 0) {
            x[n] = log(x[n]), y[n] = log(y[n] / r->scale);
            spread |= x[n] != x[0];
            n++;
        }
    double c0, c1 = NAN, cov00, cov01, cov11, sumsq;
    if (spread)
        gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    hs_stat_compute(NULL, 0, s);
    s->mean = c1;
    s->n = (long)n;
    free(x), free(y);
    return 0;
}

bool hs_published_met(const struct hs_study_ref *r, double ours)
{
    double tol = isnan(r->tolerance) ? 0 : r->tolerance;
    if (r->bound && strcmp(r->bound, "upper") == 0)
        return r->strict ? ours < r->value - tol * fabs(r->value) : ours <= r->value + tol * fabs(r->value);
    if (r->bound)
        return r->strict ? ours > r->value + tol * fabs(r->value) : ours >= r->value - tol * fabs(r->value);
    return fabs((ours - r->value) / fabs(r->value)) <= tol;
}

int hs_published_ours(const struct hs_csv *csv, const char *file, const struct hs_study_ref *r, struct hs_stat *s)
{
    int mcol = hs_csv_need_col(csv, r->metric, file), st = hs_csv_col(csv, "status");
    int *wcol = hs_xmalloc((size_t)(r->nwhere + 1) * sizeof *wcol);
    int *vcol = hs_xmalloc((size_t)(r->nversus + 1) * sizeof *vcol);
    int rc = mcol < 0 ? -1 : 0;
    for (int w = 0; w < r->nwhere && !rc; w++)
        rc = (wcol[w] = hs_csv_need_col(csv, r->where[w].key, file)) < 0 ? -1 : 0;
    for (int v = 0; v < r->nversus && !rc; v++)
        rc = (vcol[v] = hs_csv_need_col(csv, r->versus[v].key, file)) < 0 ? -1 : 0;
    if (!rc && r->stat && strcmp(r->stat, "gain_pct") == 0 && r->nby)
        rc = groups_gain(csv, file, r, wcol, vcol, mcol, st, s);
    else if (!rc && r->stat && strcmp(r->stat, "gain_pct") == 0)
        mean_gain(csv, r, wcol, vcol, mcol, st, &every_row, s);
    else if (!rc && r->stat && strcmp(r->stat, "ratio") == 0)
        mean_ratio(csv, r, wcol, vcol, mcol, st, s);
    else if (!rc && r->stat && strcmp(r->stat, "column_ratio") == 0)
        rc = column_ratio(csv, file, r, wcol, mcol, st, s);
    else if (!rc && r->stat && strcmp(r->stat, "loglog_slope") == 0)
        rc = loglog_slope(csv, file, r, wcol, mcol, st, s);
    else if (!rc && r->nversus)
        rc = pairwise_pct(csv, file, r, wcol, vcol, mcol, st, s);
    else if (!rc) {
        rows_stat(csv, r, wcol, vcol, mcol, st, false, &every_row, s);
        if (r->stat && strcmp(r->stat, "mean") != 0) { /* the interval is the mean's */
            s->mean = strcmp(r->stat, "median") == 0 ? s->median
                      : strcmp(r->stat, "min") == 0  ? s->min
                      : strcmp(r->stat, "max") == 0  ? s->max
                                                     : s->sd;
            s->ci95 = NAN;
        }
    }
    free(wcol), free(vcol);
    return rc;
}

/* The 95% interval of a ratio of two means, b / a (or of the gain that
 * follows from it), by the delta method on independent samples: its
 * relative standard error is sqrt((sd_a / a)^2 / n_a + (sd_b / b)^2 / n_b),
 * times Student's t at min(n_a, n_b) - 1 degrees of freedom (the smaller
 * sample's, which errs wide). NAN unless both have repetitions. */
static double ratio_rel_ci(const struct hs_stat *a, const struct hs_stat *b)
{
    if (a->n < 2 || b->n < 2 || a->mean == 0 || b->mean == 0)
        return NAN;
    double ra = a->sd / a->mean, rb = b->sd / b->mean;
    double se = sqrt(ra * ra / (double)a->n + rb * rb / (double)b->n);
    long df = (a->n < b->n ? a->n : b->n) - 1;
    return gsl_cdf_tdist_Pinv(0.975, (double)df) * se;
}

int hs_published_ours_ci(const struct hs_csv *csv, const char *file, const struct hs_study_ref *r, struct hs_stat *s)
{
    if (hs_published_ours(csv, file, r, s))
        return -1;
    bool ratio = r->stat && strcmp(r->stat, "ratio") == 0;
    bool gain = r->stat && strcmp(r->stat, "gain_pct") == 0 && !r->nby;
    if (!(ratio || gain) || isnan(s->mean))
        return 0;
    int mcol = hs_csv_col(csv, r->metric), st = hs_csv_col(csv, "status");
    int *wcol = hs_xmalloc((size_t)(r->nwhere + 1) * sizeof *wcol);
    int *vcol = hs_xmalloc((size_t)(r->nversus + 1) * sizeof *vcol);
    for (int w = 0; w < r->nwhere; w++)
        wcol[w] = hs_csv_col(csv, r->where[w].key);
    for (int v = 0; v < r->nversus; v++)
        vcol[v] = hs_csv_col(csv, r->versus[v].key);
    struct hs_stat a, b; /* ours, and what it is compared against */
    rows_stat(csv, r, wcol, vcol, mcol, st, false, &every_row, &a);
    rows_stat(csv, r, wcol, vcol, mcol, st, true, &every_row, &b);
    double rel = ratio_rel_ci(&a, &b);
    /* ratio b / a; gain ±100 (a / b - 1), whose interval is 100 (a / b) rel */
    s->ci95 = ratio ? s->mean * rel : 100 * fabs(a.mean / b.mean) * rel;
    free(wcol), free(vcol);
    return 0;
}

/* The value of column key among names (NULL: no such column). */
/* The index of column key among names, or -1. */
static int column(const char *key, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], key) == 0)
            return i;
    return -1;
}

bool hs_published_reads(const struct hs_study_ref *r, const char *const *names, char *const *values, int n)
{
    int *wcol = hs_xmalloc((size_t)(r->nwhere + 1) * sizeof *wcol);
    int *vcol = hs_xmalloc((size_t)(r->nversus + 1) * sizeof *vcol);
    for (int w = 0; w < r->nwhere; w++)
        wcol[w] = column(r->where[w].key, names, n);
    for (int v = 0; v < r->nversus; v++)
        vcol[v] = column(r->versus[v].key, names, n);
    const char *const *cells = (const char *const *)values;
    bool read = cells_match(cells, r, wcol, vcol, false) || (r->nversus && cells_match(cells, r, wcol, vcol, true));
    free(wcol), free(vcol);
    return read;
}

bool hs_published_checked(const struct hs_study_ref *r)
{
    return !isnan(r->tolerance) || r->bound;
}

void hs_published_texts(const struct hs_study_ref *r, const struct hs_stat *s, size_t size, char *published,
                        char *ours, char *tolerance)
{
    if (r->bound)
        snprintf(published, size, "%s%.6g", strcmp(r->bound, "upper") == 0 ? (r->strict ? "< " : "<= ")
                                                                              : (r->strict ? "> " : ">= "),
                 r->value);
    else
        snprintf(published, size, "%.6g", r->value);
    snprintf(ours, size, "%.6g", s->mean);
    if (isnan(r->tolerance))
        snprintf(tolerance, size, "%s", "");
    else
        snprintf(tolerance, size, "%g%%", 100 * r->tolerance);
}
