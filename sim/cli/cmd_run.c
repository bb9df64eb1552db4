/* sim/cli/cmd_run.c — `hetsim run`: simulate one workload on one platform
 * under one policy, print a readable summary, write the run record, the
 * per-task trace and the Paje trace on request. */
#include "analysis/metrics.h"
#include "policies/registry.h"
#include "sim/cli/cli.h"
#include "sim/record.h"
#include "sim/run.h"
#include "sim/util.h"
#include "workloads/workload.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PLATFORM "idgraf"
#define DEFAULT_WORKLOAD "cholesky:n=8192,nb=512"
#define DEFAULT_POLICY "dmda"

struct run_args {
    const char *platform, *workload, *policy, *perf;
    const char *output, *trace, *paje;
    bool quiet, timing;
    struct hs_run_config cfg;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim run [-p PLATFORM] [-w WORKLOAD] [-s POLICY] [options]\n"
            "Simulate WORKLOAD on PLATFORM under POLICY and print a summary.\n"
            "With no argument: -p " DEFAULT_PLATFORM " -w " DEFAULT_WORKLOAD
            " -s " DEFAULT_POLICY ".\n\n"
            "  -p, --platform P      shipped name (idgraf, idgraf-starpu, mapuche), flat:P[,key=value]\n"
            "                        or the path of a SimGrid platform file\n"
            "  -w, --workload W      name:key=value,... (see `hetsim workloads`)\n"
            "  -s, --policy S        name:key=value,... (see `hetsim policies`)\n"
            "      --gpus K          GPU workers (default: all)\n"
            "      --cpus C          CPU workers (default: cores left after the GPUs' drivers)\n"
            "      --gpu-order O     first (GPU0, GPU1, ...) or spread (one per PCIe switch first)\n"
            "      --seed S          seed of every random stream (default 1)\n"
            "      --noise CV        lognormal noise on execution times, coefficient of variation\n"
            "      --window W        tasks in flight per GPU or flat processor (default 2)\n"
            "      --cache-fraction F  part of GPU memory for the data cache (default 0.8)\n"
            "      --p2p             direct GPU-to-GPU copies where the platform has routes\n"
            "      --no-flush        do not write data back to host memory at the end\n"
            "      --perf FILE       timing table (default: the platform's shipped one)\n"
            "  -o, --output FILE     write the run record (JSON); '-' for standard output\n"
            "      --trace FILE      write the per-task and per-transfer trace (CSV)\n"
            "      --paje FILE       write a Paje trace (SimGrid tracing)\n"
            "      --timing          add wall-clock figures to the record (not reproducible)\n"
            "  -q, --quiet           no summary\n"
            "  -v, --verbose         let SimGrid log\n"
            "  -h, --help            this help\n");
}

