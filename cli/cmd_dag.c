/* cli/cmd_dag.c — `hetsim dag`: write the DAG a workload generates, and/or
 * print its statistics (analysis/dagstats.h). */
#include "analysis/dagstats.h"
#include "base/util.h"
#include "cli/cli.h"
#include "sim/outfile.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim dag WORKLOAD [--format json|dot] [-o FILE] [--stats [--speed F] [--bw B]]\n"
            "Write the DAG of WORKLOAD (name:key=value,..., see `hetsim workloads`):\n"
            "json keeps handles and accesses; dot is the task graph with SimGrid's\n"
            "size attributes (flops on tasks, bytes on edges). Default: json on stdout.\n"
            "\n"
            "  --stats      print the DAG's figures on stdout, one `key: value` line each,\n"
            "               instead of the DAG; with -o the DAG is written to FILE as well:\n"
            "    tasks, edges (dependencies), depth (tasks on a longest path = levels),\n"
            "    max_width (largest level, a level being the longest path from an entry),\n"
            "    total_work (sum of mean task costs), critical_path (longest path with mean\n"
            "    task costs and edge costs bytes/bw), ccr (mean edge cost / mean task cost).\n"
            "    A task's mean cost: mean of its per-processor costs, else of its\n"
            "    per-architecture costs, else flops/speed (seconds).\n"
            "  --speed F    flops per second for tasks given by flops (default 1G)\n"
            "  --bw B       bytes per second of the edges (default 1G; inf: free)\n"
            "  --max-memory B  refuse a workload whose DAG needs more (default: this\n"
            "               machine's memory; SI suffixes: 8G)\n");
}

static double positive_si(const char *opt, const char *value)
{
    double v;
    if (hs_parse_si(value, &v) || !(v > 0))
        hs_die(HS_EXIT_USAGE, "dag: option %s: '%s' is not a positive number (SI suffixes k, M, "
                              "G, T allowed)",
               opt, value);
    return v;
}

static int write_dag(const struct hs_dag *dag, const char *format, const char *output)
{
    struct hs_outfile out;
    if (hs_outfile_open(&out, output ? output : "-"))
        return -1;
    int rc = format[0] == 'j' ? hs_dag_write_json(dag, out.f) : hs_dag_write_dot(dag, out.f);
    if (rc && !ferror(out.f)) { /* not a failed write: the writer's message; the old file stays */
        hs_outfile_abort(&out);
        return -1;
    }
    return hs_outfile_commit(&out); /* a failed write: said with its reason, the old file kept */
}

int hs_cmd_dag(int argc, char **argv)
{
    enum { O_STATS = 256, O_SPEED, O_BW, O_MAXMEM };
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'}, {"output", required_argument, 0, 'o'},
        {"stats", no_argument, 0, O_STATS},    {"speed", required_argument, 0, O_SPEED},
        {"bw", required_argument, 0, O_BW},    {"max-memory", required_argument, 0, O_MAXMEM},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *format = "json", *output = NULL, *stats_only = NULL;
    bool stats = false, format_given = false;
    double speed = 1e9, bw = 1e9;
    int c;
    optind = 1;
    while ((c = hs_getopt("dag", argc, argv, "f:o:h", opts)) != -1) {
        switch (c) {
        case 'f': format = optarg, format_given = true; break;
        case 'o': output = optarg; break;
        case O_STATS: stats = true; break;
        case O_SPEED: speed = positive_si("--speed", optarg), stats_only = "--speed"; break;
        case O_BW: bw = positive_si("--bw", optarg), stats_only = "--bw"; break;
        case O_MAXMEM: hs_opt_max_memory(optarg); break;
        case 'h': usage(stdout); return HS_EXIT_OK;
        default: return HS_EXIT_USAGE;
        }
    }
    if (strcmp(format, "json") && strcmp(format, "dot"))
        hs_die(HS_EXIT_USAGE, "dag: --format '%s' is not json or dot", format);
    if (optind != argc - 1)
        hs_die(HS_EXIT_USAGE, "dag: give one workload (see `hetsim dag --help`)");
    /* options that would change nothing: said, not ignored */
    if (stats && format_given && !output)
        hs_die(HS_EXIT_USAGE, "dag: --format %s writes the DAG, which --stats alone does not: add -o FILE "
               "(or - for stdout), or leave --format out", format);
    if (stats_only && !stats)
        hs_die(HS_EXIT_USAGE, "dag: %s sets a figure of --stats (critical path, CCR): add --stats, or leave "
               "%s out", stats_only, stats_only);
    hs_output_require("dag", "-o", output, false);
    struct hs_dag *dag = hs_workload_build(argv[optind]);
    if (!dag)
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    if (format[0] == 'd' && (!stats || output) && hs_dot_name_check(dag))
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error()); /* the input's doing: bad input */
    int rc = 0;
    if (!stats || output)
        rc = write_dag(dag, format, output);
    if (stats && rc == 0) {
        struct hs_dagstats st;
        hs_dag_stats(dag, speed, bw, &st, NULL);
        hs_dagstats_print(&st, stdout);
    }
    hs_dag_free(dag);
    if (rc)
        hs_die(HS_EXIT_FAIL, "%s", hs_last_error());
    return HS_EXIT_OK;
}
