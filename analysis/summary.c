/* analysis/summary.c — building the summary and pairwise tables. */
#include "analysis/summary.h"
#include "analysis/plot.h"
#include "analysis/stats.h"
#include "analysis/sweep.h"
#include "base/util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void stats_header(struct hs_table *t, const struct hs_summary_opts *o)
{
    hs_table_init(t, o->nby + 7);
    for (int i = 0; i < o->nby; i++)
        hs_table_add(t, o->by[i]);
    const char *rest[] = {"metric", "n", "failed", "mean", "median", "sd", "ci95"};
    for (int i = 0; i < 7; i++)
        hs_table_add(t, rest[i]);
}

/* The unit of metric column col for the shown table: from the largest of
 * its values, as plots choose it (plot_style.c); none for CSV files. */
static struct hs_unit metric_unit(const struct hs_csv *csv, const char *metric, int col, bool units)
{
    double most = 0;
    for (long r = 0; units && r < csv->nrows; r++) {
        double v;
        if (!hs_parse_double(csv->rows[r][col], &v) && fabs(v) > most)
            most = fabs(v);
    }
    return units ? hs_unit_for(metric, most) : (struct hs_unit){NULL, 1};
}

static int stats_rows(const struct hs_csv *csv, const char *file, const struct hs_groups *gs,
                      const struct hs_summary_opts *o, const int *mcols, struct hs_table *t)
{
    double *x = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *x);
    struct hs_unit *unit = hs_xcalloc((size_t)o->nmetrics + 1, sizeof *unit);
    for (int m = 0; m < o->nmetrics; m++)
        unit[m] = metric_unit(csv, o->metrics[m], mcols[m], o->units);
    for (int g = 0; g < gs->n; g++)
        for (int m = 0; m < o->nmetrics; m++) {
            long n = hs_group_values(csv, file, &gs->g[g], mcols[m], x);
            if (n < 0) {
                free(x);
                free(unit);
                return -1;
            }
            struct hs_stat s;
            hs_stat_compute(x, n, &s);
            for (int i = 0; i < o->nby; i++)
                hs_table_add(t, gs->g[g].values[i]);
            if (unit[m].name)
                hs_table_addf(t, "%s (%s)", o->metrics[m], unit[m].name);
            else
                hs_table_add(t, o->metrics[m]);
            hs_table_addf(t, "%ld", n);
            hs_table_addf(t, "%ld", gs->g[g].failed);
            double d = unit[m].div;
            hs_table_num(t, s.mean / d, o->digits);
            hs_table_num(t, s.median / d, o->digits);
            hs_table_num(t, s.sd / d, o->digits);
            hs_table_num(t, s.ci95 / d, o->digits);
        }
    free(x);
    free(unit);
    return 0;
}

static int pair_rows(const struct hs_csv *csv, const char *file, const struct hs_groups *gs,
                     const char *metric, struct hs_table *t, char *note, size_t note_size)
{
    int col = hs_csv_need_col(csv, metric, file);
    if (col < 0)
        return -1;
    bool lower = hs_metric_lower_is_better(metric);
    struct hs_pair *pairs;
    int n;
    if (hs_pairwise(csv, file, gs, col, lower, &pairs, &n)) {
        snprintf(note, note_size, "no pairwise comparison: %s", hs_last_error());
        return 0;
    }
    if (!n)
        snprintf(note, note_size, "no pairwise comparison: no two groups share an instance "
                 "(group by the column that differs between the runs to compare, e.g. policy)");
    else
        snprintf(note, note_size, "pairwise, instance by instance: how often group is better, "
                 "equal or worse than versus on %s (%s is better)", metric, lower ? "lower" : "higher");
    for (int i = 0; i < n; i++) {
        char *a = hs_group_label(csv, gs, pairs[i].a), *b = hs_group_label(csv, gs, pairs[i].b);
        hs_table_add(t, metric);
        hs_table_add(t, a);
        hs_table_add(t, b);
        hs_table_addf(t, "%ld", pairs[i].common);
        hs_table_addf(t, "%ld", pairs[i].better);
        hs_table_addf(t, "%ld", pairs[i].equal);
        hs_table_addf(t, "%ld", pairs[i].worse);
        free(a), free(b);
    }
    free(pairs);
    return 0;
}