static void parse_args(int argc, char **argv, struct run_args *a)
{
    enum { O_GPUS = 256, O_CPUS, O_ORDER, O_SEED, O_NOISE, O_WINDOW, O_CACHE, O_P2P, O_NOFLUSH,
           O_PERF, O_TRACE, O_PAJE, O_TIMING };
    static const struct option opts[] = {
        {"platform", required_argument, 0, 'p'}, {"workload", required_argument, 0, 'w'},
        {"policy", required_argument, 0, 's'},   {"gpus", required_argument, 0, O_GPUS},
        {"cpus", required_argument, 0, O_CPUS},  {"gpu-order", required_argument, 0, O_ORDER},
        {"seed", required_argument, 0, O_SEED},  {"noise", required_argument, 0, O_NOISE},
        {"window", required_argument, 0, O_WINDOW},
        {"cache-fraction", required_argument, 0, O_CACHE},
        {"p2p", no_argument, 0, O_P2P},          {"no-flush", no_argument, 0, O_NOFLUSH},
        {"perf", required_argument, 0, O_PERF},  {"output", required_argument, 0, 'o'},
        {"trace", required_argument, 0, O_TRACE}, {"paje", required_argument, 0, O_PAJE},
        {"timing", no_argument, 0, O_TIMING},    {"quiet", no_argument, 0, 'q'},
        {"verbose", no_argument, 0, 'v'},        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    struct hs_run_config *cfg = &a->cfg;
    int c;
    optind = 1;
    while ((c = hs_getopt("run", argc, argv, "p:w:s:o:qvh", opts)) != -1) {
        switch (c) {
        case 'p': a->platform = optarg; break;
        case 'w': a->workload = optarg; break;
        case 's': a->policy = optarg; break;
        case 'o': a->output = optarg; break;
        case 'q': a->quiet = true; break;
        case 'v': cfg->verbose = true; break;
        case 'h': usage(stdout); exit(HS_EXIT_OK);
        case O_GPUS: cfg->select.gpus = (int)hs_opt_long("--gpus", optarg, 0, 1 << 20); break;
        case O_CPUS: cfg->select.cpus = (int)hs_opt_long("--cpus", optarg, 0, 1 << 20); break;
        case O_ORDER:
            if (strcmp(optarg, "first") && strcmp(optarg, "spread"))
                hs_die(HS_EXIT_USAGE, "option --gpu-order: '%s' is not first or spread", optarg);
            cfg->select.gpu_order = optarg[0] == 's' ? HS_GPU_SPREAD : HS_GPU_FIRST;
            break;
        case O_SEED:
            cfg->opts.seed = (unsigned long)hs_opt_long("--seed", optarg, 0, 4294967295L);
            break;
        case O_NOISE: cfg->opts.noise = hs_opt_double("--noise", optarg, 0, 10); break;
        case O_WINDOW: cfg->select.window = (int)hs_opt_long("--window", optarg, 1, 1024); break;
        case O_CACHE:
            cfg->select.cache_fraction = hs_opt_double("--cache-fraction", optarg, 1e-9, 1);
            break;
        case O_P2P: cfg->select.p2p = true; break;
        case O_NOFLUSH: cfg->opts.flush = false; break;
        case O_PERF: a->perf = optarg; break;
        case O_TRACE: a->trace = optarg; break;
        case O_PAJE: a->paje = optarg; break;
        case O_TIMING: a->timing = true; break;
        default:
            exit(HS_EXIT_USAGE);
        }
    }
    if (optind < argc)
        hs_die(HS_EXIT_USAGE, "run: unexpected argument '%s' (see `hetsim run --help`)",
               argv[optind]);
}

static const char *human_bytes(double b, char *buf, size_t size)
{
    if (b >= 1073741824.0)
        snprintf(buf, size, "%.2f GiB", b / 1073741824.0);
    else if (b >= 1048576.0)
        snprintf(buf, size, "%.2f MiB", b / 1048576.0);
    else
        snprintf(buf, size, "%.0f B", b);
    return buf;
}

static void print_summary(const struct run_args *a, const struct hs_run *run, const char *workload,
                          const char *policy, const struct hs_metrics *m)
{
    const struct hs_sched *rt = run->rt;
    const struct hs_platform *pf = &run->pf;
    int gpus = 0, cpus = 0, per_arch[HS_NARCH] = {0};
    for (int w = 0; w < pf->nworkers; w++) {
        pf->workers[w].arch == HS_ARCH_GPU ? gpus++ : cpus++;
        per_arch[pf->workers[w].arch] += rt->ws[w].ntasks;
    }
    char b1[32], b2[32], b3[32];
    printf("hetsim run: %s on %s (%d GPU, %d CPU workers), policy %s, seed %lu\n", workload,
           a->platform, gpus, cpus, policy, a->cfg.opts.seed);
    printf("  makespan     %.6f s", rt->makespan);
    if (isfinite(rt->predicted_makespan))
        printf("  (predicted %.6f s)", rt->predicted_makespan);
    printf("\n  performance  %.2f GFlop/s   SLR %.3f   speedup %.2f   efficiency %.3f\n",
           m->gflops, m->slr, m->speedup, m->efficiency);
    printf("  tasks        %d (cpu %d, gpu %d)\n", rt->ndone, per_arch[HS_ARCH_CPU],
           per_arch[HS_ARCH_GPU]);
    printf("  data moved   H2D %s (%ld), D2H %s (%ld), P2P %s (%ld); %ld evictions\n",
           human_bytes(rt->bytes[HS_DIR_H2D], b1, sizeof b1), rt->count[HS_DIR_H2D],
           human_bytes(rt->bytes[HS_DIR_D2H], b2, sizeof b2), rt->count[HS_DIR_D2H],
           human_bytes(rt->bytes[HS_DIR_P2P], b3, sizeof b3), rt->count[HS_DIR_P2P],
           rt->evictions);
    printf("  %-10s %-4s %7s %11s %12s\n", "worker", "arch", "tasks", "busy (s)", "utilisation");
    for (int w = 0; w < pf->nworkers; w++)
        printf("  %-10s %-4s %7d %11.6f %11.1f%%\n", pf->workers[w].name,
               hs_arch_name(pf->workers[w].arch), rt->ws[w].ntasks, rt->ws[w].busy,
               rt->makespan > 0 ? 100 * rt->ws[w].busy / rt->makespan : 0);
    printf("  simulated in %.3f s of wall time (%.0f tasks/s; policy %.3f s)\n", run->wall,
           run->wall > 0 ? rt->ndone / run->wall : 0, rt->policy_wall);
}

static void add_metrics(cJSON *rec, const struct hs_metrics *m, const struct hs_run *run, bool timing)
{
    cJSON *res = cJSON_GetObjectItemCaseSensitive(rec, "results");
    cJSON_AddNumberToObject(res, "flops", m->flops);
    cJSON_AddNumberToObject(res, "gflops", m->gflops);
    cJSON_AddNumberToObject(res, "cp_min", m->cp_min);
    cJSON_AddNumberToObject(res, "slr", m->slr);
    cJSON_AddNumberToObject(res, "sequential_time", m->sequential);
    cJSON_AddNumberToObject(res, "speedup", m->speedup);
    cJSON_AddNumberToObject(res, "efficiency", m->efficiency);
    if (timing) {
        cJSON *t = cJSON_AddObjectToObject(rec, "timing");
        cJSON_AddNumberToObject(t, "wall_seconds", run->wall);
        cJSON_AddNumberToObject(t, "policy_seconds", run->rt->policy_wall);
    }
}

static int write_text(const char *path, const char *text)
{
    if (strcmp(path, "-") == 0) {
        fputs(text, stdout);
        return 0;
    }
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0) {
        if (f)
            fclose(f);
        return hs_fail("cannot write %s", path);
    }
    return fclose(f) ? hs_fail("cannot write %s", path) : 0;
}

