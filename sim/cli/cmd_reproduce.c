/* sim/cli/cmd_reproduce.c — `hetsim reproduce STUDY`: run a study's sweep
 * (resumable) into a folder, print and write its summary table, draw its
 * plots, and print the published values beside ours (checked against their
 * tolerance where the paper gives an exact figure). `--list` lists the
 * shipped studies; `--quick` runs the study's reduced version. */
#include "analysis/csv.h"
#include "analysis/plot.h"
#include "analysis/published.h"
#include "analysis/stats.h"
#include "analysis/study.h"
#include "analysis/summary.h"
#include "sim/cli/cli.h"
#include "sim/cli/sweep_def.h"
#include "sim/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim reproduce --list\n"
            "       hetsim reproduce STUDY [--quick] [-o DIR] [-j N] [--timeout S] [--strict] [-q]\n"
            "Run the sweep of a study (a name from --list or a study file) into DIR/results.csv\n"
            "(resumed if there), print its summary table (also DIR/summary.csv, DIR/pairwise.csv),\n"
            "draw its plots into DIR, and print the published values beside ours\n"
            "(DIR/published.csv). Default DIR: out/STUDY (out/STUDY-quick with --quick).\n\n"
            "  --quick           the study's reduced version (seconds; used by the tests)\n"
            "  -o, --output DIR  output folder\n"
            "  -j, --jobs N      processes at once (default: every core)\n"
            "  --timeout S       kill a run after S seconds (default: the study's)\n"
            "  --strict          exit 1 when a published value with a tolerance is missed\n"
            "  -q, --quiet       no progress\n");
}

static int list(void)
{
    char **paths;
    int n = hs_study_paths(&paths);
    if (!n)
        printf("no study found in %s\n", hs_study_dirs());
    for (int i = 0; i < n; i++) {
        struct hs_study st;
        if (hs_study_load(paths[i], false, &st)) {
            printf("%-28s (unreadable: %s)\n", strrchr(paths[i], '/') + 1, hs_last_error());
            continue;
        }
        printf("%-28s %s\n", st.name, st.title ? st.title : "");
        hs_study_free(&st);
    }
    hs_study_paths_free(paths, n);
    return HS_EXIT_OK;
}

static int make_dirs(const char *path)
{
    char *p = hs_xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; !rc; s++) {
        bool end = *s == '\0';
        if (*s == '/' || end) {
            *s = '\0';
            if (mkdir(p, 0755) && errno != EEXIST)
                rc = hs_fail("cannot make folder %s: %s", p, strerror(errno));
            if (end)
                break;
            *s = '/';
        }
    }
    free(p);
    return rc;
}

static char *join(const char *dir, const char *file)
{
    char *p = hs_xmalloc(strlen(dir) + strlen(file) + 2);
    sprintf(p, "%s/%s", dir, file);
    return p;
}

/* ---- the sweep ----------------------------------------------------------- */

static int run_sweep(const struct hs_study *st, struct hs_sweep_opts *opts)
{
    struct hs_sweep_def def;
    char where[1100];
    snprintf(where, sizeof where, "%s: ", st->path);
    hs_sweep_def_init(&def, where);
    hs_sweep_def_study(&def, st);
    int rc = HS_EXIT_USAGE;
    if (!hs_sweep_def_resolve(&def)) {
        struct hs_sweep_ops ops;
        hs_sweep_def_ops(&def, &ops);
        rc = hs_sweep_execute(opts, &ops);
    }
    hs_sweep_def_free(&def);
    return rc;
}

/* ---- the report ---------------------------------------------------------- */

