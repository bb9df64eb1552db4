/* cli/cmd_reproduce.c — `hetsim reproduce STUDY`: run a study's sweep
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
#include "analysis/sweep_exec.h"
#include "base/util.h"
#include "cli/cli.h"
#include "cli/ledger_run.h"
#include "scenario/scenario.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim reproduce --list\n"
            "       hetsim reproduce STUDY [--quick] [-o DIR] [-j N] [--timeout S] [--strict] [--retry-failed] [-q]\n"
            "       hetsim reproduce --ledger [-o DIR] [-j N] [--only S1,S2] [--markdown FILE]\n"
            "                        [--platform-map FROM=TO] [--policy-param NAME:KEY=VALUE]\n"
            "                        [--set KEY=VALUE]... [--claims FILE] [--shard I/N | --merge DIR...]\n"
            "Run the sweep of a study (a name from --list or a study file) into DIR/results.csv\n"
            "(resumed if there), print its summary table (also DIR/summary.csv, DIR/pairwise.csv),\n"
            "draw its plots into DIR, and print the published values beside ours\n"
            "(DIR/published.csv). Default DIR: out/STUDY (out/STUDY-quick with --quick).\n\n"
            "  --quick           the study's reduced version (seconds; used by the tests)\n"
            "  -o, --output DIR  output folder\n"
            "  -j, --jobs N      processes at once (default: every core)\n"
            "  --timeout S       kill a run after S seconds (default: the study's)\n"
            "  --strict          exit 1 when a published value with a tolerance is missed\n"
            "  -q, --quiet       no progress and no tables: one line of where the results went\n"
            "  --retry-failed    run again the runs whose row is not ok (a resumed study whose file\n"
            "                    holds failed rows exits 1 and says so)\n\n"
            "--ledger runs every study that checks a published claim (full size, into\n"
            "DIR/STUDY, default DIR out/ledger; resumed like any sweep) and prints one row\n"
            "per claim of the papers: published value, ours, tolerance, verdict (holds,\n"
            "holds (assumed: ...), partly, fails, not reproducible, calibration, not run,\n"
            "not runnable), then 'N claims: H hold (A of them on an assumption), P partly,\n"
            "F fail, R not reproducible, C calibration, X not run, Y not runnable'.\n"
            "  --only S1,S2      run only these studies (the other claims: not run)\n"
            "  --markdown FILE   also write the table, with each claim's text and reason\n"
            "  --platform-map FROM=TO  run what names platform FROM on platform TO\n"
            "                    (evidence for a machine model: --platform-map idgraf=idgraf-pcie)\n"
            "  --policy-param NAME:KEY=VALUE  add a parameter to every use of policy NAME\n"
            "                    (evidence for a policy's variant: --policy-param ws:order=fifo)\n"
            "  --set KEY=VALUE   add a scenario setting to every study (repeatable)\n"
            "  --claims FILE     another claims file (default: ledger/claims.json beside the studies)\n"
            "  --shard I/N       only the points of share I of N (0 <= I < N; every repetition of a\n"
            "                    point in one share): a Slurm array task, into its own DIR\n"
            "  --merge DIR...    run nothing: join the shards' folders into DIR and count the claims\n"
            "                    (give the options the shards had)\n"
            "The runs of all studies share the -j processes; a run several studies hold is run once,\n"
            "and a run another study already wrote into DIR is copied, not run again. Under mpirun,\n"
            "rank R of N runs share R of N into DIR/mpi-R-of-N (-j: default 1) and rank 0 merges.\n");
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

/* ---- the report ---------------------------------------------------------- */

static int table(const struct hs_study *st, const struct hs_csv *csv, const char *file, const char *dir,
                 bool quiet)
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
    char *s = hs_path_join(dir, "summary.csv"), *p = hs_path_join(dir, "pairwise.csv");
    int rc = hs_summarize_report(csv, file, &o, s, p, quiet);
    free(s), free(p), free(axes);
    return rc;
}

