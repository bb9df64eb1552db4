/* cli/cmd_calibrate.c — `hetsim calibrate -o NAME`: measure this
 * machine's kernels (on its cores, and on its GPUs when the real engine has
 * CUDA and some are visible), its links and what the engine adds per task,
 * and write the SimGrid platform, machine description and timing table
 * that simulate it. */
#include "cli/cli.h"
#include "base/util.h"
#include "workloads/workload.h"
#ifdef HETSIM_WITH_REAL
#include "sim/engines/real/calibrate.h"
#include "sim/engines/real/calibrate_run.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: hetsim calibrate -o NAME [--dir DIR] [--engine real] [--gpus G] [--nb LIST]\n"
                 "                        [--workloads cholesky,lu,qr] [--reps 5] [--single]\n"
                 "                        [--cores C] [--cpu-threads T] [--corun LIST] [--timing run|cold|warm]\n"
                 "                        [-v]\n"
                 "Measure this machine with the real engine (--engine cuda is another name for it):\n"
                 "the kernels of tiled Cholesky and GEMM, LU (inner blocking min(128, nb)) and QR on\n"
                 "cores with OpenBLAS/LAPACKE, in thread CPU time, T pinned cores at once (default:\n"
                 "the CPU workers of a default run, at most 4): --timing run (default) times every\n"
                 "task inside a run of the sample DAGs, made larger than the caches, on each of those\n"
                 "cores (a kernel then finds some tiles cached, as in a real run); cold and warm time\n"
                 "each kernel alone, its inputs evicted from the caches or left in them. Co-running:\n"
                 "the CPU kernels are timed again with each number of cores busy in --corun (default\n"
                 "1 when T > 1; none: no curve) and, with GPUs, with T cores busy while GPU 0's\n"
                 "copies stream: the timing table's \"corun\" curve, which simulations execute for\n"
                 "the number of workers busy when a task starts. On G GPUs\n"
                 "(default: every visible one; none without CUDA) those with a GPU version, with\n"
                 "cuBLAS/cuSOLVER, one task at a time through the engine's streams and events\n"
                 "(--timing run; back to back with cold and warm); pinned host<->GPU copies; what\n"
                 "the engine and the runtime add to each task (tasks of a known length run through\n"
                 "them). Tile sizes: --nb (default 512,1024,2048 with GPUs, 128,256,512 without).\n"
                 "Declared cores: C (default: every online core, less the runtime's when no GPU is\n"
                 "calibrated).\n"
                 "Writes DIR/NAME.xml (SimGrid platform), DIR/NAME.machine.json (for --engine real\n"
                 "runs) and DIR/perf/NAME.json (timing table); DIR (default .) is created if its\n"
                 "parent exists. Then compare a simulation and a measured run:\n"
                 "  hetsim run -p DIR/NAME.xml --perf DIR/perf/NAME.json --events -o sim.json ...\n"
                 "  hetsim run --engine real -p DIR/NAME.xml --perf DIR/perf/NAME.json --events -o real.json ...\n"
                 "  hetsim compare sim.json real.json\n");
}

/* A comma-separated list of option opt's integers in [lo, hi], each once,
 * at most max of them (exit 2 on an empty list or item, a bad or repeated
 * value, or too many). */
static int parse_ints(const char *opt, const char *text, long lo, long hi, int *out, int max)
{
    int n = 0;
    for (const char *p = text;; p++) {
        size_t len = strcspn(p, ",");
        if (len == 0)
            hs_die(HS_EXIT_USAGE, "option %s: '%s' has an empty item (give integers in [%ld, %ld], separated "
                   "by commas)", opt, text, lo, hi);
        if (n == max)
            hs_die(HS_EXIT_USAGE, "option %s: '%s' gives more than %d values", opt, text, max);
        char *tok = hs_xmalloc(len + 1);
        memcpy(tok, p, len);
        tok[len] = '\0';
        out[n] = (int)hs_opt_long(opt, tok, lo, hi);
        free(tok);
        for (int i = 0; i < n; i++)
            if (out[i] == out[n])
                hs_die(HS_EXIT_USAGE, "option %s: %d is given twice in '%s'", opt, out[n], text);
        n++;
        p += len;
        if (!*p)
            return n;
    }
}

