/* analysis/plot_published.c — which published values of a study belong on
 * one of its plots, and where: a value of the plot's metric (its mean or
 * median, not a pairwise figure, a ratio or a bound) whose "where" names the
 * plot's x; its other keys must pick one curve (the --by columns) or match
 * every row (a column the sweep does not vary), so the value sits beside the
 * one curve and point it was measured against. On a comparison plot (a
 * gain or ratio against one curve) the values of that comparison belong. */
#include "analysis/plot.h"
#include "analysis/stats.h"
#include "base/util.h"

#include <string.h>

static const char *where_value(const struct hs_study_ref *r, const char *key)
{
    for (int w = 0; w < r->nwhere; w++)
        if (strcmp(r->where[w].key, key) == 0)
            return r->where[w].value;
    return NULL;
}

/* Does every row hold this value in column col? */
static bool every_row(const struct hs_csv *csv, int col, const char *value)
{
    for (long r = 0; r < csv->nrows; r++)
        if (hs_cmp_cells(csv->rows[r][col], value) != 0)
            return false;
    return csv->nrows > 0;
}

/* Is r the comparison the plot draws: its stat against the same versus pairs? */
static bool same_comparison(const struct hs_plot_opts *o, const struct hs_study_ref *r)
{
    if (!r->stat || strcmp(r->stat, o->stat) != 0 || r->nversus != o->nversus)
        return false;
    for (int v = 0; v < o->nversus; v++) {
        bool found = false;
        for (int i = 0; i < r->nversus && !found; i++)
            found = strcmp(r->versus[i].key, o->versus[v].key) == 0 &&
                    hs_cmp_cells(r->versus[i].value, o->versus[v].value) == 0;
        if (!found)
            return false;
    }
    return true;
}

bool hs_plot_published_point(const struct hs_csv *csv, const struct hs_plot_opts *o,
                             const struct hs_study_ref *r, const char **curve, const char **x)
{
    if (strcmp(r->metric, o->y) != 0 || r->bound)
        return false;
    if (o->stat ? !same_comparison(o, r)
                : r->nversus || (r->stat && strcmp(r->stat, "mean") != 0 && strcmp(r->stat, "median") != 0))
        return false;
    if (!(*x = where_value(r, o->x)))
        return false;
    for (int b = 0; b < o->nby; b++) {
        int col = hs_csv_col(csv, o->by[b]);
        curve[b] = where_value(r, o->by[b]);
        if (!curve[b] && col >= 0 && csv->nrows && every_row(csv, col, csv->rows[0][col]))
            curve[b] = csv->rows[0][col]; /* a --by column with one value */
        if (!curve[b])
            return false;
    }
    for (int w = 0; w < r->nwhere; w++) {
        const char *key = r->where[w].key;
        bool placed = strcmp(key, o->x) == 0;
        for (int b = 0; b < o->nby && !placed; b++)
            placed = strcmp(key, o->by[b]) == 0;
        int col = hs_csv_col(csv, key);
        if (!placed && (col < 0 || !every_row(csv, col, r->where[w].value)))
            return false;
    }
    return true;
}
