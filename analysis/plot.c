/* analysis/plot.c — a metric against a parameter: one curve per group, the
 * mean at each value of the parameter with its 95% confidence interval (or
 * standard deviation) as error bars, optionally a second column's mean drawn
 * as a thin dashed line of the same colour (an analytic prediction beside
 * simulated points), and a study's published values as stars beside the
 * curve they belong to. A comparison plot draws instead each point's gain or
 * ratio against another curve or x value (the thesis' "offline HEFT gains
 * 17.7% over online HEFT"), and a plot may keep only some rows (8 GPUs of a
 * sweep over GPUs). Curves differ by colour, marker and dash; bytes and
 * times are drawn in a unit chosen from the data (GiB, ms); categorical x
 * values lose the text they share. */
#include "analysis/plot.h"
#include "analysis/published.h"
#include "analysis/stats.h"
#include "analysis/sweep.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One point of a curve (or of its overlay, or a published value). */
struct point {
    int curve;
    double x, y, bar; /* bar < 0: no error bar (overlay, published) */
    bool median;      /* a published median, drawn with its own symbol */
};

struct figure {
    char **xs; /* the distinct x values, sorted */
    int nxs;
    bool numeric;
    int ncurves;
    int *first_group; /* of each curve: its label */
    struct point *pts, *over, *pub;
    int npts, nover, npub;
    long nmin, nmax; /* the fewest and most runs behind a point */
};

static int cmp_cell_ptr(const void *a, const void *b)
{
    return hs_cmp_cells(*(char *const *)a, *(char *const *)b);
}

/* Is group g what a comparison plot compares against (a point of the
 * versus curve, or the versus value of x)? */
static bool is_versus(const struct hs_groups *gs, int g, const struct hs_plot_opts *o)
{
    for (int v = 0; v < o->nversus; v++)
        for (int b = 0; b <= o->nby; b++)
            if (strcmp(b < o->nby ? o->by[b] : o->x, o->versus[v].key) == 0 &&
                hs_cmp_cells(gs->g[g].values[b], o->versus[v].value) != 0)
                return false;
    return o->stat != NULL;
}

/* The distinct x values, sorted (but the one a comparison is made against);
 * are they all numbers? */
static void x_values(const struct hs_groups *gs, const struct hs_plot_opts *o, struct figure *f)
{
    int nby = o->nby;
    f->numeric = true;
    f->xs = hs_xmalloc((size_t)(gs->n + 1) * sizeof *f->xs);
    for (int g = 0; g < gs->n; g++) {
        if (is_versus(gs, g, o))
            continue;
        char *x = gs->g[g].values[nby];
        f->numeric &= hs_is_number(x, NULL);
        bool seen = false;
        for (int i = 0; i < f->nxs && !seen; i++)
            seen = strcmp(f->xs[i], x) == 0;
        if (!seen)
            f->xs[f->nxs++] = x;
    }
    qsort(f->xs, (size_t)f->nxs, sizeof *f->xs, cmp_cell_ptr);
}

/* Where x goes on the axis: its value, or its rank on a categorical axis (-1: absent). */
static double x_position(const struct figure *f, const char *x)
{
    double v;
    if (f->numeric)
        return hs_is_number(x, &v) ? v : NAN;
    for (int i = 0; i < f->nxs; i++)
        if (hs_cmp_cells(f->xs[i], x) == 0)
            return i;
    return NAN;
}

static void add_point(struct point **pts, int *n, struct point p)
{
    HS_GROW_IMPLIED(*pts, *n, *n + 1); /* doubling, not one realloc per point */
    (*pts)[(*n)++] = p;
}

/* Does group g start a new curve (other values of the --by columns)? */
static bool new_curve(const struct hs_groups *gs, int g, int nby)
{
    for (int i = 0; g > 0 && i < nby; i++)
        if (strcmp(gs->g[g].values[i], gs->g[g - 1].values[i]) != 0)
            return true;
    return g == 0;
}

/* A curve's name in the key: with one --by column its value alone (the
 * key is titled by the column), else "key=value key=value". */
static char *curve_label(const struct hs_csv *csv, const struct hs_groups *gs, int g, int nby)
{
    if (nby == 1)
        return hs_xstrdup(gs->g[g].values[0]);
    struct hs_groups curve = *gs;
    curve.nby = nby;
    return hs_group_label(csv, &curve, g);
}

/* A comparison plot's point: group g's stat against the versus curve at
 * the same x, computed as a published value of that point would be. */