static int plots(const struct hs_study *st, const struct hs_csv *csv, const char *dir, const char *file,
                 bool quiet)
{
    for (int i = 0; i < st->nplots; i++) {
        const struct hs_study_plot *sp = &st->plots[i];
        char *out = hs_path_join(dir, sp->file), *title = hs_study_plot_title(st, sp);
        struct hs_plot_opts o = {.x = sp->x, .y = sp->y, .by = sp->by, .nby = sp->nby, .output = out,
                                 .title = title, .xlabel = sp->xlabel, .ylabel = sp->ylabel,
                                 .logx = sp->logx, .logy = sp->logy, .overlay = sp->overlay,
                                 .sd = sp->sd, .stat = sp->stat, .versus = sp->versus, .nversus = sp->nversus,
                                 .where = sp->where, .nwhere = sp->nwhere,
                                 /* the paper's values fit its sizes, not --quick's */
                                 .published = st->quick ? NULL : st->refs, .npublished = st->quick ? 0 : st->nrefs};
        int rc = hs_plot_metric(csv, file, &o);
        if (!rc && !quiet)
            printf("plot: %s\n", out);
        free(out);
        free(title);
        if (rc)
            return strncmp(hs_last_error(), "gnuplot", 7) == 0 ? HS_EXIT_FAIL : HS_EXIT_USAGE;
    }
    return 0;
}

/* What the published-values table counts: rows checked (ok or missed), and
 * the others, by why they are not. */
struct ref_counts {
    int ok, missed, unchecked, norun, circular, quick;
};

/* A difference in % means something only between two figures of one scale:
 * not against a bound ("< -5"), nor for a category (the value of a column
 * where a gain is largest), nor in a quick run (other sizes than the paper's). */
static bool diff_means_something(const struct hs_study_ref *r, const struct hs_stat *s, bool quick)
{
    return !quick && s->n && !r->bound && !(r->of && strcmp(r->of, "argmax") == 0) && r->value != 0 &&
           isfinite(s->mean);
}

static void ref_row(struct hs_table *t, const struct hs_study_ref *r, const struct hs_stat *s, bool quick,
                    struct ref_counts *c)
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
    char published[64], ours[64], tolerance[64];
    hs_published_texts(r, s, sizeof published, published, ours, tolerance);
    hs_table_add(t, published); /* the figure, or a bound the paper states */
    hs_table_num(t, s->mean, 6);
    hs_table_num(t, s->ci95, 3);
    hs_table_addf(t, "%ld", s->n);
    if (diff_means_something(r, s, quick)) /* (no empty format: clang's -Wformat-zero-length) */
        hs_table_addf(t, "%+.1f%%", 100 * (s->mean - r->value) / fabs(r->value));
    else
        hs_table_add(t, "");
    hs_table_add(t, tolerance);
    bool checked = hs_published_checked(r) && !r->circular, in = s->n && hs_published_met(r, s->mean);
    const char *verdict = r->circular ? "circular (a model parameter)"
                          : !checked  ? "-"
                          : quick     ? "not checked (quick)"
                          : !s->n     ? "no run"
                          : in        ? "ok"
                                      : "MISS";
    c->circular += r->circular != NULL;
    c->unchecked += !r->circular && !checked;
    c->quick += checked && quick;
    c->norun += checked && !quick && !s->n;
    c->ok += checked && !quick && s->n && in;
    c->missed += checked && !quick && s->n && !in;
    hs_table_add(t, verdict);
    hs_table_add(t, r->source ? r->source : "");
    hs_buf_free(&where);
}

/* "7 ok, 33 missed of 40 checked; 2 without a tolerance, 1 circular" */
static void count_line(const struct ref_counts *c, int total)
{
    struct hs_buf b = {0};
    if (c->quick)
        hs_buf_printf(&b, "%d of %d not checked (quick run: other sizes than the paper's)", c->quick, total);
    else
        hs_buf_printf(&b, "%d ok, %d missed%s of %d checked", c->ok, c->missed + c->norun,
                      c->norun ? " (some not run)" : "", c->ok + c->missed + c->norun);
    if (c->unchecked)
        hs_buf_printf(&b, "; %d without a tolerance, not checked", c->unchecked);
    if (c->circular)
        hs_buf_printf(&b, "; %d circular (a model parameter), not evidence", c->circular);
    printf("%s\n", hs_buf_str(&b));
    hs_buf_free(&b);
}

/* The width the table is fitted to: a terminal's (its window, else
 * $COLUMNS, else 120); into a file or a pipe, $COLUMNS where it is set,
 * else none (whole rows, for grep). */
static int table_width(void)
{
    struct winsize ws;
    const char *columns = getenv("COLUMNS");
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    if (columns && atoi(columns) > 0)
        return atoi(columns);
    return isatty(STDOUT_FILENO) ? 120 : 0;
}

