/* cli/cmd_sweep.c — `hetsim sweep`: a grid of runs from --vary options
 * (or a study file) over a base scenario given with `hetsim run`'s options,
 * run in a pool of processes (or over MPI ranks, or one shard of it), one CSV
 * row per run, resumable. */
#include "analysis/csv.h"
#include "analysis/study.h"
#include "analysis/sweep.h"
#include "analysis/summary.h"
#include "cli/cli.h"
#include "scenario/scenario.h"
#include "base/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim sweep [scenario options] --vary KEY=V1,V2,... [--vary ...] [--reps R]\n"
            "                    [-o results.csv] [-j N] [--timeout S] [--shard I/N]\n"
            "       hetsim sweep --study NAME|FILE [--quick] [...]\n"
            "Run every combination of the --vary values (times --reps) over the base scenario,\n"
            "each run in its own process, and append one CSV row per run as it finishes.\n"
            "Running the same sweep again skips the runs already in the file (resume).\n"
            "Under mpirun, ranks share the runs and rank 0 writes the file.\n\n"
            "Base scenario (as for `hetsim run`; --seed is the base seed):\n");
    hs_scenario_usage(out);
    fprintf(out,
            "\nSweep:\n"
            "      --vary KEY=VALUES  an axis: VALUES separated by ',' (by ';' if a value holds\n"
            "                        a comma), LOW..HIGH for integers. KEY is a scenario parameter\n"
            "                        (platform workload policy gpus cpus gpu_order window\n"
            "                        cache_fraction p2p flush noise perf costs energy), or a\n"
            "                        parameter of the\n"
            "                        workload, policy or flat platform (n, nb, beta, bw, ...;\n"
            "                        workload.KEY, policy.KEY, platform.KEY when ambiguous)\n"
            "      --reps R          repetitions of every combination (each its own seed)\n"
            "      --study S         the sweep of a study (name or file; see `hetsim reproduce --list`)\n"
            "      --quick           with --study: its reduced version\n"
            "  -o, --output FILE     results (default results.csv); resumed if it exists\n"
            "  -j, --jobs N          processes at once (default: every core; 1 per rank under MPI)\n"
            "      --timeout S       kill a run after S seconds (recorded as timeout)\n"
            "      --shard I/N       only runs I, I+N, I+2N, ... (0 <= I < N): a Slurm array task;\n"
            "                        join the shards' files with `hetsim merge`\n"
            "      --retry-failed    run again the runs whose row is not ok (their rows are replaced)\n"
            "      --dry-run         list the runs (key, instance, rep, seed, parameters); run nothing\n"
            HS_MAX_MEMORY_HELP
            "  -q, --quiet           no progress\n"
            "  -h, --help            this help\n");
}

struct sweep_args {
    struct hs_sweep_def def;
    struct hs_sweep_opts opts;
    const char *study;
    bool quick, dry_run, reps_set, output_given;
    long reps;
    int nvary;
    char **vary;
    int nbase;
    const char **bkey, **bval;
};

/* A scenario option: checked now (one clear line), applied to the base later. */
static void base_option(struct sweep_args *a, int c, const char *arg)
{
    const char *name, *value;
    struct hs_scenario scratch;
    hs_scenario_defaults(&scratch);
    hs_scenario_apply_option(&scratch, c, arg);
    if (!hs_scenario_option(c, arg, &name, &value))
        return; /* --plugin: loaded, nothing to set */
    for (int i = 0; i < a->nbase; i++) /* the second would replace the first without a word */
        if (strcmp(a->bkey[i], name) == 0)
            hs_die(HS_EXIT_USAGE, "sweep: --%s is set twice ('%s' and '%s'): give it once", hs_scenario_option_name(name),
                   a->bval[i], value);
    HS_GROW_IMPLIED(a->bkey, a->nbase, a->nbase + 1);
    HS_GROW_IMPLIED(a->bval, a->nbase, a->nbase + 1);
    a->bkey[a->nbase] = name;
    a->bval[a->nbase++] = value;
}