static int compare(const struct hs_csv *csv, const char *file, const struct hs_groups *gs, int g,
                   const struct hs_plot_opts *o, struct hs_stat *s)
{
    struct hs_study_kv *where = hs_xmalloc((size_t)(o->nby + 1) * sizeof *where);
    for (int b = 0; b <= o->nby; b++)
        where[b] = (struct hs_study_kv){b < o->nby ? o->by[b] : (char *)o->x, gs->g[g].values[b]};
    struct hs_study_ref r = {.where = where, .nwhere = o->nby + 1, .metric = (char *)o->y,
                             .stat = (char *)o->stat, .versus = (struct hs_study_kv *)o->versus,
                             .nversus = o->nversus, .scale = 1};
    int rc = hs_published_ours_ci(csv, file, &r, s);
    free(where);
    return rc;
}

/* The means (and overlay means) of every group, as points of their curves. */
static int collect(const struct hs_csv *csv, const char *file, const struct hs_groups *gs,
                   const struct hs_plot_opts *o, int ycol, int ocol, struct figure *f)
{
    double *v = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *v);
    f->first_group = hs_xmalloc((size_t)(gs->n + 1) * sizeof *f->first_group);
    int rc = 0;
    for (int g = 0; g < gs->n && !rc; g++) {
        long n = hs_group_values(csv, file, &gs->g[g], ycol, v);
        if (n <= 0 || is_versus(gs, g, o)) {
            rc = n < 0 ? -1 : 0;
            continue;
        }
        struct hs_stat s;
        if (o->stat && (rc = compare(csv, file, gs, g, o, &s)) == 0 && isnan(s.mean))
            continue; /* no versus rows at this x */
        if (rc)
            break;
        if (new_curve(gs, g, o->nby) || !f->ncurves)
            f->first_group[f->ncurves++] = g;
        if (!o->stat)
            hs_stat_compute(v, n, &s);
        double bar = o->sd && !o->stat ? s.sd : s.ci95, x = x_position(f, gs->g[g].values[o->nby]);
        f->nmin = f->npts && f->nmin < s.n ? f->nmin : s.n;
        f->nmax = f->nmax > s.n ? f->nmax : s.n;
        add_point(&f->pts, &f->npts, (struct point){f->ncurves - 1, x, s.mean, isnan(bar) ? 0 : bar, false});
        if (ocol >= 0 && (n = hs_group_values(csv, file, &gs->g[g], ocol, v)) > 0) {
            hs_stat_compute(v, n, &s);
            add_point(&f->over, &f->nover, (struct point){f->ncurves - 1, x, s.mean, -1, false});
        } else if (n < 0) {
            rc = -1;
        }
    }
    free(v);
    if (!rc && !f->ncurves)
        rc = hs_fail("%s: no successful run to plot", file);
    return rc;
}

/* The curve whose --by values are these, or -1. */
static int curve_of(const struct hs_groups *gs, const struct figure *f, int nby, const char **values)
{
    for (int k = 0; k < f->ncurves; k++) {
        bool same = true;
        for (int b = 0; b < nby && same; b++)
            same = hs_cmp_cells(gs->g[f->first_group[k]].values[b], values[b]) == 0;
        if (same)
            return k;
    }
    return -1;
}

/* The study's published values that belong on this plot, in our units (value × scale). */
static void published(const struct hs_csv *csv, const struct hs_groups *gs, const struct hs_plot_opts *o,
                      struct figure *f)
{
    const char **curve = hs_xmalloc((size_t)(o->nby + 1) * sizeof *curve), *x;
    for (int i = 0; i < o->npublished; i++) {
        const struct hs_study_ref *r = &o->published[i];
        if (!hs_plot_published_point(csv, o, r, curve, &x))
            continue;
        int k = curve_of(gs, f, o->nby, curve);
        double pos = x_position(f, x), scale = r->scale > 0 ? r->scale : 1;
        if (k >= 0 && !isnan(pos))
            add_point(&f->pub, &f->npub,
                      (struct point){k, pos, r->value * scale, -1, r->stat && strcmp(r->stat, "median") == 0});
    }
    free(curve);
}

static double largest(const struct figure *f)
{
    double m = 0;
    for (int i = 0; i < f->npts; i++)
        m = fmax(m, fabs(f->pts[i].y));
    for (int i = 0; i < f->nover; i++)
        m = fmax(m, fabs(f->over[i].y));
    for (int i = 0; i < f->npub; i++)
        m = fmax(m, fabs(f->pub[i].y));
    return m;
}

