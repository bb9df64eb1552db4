/* analysis/study.h — study files (JSON, analysis/studies/NAME.json): the
 * sweep that reproduces a figure or table of a paper, its reduced --quick
 * version, the summary table and plots to make, and the published values to
 * print beside ours (with a tolerance where the paper gives an exact figure).
 *
 *   { "title": "...", "description": "...", "source": "...",
 *     "sweep": { "base": {"platform": "idgraf", "workload": "cholesky:n=16384,nb=1024"},
 *                "vary": {"policy": ["heft", "dmda"], "gpus": [1, 2, 4, 8]},
 *                "reps": 1, "timeout": 600 },
 *     "quick": { "base": {...}, "vary": {...}, "reps": 1 },   (overrides, key by key)
 *     (or, in place of sweep and quick, "analysis": {"kind": "beta-grid", "problem": "outer",
 *      "draws": 100, "seed": 1}: Beaumont and Marchal's §3.6 grid, the same for --quick)
 *     "table": { "by": ["policy", "gpus"], "metrics": ["gflops"], "pairwise": "makespan" },
 *     "plots": [ {"file": "gflops.png", "x": "gpus", "y": "gflops", "by": ["policy"],
 *                 "title": "...", "xlabel": "...", "ylabel": "...", "logx": false, "logy": false,
 *                 "overlay": "analysis_ratio", "errors": "ci95"|"sd"} ],   (last two optional)
 *     "published": [ {"where": {"policy": "dmda", "gpus": 8}, "metric": "gflops",
 *                     "value": 680.82, "tolerance": 0.10, "scale": 1, "source": "...",
 *                     "stat": "mean"|"median"|"sd"|"min"|"max"|"better_pct"|"equal_pct"|"worse_pct"|"gain_pct"|"ratio"
 *                             |"column_ratio"|"loglog_slope",
 *                     "versus": {"policy": "heft"}, "bound": "upper"|"lower",
 *                     "claim": "lima:E4", "over": "analysis_ratio", "null": 1, "margin": "...",
 *                     "strict": true, "circular": "...", "spread": 0.01 } ] }
 *                            (stat, versus, bound, claim, null, margin, strict, circular, spread
 *                             optional; over with column_ratio and loglog_slope)
 *
 * Every key is checked: a typo is refused with its path in the file. */
#ifndef HS_STUDY_H
#define HS_STUDY_H

#include "analysis/sweep.h"

#include <stdbool.h>
#include <stddef.h>

struct hs_study_kv {
    char *key, *value;
};

struct hs_study_plot {
    char *file, *x, *y, *title, *xlabel, *ylabel;
    char **by;
    int nby;
    bool logx, logy;
    char *overlay; /* a column drawn as a dashed line per curve (NULL: none) */
    bool sd;       /* "errors": "sd" (default "ci95") */
    /* a comparison plot: y's "gain_pct" or "ratio" (as struct hs_study_ref's
     * stat) of each point against the point these pairs of x or --by
     * columns pick (e.g. every policy against online HEFT), NULL / 0 for the
     * mean of y */
    char *stat;
    struct hs_study_kv *versus;
    int nversus;
    /* only the rows holding these values (e.g. "gpus": 8 of a sweep over
     * GPUs), or none */
    struct hs_study_kv *where;
    int nwhere;
};