/* Two --vary of one key on the command line: the second would replace the
 * first without a word (a --vary replacing a study's axis is meant). */
static void check_repeated_axes(const struct sweep_args *a)
{
    for (int i = 0; i < a->nvary; i++)
        for (int j = 0; j < i; j++) {
            size_t li = strcspn(a->vary[i], "="), lj = strcspn(a->vary[j], "=");
            if (li == lj && strncmp(a->vary[i], a->vary[j], li) == 0)
                hs_die(HS_EXIT_USAGE, "sweep: --vary %.*s is given twice ('%s' and '%s'): give its "
                       "values in one list", (int)li, a->vary[i], a->vary[j], a->vary[i]);
        }
}

static void parse_args(int argc, char **argv, struct sweep_args *a)
{
    enum { O_VARY = 256, O_REPS, O_STUDY, O_QUICK, O_TIMEOUT, O_SHARD, O_RETRY, O_DRY, O_MAXMEM };
    static const struct option own[] = {
        {"vary", required_argument, 0, O_VARY},    {"reps", required_argument, 0, O_REPS},
        {"study", required_argument, 0, O_STUDY},  {"quick", no_argument, 0, O_QUICK},
        {"output", required_argument, 0, 'o'},     {"jobs", required_argument, 0, 'j'},
        {"timeout", required_argument, 0, O_TIMEOUT}, {"shard", required_argument, 0, O_SHARD},
        {"retry-failed", no_argument, 0, O_RETRY}, {"dry-run", no_argument, 0, O_DRY},
        {"quiet", no_argument, 0, 'q'},            {"help", no_argument, 0, 'h'},
        {"max-memory", required_argument, 0, O_MAXMEM},
        {0, 0, 0, 0},
    };
    struct option *opts = hs_scenario_options(own);
    int c;
    optind = 1;
    while ((c = hs_getopt("sweep", argc, argv, HS_SCENARIO_SHORTOPTS "o:j:qh", opts)) != -1) {
        switch (c) {
        case 'o': a->opts.csv = optarg, a->output_given = true; break;
        case 'j': a->opts.jobs = (int)hs_opt_long("--jobs", optarg, 1, 4096); break;
        case 'q': a->opts.quiet = true; break;
        case 'h': usage(stdout); exit(HS_EXIT_OK);
        case O_VARY:
            HS_GROW_IMPLIED(a->vary, a->nvary, a->nvary + 1);
            a->vary[a->nvary++] = optarg;
            break;
        case O_REPS: a->reps = hs_opt_long("--reps", optarg, 1, 1000000), a->reps_set = true; break;
        case O_STUDY: a->study = optarg; break;
        case O_QUICK: a->quick = true; break;
        case O_TIMEOUT: a->opts.timeout = hs_opt_double("--timeout", optarg, 1e-3, 1e9); break;
        case O_SHARD: hs_opt_shard(optarg, &a->opts.shard, &a->opts.nshards); break;
        case O_RETRY: a->opts.retry_failed = true; break;
        case O_DRY: a->dry_run = true; break;
        case O_MAXMEM: hs_opt_max_memory(optarg); break;
        default: base_option(a, c, optarg);
        }
    }
    free(opts);
    if (optind < argc)
        hs_die(HS_EXIT_USAGE, "sweep: unexpected argument '%s' (see `hetsim sweep --help`)", argv[optind]);
    if (a->quick && !a->study)
        hs_die(HS_EXIT_USAGE, "sweep: --quick needs --study");
    hs_output_require("sweep", "-o", a->opts.csv, false);
    check_repeated_axes(a);
}