static int table(const struct hs_study *st, const struct hs_csv *csv, const char *file, const char *dir)
{
    struct hs_summary_opts o = {.by = st->by, .nby = st->nby, .metrics = st->metrics,
                                .nmetrics = st->nmetrics, .pairwise = st->pairwise};
    char *metric[] = {"makespan"}, **axes = hs_xmalloc((size_t)(st->naxes + 1) * sizeof *axes);
    for (int a = 0; a < st->naxes; a++)
        axes[a] = st->axes[a].name;
    if (!o.nmetrics)
        o.metrics = metric, o.nmetrics = 1;
    if (!o.nby)
        o.by = axes, o.nby = st->naxes;
    char *s = join(dir, "summary.csv"), *p = join(dir, "pairwise.csv");
    int rc = hs_summarize_report(csv, file, &o, s, p, false);
    free(s), free(p), free(axes);
    return rc;
}

static int plots(const struct hs_study *st, const struct hs_csv *csv, const char *dir, const char *file)
{
    for (int i = 0; i < st->nplots; i++) {
        const struct hs_study_plot *sp = &st->plots[i];
        char *out = join(dir, sp->file);
        struct hs_plot_opts o = {.x = sp->x, .y = sp->y, .by = sp->by, .nby = sp->nby, .output = out,
                                 .title = sp->title, .xlabel = sp->xlabel, .ylabel = sp->ylabel,
                                 .logx = sp->logx, .logy = sp->logy, .overlay = sp->overlay,
                                 .sd = sp->sd};
        int rc = hs_plot_metric(csv, file, &o);
        if (!rc)
            printf("plot: %s\n", out);
        free(out);
        if (rc)
            return strncmp(hs_last_error(), "gnuplot", 7) == 0 ? HS_EXIT_FAIL : HS_EXIT_USAGE;
    }
    return 0;
}

static void ref_row(struct hs_table *t, const struct hs_study_ref *r, const struct hs_stat *s, bool quick,
                    int *missed)
{
    struct hs_buf where = {0};
    for (int w = 0; w < r->nwhere; w++)
        hs_buf_printf(&where, "%s%s=%s", w ? " " : "", r->where[w].key, r->where[w].value);
    for (int v = 0; v < r->nversus; v++)
        hs_buf_printf(&where, "%s%s=%s", v ? " " : " vs ", r->versus[v].key, r->versus[v].value);
    if (r->stat && strcmp(r->stat, "mean") != 0)
        hs_table_addf(t, "%s %s", r->metric, r->stat);
    else
        hs_table_add(t, r->metric);
    hs_table_add(t, hs_buf_str(&where));
    if (r->bound) /* a bound the paper states */
        hs_table_addf(t, "%s%.6g", strcmp(r->bound, "upper") == 0 ? "<= " : ">= ", r->value);
    else
        hs_table_num(t, r->value, 6);
    hs_table_num(t, s->mean, 6);
    hs_table_num(t, s->ci95, 3);
    hs_table_addf(t, "%ld", s->n);
    double diff = (s->mean - r->value) / fabs(r->value);
    if (s->n)
        hs_table_addf(t, "%+.1f%%", 100 * diff);
    else
        hs_table_add(t, "");
    if (isnan(r->tolerance))
        hs_table_add(t, "");
    else
        hs_table_addf(t, "%g%%", 100 * r->tolerance);
    bool checked = !isnan(r->tolerance) || r->bound, in = s->n && hs_published_met(r, s->mean);
    const char *verdict = !checked ? "-" : quick ? "not checked (quick)" : !s->n ? "no run" : in ? "ok" : "MISS";
    *missed += checked && !quick && !in;
    hs_table_add(t, verdict);
    hs_table_add(t, r->source ? r->source : "");
    hs_buf_free(&where);
}