struct hs_study_ref {
    struct hs_study_kv *where;
    int nwhere;
    char *metric, *source;
    double value;
    double tolerance; /* relative; NAN: the paper gives no exact figure */
    double scale;     /* our values are divided by it (1 by default) */
    /* what of our values is compared: "mean" (default), "median", "sd",
     * "min", "max"; or
     * "better_pct", "equal_pct", "worse_pct": the percentage of instances
     * where the where-rows' metric is better than, equal to or worse than the
     * rows that differ from them by the versus keys (e.g. heftnc vs heft on
     * the same DAGs: Best Case % of the HEFT-NC thesis); or "gain_pct": how
     * much better (in %) the mean over the where-rows is than the mean over
     * the versus-rows (e.g. the thesis' mean-SLR improvements) */
    char *stat;
    struct hs_study_kv *versus;
    int nversus;
    /* NULL: value is a figure (checked against tolerance, if any); "upper" or
     * "lower": value is a bound the paper states ("does not scale": a ratio
     * of at most 1), met when ours <= value (1 + tolerance), or >= value
     * (1 - tolerance); tolerance defaults to 0 then */
    char *bound;
    /* the headline claim of the paper this value belongs to (an id of the
     * ledger's claims file, e.g. "lima:E6"), or NULL */
    char *claim;
    /* "column_ratio": ours is the where-rows' mean of metric over their mean
     * of this column (e.g. a simulation over its analysis); "loglog_slope":
     * the least-squares slope of log(metric) against log(this column) over
     * the where-rows, the exponent of a power law (a planner's time against
     * the tasks) */
    char *over;
    /* The ledger's rule (docs/fidelity.md), checked when the file loads:
     * every value is checked (a tolerance or a bound); a figure's tolerance
     * is no wider than half the effect it states, |value - null|, where null
     * is what the statistic gives without any effect ("null": 1 for ratio
     * and column_ratio, 0 otherwise, unless the file says); a figure equal
     * to its null ("similar", "the same") says in margin where its
     * tolerance comes from. A bound is a number the paper states, or at its
     * null a direction ("better": strict, no tolerance) or a claim of no
     * gain ("does not scale": a tolerance with its margin). */
    double null_value;
    char *margin;
    /* the paper's own spread (relative, as tolerance) where it shows one
     * (a standard deviation, a range over draws): the widest tolerance in
     * place of half the effect; margin says where the paper shows it.
     * NAN: none */
    double spread;
    /* a bound met only strictly, by more than its tolerance (a claim of
     * "better", not "at least as good"): ours > value + tolerance |value|
     * (lower), ours < value - tolerance |value| (upper) */
    bool strict;
    /* NULL, or the model parameter this value was taken from (the same
     * sentence of the paper): printed, never counted as evidence */
    char *circular;
    /* gain_pct over groups: the gain within each group of the where-rows
     * that share the values of these columns (e.g. a figure's points: v,
     * alpha, ccr), and ours is "of" them: their "mean", "min" or "max", or
     * "argmax", the value of the one by column at the largest gain (the
     * thesis' "best case", "on average across the data sets", "highest at
     * high CCR"); none: one gain over every where-row */
    char **by;
    int nby;
    char *of;
};

/* The statistic's value when there is no effect: what r->null_value
 * defaults to (1 for ratio and column_ratio, 0 otherwise). */
double hs_study_ref_null(const char *stat);

struct hs_study {
    char *path, *name, *title, *description, *source;
    bool quick;
    /* the sweep (with --quick's overrides applied) */
    struct hs_study_kv *base;
    int nbase;
    struct hs_sweep_axis *axes;
    int naxes, reps;
    double timeout;
    /* or an analysis computed in its place (NULL: the sweep): "beta-grid",
     * Beaumont and Marchal's §3.6 grid (policies/bm/bm_grid.h), for problem
     * dimension 2 (outer) or 3 (matmul), with its draws (0: the paper's) and seed */
    char *analysis;
    int analysis_dim, analysis_draws;
    unsigned long analysis_seed;
    /* the report */
    char **by, **metrics, *pairwise;
    int nby, nmetrics;
    struct hs_study_plot *plots;
    int nplots;
    struct hs_study_ref *refs;
    int nrefs;
};

/* The first of the versus pairs whose key is neither x nor one of by (a
 * comparison plot's versus must pick a curve or an x value), or -1. */
int hs_study_misplaced_versus(const char *x, char *const *by, int nby, const struct hs_study_kv *versus,
                              int nversus);
/* Free n pairs and the array. */
void hs_study_kv_free(struct hs_study_kv *kv, int n);

/* Load a study by name (found in the study directories) or path. -1 with
 * hs_fail ("FILE: sweep.vary.gpus[2]: expected a string or a number"). */
int hs_study_load(const char *name_or_path, bool quick, struct hs_study *st);
void hs_study_free(struct hs_study *st);

/* The shipped studies: *paths (sorted by name; caller frees with
 * hs_study_paths_free). */
int hs_study_paths(char ***paths);
void hs_study_paths_free(char **paths, int n);
/* A file beside the studies (e.g. "ledger/claims.json") in the first study
 * directory holding it; NULL if none does. Caller frees. */
char *hs_study_find_file(const char *relative);
/* The directories searched, in order (NULL-terminated), and the same for
 * messages (naming HETSIM_STUDYDIR). */
const char *const *hs_study_dir_list(void);
const char *hs_study_dirs(void);

#endif
