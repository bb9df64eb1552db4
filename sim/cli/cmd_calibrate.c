/* sim/cli/cmd_calibrate.c — `hetsim calibrate --engine cuda -o NAME`: measure
 * this machine's kernels and links and write the SimGrid platform, machine
 * description and timing table that simulate it. */
#include "sim/cli/cli.h"
#include "sim/util.h"
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
                 "                        [--reps 5] [--single] [--cores C] [--cpu-threads 4] [-v]\n"
                 "Measure this machine (pinned host<->GPU copies; the Cholesky and GEMM kernels on\n"
                 "cores with OpenBLAS, --cpu-threads of them at once, and on the GPU with\n"
                 "cuBLAS/cuSOLVER, back to back) and write\n"
                 "DIR/NAME.xml (SimGrid platform), DIR/NAME.machine.json (for --engine cuda runs)\n"
                 "and DIR/perf/NAME.json (timing table). Then compare a simulation and a real run:\n"
                 "  hetsim run -p DIR/NAME.xml --perf DIR/perf/NAME.json --events -o sim.json ...\n"
                 "  hetsim run --engine cuda -p DIR/NAME.xml --perf DIR/perf/NAME.json --events -o real.json ...\n"
                 "  hetsim compare sim.json real.json\n");
}

#ifdef HETSIM_HAVE_CUDA
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
        {"cpu-threads", required_argument, 0, 't'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
    };
    const char *engine = NULL, *name = NULL, *dir = ".", *nb_text = "512,1024,2048";
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
    int nbs[16];
    struct hs_calibrate_opts o = {.name = name, .dir = dir, .nbs = nbs, .reps = (int)reps,
                                  .single = single, .cores = (int)cores, .verbose = verbose,
                                  .cpu_threads = (int)cpu_threads};
    o.nnb = parse_nbs(nb_text, nbs, 16);
    if (hs_calibrate(&o))
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    printf("calibrated: %s/%s.xml, %s/%s.machine.json, %s/perf/%s.json\n", dir, name, dir, name, dir, name);
    return HS_EXIT_OK;
#else
    (void)reps, (void)cores, (void)single, (void)verbose, (void)nb_text, (void)dir, (void)cpu_threads;
    hs_die(HS_EXIT_USAGE, "this hetsim was built without the CUDA engine (it needs nvcc, the CUDA "
                          "libraries, OpenBLAS and LAPACKE at build time)");
#endif
}
