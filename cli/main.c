/* cli/main.c — `hetsim`, `hetsim-real` and `hetsim-mpi`: dispatch to the
 * subcommands. The same file builds the three: `hetsim` (SimGrid) hands
 * `calibrate` and `run --engine real` (or its alias `cuda`) over to
 * `hetsim-real` installed beside it, and a launch by mpirun with more than
 * one rank over to `hetsim-mpi` (hetsim with MPI sweeps), so that only the
 * runs that use them load the CUDA or MPI libraries. */
#include "analysis/sweep_exec.h"
#include "base/buf.h"
#include "base/nearest.h"
#include "cli/cli.h"
#include "sim/record.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *name;
    int (*run)(int, char **);
    const char *summary;
} commands[] = {
    {"run", hs_cmd_run, "simulate (or measure, --engine real) a workload under a policy"},
#ifdef HETSIM_WITH_SIMGRID
    {"platform", hs_cmd_platform, "list the workers, memory nodes and routes of a platform"},
#endif
    {"policies", hs_cmd_policies, "list the scheduling policies and their parameters"},
    {"workloads", hs_cmd_workloads, "list the workloads and their parameters"},
    {"dag", hs_cmd_dag, "write the DAG of a workload (JSON or DOT)"},
    {"calibrate", hs_cmd_calibrate, "measure this machine (cores, GPUs) for simulation"},
    {"compare", hs_cmd_compare, "compare two run records (simulated vs measured)"},
    {"beta", hs_cmd_beta, "the two-phase threshold of Beaumont and Marchal's analysis (outer, matmul)"},
#ifdef HETSIM_WITH_SIMGRID
    {"sweep", hs_cmd_sweep, "run a grid of scenarios, one CSV row per run (resumable, -j, MPI, shards)"},
    {"merge", hs_cmd_merge, "join the CSV files of a sweep's shards"},
    {"summarize", hs_cmd_summarize, "mean, sd, 95% CI per group; pairwise better/equal/worse"},
    {"plot", hs_cmd_plot, "plot a metric of sweep results against a parameter (gnuplot)"},
    {"gantt", hs_cmd_gantt, "draw the Gantt chart of a run recorded with --events"},
    {"reproduce", hs_cmd_reproduce, "run a study: sweep, table, plots, published values"},
    {"calibrate-sim", hs_cmd_calibrate_sim, "simulate XKaapi's GPU calibration run into a timing table"},
#endif
};

static void usage(FILE *out)
{
    fprintf(out, "usage: hetsim COMMAND [options]   (hetsim COMMAND --help for details; hetsim --version)\n"
                 "Simulate task graphs on heterogeneous CPU+GPU nodes (SimGrid); measure them on a\n"
                 "real machine (the real engine: cores, and GPUs with CUDA) to validate the simulation.\n\n");
    int width = 0; /* the summaries in one column, after the longest name */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        width = (int)strlen(commands[i].name) > width ? (int)strlen(commands[i].name) : width;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-*s  %s\n", width, commands[i].name, commands[i].summary);
}

#ifdef HETSIM_WITH_SIMGRID
static bool real_engine_name(const char *name)
{
    return strcmp(name, "real") == 0 || strcmp(name, "cuda") == 0;
}

/* Is this a job for the real engine? */
static bool wants_real(int argc, char **argv)
{
    if (strcmp(argv[1], "calibrate") == 0)
        return true;
    if (strcmp(argv[1], "run") != 0)
        return false;
    for (int i = 2; i < argc; i++)
        if ((strncmp(argv[i], "--engine=", 9) == 0 && real_engine_name(argv[i] + 9)) ||
            (strcmp(argv[i], "--engine") == 0 && i + 1 < argc && real_engine_name(argv[i + 1])))
            return true;
    return false;
}

/* Replace this process by the executable `name` from the same folder, if
 * it is there. */
static void hand_over(const char *name, char **argv)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 16);
    if (n <= 0)
        return;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    strcpy(slash ? slash + 1 : self, name);
    if (access(self, X_OK) == 0)
        execv(self, argv);
}
#endif

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
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("hetsim %s\n", hs_version());
        printf("License LGPL-2.1-or-later; cite it with CITATION.cff (installed with its docs).\n");
        return HS_EXIT_OK;
    }
#ifdef HETSIM_WITH_SIMGRID
    if (wants_real(argc, argv))
        hand_over("hetsim-real", argv); /* returns only if hetsim-real is not installed */
#ifdef HETSIM_MPI_LAUNCHER
    hs_sweep_distributed = hs_sweep_mpi_execute;
    hs_mpi_group = &hs_sweep_mpi_ranks;
#else
    if (hs_sweep_mpi_launched()) {
#ifdef HETSIM_MPI
        hand_over("hetsim-mpi", argv);
        fprintf(stderr, "hetsim: launched by mpirun, but hetsim-mpi (hetsim with MPI sweeps) is not "
                        "beside this hetsim\n");
#else
        fprintf(stderr, "hetsim: launched by mpirun, but this hetsim was built without MPI "
                        "(-DHETSIM_MPI=ON, with Open MPI installed)\n");
#endif
        return HS_EXIT_USAGE;
    }
#endif
#endif
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    struct hs_buf names = {0};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        hs_buf_printf(&names, "%s%s", i ? ", " : "", commands[i].name);
    fprintf(stderr, "hetsim: unknown command '%s' (see `hetsim --help`)%s\n", argv[1],
            hs_did_you_mean(argv[1], hs_buf_str(&names)));
    hs_buf_free(&names);
    return HS_EXIT_USAGE;
}
