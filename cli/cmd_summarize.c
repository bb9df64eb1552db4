/* cli/cmd_summarize.c — `hetsim summarize`: mean, standard deviation
 * and 95% confidence interval of metrics per group of a sweep's rows, and
 * the pairwise better/equal/worse counts of the groups; as aligned tables
 * and as CSV. */
#include "analysis/summary.h"
#include "base/util.h"
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim summarize RESULTS.csv [--by COL,COL] [--metrics COL,COL] [--pairwise COL|none]\n"
            "                        [--csv OUT.csv] [--pairwise-csv OUT.csv] [--digits N] [-q]\n"
            "Per group of rows (one per combination of the --by columns' values; failed runs\n"
            "are counted, not used): n, mean, standard deviation and the half-width of the 95%%\n"
            "confidence interval of the mean (Student t) of every metric (default: makespan).\n"
            "Then, on one metric (default: the first), for every two groups that ran the same\n"
            "instances (same DAG, seed and noise; e.g. two policies), how often the first is\n"
            "better, equal (within 1e-9 relative) or worse. gflops, speedup and efficiency are\n"
            "better higher; the others lower.\n\n"
            "  --by COLS          grouping columns (e.g. policy,ccr)\n"
            "  --metrics COLS     metric columns (e.g. makespan,gflops,bytes_total)\n"
            "  --pairwise COL     metric of the pairwise table; none: no pairwise table\n"
            "  --csv FILE         also write the summary as CSV\n"
            "  --pairwise-csv FILE  also write the pairwise table as CSV\n"
            "  --digits N         significant digits (default 6; 12 in the CSV files)\n"
            "  -q, --quiet        print nothing (with --csv)\n");
}

struct sum_args {
    const char *file, *csv, *pcsv;
    struct hs_summary_opts o;
    bool quiet;
};

static void parse_args(int argc, char **argv, struct sum_args *a)
{
    enum { O_BY = 256, O_METRICS, O_PAIR, O_CSV, O_PCSV, O_DIGITS };
    static const struct option opts[] = {
        {"by", required_argument, 0, O_BY},       {"metrics", required_argument, 0, O_METRICS},
        {"pairwise", required_argument, 0, O_PAIR}, {"csv", required_argument, 0, O_CSV},
        {"pairwise-csv", required_argument, 0, O_PCSV}, {"digits", required_argument, 0, O_DIGITS},
        {"quiet", no_argument, 0, 'q'},           {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    int c;
    optind = 1;
    while ((c = hs_getopt("summarize", argc, argv, "qh", opts)) != -1) {
        switch (c) {
        case O_BY: a->o.nby = hs_split_list(optarg, (char ***)&a->o.by); break;
        case O_METRICS: a->o.nmetrics = hs_split_list(optarg, (char ***)&a->o.metrics); break;
        case O_PAIR: a->o.pairwise = strcmp(optarg, "none") ? optarg : ""; break;
        case O_CSV: a->csv = optarg; break;
        case O_PCSV: a->pcsv = optarg; break;
        case O_DIGITS: a->o.digits = (int)hs_opt_long("--digits", optarg, 1, 17); break;
        case 'q': a->quiet = true; break;
        case 'h': usage(stdout); exit(HS_EXIT_OK);
        }
    }
    if (optind != argc - 1)
        hs_die(HS_EXIT_USAGE, "summarize: expected one results file (see `hetsim summarize --help`)");
    a->file = argv[optind];
    hs_output_require("summarize", "--csv", a->csv, false);
    hs_output_require("summarize", "--pairwise-csv", a->pcsv, false);
}

/* Print and write the tables; returns the exit code. */
int hs_summarize_report(const struct hs_csv *csv, const char *file, const struct hs_summary_opts *o,
                        const char *csv_out, const char *pairs_out, bool quiet)
{
    struct hs_table stats, pairs;
    char note[512];
    struct hs_summary_opts shown = *o, written = *o;
    shown.digits = o->digits ? o->digits : 6;
    shown.units = true; /* the CSV files keep raw bytes and seconds */
    written.digits = 12;
    written.units = false;
    int rc = hs_summary_make(csv, file, &shown, &stats, &pairs, note, sizeof note) ? HS_EXIT_USAGE : 0;
    if (!rc && !quiet) {
        hs_reps_warn(csv, file);
        hs_table_print(&stats, stdout, "");
        if (note[0])
            printf("\n%s%s\n", note, hs_table_rows(&pairs) > 1 ? ":" : "");
        if (hs_table_rows(&pairs) > 1)
            hs_table_print(&pairs, stdout, "");
    }
    hs_table_free(&stats);
    hs_table_free(&pairs);
    if (!rc && (csv_out || pairs_out)) {
        hs_summary_make(csv, file, &written, &stats, &pairs, note, sizeof note);
        if ((csv_out && hs_table_write_csv(&stats, csv_out)) || (pairs_out && hs_table_write_csv(&pairs, pairs_out)))
            rc = HS_EXIT_FAIL;
        hs_table_free(&stats);
        hs_table_free(&pairs);
    }
    return rc;
}

int hs_cmd_summarize(int argc, char **argv)
{
    struct sum_args a = {0};
    parse_args(argc, argv, &a);
    static char *default_metric[] = {"makespan"};
    if (!a.o.nmetrics) {
        a.o.metrics = default_metric;
        a.o.nmetrics = 1;
    }
    struct hs_csv csv;
    int rc = hs_csv_read(a.file, &csv) ? HS_EXIT_USAGE : 0;
    if (!rc)
        rc = hs_summarize_report(&csv, a.file, &a.o, a.csv, a.pcsv, a.quiet);
    if (rc)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    hs_csv_free(&csv);
    if (a.o.metrics != default_metric)
        free((char **)a.o.metrics);
    free((char **)a.o.by);
    return rc;
}
