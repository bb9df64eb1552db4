/* analysis/stats.c — grouping, mean / standard deviation / confidence
 * intervals (GSL), pairwise comparisons. */
#include "analysis/stats.h"
#include "base/buf.h"
#include "base/util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool hs_is_number(const char *s, double *value)
{
    double v;
    if (!s || !*s || hs_parse_double(s, &v))
        return false;
    if (value)
        *value = v;
    return true;
}

void hs_stat_compute(const double *x, long n, struct hs_stat *s)
{
    s->n = n;
    s->mean = s->median = s->sd = s->ci95 = s->min = s->max = NAN;
    if (n < 1)
        return;
    s->mean = gsl_stats_mean(x, 1, (size_t)n);
    gsl_stats_minmax(&s->min, &s->max, x, 1, (size_t)n);
    double *sorted = hs_xmalloc((size_t)n * sizeof *sorted);
    memcpy(sorted, x, (size_t)n * sizeof *sorted);
    gsl_sort(sorted, 1, (size_t)n);
    s->median = gsl_stats_median_from_sorted_data(sorted, 1, (size_t)n);
    free(sorted);
    if (n < 2)
        return;
    s->sd = gsl_stats_sd_m(x, 1, (size_t)n, s->mean);
    s->ci95 = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * s->sd / sqrt((double)n);
}

int hs_cmp_cells(const char *a, const char *b)
{
    double x, y;
    bool nx = hs_is_number(a, &x), ny = hs_is_number(b, &y);
    if (nx && ny)
        return x < y ? -1 : x > y;
    if (nx != ny)
        return nx ? -1 : 1;
    return hs_natural_cmp(a, b); /* "n=600,…" before "n=1000,…" */
}

static int cmp_keys(char **a, char **b, int n)
{
    for (int i = 0; i < n; i++) {
        int c = hs_cmp_cells(a[i], b[i]);
        if (c)
            return c;
    }
    return 0;
}

static int find_group(struct hs_groups *gs, char **values)
{
    int lo = 0, hi = gs->n; /* groups are kept sorted: binary search */
    while (lo < hi) {
        int mid = (lo + hi) / 2, c = cmp_keys(gs->g[mid].values, values, gs->nby);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    HS_GROW_IMPLIED(gs->g, gs->n, gs->n + 1); /* doubling, not one realloc per group */
    memmove(&gs->g[lo + 1], &gs->g[lo], (size_t)(gs->n - lo) * sizeof *gs->g);
    memset(&gs->g[lo], 0, sizeof gs->g[lo]);
    gs->g[lo].values = hs_xmalloc((size_t)(gs->nby ? gs->nby : 1) * sizeof(char *));
    memcpy(gs->g[lo].values, values, (size_t)gs->nby * sizeof(char *));
    gs->n++;
    return lo;
}

int hs_groups_make(const struct hs_csv *csv, const char *file, char *const *by, int nby,
                   struct hs_groups *out)
{
    memset(out, 0, sizeof *out);
    out->nby = nby;
    out->cols = hs_xmalloc((size_t)(nby ? nby : 1) * sizeof(int));
    for (int i = 0; i < nby; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(by[j], by[i]) == 0) { /* its groups would be the other's: a curve per point */
                hs_groups_free(out);
                return hs_fail("%s: column '%s' is named twice among the grouping columns (--by, and plot's -x): "
                               "give it once", file, by[i]);
            }
        if ((out->cols[i] = hs_csv_need_col(csv, by[i], file)) < 0) {
            hs_groups_free(out);
            return -1;
        }
    }
    int st = hs_csv_col(csv, "status");
    char **key = hs_xmalloc((size_t)(nby ? nby : 1) * sizeof(char *));
    for (long r = 0; r < csv->nrows; r++) {
        for (int i = 0; i < nby; i++)
            key[i] = csv->rows[r][out->cols[i]];
        int gi = find_group(out, key); /* may move out->g */
        struct hs_group *g = &out->g[gi];
        if (st >= 0 && strcmp(csv->rows[r][st], "ok") != 0) {
            g->failed++;
            continue;
        }
        HS_GROW_IMPLIED(g->rows, g->nrows, g->nrows + 1); /* doubling, not one realloc per row */
        g->rows[g->nrows++] = r;
    }
    free(key);
    return 0;
}

void hs_groups_free(struct hs_groups *gs)
{
    for (int i = 0; i < gs->n; i++) {
        free(gs->g[i].values);
        free(gs->g[i].rows);
    }
    free(gs->g);
    free(gs->cols);
    memset(gs, 0, sizeof *gs);
}

