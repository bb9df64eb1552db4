/* analysis/plot.c — a metric against a parameter: one curve per group, the
 * mean at each value of the parameter with its 95% confidence interval (or
 * standard deviation) as error bars, and optionally a second column's mean
 * drawn as a dashed line of the same colour (an analytic prediction beside
 * simulated points). */
#include "analysis/plot.h"
#include "analysis/stats.h"
#include "sim/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct curve_point {
    int curve;
    const char *x;
    struct hs_stat s;
};

static int cmp_cell_ptr(const void *a, const void *b)
{
    return hs_cmp_cells(*(char *const *)a, *(char *const *)b);
}

/* The distinct x values, sorted; are they all numbers? */
static bool x_values(const struct hs_groups *gs, int nby, char ***xs, int *nxs)
{
    bool numeric = true;
    *xs = hs_xmalloc((size_t)(gs->n + 1) * sizeof **xs);
    *nxs = 0;
    for (int g = 0; g < gs->n; g++) {
        char *x = gs->g[g].values[nby];
        numeric &= hs_is_number(x, NULL);
        bool seen = false;
        for (int i = 0; i < *nxs && !seen; i++)
            seen = strcmp((*xs)[i], x) == 0;
        if (!seen)
            (*xs)[(*nxs)++] = x;
    }
    qsort(*xs, (size_t)*nxs, sizeof **xs, cmp_cell_ptr);
    return numeric;
}

static int x_index(char **xs, int n, const char *x)
{
    for (int i = 0; i < n; i++)
        if (strcmp(xs[i], x) == 0)
            return i;
    return 0;
}

static void labels(struct hs_buf *b, const struct hs_plot_opts *o)
{
    struct hs_buf t = {0};
    hs_buf_printf(&t, "%s against %s", o->y, o->x);
    hs_buf_add(b, "set title ");
    hs_gnuplot_quote(b, o->title ? o->title : hs_buf_str(&t));
    hs_buf_reset(&t);
    hs_buf_printf(&t, "%s (mean, %s)", o->y, o->sd ? "sd" : "95% CI");
    hs_buf_add(b, "\nset xlabel ");
    hs_gnuplot_quote(b, o->xlabel ? o->xlabel : o->x);
    hs_buf_add(b, "\nset ylabel ");
    hs_gnuplot_quote(b, o->ylabel ? o->ylabel : hs_buf_str(&t));
    hs_buf_free(&t);
    hs_buf_add(b, "\nset grid\nset key outside right top\n"
                  "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n");
    if (o->logx)
        hs_buf_add(b, "set logscale x\n");
    if (o->logy)
        hs_buf_add(b, "set logscale y\n");
}

static void categorical_axis(struct hs_buf *b, char **xs, int nxs)
{
    hs_buf_add(b, "set xtics (");
    for (int i = 0; i < nxs; i++) {
        hs_buf_add(b, i ? ", " : "");
        hs_gnuplot_quote(b, xs[i]);
        hs_buf_printf(b, " %d", i);
    }
    hs_buf_printf(b, ")\nset xrange [-0.5:%g]\n", nxs - 0.5);
}

/* Does group g start a new curve (other values of the --by columns)? */
static bool new_curve(const struct hs_groups *gs, int g, int nby)
{
    for (int i = 0; g > 0 && i < nby; i++)
        if (strcmp(gs->g[g].values[i], gs->g[g - 1].values[i]) != 0)
            return true;
    return g == 0;
}

static char *curve_label(const struct hs_csv *csv, const struct hs_groups *gs, int g, int nby)
{
    struct hs_groups curve = *gs;
    curve.nby = nby;
    return hs_group_label(csv, &curve, g);
}

static void start_curve(struct hs_buf *b, struct hs_buf *plot, const struct hs_csv *csv,
                        const struct hs_groups *gs, int g, int nby, int k)
{
    hs_buf_printf(b, "%s$c%d << EOD\n", k ? "EOD\n" : "", k);
    hs_buf_printf(plot, "%s$c%d using 1:2:3 with yerrorlines lt %d lw 1.5 pt 7 ps 0.7 title ",
                  k ? ", \\\n     " : "plot ", k, k + 1);
    char *label = curve_label(csv, gs, g, nby);
    hs_gnuplot_quote(plot, label);
    free(label);
}

/* The overlay column's mean at one point of curve k, in its own data block
 * ($o<k>, opened at the curve's first such point); -1 with hs_fail. */
struct overlay {
    int col, open; /* curve whose block is open, -1 */
    struct hs_buf data, plot;
};

