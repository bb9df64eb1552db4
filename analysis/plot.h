/* analysis/plot.h — figures through gnuplot (run as a subprocess and fed a
 * script on its standard input): a metric against a parameter, one curve per
 * group with 95% confidence error bars, from sweep results; and the Gantt
 * chart of one run from its record's events. The format follows the output
 * file's extension: .png (pngcairo), .svg, .pdf (pdfcairo). */
#ifndef HS_PLOT_H
#define HS_PLOT_H

#include "base/buf.h"
#include "analysis/csv.h"
#include "analysis/study.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

struct hs_plot_opts {
    const char *x, *y;      /* columns */
    char *const *by;        /* one curve per combination of these columns */
    int nby;
    const char *output;
    const char *title, *xlabel, *ylabel; /* NULL: derived from the columns */
    bool logx, logy;
    const char *script;     /* also write the gnuplot script here (or NULL) */
    const char *overlay;    /* or NULL: a column whose mean per curve and x is drawn as a
                               dashed line of the curve's colour (e.g. a prediction) */
    bool sd;                /* error bars: the standard deviation instead of the 95% CI */
    /* or NULL: each point's "gain_pct" or "ratio" of y (as struct
     * hs_study_ref's stat) against the point these pairs pick: --by columns
     * pick a curve, x an x value, which are not drawn; no error bars then */
    const char *stat;
    const struct hs_study_kv *versus;
    int nversus;
    /* only the rows holding these values (none: every row); a column the
     * results lack is an error */
    const struct hs_study_kv *where;
    int nwhere;
    /* a study's published values: those of this plot's metric at one of its
     * points (hs_plot_published_point) are drawn beside ours as stars */
    const struct hs_study_ref *published;
    int npublished;
};

/* -1 with hs_fail (unknown column, not a number, unknown extension, gnuplot
 * missing or failing). Groups whose overlay column is empty get no line. */
int hs_plot_metric(const struct hs_csv *csv, const char *file, const struct hs_plot_opts *o);

/* Gantt chart: one row per worker, tasks coloured by kernel, transfers in
 * and out of a worker's own memory drawn in thin lanes on its row. -1 with
 * hs_fail when the record has no events. */
/* What a Gantt chart shows: the time window [from, to] in seconds (to <= 0:
 * the makespan; the unit is chosen from the window's length) and the
 * picture's width in pixels (0: 1200); its height follows the rows. */
struct hs_gantt_opts {
    const char *title, *script;
    double from, to;
    int width;
};
int hs_plot_gantt(const cJSON *record, const char *file, const char *output, const struct hs_gantt_opts *o);

/* Does published value r belong on this plot (its metric at one point of one
 * curve)? Then *x is its x value and curve[b] its value of each --by column
 * (o->nby entries). On a comparison plot, only values of its stat against
 * the same versus belong. */
bool hs_plot_published_point(const struct hs_csv *csv, const struct hs_plot_opts *o,
                             const struct hs_study_ref *r, const char **curve, const char **x);

/* ---- shared by both --------------------------------------------------------- */

/* A unit for a column's values: GiB/MiB/KiB for bytes_*, s/ms/µs/ns for
 * times, chosen so that the largest value is at least 1; name NULL (div 1)
 * for other columns. Values are divided by div. */
struct hs_unit {
    const char *name;
    double div;
};
struct hs_unit hs_unit_for(const char *column, double max_abs);
/* label and " [unit]" (a label ending in " (s)" loses it for the unit). */
void hs_unit_label(struct hs_buf *b, const char *label, struct hs_unit u);
/* Labels in words (plot_labels.c), where the user names none: a column as an
 * axis reads it ("gpus": "GPUs"; an unknown column: itself); a workload or
 * platform specification as a title reads it ("cholesky:n=8192,nb=512":
 * "cholesky (n = 8192, nb = 512)", a file by its name alone), cut to max
 * characters with "…" (0: whole); and which way a comparison of metric
 * (stat "ratio" or "gain_pct") against versus ("dmda") reads. */
const char *hs_plot_words(const char *column);
void hs_plot_spec_words(struct hs_buf *b, const char *spec, size_t max);
void hs_plot_comparison_words(struct hs_buf *b, const char *metric, const char *stat, const char *versus);
/* Colours told apart on white by colour-blind readers (set linetype 1..8). */
void hs_gnuplot_palette(struct hs_buf *b);
/* Marker (pt) and dash (dt) of curve k: neighbours differ in both (dt 2,
 * plain dashes, is left to overlays). */
int hs_plot_point_type(int curve);
int hs_plot_dash_type(int curve);

/* "set terminal …; set output '…'" for the output's extension, on a white
 * background, with the palette; -1 with hs_fail. */
int hs_gnuplot_preamble(struct hs_buf *b, const char *output, int width, int height);
/* A gnuplot single-quoted string ('' inside). */
void hs_gnuplot_quote(struct hs_buf *b, const char *text);
/* The same for text of several lines, kept as lines: 'a'."\n".'b'. */
void hs_gnuplot_quote_lines(struct hs_buf *b, const char *text);
/* Run gnuplot on the script (and save it when script_path is set) to draw
 * output, the path its preamble sets: gnuplot writes a temporary file beside
 * it, renamed onto it only when gnuplot succeeded (sim/outfile.h); -1 with
 * hs_fail and gnuplot's first error line. */
int hs_gnuplot_run(const char *script, const char *output, const char *script_path);

#endif