static int write_outputs(const struct run_args *a, const struct hs_run *run, const char *workload,
                         const char *policy, const struct hs_metrics *m, const char *perf)
{
    struct hs_record_inputs in = {a->platform, workload, policy, perf, &a->cfg};
    cJSON *rec = hs_record_new(&in, run);
    add_metrics(rec, m, run, a->timing);
    char *text = cJSON_Print(rec);
    cJSON_Delete(rec);
    size_t len = strlen(text);
    text = hs_xrealloc(text, len + 2);
    strcpy(text + len, "\n");
    int rc = a->output ? write_text(a->output, text) : 0;
    free(text);
    if (rc == 0 && a->trace) {
        FILE *f = fopen(a->trace, "w");
        if (!f)
            return hs_fail("cannot write %s", a->trace);
        rc = hs_trace_write_csv(run->rt, f);
        if (fclose(f))
            rc = hs_fail("cannot write %s", a->trace);
    }
    return rc;
}

int hs_cmd_run(int argc, char **argv)
{
    struct run_args a = {.platform = DEFAULT_PLATFORM, .workload = DEFAULT_WORKLOAD,
                         .policy = DEFAULT_POLICY};
    hs_run_config_defaults(&a.cfg);
    parse_args(argc, argv, &a);
    if (a.output && strcmp(a.output, "-") == 0)
        a.quiet = true;

    struct hs_platform_ref ref;
    if (hs_resolve_platform(a.platform, a.perf, &ref))
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    struct hs_dag *dag = hs_workload_build(a.workload);
    struct hs_spec pspec;
    const struct hs_policy *policy = dag ? hs_policy_parse(a.policy, &pspec) : NULL;
    if (!dag || !policy) {
        hs_platform_ref_free(&ref);
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    }
    a.cfg.platform_file = ref.file;
    a.cfg.platform_name = ref.name;
    a.cfg.perf_file = ref.perf;
    a.cfg.paje_file = a.paje;
    char *policy_text = hs_spec_text(&pspec);

    struct hs_run run;
    int rc = hs_run_simgrid(&a.cfg, dag, policy, &pspec, &run);
    if (rc == HS_EXIT_USAGE) {
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    } else if (rc == HS_EXIT_FAIL) {
        fprintf(stderr, "hetsim: run failed: %s\n", run.rt->error);
    } else {
        struct hs_metrics m;
        hs_metrics_compute(run.rt, run.rt->makespan, &m);
        if (!a.quiet)
            print_summary(&a, &run, dag->name, policy_text, &m);
        if (write_outputs(&a, &run, dag->name, policy_text, &m, ref.perf_label)) {
            fprintf(stderr, "hetsim: %s\n", hs_last_error());
            rc = HS_EXIT_FAIL;
        }
    }
    hs_run_free(&run);
    free(policy_text);
    hs_spec_free(&pspec);
    hs_dag_free(dag);
    hs_platform_ref_free(&ref);
    return rc;
}