static int published(const struct hs_study *st, const struct hs_csv *csv, const char *file,
                     const char *dir, int *missed, bool quiet)
{
    if (!st->nrefs)
        return 0;
    struct hs_table t;
    hs_table_init(&t, 10);
    const char *h[] = {"metric", "where", "published", "ours", "ci95", "n", "diff", "tolerance", "verdict", "source"};
    for (int i = 0; i < 10; i++)
        hs_table_add(&t, h[i]);
    int rc = 0;
    struct ref_counts c = {0};
    for (int i = 0; i < st->nrefs && !rc; i++) {
        struct hs_stat s;
        if ((rc = hs_published_ours(csv, file, &st->refs[i], &s)) == 0)
            ref_row(&t, &st->refs[i], &s, st->quick, &c);
    }
    *missed += c.missed + c.norun;
    if (!rc && !quiet) {
        printf("\npublished values beside ours%s:\n", st->quick ? " (quick run: other sizes, not checked)" : "");
        hs_table_print_fit(&t, stdout, "", table_width());
        count_line(&c, st->nrefs);
    }
    if (!rc) {
        char *path = hs_path_join(dir, "published.csv");
        rc = hs_table_write_csv(&t, path);
        free(path);
    }
    hs_table_free(&t);
    return rc ? HS_EXIT_USAGE : 0;
}

/* The study's tables, plots and published values, into dir; printed unless
 * quiet, which prints one line of where they went (and the missed values). */
static int report(const struct hs_study *st, const char *dir, bool strict, bool quiet)
{
    char *file = hs_path_join(dir, "results.csv");
    struct hs_csv csv;
    int rc = hs_csv_read(file, &csv) ? HS_EXIT_USAGE : 0, missed = 0;
    if (!rc) {
        if (!quiet)
            printf("\n%s%s\n\n", st->title ? st->title : st->name, st->quick ? " (quick)" : "");
        rc = table(st, &csv, file, dir, quiet);
    }
    if (!rc)
        rc = plots(st, &csv, dir, file, quiet);
    if (!rc)
        rc = published(st, &csv, file, dir, &missed, quiet);
    if (!rc && quiet)
        printf("%s: %ld runs; summary.csv, pairwise.csv%s and %d plot%s in %s\n", st->name, csv.nrows,
               st->nrefs ? ", published.csv" : "", st->nplots, st->nplots == 1 ? "" : "s", dir);
    if (!rc && missed)
        printf("%s%d published value%s missed%s\n", quiet ? "" : "\n", missed, missed > 1 ? "s" : "",
               strict ? "" : " (--strict makes this an error)");
    hs_csv_free(&csv);
    free(file);
    return rc ? rc : strict && missed ? HS_EXIT_FAIL : 0;
}

/* --platform-map FROM=TO */
static void platform_map(const char *arg, struct hs_ledger_opts *lo)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        hs_die(HS_EXIT_USAGE, "--platform-map %s: expected FROM=TO (e.g. idgraf=idgraf-pcie)", arg);
    static char from[256];
    snprintf(from, sizeof from, "%.*s", (int)(eq - arg), arg);
    lo->map_from = from;
    lo->map_to = eq + 1;
}

/* --policy-param NAME:KEY=VALUE */
static void policy_param(const char *arg, struct hs_ledger_opts *lo)
{
    const char *colon = strchr(arg, ':');
    if (!colon || colon == arg || !strchr(colon + 1, '=') || colon[1] == '=')
        hs_die(HS_EXIT_USAGE, "--policy-param %s: expected NAME:KEY=VALUE (e.g. ws:order=fifo)", arg);
    static char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(colon - arg), arg);
    lo->param_policy = name;
    lo->param = colon + 1;
}

/* --set KEY=VALUE */
static void add_setting(const char *arg, struct hs_ledger_opts *lo)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        hs_die(HS_EXIT_USAGE, "--set %s: expected KEY=VALUE (a scenario setting, e.g. window=1)", arg);
    HS_GROW_IMPLIED(lo->set, lo->nset, lo->nset + 1);
    char *key = hs_xstrdup(arg);
    key[eq - arg] = '\0';
    lo->set[lo->nset].key = key;
    lo->set[lo->nset++].value = hs_xstrdup(eq + 1);
}