/* Study first, then the command line over it. */
static int define(struct sweep_args *a)
{
    struct hs_study st;
    if (a->study) {
        if (hs_study_load(a->study, a->quick, &st))
            return -1;
        char where[1100];
        snprintf(where, sizeof where, "%s: ", st.path);
        hs_sweep_def_init(&a->def, where);
        hs_sweep_def_study(&a->def, &st);
        if (!a->opts.timeout)
            a->opts.timeout = st.timeout;
        hs_study_free(&st);
    } else {
        hs_sweep_def_init(&a->def, "");
    }
    for (int i = 0; i < a->nbase; i++)
        hs_sweep_def_set(&a->def, a->bkey[i], a->bval[i]);
    for (int i = 0; i < a->nvary; i++)
        if (hs_sweep_def_vary(&a->def, a->vary[i]))
            return -1;
    if (a->reps_set)
        a->def.reps = (int)a->reps;
    return hs_sweep_def_resolve(&a->def);
}

static int dry_run(const struct sweep_args *a, const struct hs_sweep_ops *ops)
{
    if (hs_sweep_check(ops))
        return -1;
    struct hs_buf b = {0};
    const char *ident[] = {"key", "instance", "rep", "seed", "sweep", "inputs"};
    for (int i = 0; i < 6; i++)
        hs_csv_field(&b, ident[i], i == 0);
    for (int i = 0; i < ops->nparams; i++)
        hs_csv_field(&b, ops->param_names[i], false);
    puts(hs_buf_str(&b));
    for (long i = 0; i < ops->nruns; i++) {
        if (a->opts.nshards > 1 && i % a->opts.nshards != a->opts.shard)
            continue;
        struct hs_sweep_job job = {.index = i};
        char *canon, *inst;
        if (ops->describe(ops->ctx, i, &job, &canon, &inst)) {
            hs_buf_free(&b);
            return -1;
        }
        hs_sweep_ident(canon, inst, job.rep, ops->base_seed, &job.id);
        hs_buf_reset(&b);
        hs_buf_printf(&b, "%016" PRIx64 ",%016" PRIx64 ",%d,%lu,%016" PRIx64 ",%016" PRIx64, job.id.key,
                      job.id.instance, job.rep, job.id.seed, ops->sweep, job.inputs);
        for (int p = 0; p < ops->nparams; p++)
            hs_csv_field(&b, job.params[p], false);
        puts(hs_buf_str(&b));
        hs_sweep_job_free(&job, ops->nparams);
        free(canon), free(inst);
    }
    hs_buf_free(&b);
    return 0;
}

/* Repetitions that gave the same results everywhere: say so (rank 0). */
static void warn_alike(const char *file)
{
    struct hs_csv csv;
    if (hs_sweep_launcher_rank() != 0 || hs_csv_read(file, &csv))
        return;
    hs_reps_warn(&csv, file);
    hs_csv_free(&csv);
}

int hs_cmd_sweep(int argc, char **argv)
{
    struct sweep_args a = {.opts = {.csv = "results.csv"}};
    parse_args(argc, argv, &a);
    int rc = define(&a);
    struct hs_sweep_ops ops;
    if (!rc) {
        const char *same = hs_sweep_def_same_dag(&a.def);
        if (same && hs_sweep_launcher_rank() == 0)
            fprintf(stderr, "hetsim: warning: every repetition of %s meets the same DAG: its seed= is "
                    "the workload's own, not the run's (--vary workload.seed=1..%d draws one per value)\n",
                    same, a.def.reps);
        hs_sweep_def_ops(&a.def, &ops);
        rc = a.dry_run ? (dry_run(&a, &ops) ? 2 : 0) : hs_sweep_execute(&a.opts, &ops);
        if ((rc == HS_EXIT_OK || rc == HS_EXIT_FAIL) && !a.dry_run && a.def.reps > 1)
            warn_alike(a.opts.csv);
        if ((rc == HS_EXIT_OK || rc == HS_EXIT_FAIL) && !a.dry_run && !a.output_given &&
            hs_sweep_launcher_rank() == 0) /* the default file: say where the rows went */
            fprintf(stderr, "sweep: rows in %s (the default; -o names another file)\n", a.opts.csv);
    } else {
        rc = HS_EXIT_USAGE;
    }
    if (rc == HS_EXIT_USAGE && hs_sweep_launcher_rank() == 0)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    hs_sweep_def_free(&a.def);
    free(a.vary), free(a.bkey), free(a.bval);
    return rc;
}