/* The one value a column holds in every row drawn, or NULL (no such
 * column, or several values). */
static const char *one_value(const struct hs_csv *csv, const char *column)
{
    int c = hs_csv_col(csv, column);
    if (c < 0 || csv->nrows == 0)
        return NULL;
    for (long r = 1; r < csv->nrows; r++)
        if (strcmp(csv->rows[r][c], csv->rows[0][c]) != 0)
            return NULL;
    return csv->rows[0][c][0] ? csv->rows[0][c] : NULL;
}

static bool drawn_column(const struct hs_plot_opts *o, const char *column)
{
    for (int b = 0; b < o->nby; b++)
        if (strcmp(o->by[b], column) == 0)
            return true;
    return strcmp(o->x, column) == 0;
}

/* The default title: what is drawn against what, then on a second line the
 * workload and platform every point shares and the runs behind each point. */
static void default_title(struct hs_buf *t, const struct hs_csv *csv, const struct hs_plot_opts *o,
                          const struct figure *f)
{
    bool lower = hs_metric_lower_is_better(o->y);
    if (o->stat && strcmp(o->stat, "ratio") == 0)
        hs_buf_printf(t, "%s%s over %s%s against %s", lower ? "speedup in " : "ratio of ", hs_plot_words(o->y),
                      o->versus[0].value, o->nversus > 1 ? ", …" : "", hs_plot_words(o->x));
    else if (o->stat)
        hs_buf_printf(t, "gain in %s over %s%s (%%) against %s", hs_plot_words(o->y), o->versus[0].value,
                      o->nversus > 1 ? ", …" : "", hs_plot_words(o->x));
    else
        hs_buf_printf(t, "%s against %s", hs_plot_words(o->y), hs_plot_words(o->x));
    const char *w = drawn_column(o, "workload") ? NULL : one_value(csv, "workload");
    const char *p = drawn_column(o, "platform") ? NULL : one_value(csv, "platform");
    hs_buf_add(t, "\n");
    if (w)
        hs_plot_spec_words(t, w, 70);
    if (p) {
        hs_buf_add(t, w ? " on " : "platform ");
        hs_plot_spec_words(t, p, 40);
    }
    hs_buf_add(t, w || p ? ", " : "");
    if (f->nmin == f->nmax)
        hs_buf_printf(t, "%ld run%s per point", f->nmax, f->nmax == 1 ? "" : "s");
    else
        hs_buf_printf(t, "%ld to %ld runs per point", f->nmin, f->nmax);
}

/* Is every value drawn, error bars included, at least 0? */
static bool nonnegative(const struct figure *f, double *lowest, double *highest)
{
    double lo = INFINITY, hi = -INFINITY;
    const struct point *sets[] = {f->pts, f->over, f->pub};
    const int ns[] = {f->npts, f->nover, f->npub};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < ns[k]; i++) {
            double bar = sets[k][i].bar > 0 ? sets[k][i].bar : 0;
            if (isfinite(sets[k][i].y)) {
                lo = fmin(lo, sets[k][i].y - bar);
                hi = fmax(hi, sets[k][i].y + bar);
            }
        }
    *lowest = lo, *highest = hi;
    return isfinite(lo) && lo >= 0;
}