static int overlay_point(struct overlay *ov, const struct hs_csv *csv, const char *file,
                         const struct hs_groups *gs, int g, int nby, int k, const char *x, double *v)
{
    long n = hs_group_values(csv, file, &gs->g[g], ov->col, v);
    if (n <= 0)
        return (int)(n < 0 ? -1 : 0);
    if (ov->open != k) {
        hs_buf_printf(&ov->data, "%s$o%d << EOD\n", ov->open >= 0 ? "EOD\n" : "", k);
        hs_buf_printf(&ov->plot, ", \\\n     $o%d using 1:2 with linespoints lt %d dt 2 lw 1.5 pt 6 ps 0.9 title ", k, k + 1);
        char *label = curve_label(csv, gs, g, nby);
        struct hs_buf t = {0};
        hs_buf_printf(&t, "%s: %s", label, csv->header[ov->col]);
        hs_gnuplot_quote(&ov->plot, hs_buf_str(&t));
        hs_buf_free(&t);
        free(label);
        ov->open = k;
    }
    struct hs_stat s;
    hs_stat_compute(v, n, &s);
    hs_buf_printf(&ov->data, "%s %.17g\n", x, s.mean);
    return 0;
}

/* The data blocks ($c0, $c1, …), one per curve, the overlay's ($o…), and
 * the plot command. */
static int curves(struct hs_buf *b, const struct hs_csv *csv, const char *file,
                  const struct hs_groups *gs, const struct hs_plot_opts *o, int ycol, int ocol)
{
    char **xs;
    int nxs, ncurves = 0;
    bool numeric = x_values(gs, o->nby, &xs, &nxs);
    if (!numeric)
        categorical_axis(b, xs, nxs);
    double *v = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *v);
    struct hs_buf plot = {0};
    struct overlay ov = {.col = ocol, .open = -1};
    int rc = 0;
    for (int g = 0; g < gs->n && !rc; g++) {
        long n = hs_group_values(csv, file, &gs->g[g], ycol, v);
        if (n < 0)
            rc = -1;
        if (n <= 0)
            continue;
        if (new_curve(gs, g, o->nby) || !ncurves)
            start_curve(b, &plot, csv, gs, g, o->nby, ncurves++);
        struct hs_stat s;
        hs_stat_compute(v, n, &s);
        double bar = o->sd ? s.sd : s.ci95;
        char x[64];
        const char *xv = gs->g[g].values[o->nby];
        if (numeric)
            snprintf(x, sizeof x, "%s", xv);
        else
            snprintf(x, sizeof x, "%d", x_index(xs, nxs, xv));
        hs_buf_printf(b, "%s %.17g %.17g\n", x, s.mean, isnan(bar) ? 0.0 : bar);
        if (ocol >= 0)
            rc = overlay_point(&ov, csv, file, gs, g, o->nby, ncurves - 1, x, v);
    }
    free(v);
    free(xs);
    if (!rc && !ncurves)
        rc = hs_fail("%s: no successful run to plot", file);
    if (!rc)
        hs_buf_printf(b, "EOD\n%s%s%s%s\n", hs_buf_str(&ov.data), ov.open >= 0 ? "EOD\n" : "",
                      hs_buf_str(&plot), hs_buf_str(&ov.plot));
    hs_buf_free(&plot);
    hs_buf_free(&ov.data);
    hs_buf_free(&ov.plot);
    return rc;
}

int hs_plot_metric(const struct hs_csv *csv, const char *file, const struct hs_plot_opts *o)
{
    int ycol = hs_csv_need_col(csv, o->y, file), ocol = -1;
    if (ycol < 0 || hs_csv_need_col(csv, o->x, file) < 0 ||
        (o->overlay && (ocol = hs_csv_need_col(csv, o->overlay, file)) < 0))
        return -1;
    char **cols = hs_xmalloc((size_t)(o->nby + 1) * sizeof *cols);
    for (int i = 0; i < o->nby; i++)
        cols[i] = o->by[i];
    cols[o->nby] = (char *)o->x;
    struct hs_groups gs;
    int rc = hs_groups_make(csv, file, cols, o->nby + 1, &gs);
    free(cols);
    if (rc)
        return -1;
    struct hs_buf b = {0};
    rc = hs_gnuplot_preamble(&b, o->output, 900, 560);
    if (!rc) {
        labels(&b, o);
        rc = curves(&b, csv, file, &gs, o, ycol, ocol);
    }
    if (!rc)
        rc = hs_gnuplot_run(hs_buf_str(&b), o->script);
    hs_buf_free(&b);
    hs_groups_free(&gs);
    return rc;
}
