/* sim/cli/main.c — `hetsim`: dispatch to the subcommands. */
#include "sim/cli/cli.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
} commands[] = {
    {"run", hs_cmd_run, "simulate a workload on a platform under a policy"},
    {"platform", hs_cmd_platform, "list the workers, memory nodes and routes of a platform"},
    {"policies", hs_cmd_policies, "list the scheduling policies and their parameters"},
    {"workloads", hs_cmd_workloads, "list the workloads and their parameters"},
    {"dag", hs_cmd_dag, "write the DAG of a workload (JSON or DOT)"},
    {"sweep", hs_cmd_sweep, "run a grid of scenarios, one CSV row per run (resumable, -j, MPI, shards)"},
    {"merge", hs_cmd_merge, "join the CSV files of a sweep's shards"},
    {"summarize", hs_cmd_summarize, "mean, sd, 95% CI per group; pairwise better/equal/worse"},
    {"plot", hs_cmd_plot, "plot a metric of sweep results against a parameter (gnuplot)"},
    {"gantt", hs_cmd_gantt, "draw the Gantt chart of a run recorded with --events"},
    {"reproduce", hs_cmd_reproduce, "run a study: sweep, table, plots, published values"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: hetsim COMMAND [options]   (hetsim COMMAND --help for details)\n"
                 "Simulate task graphs on heterogeneous CPU+GPU nodes (SimGrid).\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return HS_EXIT_USAGE;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return HS_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "hetsim: unknown command '%s' (see `hetsim --help`)\n", argv[1]);
    return HS_EXIT_USAGE;
}