static void labels(struct hs_buf *b, const struct hs_csv *csv, const struct hs_plot_opts *o, const struct figure *f,
                   struct hs_unit u)
{
    struct hs_buf t = {0};
    hs_buf_add(b, "set title ");
    if (o->title) {
        hs_gnuplot_quote(b, o->title);
    } else {
        default_title(&t, csv, o, f);
        hs_gnuplot_quote_lines(b, hs_buf_str(&t));
    }
    hs_buf_reset(&t);
    struct hs_buf y = {0};
    if (o->stat) /* which way the comparison reads, in words */
        hs_plot_comparison_words(&y, o->y, o->stat, o->versus[0].value);
    else if (f->nmax > 1) /* an interval only where there are repetitions */
        hs_buf_printf(&y, "%s (mean, %s)", hs_plot_words(o->y), o->sd ? "sd" : "95% CI");
    else
        hs_buf_add(&y, hs_plot_words(o->y));
    hs_unit_label(&t, o->ylabel ? o->ylabel : hs_buf_str(&y), u);
    hs_buf_add(b, "\nset xlabel ");
    hs_gnuplot_quote(b, o->xlabel ? o->xlabel : hs_plot_words(o->x));
    hs_buf_add(b, "\nset ylabel ");
    hs_gnuplot_quote(b, hs_buf_str(&t));
    hs_buf_free(&t);
    hs_buf_free(&y);
    bool ratio = o->stat && strcmp(o->stat, "ratio") == 0, logy = o->logy || ratio;
    double lo, hi;
    hs_buf_add(b, "\nset grid\nset format y '%g'\n");
    if (!logy && !o->stat && nonnegative(f, &lo, &hi)) { /* the axis stops at 0, not below */
        hs_buf_add(b, "set offsets graph 0.03, graph 0.03, graph 0.05, 0\n");
        hs_buf_printf(b, "set yrange [%.17g:*]\n", fmax(0, lo - 0.05 * (hi - lo)) / u.div);
    } else {
        hs_buf_add(b, "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n");
    }
    if (o->logx)
        hs_buf_add(b, "set logscale x\n");
    if (logy) /* a ratio on a log axis: a slowdown of 2 as far from 1 as a speedup of 2 */
        hs_buf_add(b, "set logscale y\n");
    if (o->stat) /* the line of no difference */
        hs_buf_printf(b, "set arrow from graph 0, first %d to graph 1, first %d nohead dt 2 lw 1.5 lc rgb '#555555' "
                         "back\n", ratio, ratio);
}

static bool separator(char c)
{
    return c == ':' || c == ',' || c == '=' || c == ' ';
}

/* What every x value begins and ends with, cut at a separator (":,= ") so
 * that no number is split: "xkcholesky:n=" and ",precision=s" of
 * "xkcholesky:n=800,nb=80,precision=s" and its neighbours. */
static void common_ends(const struct figure *f, size_t *head, size_t *tail)
{
    const char *x0 = f->xs[0];
    size_t n0 = strlen(x0), shortest = n0, h = n0, t = n0;
    for (int i = 1; i < f->nxs; i++) {
        const char *x = f->xs[i];
        size_t n = strlen(x), k = 0;
        while (k < h && k < n && x[k] == x0[k])
            k++;
        h = k;
        k = 0;
        while (k < t && k < n && x[n - 1 - k] == x0[n0 - 1 - k])
            k++;
        t = k;
        shortest = n < shortest ? n : shortest;
    }
    while (h > 0 && !separator(x0[h - 1]))
        h--;
    while (t > 0 && !separator(x0[n0 - t]))
        t--;
    if (f->nxs < 2 || h + t >= shortest)
        h = t = 0;
    *head = h, *tail = t;
}

/* One tic per x value, without the text they all share; long ones slanted. */
static void categorical_axis(struct hs_buf *b, const struct figure *f)
{
    size_t head, tail, chars = 0;
    common_ends(f, &head, &tail);
    hs_buf_add(b, "set xtics (");
    for (int i = 0; i < f->nxs; i++) {
        size_t n = strlen(f->xs[i]) - head - tail;
        char *label = hs_xmalloc(n + 1);
        memcpy(label, f->xs[i] + head, n);
        label[n] = 0;
        hs_buf_add(b, i ? ", " : "");
        hs_gnuplot_quote(b, label);
        hs_buf_printf(b, " %d", i);
        free(label);
        chars += n + 2;
    }
    hs_buf_printf(b, ")\nset xrange [-0.5:%g]\n", f->nxs - 0.5);
    if (chars > 90) /* about what fits side by side under a 900-pixel plot */
        hs_buf_add(b, "set xtics rotate by -35\n");
}

/* Data block $NAME<k> of curve k's points (x + dx, y [bar]); false if it has none. */
static bool block(struct hs_buf *b, const char *name, int k, const struct point *p, int n, double div, double dx,
                  bool median)
{
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (p[i].curve != k || p[i].median != median)
            continue;
        if (!any)
            hs_buf_printf(b, "$%s%d << EOD\n", name, k);
        any = true;
        hs_buf_printf(b, "%.17g %.17g", p[i].x + dx, p[i].y / div);
        if (p[i].bar >= 0)
            hs_buf_printf(b, " %.17g", p[i].bar / div);
        hs_buf_add(b, "\n");
    }
    if (any)
        hs_buf_add(b, "EOD\n");
    return any;
}

/* The numeric x values, sorted, into v (nxs of them). */
static void numeric_xs(const struct figure *f, double *v)
{
    for (int i = 0; i < f->nxs; i++)
        hs_is_number(f->xs[i], &v[i]);
    for (int i = 1; i < f->nxs; i++) /* already sorted as cells; as numbers to be sure */
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1], v[j - 1] = t;
        }
}