int hs_cmd_reproduce(int argc, char **argv)
{
    enum { O_LIST = 256, O_QUICK, O_TIMEOUT, O_STRICT, O_LEDGER, O_ONLY, O_MARKDOWN, O_MAP, O_SET, O_CLAIMS, O_PARAM,
           O_RETRY, O_SHARD, O_MERGE };
    static const struct option opts[] = {
        {"list", no_argument, 0, O_LIST},       {"quick", no_argument, 0, O_QUICK},
        {"output", required_argument, 0, 'o'},  {"jobs", required_argument, 0, 'j'},
        {"timeout", required_argument, 0, O_TIMEOUT}, {"strict", no_argument, 0, O_STRICT},
        {"quiet", no_argument, 0, 'q'},         {"help", no_argument, 0, 'h'},
        {"ledger", no_argument, 0, O_LEDGER},   {"only", required_argument, 0, O_ONLY},
        {"markdown", required_argument, 0, O_MARKDOWN}, {"platform-map", required_argument, 0, O_MAP},
        {"set", required_argument, 0, O_SET},   {"claims", required_argument, 0, O_CLAIMS},
        {"policy-param", required_argument, 0, O_PARAM}, {"retry-failed", no_argument, 0, O_RETRY},
        {"shard", required_argument, 0, O_SHARD}, {"merge", no_argument, 0, O_MERGE},
        {0, 0, 0, 0},
    };
    struct hs_sweep_opts so = {0};
    const char *dir = NULL;
    bool quick = false, strict = false, ledger = false, merge = false;
    struct hs_ledger_opts lo = {0};
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
        case O_RETRY: so.retry_failed = true; break;
        case 'h': usage(stdout); return HS_EXIT_OK;
        case O_LEDGER: ledger = true; break;
        case O_ONLY: lo.only = optarg; break;
        case O_MARKDOWN: lo.markdown = optarg; break;
        case O_CLAIMS: lo.claims = optarg; break;
        case O_MAP: platform_map(optarg, &lo); break;
        case O_SET: add_setting(optarg, &lo); break;
        case O_PARAM: policy_param(optarg, &lo); break;
        case O_SHARD: hs_opt_shard(optarg, &lo.shard, &lo.nshards); break;
        case O_MERGE: merge = true; break;
        }
    }
    hs_output_require("reproduce", "--markdown", lo.markdown, false);
    if (ledger) {
        if ((optind != argc && !merge) || quick || strict)
            hs_die(HS_EXIT_USAGE, "reproduce --ledger: takes no study, --quick or --strict");
        if (merge && (optind == argc || lo.nshards))
            hs_die(HS_EXIT_USAGE, "reproduce --ledger --merge: expected the folders of the shards (and no --shard)");
        lo.dir = dir ? dir : "out/ledger";
        lo.merge = argv + optind, lo.nmerge = argc - optind;
        struct stat sb;
        for (int i = 0; i < lo.nmerge; i++)
            if (stat(lo.merge[i], &sb) || !S_ISDIR(sb.st_mode))
                hs_die(HS_EXIT_USAGE, "reproduce --ledger --merge: %s: not a folder (give the folders the shards "
                                      "wrote with -o)", lo.merge[i]);
        int rc = hs_ledger_run(&lo, &so);
        for (int i = 0; i < lo.nset; i++)
            free(lo.set[i].key), free(lo.set[i].value);
        free(lo.set);
        return rc;
    }
    if (lo.only || lo.markdown || lo.claims || lo.map_from || lo.nset || lo.param || lo.nshards || merge)
        hs_die(HS_EXIT_USAGE, "reproduce: --only, --markdown, --platform-map, --policy-param, --set, --claims, "
                              "--shard and --merge go with --ledger");
    if (optind != argc - 1)
        hs_die(HS_EXIT_USAGE, "reproduce: expected one study (see `hetsim reproduce --list`)");
    struct hs_study st;
    if (hs_study_load(argv[optind], quick, &st))
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    char defdir[512];
    snprintf(defdir, sizeof defdir, "out/%s%s", st.name, quick ? "-quick" : "");
    dir = dir ? dir : defdir;
    int rc = hs_study_execute(&st, dir, &so, NULL, 0);
    if (rc == HS_EXIT_USAGE)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    /* under mpirun the ranks shared the sweep (hs_sweep_execute, as `sweep`
       does); rank 0, which wrote the results, reports them alone */
    if ((rc == HS_EXIT_OK || rc == HS_EXIT_FAIL) && hs_sweep_launcher_rank() == 0) {
        int r = report(&st, dir, strict, so.quiet);
        if (r == HS_EXIT_USAGE)
            fprintf(stderr, "hetsim: %s\n", hs_last_error());
        rc = r ? r : rc;
    }
    hs_study_free(&st);
    return rc;
}