#ifdef HETSIM_WITH_REAL
static int compare_ints(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static enum hs_cal_timing timing_mode(const char *text)
{
    if (strcmp(text, "run") == 0)
        return HS_CAL_IN_RUN;
    if (strcmp(text, "cold") == 0)
        return HS_CAL_COLD;
    if (strcmp(text, "warm") == 0)
        return HS_CAL_WARM;
    hs_die(HS_EXIT_USAGE, "calibrate: --timing '%s': valid: run, cold, warm", text);
}

static struct hs_dag *build_sample(const char *workload, int tiles, int nb, bool single)
{
    char spec[128];
    if (strcmp(workload, "cholesky") == 0)
        snprintf(spec, sizeof spec, "cholesky:n=%d,nb=%d,precision=%c", tiles * nb, nb, single ? 's' : 'd');
    else
        snprintf(spec, sizeof spec, "%s:n=%d,nb=%d,ib=%d,precision=%c", workload, tiles * nb, nb,
                 nb < 128 ? nb : 128, single ? 's' : 'd');
    struct hs_dag *dag = hs_workload_build(spec);
    if (!dag)
        hs_die(HS_EXIT_USAGE, "calibrate: %s", hs_last_error());
    return dag;
}

/* One sample DAG of `workload`: `least` tiles per side, or, when kernels are
 * timed inside a run, the fewest tiles whose data (the DAG's handles: the
 * lower triangle only for Cholesky), times the `copies` that cores run at
 * once, take twice the largest cache, at most 64 tiles per side (nb 16 on a
 * 1 GiB cache). Counting the handles, not N², matters: a Cholesky of 12×12
 * tiles at nb 256 holds 39 MiB, not 72. Counting the copies matters on a
 * large shared cache: they share it, as a real run's workers share one
 * matrix; one copy twice a 300 MiB cache made the calibration of an H100
 * node's four cores take three minutes at nb 1024 alone. */
static struct hs_dag *sample_dag(const char *workload, int least, int nb, bool single, bool in_run, int copies)
{
    if (!in_run)
        return build_sample(workload, least, nb, single);
    double want = 2.0 * (double)hs_calibrate_cache_bytes() / copies;
    /* N² is a lower bound of the tiles that the data need: start there */
    int tiles = (int)fmax(least, fmin(64, floor(sqrt(want / ((double)nb * nb * (single ? 4 : 8))))));
    struct hs_dag *dag = build_sample(workload, tiles, nb, single);
    while (tiles < 64 && hs_dag_data_bytes(dag) < want) {
        hs_dag_free(dag);
        dag = build_sample(workload, ++tiles, nb, single);
    }
    return dag;
}

/* The DAGs whose kernels calibrate times: for each tile size (increasing)
 * and precision, each workload with every one of its kernels (Cholesky,
 * which has GEMM's kernel too, at least 3×3 tiles; LU and QR at least 2×2;
 * larger than the caches when kernels are timed inside a run). */
static int sample_dags(const char *workloads, const int *nbs, int nnb, bool single, bool in_run, int copies,
                       struct hs_dag **dags, int max)
{
    int n = 0;
    for (int i = 0; i < nnb; i++)
        for (int p = 0; p < (single ? 2 : 1); p++) {
            char *copy = hs_xstrdup(workloads), *save = NULL;
            for (char *w = strtok_r(copy, ",", &save); w && n < max; w = strtok_r(NULL, ",", &save)) {
                bool chol = strcmp(w, "cholesky") == 0;
                if (!chol && strcmp(w, "lu") && strcmp(w, "qr"))
                    hs_die(HS_EXIT_USAGE, "calibrate: --workloads: unknown workload '%s' (valid: cholesky, "
                                          "lu, qr)", w);
                dags[n++] = sample_dag(w, chol ? 3 : 2, nbs[i], p == 1, in_run, copies);
            }
            free(copy);
        }
    return n;
}

/* --corun: the other numbers of cores busy (1 to 64; the timing's own T
 * left out, duplicates once); default 1 when T > 1; "none": no curve. */
static int parse_corun(const char *text, int threads, int *levels, int max)
{
    int n = 0;
    if (!text) {
        if (threads > 1)
            levels[n++] = 1;
        return n;
    }
    if (strcmp(text, "none") == 0)
        return 0;
    int given[64], ngiven = parse_ints("--corun", text, 1, 64, given, 64);
    for (int g = 0; g < ngiven; g++) {
        bool seen = given[g] == threads;
        for (int i = 0; i < n; i++)
            seen |= levels[i] == given[g];
        if (!seen && n < max)
            levels[n++] = given[g];
    }
    return n;
}

static int calibrate(struct hs_calibrate_opts *o, const char *nb_text, const char *workloads, bool single,
                     const char *corun_text)
{
    int ngpus = o->gpus < 0 ? hs_calibrate_gpus_visible() : o->gpus;
    int levels[64];
    o->ncorun = parse_corun(corun_text, hs_calibrate_cpu_threads(o, ngpus), levels, 64);
    o->corun = levels;
    if (!nb_text)
        nb_text = ngpus > 0 ? "512,1024,2048" : "128,256,512";
    int nbs[16], nnb = parse_ints("--nb", nb_text, 16, 16384, nbs, 16);
    qsort(nbs, (size_t)nnb, sizeof *nbs, compare_ints);
    struct hs_dag *dags[16 * 2 * 3];
    o->samples = dags;
    o->nsamples = sample_dags(workloads, nbs, nnb, single, o->timing == HS_CAL_IN_RUN,
                              hs_calibrate_cpu_threads(o, ngpus), dags, 16 * 2 * 3);
    int rc = hs_calibrate(o);
    for (int i = 0; i < o->nsamples; i++)
        hs_dag_free(dags[i]);
    if (rc)
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    printf("calibrated: %s/%s.xml, %s/%s.machine.json, %s/perf/%s.json\n", o->dir, o->name, o->dir, o->name,
           o->dir, o->name);
    return HS_EXIT_OK;
}
#endif

int hs_cmd_calibrate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"engine", required_argument, 0, 'e'}, {"output", required_argument, 0, 'o'},
        {"dir", required_argument, 0, 'd'},    {"nb", required_argument, 0, 'n'},
        {"reps", required_argument, 0, 'r'},   {"single", no_argument, 0, 's'},
        {"cores", required_argument, 0, 'c'},  {"verbose", no_argument, 0, 'v'},
        {"cpu-threads", required_argument, 0, 't'}, {"workloads", required_argument, 0, 'w'},
        {"gpus", required_argument, 0, 'g'},   {"help", no_argument, 0, 'h'},
        {"timing", required_argument, 0, 'T'}, {"corun", required_argument, 0, 'C'},
        {0, 0, 0, 0},
    };
    const char *name = NULL, *dir = ".", *nb_text = NULL, *workloads = "cholesky,lu,qr";
    long reps = 5, cores = 0, cpu_threads = 0, gpus = -1;
    bool single = false, verbose = false;
    const char *timing = "run", *corun = NULL;
    int c;
    optind = 1;
    while ((c = hs_getopt("calibrate", argc, argv, "o:vh", opts)) != -1) {
        switch (c) {
        case 'e':
            if (strcmp(optarg, "real") && strcmp(optarg, "cuda"))
                hs_die(HS_EXIT_USAGE, "calibrate: --engine '%s': only the real engine (real, or cuda) measures",
                       optarg);
            break;
        case 'o': name = optarg; break;
        case 'd': dir = optarg; break;
        case 'n': nb_text = optarg; break;
        case 'r': reps = hs_opt_long("--reps", optarg, 1, 64); break;
        case 's': single = true; break;
        case 'c': cores = hs_opt_long("--cores", optarg, 1, 4096); break;
        case 't': cpu_threads = hs_opt_long("--cpu-threads", optarg, 1, 64); break;
        case 'g': gpus = hs_opt_long("--gpus", optarg, 0, 64); break;
        case 'w': workloads = optarg; break;
        case 'v': verbose = true; break;
        case 'T': timing = optarg; break;
        case 'C': /* checked now, whatever this hetsim was built with */
            corun = optarg;
            if (strcmp(optarg, "none") != 0)
                parse_ints("--corun", optarg, 1, 64, (int[64]){0}, 64);
            break;
        case 'h': usage(stdout); return HS_EXIT_OK;
        default: return HS_EXIT_USAGE;
        }
    }
    if (optind < argc)
        hs_die(HS_EXIT_USAGE, "calibrate: unexpected argument '%s' (see `hetsim calibrate --help`)", argv[optind]);
    if (!name || !*name || strchr(name, '/'))
        hs_die(HS_EXIT_USAGE, "calibrate: give -o NAME (a name, not a path; --dir says where)");
    struct stat st;
    if (stat(dir, &st) && errno == ENOENT)
        mkdir(dir, 0777); /* a new folder (its parent must exist) */
    if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK))
        hs_die(HS_EXIT_USAGE, "calibrate: --dir %s: not a folder this user can write", dir);
#ifdef HETSIM_WITH_REAL
    struct hs_calibrate_opts o = {.name = name, .dir = dir, .reps = (int)reps, .gpus = (int)gpus,
                                  .cores = (int)cores, .cpu_threads = (int)cpu_threads, .verbose = verbose};
    o.timing = timing_mode(timing);
    return calibrate(&o, nb_text, workloads, single, corun);
#else
    (void)reps, (void)cores, (void)single, (void)verbose, (void)timing, (void)nb_text, (void)dir, (void)cpu_threads,
        (void)workloads, (void)gpus, (void)corun;
    hs_die(HS_EXIT_USAGE, "this hetsim was built without the real engine (it needs OpenBLAS and LAPACKE "
                          "at build time)");
#endif
}