/* How far apart sideways the curves are spread, first to last, so that the
 * error bars of curves at one x do not hide each other: 15% of the smallest
 * gap between two x values (linear numeric axes with error bars only; 0
 * otherwise). Curve k moves by spread × (k / (curves - 1) - 1/2). */
static double dodge_spread(const struct hs_plot_opts *o, const struct figure *f)
{
    bool bars = false;
    for (int i = 0; i < f->npts && !bars; i++)
        bars = f->pts[i].bar > 0;
    if (!bars || !f->numeric || o->logx || f->ncurves < 2 || f->nxs < 2)
        return 0;
    double *v = hs_xmalloc((size_t)f->nxs * sizeof *v), gap = INFINITY;
    numeric_xs(f, v);
    for (int i = 1; i < f->nxs; i++)
        gap = fmin(gap, v[i] - v[i - 1]);
    free(v);
    return isfinite(gap) && gap > 0 ? 0.15 * gap : 0;
}

/* A numeric x axis spans the data (not the next round tics: 0 to 9 for 1
 * to 8), with a tic at each x value when they are few. */
static void numeric_axis(struct hs_buf *b, const struct hs_plot_opts *o, const struct figure *f)
{
    hs_buf_add(b, "set autoscale xfix\n");
    if (o->logx || f->nxs > 12)
        return;
    double *v = hs_xmalloc((size_t)(f->nxs + 1) * sizeof *v);
    numeric_xs(f, v);
    hs_buf_add(b, "set xtics (");
    for (int i = 0; i < f->nxs; i++)
        hs_buf_printf(b, "%s%.17g", i ? ", " : "", v[i]);
    hs_buf_add(b, ")\n");
    free(v);
}

/* The data blocks and the plot command: curves, their overlays, the published values. */
static void draw(struct hs_buf *b, const struct hs_csv *csv, const struct hs_groups *gs,
                 const struct hs_plot_opts *o, const struct figure *f, struct hs_unit u)
{
    struct hs_buf plot = {0};
    size_t longest = 0;
    for (int k = 0; k < f->ncurves; k++) {
        char *label = curve_label(csv, gs, f->first_group[k], o->nby);
        size_t n = strlen(label) + (o->overlay ? strlen(o->overlay) + 2 : 0);
        longest = n > longest ? n : longest;
        free(label);
    }
    /* long curve names would squeeze the plot: the key goes below it then */
    hs_buf_add(b, longest > 28 ? "set key outside below left Left reverse maxcols 2\n"
                               : "set key outside right top\n");
    if (o->nby == 1) { /* the curves are named by their value: the key says of what */
        hs_buf_add(b, "set key title ");
        hs_gnuplot_quote(b, o->by[0]);
        hs_buf_add(b, "\n");
    }
    double spread = dodge_spread(o, f);
    for (int k = 0; k < f->ncurves; k++) {
        char *label = curve_label(csv, gs, f->first_group[k], o->nby);
        double dx = spread > 0 ? spread * ((double)k / (f->ncurves - 1) - 0.5) : 0;
        block(b, "c", k, f->pts, f->npts, u.div, dx, false);
        hs_buf_printf(&plot, "%s$c%d using 1:2:3 with yerrorlines lt %d dt %d pt %d ps 0.8 title ",
                      k ? ", \\\n     " : "plot ", k, k + 1, hs_plot_dash_type(k), hs_plot_point_type(k));
        hs_gnuplot_quote(&plot, label);
        if (block(b, "o", k, f->over, f->nover, u.div, dx, false)) {
            struct hs_buf t = {0};
            hs_buf_printf(&t, "%s: %s", label, o->overlay);
            hs_buf_printf(&plot, ", \\\n     $o%d using 1:2 with lines lt %d dt 2 lw 1 title ", k, k + 1);
            hs_gnuplot_quote(&plot, hs_buf_str(&t));
            hs_buf_free(&t);
        }
        if (block(b, "p", k, f->pub, f->npub, u.div, dx, false))
            hs_buf_printf(&plot, ", \\\n     $p%d using 1:2 with points lt %d pt 3 ps 2.2 lw 2 notitle", k, k + 1);
        if (block(b, "q", k, f->pub, f->npub, u.div, dx, true))
            hs_buf_printf(&plot, ", \\\n     $q%d using 1:2 with points lt %d pt 12 ps 2.2 lw 2 notitle", k, k + 1);
        free(label);
    }
    bool mean = false, median = false; /* one key entry for every curve's published means, one for medians */
    for (int i = 0; i < f->npub; i++)
        *(f->pub[i].median ? &median : &mean) = true;
    if (mean)
        hs_buf_printf(&plot, ", \\\n     NaN with points lc rgb 'black' pt 3 ps 2.2 lw 2 title 'published%s (paper)'",
                      median ? " mean" : "");
    if (median)
        hs_buf_add(&plot, ", \\\n     NaN with points lc rgb 'black' pt 12 ps 2.2 lw 2 title 'published median (paper)'");
    hs_buf_printf(b, "%s\n", hs_buf_str(&plot));
    hs_buf_free(&plot);
}

