/* cli/cmd_run.c — `hetsim run`: simulate one workload on one platform
 * under one policy, print a readable summary, write the run record, the
 * per-task trace and the Paje trace on request. */
#include "cli/cli.h"
#include "sim/outfile.h"
#include "sim/record.h"
#include "scenario/scenario.h"
#include "base/util.h"
#include "workloads/workload.h"

#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct run_args {
    struct hs_scenario sc;
    const char *output;
    bool quiet, timing;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim run [-p PLATFORM] [-w WORKLOAD] [-s POLICY] [options]\n"
            "Simulate WORKLOAD on PLATFORM under POLICY and print a summary.\n"
            "With no argument: -p " HS_DEFAULT_PLATFORM " -w " HS_DEFAULT_WORKLOAD
            " -s " HS_DEFAULT_POLICY ".\n\n"
            "      --engine E        auto (default), simgrid (simulated: transfers share the\n"
            "                        platform's links), model (simulated on a free network:\n"
            "                        transfers take no time) or real (measured on this machine's\n"
            "                        cores, and GPUs; -p names a calibrated platform; cuda is\n"
            "                        another name for it). auto: real in hetsim-real; model for\n"
            "                        Beaumont and Marchal's policies on flat:P,bw=inf; else simgrid.\n"
            "                        The record says which ran and why.\n");
    hs_scenario_usage(out);
    fprintf(out,
            "  -o, --output FILE     write the run record (JSON); '-' for standard output\n"
            "      --trace FILE      write the per-task and per-transfer trace (CSV)\n"
            "      --paje FILE       write a Paje trace (SimGrid tracing)\n"
            "      --chrome-trace FILE  write a Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
            "      --tasks-rec FILE  write StarPU's tasks.rec (StarVZ, starpu_replay, -w taskrec:)\n"
            "      --events          add every task and transfer (times, worker) to the record\n"
            "      --timing          add wall-clock figures to the record (not reproducible)\n"
            HS_MAX_MEMORY_HELP
            "  -q, --quiet           no summary\n"
            "  -v, --verbose         let SimGrid log\n"
            "  -h, --help            this help\n");
}