static int published(const struct hs_study *st, const struct hs_csv *csv, const char *file,
                     const char *dir, int *missed)
{
    if (!st->nrefs)
        return 0;
    struct hs_table t;
    hs_table_init(&t, 10);
    const char *h[] = {"metric", "where", "published", "ours", "ci95", "n", "diff", "tolerance", "verdict", "source"};
    for (int i = 0; i < 10; i++)
        hs_table_add(&t, h[i]);
    int rc = 0;
    for (int i = 0; i < st->nrefs && !rc; i++) {
        struct hs_stat s;
        if ((rc = hs_published_ours(csv, file, &st->refs[i], &s)) == 0)
            ref_row(&t, &st->refs[i], &s, st->quick, missed);
    }
    if (!rc) {
        printf("\npublished values beside ours%s:\n", st->quick ? " (quick run: other sizes, not checked)" : "");
        hs_table_print(&t, stdout, "");
        char *path = join(dir, "published.csv");
        rc = hs_table_write_csv(&t, path);
        free(path);
    }
    hs_table_free(&t);
    return rc ? HS_EXIT_USAGE : 0;
}

static int report(const struct hs_study *st, const char *dir, bool strict)
{
    char *file = join(dir, "results.csv");
    struct hs_csv csv;
    int rc = hs_csv_read(file, &csv) ? HS_EXIT_USAGE : 0, missed = 0;
    if (!rc) {
        printf("\n%s%s\n\n", st->title ? st->title : st->name, st->quick ? " (quick)" : "");
        rc = table(st, &csv, file, dir);
    }
    if (!rc)
        rc = plots(st, &csv, dir, file);
    if (!rc)
        rc = published(st, &csv, file, dir, &missed);
    if (!rc && missed)
        printf("\n%d published value%s missed%s\n", missed, missed > 1 ? "s" : "",
               strict ? "" : " (--strict makes this an error)");
    hs_csv_free(&csv);
    free(file);
    return rc ? rc : strict && missed ? HS_EXIT_FAIL : 0;
}

int hs_cmd_reproduce(int argc, char **argv)
{
    enum { O_LIST = 256, O_QUICK, O_TIMEOUT, O_STRICT };
    static const struct option opts[] = {
        {"list", no_argument, 0, O_LIST},       {"quick", no_argument, 0, O_QUICK},
        {"output", required_argument, 0, 'o'},  {"jobs", required_argument, 0, 'j'},
        {"timeout", required_argument, 0, O_TIMEOUT}, {"strict", no_argument, 0, O_STRICT},
        {"quiet", no_argument, 0, 'q'},         {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    struct hs_sweep_opts so = {0};
    const char *dir = NULL;
    bool quick = false, strict = false;
    int c;
    optind = 1;
    while ((c = hs_getopt("reproduce", argc, argv, "o:j:qh", opts)) != -1) {
        switch (c) {
        case O_LIST: return list();
        case O_QUICK: quick = true; break;
        case 'o': dir = optarg; break;
        case 'j': so.jobs = (int)hs_opt_long("--jobs", optarg, 1, 4096); break;
        case O_TIMEOUT: so.timeout = hs_opt_double("--timeout", optarg, 1e-3, 1e9); break;
        case O_STRICT: strict = true; break;
        case 'q': so.quiet = true; break;
        case 'h': usage(stdout); return HS_EXIT_OK;
        }
    }
    if (optind != argc - 1)
        hs_die(HS_EXIT_USAGE, "reproduce: expected one study (see `hetsim reproduce --list`)");
    struct hs_study st;
    if (hs_study_load(argv[optind], quick, &st))
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    char defdir[512];
    snprintf(defdir, sizeof defdir, "out/%s%s", st.name, quick ? "-quick" : "");
    dir = dir ? dir : defdir;
    char *csv = join(dir, "results.csv");
    so.csv = csv;
    so.timeout = so.timeout ? so.timeout : st.timeout;
    int rc = make_dirs(dir) ? HS_EXIT_USAGE : run_sweep(&st, &so);
    if (rc == HS_EXIT_USAGE)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    if (rc == HS_EXIT_OK || rc == HS_EXIT_FAIL) {
        int r = report(&st, dir, strict);
        if (r == HS_EXIT_USAGE)
            fprintf(stderr, "hetsim: %s\n", hs_last_error());
        rc = r ? r : rc;
    }
    free(csv);
    hs_study_free(&st);
    return rc;
}