char *hs_group_label(const struct hs_csv *csv, const struct hs_groups *gs, int group)
{
    struct hs_buf b = {0};
    for (int i = 0; i < gs->nby; i++)
        hs_buf_printf(&b, "%s%s=%s", i ? " " : "", csv->header[gs->cols[i]], gs->g[group].values[i]);
    if (!gs->nby)
        hs_buf_add(&b, "all");
    return hs_buf_take(&b);
}

static int value_at(const struct hs_csv *csv, const char *file, long row, int col, double *v)
{
    const char *text = csv->rows[row][col];
    if (!*text)
        return 0;
    if (!hs_is_number(text, v))
        return hs_fail("%s: row %ld, column %s: '%s' is not a number", file, row + 1,
                       csv->header[col], text);
    return 1;
}

long hs_group_values(const struct hs_csv *csv, const char *file, const struct hs_group *g, int col,
                     double *out)
{
    long n = 0;
    for (long i = 0; i < g->nrows; i++) {
        int rc = value_at(csv, file, g->rows[i], col, &out[n]);
        if (rc < 0)
            return -1;
        n += rc;
    }
    return n;
}

int hs_compare_values(double a, double b, bool lower_better)
{
    if (fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)))
        return 0;
    return (a < b) == lower_better ? -1 : 1;
}

struct inst {
    uint64_t id;
    double v;
};

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const struct inst *)a)->id, y = ((const struct inst *)b)->id;
    return x < y ? -1 : x > y;
}

/* (instance, value) of a group's rows, sorted; NULL with hs_fail. */
static struct inst *instances(const struct hs_csv *csv, const char *file, const struct hs_groups *gs,
                              int group, int icol, int col, long *n)
{
    const struct hs_group *g = &gs->g[group];
    struct inst *v = hs_xmalloc((size_t)(g->nrows + 1) * sizeof *v);
    *n = 0;
    for (long i = 0; i < g->nrows; i++) {
        int rc = value_at(csv, file, g->rows[i], col, &v[*n].v);
        if (rc < 0) {
            free(v);
            return NULL;
        }
        v[*n].id = strtoull(csv->rows[g->rows[i]][icol], NULL, 16);
        *n += rc;
    }
    qsort(v, (size_t)*n, sizeof *v, by_id);
    for (long i = 1; i < *n; i++)
        if (v[i].id == v[i - 1].id) {
            char *label = hs_group_label(csv, gs, group);
            hs_fail("group %s has several runs of one instance: add the columns that vary "
                    "within it to --by", label);
            free(label);
            free(v);
            return NULL;
        }
    return v;
}

static void compare_pair(const struct inst *a, long na, const struct inst *b, long nb,
                         bool lower_better, struct hs_pair *p)
{
    for (long i = 0, j = 0; i < na && j < nb;) {
        if (a[i].id < b[j].id) {
            i++;
        } else if (a[i].id > b[j].id) {
            j++;
        } else {
            int c = hs_compare_values(a[i].v, b[j].v, lower_better);
            p->common++;
            p->better += c < 0, p->equal += c == 0, p->worse += c > 0;
            i++, j++;
        }
    }
}

int hs_pairwise(const struct hs_csv *csv, const char *file, const struct hs_groups *gs, int col,
                bool lower_better, struct hs_pair **pairs, int *npairs)
{
    *pairs = NULL;
    *npairs = 0;
    int icol = hs_csv_need_col(csv, "instance", file);
    if (icol < 0)
        return -1;
    struct inst **v = hs_xcalloc((size_t)(gs->n ? gs->n : 1), sizeof *v);
    long *n = hs_xcalloc((size_t)(gs->n ? gs->n : 1), sizeof *n);
    int rc = 0;
    for (int g = 0; g < gs->n && !rc; g++)
        rc = (v[g] = instances(csv, file, gs, g, icol, col, &n[g])) ? 0 : -1;
    for (int a = 0; a < gs->n && !rc; a++)
        for (int b = a + 1; b < gs->n; b++) {
            struct hs_pair p = {.a = a, .b = b};
            compare_pair(v[a], n[a], v[b], n[b], lower_better, &p);
            if (!p.common)
                continue;
            HS_GROW_IMPLIED(*pairs, *npairs, *npairs + 1); /* doubling, not one realloc per pair */
            (*pairs)[(*npairs)++] = p;
        }
    for (int g = 0; g < gs->n; g++)
        free(v[g]);
    free(v);
    free(n);
    return rc;
}