/* The rows holding the plot's where values (every row without any): a
 * view sharing csv's cells (free its rows array only). */
static int select_rows(const struct hs_csv *csv, const char *file, const struct hs_plot_opts *o,
                       struct hs_csv *view)
{
    *view = *csv;
    view->rows = hs_xmalloc((size_t)(csv->nrows + 1) * sizeof *view->rows);
    view->nrows = 0;
    int *col = hs_xmalloc((size_t)(o->nwhere + 1) * sizeof *col);
    int rc = 0;
    for (int w = 0; w < o->nwhere && !rc; w++)
        rc = (col[w] = hs_csv_need_col(csv, o->where[w].key, file)) < 0 ? -1 : 0;
    for (long r = 0; r < csv->nrows && !rc; r++) {
        bool keep = true;
        for (int w = 0; w < o->nwhere && keep; w++)
            keep = hs_cmp_cells(csv->rows[r][col[w]], o->where[w].value) == 0;
        if (keep)
            view->rows[view->nrows++] = csv->rows[r];
    }
    free(col);
    return rc;
}

static int plot_rows(const struct hs_csv *csv, const char *file, const struct hs_plot_opts *o)
{
    if (o->stat && o->overlay)
        return hs_fail("%s: a comparison plot (%s) draws no overlay", file, o->stat);
    int v = hs_study_misplaced_versus(o->x, o->by, o->nby, o->versus, o->nversus);
    if (v >= 0)
        return hs_fail("%s: compared against %s=%s, but %s is neither x nor a --by column", file,
                       o->versus[v].key, o->versus[v].value, o->versus[v].key);
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
    struct figure f = {0};
    struct hs_buf b = {0};
    x_values(&gs, o, &f);
    rc = collect(csv, file, &gs, o, ycol, ocol, &f);
    struct hs_plot_opts as_ratio = *o;
    bool slower = false;
    for (int i = 0; i < f.npts && !rc && o->stat && strcmp(o->stat, "gain_pct") == 0 && !o->ylabel; i++)
        slower |= f.pts[i].y < 0;
    if (slower) { /* a slowdown in % reads badly (-105% for 2.05 times slower): drawn as a ratio on a log axis */
        fprintf(stderr, "hetsim: note: %s: some points are slower than %s=%s: drawn as ratios on a log axis "
                        "(--ratio), where 2 times slower is as far below 1 as 2 times faster is above\n",
                o->output, o->versus[0].key, o->versus[0].value);
        as_ratio.stat = "ratio";
        o = &as_ratio;
        free(f.first_group), free(f.pts), free(f.over);
        f.first_group = NULL, f.pts = f.over = NULL, f.npts = f.nover = f.ncurves = 0;
        rc = collect(csv, file, &gs, o, ycol, ocol, &f);
    }
    if (!rc)
        rc = hs_gnuplot_preamble(&b, o->output, 900, 560);
    if (!rc) {
        published(csv, &gs, o, &f);
        struct hs_unit u = hs_unit_for(o->stat ? o->stat : o->y, largest(&f));
        labels(&b, csv, o, &f, u);
        if (!f.numeric)
            categorical_axis(&b, &f);
        else
            numeric_axis(&b, o, &f);
        draw(&b, csv, &gs, o, &f, u);
        rc = hs_gnuplot_run(hs_buf_str(&b), o->output, o->script);
    }
    hs_buf_free(&b);
    free(f.xs), free(f.first_group), free(f.pts), free(f.over), free(f.pub);
    hs_groups_free(&gs);
    return rc;
}

int hs_plot_metric(const struct hs_csv *csv, const char *file, const struct hs_plot_opts *o)
{
    struct hs_csv view;
    int rc = select_rows(csv, file, o, &view);
    if (!rc)
        rc = plot_rows(&view, file, o);
    free(view.rows);
    return rc;
}
