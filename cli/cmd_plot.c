/* cli/cmd_plot.c — `hetsim plot` (a metric of sweep results against a
 * parameter, one curve per group, 95% confidence error bars, or its gain
 * against one curve) and `hetsim
 * gantt` (the Gantt chart of one run record written with --events), both
 * drawn by gnuplot to PNG, SVG or PDF. */
#include "analysis/csv.h"
#include "analysis/plot.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void plot_usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim plot RESULTS.csv -x COL -y COL [--by COL,COL] -o OUT.png|svg|pdf\n"
            "                   [--title T] [--xlabel T] [--ylabel T] [--logx] [--logy] [--script FILE]\n"
            "                   [--overlay COL] [--sd] [--where COL=VALUE]... [--gain COL=VALUE | --ratio COL=VALUE]\n"
            "Draw the mean of column Y against column X, one curve per combination of the --by\n"
            "columns, with the 95%% confidence interval of each mean as error bars (gnuplot).\n"
            "Failed runs are left out. --script also writes the gnuplot script. --overlay draws\n"
            "the mean of another column (e.g. a prediction) as a dashed line of each curve's\n"
            "colour; --sd makes the error bars the standard deviation. --where keeps only the\n"
            "rows holding that value (repeatable). --ratio COL=VALUE draws instead the mean\n"
            "of the point with COL=VALUE over each point's (COL: X or a --by column, whose\n"
            "curve or x is then not drawn): for a time, the speedup over it (above 1 is\n"
            "faster), on a log axis with a line at 1 and the 95%% interval where both have\n"
            "repetitions. --gain COL=VALUE draws how much better (in %%) each point's mean is,\n"
            "with a line at 0; where a point is worse, as --ratio (a note says so).\n"
            "Default labels say in words what is drawn, on what workload and platform, from\n"
            "how many runs a point.\n");
}

static void gantt_usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim gantt RUN.json [-o OUT.png|svg|pdf] [--from S] [--to S] [--width PX]\n"
            "                    [--title T] [--script FILE]\n"
            "Draw the Gantt chart of a run recorded with `hetsim run --events -o RUN.json`: one\n"
            "row per worker, tasks coloured by kernel, transfers into (above) and out of (below)\n"
            "the memory of each GPU on its row. Default output: RUN.png.\n"
            "  --from S, --to S  the time window drawn, in seconds (default: 0 to the makespan)\n"
            "  --width PX        the picture's width in pixels (default 1200; 300 to 20000)\n");
}

/* COL=VALUE into a new pair of *kv (split at the first '=': values hold
 * '=' and ',', as workloads do). */
static void add_pair(const char *opt, const char *text, struct hs_study_kv **kv, int *n)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text)
        hs_die(HS_EXIT_USAGE, "plot: option --%s: '%s' is not COL=VALUE", opt, text);
    HS_GROW_IMPLIED(*kv, *n, *n + 1);
    char *key = hs_xstrdup(text);
    key[eq - text] = 0;
    (*kv)[(*n)++] = (struct hs_study_kv){key, hs_xstrdup(eq + 1)};
}

static void parse_plot(int argc, char **argv, struct hs_plot_opts *o, const char **file)
{
    enum { O_BY = 256, O_TITLE, O_XLABEL, O_YLABEL, O_LOGX, O_LOGY, O_SCRIPT, O_OVERLAY, O_SD, O_WHERE,
           O_GAIN, O_RATIO };
    static const struct option opts[] = {
        {"overlay", required_argument, 0, O_OVERLAY}, {"sd", no_argument, 0, O_SD},
        {"where", required_argument, 0, O_WHERE},     {"gain", required_argument, 0, O_GAIN},
        {"ratio", required_argument, 0, O_RATIO},
        {"by", required_argument, 0, O_BY},         {"title", required_argument, 0, O_TITLE},
        {"xlabel", required_argument, 0, O_XLABEL}, {"ylabel", required_argument, 0, O_YLABEL},
        {"logx", no_argument, 0, O_LOGX},           {"logy", no_argument, 0, O_LOGY},
        {"script", required_argument, 0, O_SCRIPT}, {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},              {0, 0, 0, 0},
    };
    int c;
    optind = 1;
    while ((c = hs_getopt("plot", argc, argv, "x:y:o:h", opts)) != -1) {
        switch (c) {
        case 'x': o->x = optarg; break;
        case 'y': o->y = optarg; break;
        case 'o': o->output = optarg; break;
        case O_BY: o->nby = hs_split_list(optarg, (char ***)&o->by); break;
        case O_TITLE: o->title = optarg; break;
        case O_XLABEL: o->xlabel = optarg; break;
        case O_YLABEL: o->ylabel = optarg; break;
        case O_LOGX: o->logx = true; break;
        case O_LOGY: o->logy = true; break;
        case O_SCRIPT: o->script = optarg; break;
        case O_OVERLAY: o->overlay = optarg; break;
        case O_SD: o->sd = true; break;
        case O_WHERE: add_pair("where", optarg, (struct hs_study_kv **)&o->where, &o->nwhere); break;
        case O_GAIN:
        case O_RATIO:
            if (o->stat && strcmp(o->stat, c == O_GAIN ? "gain_pct" : "ratio") != 0)
                hs_die(HS_EXIT_USAGE, "plot: --gain and --ratio do not go together");
            o->stat = c == O_GAIN ? "gain_pct" : "ratio";
            add_pair(c == O_GAIN ? "gain" : "ratio", optarg, (struct hs_study_kv **)&o->versus, &o->nversus);
            break;
        case 'h': plot_usage(stdout); exit(HS_EXIT_OK);
        }
    }
    if (optind != argc - 1)
        hs_die(HS_EXIT_USAGE, "plot: expected one results file (see `hetsim plot --help`)");
    if (!o->x || !o->y || !o->output)
        hs_die(HS_EXIT_USAGE, "plot: -x, -y and -o are required (see `hetsim plot --help`)");
    *file = argv[optind];
    hs_output_require("plot", "-o", o->output, false);
}