int hs_summary_make(const struct hs_csv *csv, const char *file, const struct hs_summary_opts *o,
                    struct hs_table *stats, struct hs_table *pairs, char *note, size_t note_size)
{
    note[0] = '\0';
    stats_header(stats, o);
    hs_table_init(pairs, 7);
    const char *ph[] = {"metric", "group", "versus", "instances", "better", "equal", "worse"};
    for (int i = 0; i < 7; i++)
        hs_table_add(pairs, ph[i]);
    int *mcols = hs_xmalloc((size_t)(o->nmetrics ? o->nmetrics : 1) * sizeof *mcols);
    int rc = 0;
    for (int m = 0; m < o->nmetrics && !rc; m++) {
        rc = (mcols[m] = hs_csv_need_col(csv, o->metrics[m], file)) < 0 ? -1 : 0;
        for (int k = 0; k < m && !rc; k++)
            if (mcols[k] == mcols[m]) /* its table would be printed twice */
                rc = hs_fail("%s: metric '%s' is named twice in --metrics: give it once", file, o->metrics[m]);
    }
    struct hs_groups gs = {0};
    if (!rc)
        rc = hs_groups_make(csv, file, o->by, o->nby, &gs);
    if (!rc)
        rc = stats_rows(csv, file, &gs, o, mcols, stats);
    /* by default the first metric, where rows share instances (not in an analysis' rows) */
    const char *pm = o->pairwise                                         ? o->pairwise
                     : o->nmetrics && hs_csv_col(csv, "instance") >= 0 ? o->metrics[0]
                                                                        : "";
    if (!rc && *pm)
        rc = pair_rows(csv, file, &gs, pm, pairs, note, note_size);
    hs_groups_free(&gs);
    free(mcols);
    return rc;
}

/* ---- repetitions that cannot differ --------------------------------------- */

struct rep_row {
    const struct hs_csv *csv;
    long row;
    int from, status; /* parameter columns: [from, status) */
};

static int cmp_params(const void *a, const void *b)
{
    const struct rep_row *x = a, *y = b;
    for (int c = x->from; c < x->status; c++) {
        int d = strcmp(x->csv->rows[x->row][c], y->csv->rows[y->row][c]);
        if (d)
            return d;
    }
    return x->row < y->row ? -1 : x->row > y->row;
}

static bool same_params(const struct rep_row *x, const struct rep_row *y)
{
    for (int c = x->from; c < x->status; c++)
        if (strcmp(x->csv->rows[x->row][c], y->csv->rows[y->row][c]) != 0)
            return false;
    return true;
}

static bool same_results(const struct hs_csv *csv, long a, long b, int status)
{
    for (int c = status; c < csv->ncols; c++)
        if (!hs_sweep_is_wallclock_column(csv->header[c]) && strcmp(csv->rows[a][c], csv->rows[b][c]) != 0)
            return false;
    return true;
}

long hs_reps_alike(const struct hs_csv *csv, const char *file, long *alike)
{
    int rep = hs_csv_col(csv, "rep"), status = hs_csv_col(csv, "status");
    *alike = 0;
    if (rep < 0 || status < 0 || status <= rep)
        return hs_fail("%s: not a sweep's results (no rep or status column)", file);
    struct rep_row *rows = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *rows);
    for (long r = 0; r < csv->nrows; r++)
        rows[r] = (struct rep_row){csv, r, rep + 2, status}; /* after rep and seed */
    qsort(rows, (size_t)csv->nrows, sizeof *rows, cmp_params);
    long runs = 0;
    for (long i = 0, j; i < csv->nrows; i = j) {
        bool same = true;
        for (j = i + 1; j < csv->nrows && same_params(&rows[i], &rows[j]); j++)
            same &= same_results(csv, rows[i].row, rows[j].row, status);
        if (j - i > 1)
            runs++, *alike += same;
    }
    free(rows);
    return runs;
}

void hs_reps_warn(const struct hs_csv *csv, const char *file)
{
    long alike, runs = hs_reps_alike(csv, file, &alike);
    if (runs > 0 && alike == runs)
        fprintf(stderr, "hetsim: warning: %s: the repetitions of every run gave the same results, so "
                "their sd and 95%% CI are 0: nothing in these runs is random (no --noise, a "
                "deterministic policy, one DAG: a random workload's DAG comes from its own seed, "
                "--vary workload.seed=1..R draws one per value)\n", file);
}
