/* sim/cli/cmd_calibrate.c — `hetsim calibrate --engine cuda -o NAME`: measure
 * this machine's kernels and links and write the SimGrid platform, machine
 * description and timing table that simulate it. */
#include "sim/cli/cli.h"
#include "sim/util.h"
#include "workloads/workload.h"
#ifdef HETSIM_HAVE_CUDA
#include "sim/cuda/calibrate.h"
#endif

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: hetsim calibrate --engine cuda -o NAME [--dir DIR] [--nb 512,1024,2048]\n"
                 "                        [--workloads cholesky,lu,qr] [--reps 5] [--single]\n"
                 "                        [--cores C] [--cpu-threads 4] [-v]\n"
                 "Measure this machine (pinned host<->GPU copies; the kernels of tiled Cholesky\n"
                 "and GEMM, LU (inner blocking min(128, nb)) and QR on cores with OpenBLAS/LAPACKE,\n"
                 "--cpu-threads pinned cores at once, and those with a GPU version on the GPU with\n"
                 "cuBLAS/cuSOLVER, back to back) and write\n"
                 "DIR/NAME.xml (SimGrid platform), DIR/NAME.machine.json (for --engine cuda runs)\n"
                 "and DIR/perf/NAME.json (timing table). Then compare a simulation and a real run:\n"
                 "  hetsim run -p DIR/NAME.xml --perf DIR/perf/NAME.json --events -o sim.json ...\n"
                 "  hetsim run --engine cuda -p DIR/NAME.xml --perf DIR/perf/NAME.json --events -o real.json ...\n"
                 "  hetsim compare sim.json real.json\n");
}

#ifdef HETSIM_HAVE_CUDA
static int compare_ints(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The small DAGs whose kernels calibrate times: for each tile size
 * (increasing) and precision, each workload with every one of its kernels
 * (3×3 tiles of Cholesky, which has GEMM's kernel too; 2×2 of LU and QR). */
static int sample_dags(const char *workloads, const int *nbs, int nnb, bool single, struct hs_dag **dags,
                       int max)
{
    int n = 0;
    for (int i = 0; i < nnb; i++)
        for (int p = 0; p < (single ? 2 : 1); p++) {
            char *copy = hs_xstrdup(workloads), *save = NULL;
            for (char *w = strtok_r(copy, ",", &save); w && n < max; w = strtok_r(NULL, ",", &save)) {
                char spec[128];
                bool chol = strcmp(w, "cholesky") == 0;
                if (!chol && strcmp(w, "lu") && strcmp(w, "qr"))
                    hs_die(HS_EXIT_USAGE, "calibrate: --workloads: unknown workload '%s' (valid: cholesky, "
                                          "lu, qr)", w);
                if (chol)
                    snprintf(spec, sizeof spec, "cholesky:n=%d,nb=%d,precision=%c", 3 * nbs[i], nbs[i], p ? 's' : 'd');
                else
                    snprintf(spec, sizeof spec, "%s:n=%d,nb=%d,ib=%d,precision=%c", w, 2 * nbs[i], nbs[i],
                             nbs[i] < 128 ? nbs[i] : 128, p ? 's' : 'd');
                if (!(dags[n++] = hs_workload_build(spec)))
                    hs_die(HS_EXIT_USAGE, "calibrate: %s", hs_last_error());
            }
            free(copy);
        }
    return n;
}

static int parse_nbs(const char *text, int *nbs, int max)
{
    int n = 0;
    char *copy = hs_xstrdup(text), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == max)
            break;
        nbs[n++] = (int)hs_opt_long("--nb", tok, 16, 16384);
    }
    free(copy);
    return n;
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
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
    };
    const char *engine = NULL, *name = NULL, *dir = ".", *nb_text = "512,1024,2048";
    const char *workloads = "cholesky,lu,qr";
    long reps = 5, cores = 0, cpu_threads = 4;
    bool single = false, verbose = false;
    int c;
    optind = 1;
    while ((c = hs_getopt("calibrate", argc, argv, "o:vh", opts)) != -1) {
        switch (c) {
        case 'e': engine = optarg; break;
        case 'o': name = optarg; break;
        case 'd': dir = optarg; break;
        case 'n': nb_text = optarg; break;
        case 'r': reps = hs_opt_long("--reps", optarg, 1, 64); break;
        case 's': single = true; break;
        case 'c': cores = hs_opt_long("--cores", optarg, 1, 4096); break;
        case 't': cpu_threads = hs_opt_long("--cpu-threads", optarg, 1, 64); break;
        case 'w': workloads = optarg; break;
        case 'v': verbose = true; break;
        case 'h': usage(stdout); return HS_EXIT_OK;
        default: return HS_EXIT_USAGE;
        }
    }
    if (!engine || strcmp(engine, "cuda") != 0)
        hs_die(HS_EXIT_USAGE, "calibrate: give --engine cuda (the only engine that measures)");
    if (!name || strchr(name, '/'))
        hs_die(HS_EXIT_USAGE, "calibrate: give -o NAME (a name, not a path; --dir says where)");
#ifdef HETSIM_HAVE_CUDA
    int nbs[16], nnb = parse_nbs(nb_text, nbs, 16);
    qsort(nbs, (size_t)nnb, sizeof *nbs, compare_ints);
    struct hs_dag *dags[16 * 2 * 3];
    struct hs_calibrate_opts o = {.name = name, .dir = dir, .samples = dags, .reps = (int)reps,
                                  .cores = (int)cores, .verbose = verbose, .cpu_threads = (int)cpu_threads};
    o.nsamples = sample_dags(workloads, nbs, nnb, single, dags, 16 * 2 * 3);
    int rc = hs_calibrate(&o);
    for (int i = 0; i < o.nsamples; i++)
        hs_dag_free(dags[i]);
    if (rc)
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    printf("calibrated: %s/%s.xml, %s/%s.machine.json, %s/perf/%s.json\n", dir, name, dir, name, dir, name);
    return HS_EXIT_OK;
#else
    (void)reps, (void)cores, (void)single, (void)verbose, (void)nb_text, (void)dir, (void)cpu_threads,
        (void)workloads;
    hs_die(HS_EXIT_USAGE, "this hetsim was built without the CUDA engine (it needs nvcc, the CUDA "
                          "libraries, OpenBLAS and LAPACKE at build time)");
#endif
}