int hs_cmd_plot(int argc, char **argv)
{
    struct hs_plot_opts o = {0};
    const char *file;
    parse_plot(argc, argv, &o, &file);
    struct hs_csv csv;
    int rc = hs_csv_read(file, &csv) ? HS_EXIT_USAGE : 0;
    if (!rc && hs_plot_metric(&csv, file, &o))
        rc = strncmp(hs_last_error(), "gnuplot", 7) == 0 ? HS_EXIT_FAIL : HS_EXIT_USAGE;
    if (rc)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    hs_csv_free(&csv);
    free((char **)o.by);
    hs_study_kv_free((struct hs_study_kv *)o.where, o.nwhere);
    hs_study_kv_free((struct hs_study_kv *)o.versus, o.nversus);
    return rc;
}

static cJSON *read_record(const char *path)
{
    struct hs_buf b = {0};
    if (hs_buf_read_file(&b, path)) {
        hs_buf_free(&b);
        return NULL;
    }
    char err[1024];
    if (hs_input_no_nul(path, hs_buf_str(&b), b.len, err, sizeof err)) {
        hs_buf_free(&b);
        hs_fail("%s", err);
        return NULL;
    }
    cJSON *rec = cJSON_Parse(hs_buf_str(&b));
    hs_buf_free(&b);
    if (!rec)
        hs_fail("%s: not a JSON run record", path);
    return rec;
}

static char *default_output(const char *input)
{
    char *out = hs_xmalloc(strlen(input) + 8);
    strcpy(out, input);
    char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    if (dot && (!slash || dot > slash))
        *dot = '\0';
    strcat(out, ".png");
    return out;
}

int hs_cmd_gantt(int argc, char **argv)
{
    enum { O_TITLE = 256, O_SCRIPT, O_FROM, O_TO, O_WIDTH };
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"title", required_argument, 0, O_TITLE},
        {"script", required_argument, 0, O_SCRIPT}, {"from", required_argument, 0, O_FROM},
        {"to", required_argument, 0, O_TO},    {"width", required_argument, 0, O_WIDTH},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0},
    };
    const char *output = NULL;
    struct hs_gantt_opts go = {0};
    int c;
    optind = 1;
    while ((c = hs_getopt("gantt", argc, argv, "o:h", opts)) != -1) {
        switch (c) {
        case 'h': gantt_usage(stdout); return HS_EXIT_OK;
        case 'o': output = optarg; break;
        case O_TITLE: go.title = optarg; break;
        case O_SCRIPT: go.script = optarg; break;
        case O_FROM: go.from = hs_opt_double("--from", optarg, 0, 1e12); break;
        case O_TO: go.to = hs_opt_double("--to", optarg, 1e-15, 1e12); break;
        case O_WIDTH: go.width = (int)hs_opt_long("--width", optarg, 300, 20000); break;
        }
    }
    if (optind != argc - 1)
        hs_die(HS_EXIT_USAGE, "gantt: expected one run record (see `hetsim gantt --help`)");
    const char *file = argv[optind];
    char *out = output ? hs_xstrdup(output) : default_output(file);
    hs_output_require("gantt", "-o", out, false);
    cJSON *rec = read_record(file);
    int rc = rec ? 0 : HS_EXIT_USAGE;
    if (!rc && hs_plot_gantt(rec, file, out, &go))
        rc = strncmp(hs_last_error(), "gnuplot", 7) == 0 ? HS_EXIT_FAIL : HS_EXIT_USAGE;
    if (rc)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    cJSON_Delete(rec);
    free(out);
    return rc;
}