static void parse_args(int argc, char **argv, struct run_args *a)
{
    enum { O_TRACE = 256, O_PAJE, O_TIMING, O_EVENTS, O_ENGINE, O_CHROME, O_TASKREC, O_MAXMEM };
    static const struct option own[] = {
        {"output", required_argument, 0, 'o'},   {"trace", required_argument, 0, O_TRACE},
        {"paje", required_argument, 0, O_PAJE},  {"timing", no_argument, 0, O_TIMING},
        {"events", no_argument, 0, O_EVENTS},    {"engine", required_argument, 0, O_ENGINE},
        {"chrome-trace", required_argument, 0, O_CHROME},
        {"tasks-rec", required_argument, 0, O_TASKREC},
        {"quiet", no_argument, 0, 'q'},          {"max-memory", required_argument, 0, O_MAXMEM},
        {"verbose", no_argument, 0, 'v'},        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    struct option *opts = hs_scenario_options(own);
    struct hs_scenario *sc = &a->sc;
    int c;
    optind = 1;
    while ((c = hs_getopt("run", argc, argv, HS_SCENARIO_SHORTOPTS "o:qvh", opts)) != -1) {
        switch (c) {
        case 'o': a->output = optarg; break;
        case 'q': a->quiet = true; break;
        case 'v': sc->cfg.verbose = true; break;
        case 'h': usage(stdout); exit(HS_EXIT_OK);
        case O_TRACE: sc->trace = optarg; break;
        case O_PAJE: sc->cfg.paje_file = optarg; break;
        case O_CHROME: sc->chrome_trace = optarg; break;
        case O_TASKREC: sc->tasks_rec = optarg; break;
        case O_TIMING: a->timing = true; break;
        case O_EVENTS: sc->events = true; break;
        case O_MAXMEM: hs_opt_max_memory(optarg); break;
        case O_ENGINE:
            if (!(sc->engine = hs_engine_name(optarg)))
                hs_die(HS_EXIT_USAGE, "option --engine: '%s' is not auto, simgrid, model or real (or "
                       "cuda, another name for real)", optarg);
            break;
        default: hs_scenario_apply_option(sc, c, optarg);
        }
    }
    free(opts);
    if (optind < argc)
        hs_die(HS_EXIT_USAGE, "run: unexpected argument '%s' (see `hetsim run --help`)",
               argv[optind]);
    /* what only the record holds, with no record written: the run would show nothing of it */
    if ((sc->events || a->timing) && !a->output)
        hs_die(HS_EXIT_USAGE, "run: %s adds to the run record, which only -o writes (name a file, or -o - "
               "for stdout)", sc->events ? "--events" : "--timing");
    hs_output_require("run", "-o", a->output, false);
    hs_output_require("run", "--trace", sc->trace, false);
    hs_output_require_renamed("run", "--paje", sc->cfg.paje_file); /* trimmed, then renamed into place */
    hs_output_require("run", "--chrome-trace", sc->chrome_trace, false);
    hs_output_require("run", "--tasks-rec", sc->tasks_rec, false);
    const char *opts_[] = {"-o", "--trace", "--paje", "--chrome-trace", "--tasks-rec"};
    const char *paths[] = {a->output, sc->trace, sc->cfg.paje_file, sc->chrome_trace, sc->tasks_rec};
    hs_output_distinct("run", opts_, paths, 5);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* What the figures are relative to: the worker of the sequential time (from
 * the record's transient "explain" section), or every task on its fastest. */
static void print_figures(const cJSON *rec, const cJSON *res, int nworkers)
{
    const cJSON *seq = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "explain"), "sequential_worker");
    double speedup = num(res, "speedup"), speed = num(cJSON_GetObjectItem(rec, "explain"), "runtime_speed");
    if (num(res, "flops") > 0 && speed > 0) /* WfCommons, DAX, Pegasus, STG: runtimes, not flops */
        printf("  performance  %.2f GFlop/s (not the workflow's own: it gives runtimes, counted as runtime x "
               "speed=%g flop/s)\n", num(res, "gflops"), speed);
    else if (num(res, "flops") > 0)
        printf("  performance  %.2f GFlop/s (flops of the whole operation / makespan)\n", num(res, "gflops"));
    else /* a tasks.rec replay, a workflow of runtimes at speed 0: no flops to count */
        printf("  performance  -        the workload declares no flops\n");
    if (isnan(num(res, "slr"))) { /* no task costs anything: nothing to divide by */
        printf("  SLR          -        n/a: the critical path costs nothing (no task has a cost)\n");
        printf("  speedup      -        n/a\n  efficiency   -        n/a\n");
        return;
    }
    printf("  SLR          %-8.3f makespan / critical path with every task on its fastest worker and free"
           " transfers (%.6f s)\n", num(res, "slr"), num(res, "cp_min"));
    if (!cJSON_GetObjectItem(rec, "explain")) /* Beaumont and Marchal's model */
        printf("  speedup      %-8.2f sequential time (%.6f s) / makespan\n", speedup,
               num(res, "sequential_time"));
    else if (cJSON_IsString(seq))
        printf("  speedup      %-8.2f over %s alone, the worker that runs every task fastest (%.6f s)%s\n",
               speedup, seq->valuestring, num(res, "sequential_time"), speedup < 1 ? ": slower than it" : "");
    else { /* no worker can run every task: speedup and efficiency are null */
        printf("  speedup      -        no one worker can run every task; speedup_split %.2f: over the sum of "
               "every task's time on its fastest worker\n", num(res, "speedup_split"));
        printf("  efficiency   -        (no speedup to divide)\n");
        return;
    }
    printf("  efficiency   %-8.3f speedup / %d workers%s\n", num(res, "efficiency"), nworkers,
           num(res, "efficiency") > 1 ? " (above 1: the other workers are faster than that one)" : "");
}

/* Workers are named as the platform names their hosts; a GPU's driving core
 * is not a CPU worker, which is why the CPU workers' numbers have gaps. */
static void print_workers(const cJSON *rec)
{
    printf("  %-10s %-4s %7s %11s %12s\n", "worker", "arch", "tasks", "busy (s)", "utilisation");
    const cJSON *w;
    int drivers = 0;
    cJSON_ArrayForEach(w, cJSON_GetObjectItem(rec, "workers"))
    {
        printf("  %-10s %-4s %7g %11.6f %11.1f%%", str(w, "name"), str(w, "arch"), num(w, "tasks"),
               num(w, "busy"), 100 * num(w, "utilisation"));
        if (*str(w, "driver"))
            printf("   driven by %s", str(w, "driver")), drivers++;
        printf("\n");
    }
    printf("  (utilisation: busy / makespan; workers keep the platform's host names%s)\n",
           drivers ? ", and the cores that drive GPUs are not CPU workers" : "");
}

/* Energy, where the platform declares it (wattage_per_state): the total and
 * each host's joules, as SimGrid's host energy plugin counted them. */
static void print_energy(const cJSON *res)
{
    const cJSON *e = cJSON_GetObjectItem(res, "energy");
    if (!e)
        return;
    printf("  energy       %.6g J (SimGrid's host energy plugin) =", num(e, "total_joules"));
    const cJSON *h;
    int shown = 0;
    cJSON_ArrayForEach(h, cJSON_GetObjectItem(e, "hosts"))
    {
        if (shown++ == 8) {
            printf(" + ... (%d hosts: the record has each)", cJSON_GetArraySize(cJSON_GetObjectItem(e, "hosts")));
            break;
        }
        printf("%s %s %.6g", shown > 1 ? " +" : "", h->string, h->valuedouble);
    }
    printf("\n");
}

/* Work stealing without SetArch hints on a dense linear-algebra workload lets
 * idle cores steal kernels that run far faster on a GPU (XKaapi's programs
 * pin them with SetArch; docs/policies.md). */
static void print_hints(const cJSON *in)
{
    const char *policy = str(in, "policy"), *workload = str(in, "workload");
    bool stealing = strncmp(policy, "ws", 2) == 0 || strncmp(policy, "lws", 3) == 0;
    bool unhinted = strstr(workload, "setarch=0") && !strstr(workload, "cpu-only") && !strstr(workload, "gpu-only");
    if (stealing && unhinted && num(in, "gpus") > 0 && num(in, "cpus") > 0)
        printf("  hint         idle cores steal GPU kernels here (ws has no speed model); XKaapi's programs "
               "pin them with SetArch hints: add setarch=1 to the workload (docs/policies.md)\n");
}

/* The readable summary, from the run record alone. */
static void print_summary(const cJSON *rec)
{
    const cJSON *in = cJSON_GetObjectItem(rec, "inputs"), *res = cJSON_GetObjectItem(rec, "results");
    const cJSON *bytes = cJSON_GetObjectItem(res, "bytes"), *count = cJSON_GetObjectItem(res, "transfers");
    const cJSON *arch = cJSON_GetObjectItem(res, "tasks_per_arch"), *timing = cJSON_GetObjectItem(rec, "timing");
    char b[3][32];
    static const char *dirs[3] = {"h2d", "d2h", "p2p"};
    for (int d = 0; d < 3; d++)
        hs_format_bytes(num(bytes, dirs[d]), b[d], sizeof b[d]);
    printf("hetsim run: %s on %s (%g GPU, %g CPU workers), policy %s, seed %g\n", str(in, "workload"),
           str(in, "platform"), num(in, "gpus"), num(in, "cpus"), str(in, "policy"), num(in, "seed"));
    printf("  makespan     %.6f s", num(res, "makespan"));
    double plan = num(res, "predicted_makespan");
    if (cJSON_IsNumber(cJSON_GetObjectItem(res, "predicted_makespan")))
        printf("  (predicted %.6f s)", plan);
    printf("\n");
    if (plan > 0 && num(res, "makespan") > 2 * plan) /* a static plan far from what the run met */
        printf("  hint         the makespan is %.2f times the plan's: %.*s planned on its estimates of kernels and "
               "transfers, without the contention for links and memory the run then met (bytes moved below)\n",
               num(res, "makespan") / plan, (int)strcspn(str(in, "policy"), ":"), str(in, "policy"));
    print_figures(rec, res, cJSON_GetArraySize(cJSON_GetObjectItem(rec, "workers")));
    printf("  tasks        %g (cpu %g, gpu %g)\n", num(res, "tasks"), num(arch, "cpu"), num(arch, "gpu"));
    double moves = num(count, "h2d") + num(count, "d2h") + num(count, "p2p");
    if (num(in, "gpus") > 0)
        printf("  data moved   H2D %s (%g), D2H %s (%g), P2P %s (%g); %g evictions\n", b[0],
               num(count, "h2d"), b[1], num(count, "d2h"), b[2], num(count, "p2p"), num(res, "evictions"));
    else if (moves > 0) /* processors with memories of their own (flat:P): no device */
        printf("  data moved   host to processors %s (%g), back %s (%g), between processors %s (%g)\n", b[0],
               num(count, "h2d"), b[1], num(count, "d2h"), b[2], num(count, "p2p"));
    else
        printf("  data moved   none: no GPU worker (every worker computes in host memory)\n");
    const cJSON *prod = cJSON_GetObjectItem(res, "products"); /* outer and matrix products */
    if (prod) {
        printf("  volume       %g blocks, lower bound %.1f, ratio %.4f", num(prod, "blocks"),
               num(prod, "lower_bound"), num(prod, "ratio"));
        if (cJSON_GetObjectItem(prod, "beta"))
            printf("; beta %.4f (%s)", num(prod, "beta"), str(prod, "beta_from"));
        if (cJSON_GetObjectItem(prod, "analysis"))
            printf(", predicted ratio %.4f", num(prod, "analysis"));
        printf("\n");
    }
    print_workers(rec);
    print_energy(res);
    print_hints(in);
    double wall = num(timing, "wall_seconds");
    printf("  %s in %.3f s of wall time (%.0f tasks/s; policy %.3f s)\n",
           cJSON_IsTrue(cJSON_GetObjectItem(rec, "measured")) ? "measured" : "simulated",
           wall, wall > 0 ? num(res, "tasks") / wall : 0, num(timing, "policy_seconds"));
}

static int write_record(const char *path, const cJSON *rec)
{
    struct hs_outfile out;
    if (hs_outfile_open(&out, path))
        return -1;
    char *text = cJSON_Print(rec);
    fprintf(out.f, "%s\n", text); /* a failed write shows at the commit */
    free(text);
    return hs_outfile_commit(&out);
}

/* -s none: build the DAG (reading a file checks it) and stop. */
static int build_only(const struct run_args *a)
{
    if (a->output || a->sc.trace || a->sc.cfg.paje_file || a->sc.chrome_trace || a->sc.tasks_rec)
        hs_die(HS_EXIT_USAGE, "run: -s none runs nothing, so it writes no record or trace (drop "
                              "-o, --trace, --paje, --chrome-trace and --tasks-rec)");
    struct hs_dag *dag = hs_workload_build(a->sc.workload);
    if (!dag)
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    if (!a->quiet)
        printf("hetsim run: %s: %d tasks, %d dependencies, %d data (-s none: built, not run)\n",
               dag->name, dag->ntasks, dag->nedges, dag->nhandles);
    hs_dag_free(dag);
    return HS_EXIT_OK;
}

int hs_cmd_run(int argc, char **argv)
{
    struct run_args a = {0};
    hs_scenario_defaults(&a.sc);
    parse_args(argc, argv, &a);
    if (strcmp(a.sc.policy, "none") == 0)
        return build_only(&a);
    if (a.output && strcmp(a.output, "-") == 0)
        a.quiet = true;
    cJSON *rec = NULL;
    a.sc.cfg.notes = !a.quiet;
    int rc = hs_scenario_run(&a.sc, &rec);
    if (rc) {
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
        return rc;
    }
    if (!a.quiet)
        print_summary(rec);
    if (!a.timing)
        cJSON_DeleteItemFromObject(rec, "timing");
    cJSON_DeleteItemFromObject(rec, "explain");
    if (a.output && write_record(a.output, rec)) {
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
        rc = HS_EXIT_FAIL;
    }
    cJSON_Delete(rec);
    return rc;
}
