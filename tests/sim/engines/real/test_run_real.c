/* tests/sim/engines/real/test_run_real.c — measured runs
 * (sim/engines/real/run_real.c) on this machine's cores, with or without a
 * GPU: the whole loop end to end with the `hetsim` command: a reduced
 * calibration of the cores, a run simulated and the same run measured under
 * four policies, and `hetsim compare` (checked for its mechanism: files and
 * records produced, residual ok, the same tasks per worker kind in both;
 * never a timing); two CPU workers at once (the co-running curve, every
 * workload right under every policy); synthetic DAGs (random, DOT, JSON,
 * WfFormat) measured with spin kernels that last at least the requested
 * time; bad input refused with one line (more CPU workers than
 * calibrated, a co-running curve that stops below the run's workers, a
 * machine file from another machine). */
#include "base/util.h"
#include "sim/engines/real/calibrate.h"
#include "sim/engines/real/machine.h"
#include "sim/engines/real/numeric.h"
#include "tests/support/testing_real.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the loop, end to end ---------------------------------------------------- */

/* `hetsim calibrate -o t --dir DIR --gpus 0 --nb 64 --reps 1 OPTIONS` into a
 * fresh DIR (dir, of 1024 bytes), once: later calls return it. */
static const char *calibrate_once(char *dir, const char *options)
{
    if (dir[0])
        return dir;
    char *d = hs_test_tmp(""), args[2048], *err = NULL;
    snprintf(dir, 1024, "%s", d); /* calibrate makes it */
    free(d);
    snprintf(args, sizeof args, "calibrate -o t --dir %s --gpus 0 --nb 64 --reps 1 %s", dir, options);
    int rc = hs_test_cli(args, NULL, &err);
    if (rc)
        fprintf(stderr, "\n`hetsim %s` -> %d: %s", args, rc, err);
    free(err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return dir;
}

/* The reduced calibration every test below shares: cores only, 64×64 tiles,
 * Cholesky's kernels, one repetition. DIR/t.xml, DIR/perf/t.json. */
static const char *calibrated(void)
{
    static char dir[1024];
    return calibrate_once(dir, "--workloads cholesky");
}

/* The timing table: a CPU entry, in seconds, for each of Cholesky's kernels
 * at nb 64, and no GPU entry. */
static void check_calibration(const char *dir)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/perf/t.json", dir);
    cJSON *perf = hs_test_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(perf);
    const char *kernels[] = {"dpotrf", "dtrsm", "dsyrk", "dgemm"};
    for (int k = 0; k < 4; k++) {
        int n = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItem(perf, "kernels"))
        {
            CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(e, "arch")->valuestring, "cpu");
            CU_ASSERT_PTR_NOT_NULL(strstr(cJSON_GetObjectItem(e, "source")->valuestring, "measured by hetsim calibrate"));
            CU_ASSERT_PTR_NOT_NULL(strstr(cJSON_GetObjectItem(e, "source")->valuestring, "in a run of a sample DAG larger than the caches (--timing run)"));
            hs_test_check_sample_size(cJSON_GetObjectItem(e, "source")->valuestring);
            if (strcmp(cJSON_GetObjectItem(e, "kernel")->valuestring, kernels[k]) == 0) {
                CU_ASSERT_EQUAL(cJSON_GetObjectItem(e, "nb")->valueint, 64);
                CU_ASSERT(cJSON_GetObjectItem(e, "seconds")->valuedouble > 0);
                n++;
            }
        }
        CU_ASSERT_EQUAL(n, 1);
    }
    cJSON_Delete(perf);
    snprintf(path, sizeof path, "%s/t.machine.json", dir);
    cJSON *m = hs_test_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(m, "gpus")), 0);
    CU_ASSERT(cJSON_GetObjectItem(m, "cores")->valueint >= 1);
    CU_ASSERT(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "task_overhead"), "cpu")->valuedouble > 0);
    cJSON_Delete(m);
    snprintf(path, sizeof path, "%s/t.xml", dir);
    char *xml = hs_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(strstr(xml, "No runtime/* costs"));
    CU_ASSERT_PTR_NULL(strstr(xml, "<prop id=\"runtime/"));
    free(xml);
}

/* `hetsim run [--engine E] -p DIR/t.xml --perf DIR/perf/t.json ARGS --events`:
 * the record, written to *path (caller frees). */
static cJSON *run_on(const char *dir, const char *engine, const char *args, char **path)
{
    char cmd[4096];
    *path = hs_test_tmp(".json");
    snprintf(cmd, sizeof cmd, "%s%s -p %s/t.xml --perf %s/perf/t.json %s --events -o %s", engine ? "--engine " : "",
             engine ? engine : "", dir, dir, args, *path);
    char run[4200];
    snprintf(run, sizeof run, "run -q %s", cmd);
    char *err = NULL;
    int rc = hs_test_cli(run, NULL, &err);
    if (rc)
        fprintf(stderr, "\n`hetsim %s` -> %d: %s", run, rc, err);
    free(err);
    CU_ASSERT_EQUAL(rc, 0);
    return rc ? NULL : hs_test_read_json(*path);
}

static double tasks_on(const cJSON *rec, const char *arch)
{
    return cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "results"), "tasks_per_arch"), arch)
        ->valuedouble;
}

/* Simulated and measured records of the same scenario agree on what was run. */
static void check_pair(const cJSON *sim, const cJSON *real, int tasks)
{
    CU_ASSERT_FALSE(cJSON_IsTrue(cJSON_GetObjectItem(sim, "measured")));
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(real, "measured")));
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(real, "engine")->valuestring, "real");
    const cJSON *res = cJSON_GetObjectItem(real, "results");
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "tasks")->valueint, tasks);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(real, "events"), "tasks")), tasks);
    CU_ASSERT_EQUAL(tasks_on(sim, "cpu"), tasks);
    CU_ASSERT_EQUAL(tasks_on(real, "cpu"), tasks_on(sim, "cpu"));
    CU_ASSERT_EQUAL(tasks_on(real, "gpu"), 0);
    CU_ASSERT_EQUAL(tasks_on(sim, "gpu"), 0);
    CU_ASSERT(cJSON_GetObjectItem(res, "makespan")->valuedouble > 0);
    /* the machine's load is written beside a measured run only */
    const cJSON *load = cJSON_GetObjectItem(res, "load_average");
    CU_ASSERT(cJSON_IsNumber(cJSON_GetObjectItem(load, "before")) && cJSON_IsNumber(cJSON_GetObjectItem(load, "after")));
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(cJSON_GetObjectItem(sim, "results"), "load_average"));
}

static void test_loop(void)
{
    const char *dir = calibrated();
    check_calibration(dir);
    /* NT = 4 tiles: 4 POTRF, 6 TRSM, 6 SYRK, 4 GEMM */
    const char *policies[] = {"dmda", "eager", "heft", "ws"};
    for (int i = 0; i < 4; i++) {
        char args[256], *simf, *realf;
        snprintf(args, sizeof args, "-w cholesky:n=256,nb=64 -s %s", policies[i]);
        cJSON *sim = run_on(dir, NULL, args, &simf);
        cJSON *real = run_on(dir, i == 3 ? "cuda" : "real", args, &realf); /* cuda: the old name */
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(real);
        check_pair(sim, real, 20);
        const cJSON *res = cJSON_GetObjectItem(real, "results");
        CU_ASSERT(cJSON_GetObjectItem(res, "residual")->valuedouble < 1);
        CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(res, "residual_ok")));
        char cmd[4096], *out = NULL;
        snprintf(cmd, sizeof cmd, "compare %s %s", simf, realf);
        CU_ASSERT_EQUAL(hs_test_cli(cmd, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "makespan (s)"));
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "mean dpotrf on cpu (s)"));
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "mean dgemm on cpu (s)"));
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "busy CPU0 (s)"));
        free(out);
        cJSON_Delete(sim);
        cJSON_Delete(real);
        free(simf);
        free(realf);
    }
    /* the summary says the run was measured */
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd, "run --engine real -p %s/t.xml --perf %s/perf/t.json -w cholesky:n=128,nb=64", dir, dir);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, &out, NULL), 0);
    CU_ASSERT(out && strstr(out, "\n  measured in "));
    CU_ASSERT(out && !strstr(out, "simulated in"));
    free(out);
}

/* ---- two CPU workers at once ------------------------------------------------------ */

/* The calibration of two cores (calibrate --cores 2: on a 2-core machine the
 * runtime shares a core with a worker) with every family's kernels at nb 64. */
static const char *calibrated_two(void)
{
    static char dir[1024];
    /* warm: each kernel alone on cached inputs, no sample DAG twice the caches
     * (its data take minutes to fill under ThreadSanitizer) */
    return calibrate_once(dir, "--cores 2 --workloads cholesky,lu,qr --timing warm");
}

/* The co-running curve of a calibration of two cores: every kernel timed
 * with 2 cores busy (its "kernels" entry's point) and with 1, each said in
 * its source; no point with copies (no GPU). */
static void check_corun_curve(const char *dir)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/perf/t.json", dir);
    cJSON *perf = hs_test_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(perf);
    int kernels = 0, points[3] = {0, 0, 0};
    const cJSON *e, *c;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(perf, "kernels"))
    {
        kernels++;
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(perf, "corun"))
        {
            if (strcmp(cJSON_GetObjectItem(c, "kernel")->valuestring, cJSON_GetObjectItem(e, "kernel")->valuestring))
                continue;
            int busy = cJSON_GetObjectItem(c, "busy")->valueint;
            CU_ASSERT_FATAL(busy == 1 || busy == 2);
            CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(c, "copies"));
            CU_ASSERT_PTR_NOT_NULL(strstr(cJSON_GetObjectItem(c, "source")->valuestring,
                                          busy == 1 ? "; 1 core busy" : "; 2 cores busy"));
            if (busy == 2) /* the same measurement as the kernel's entry */
                CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(c, "seconds")->valuedouble,
                                       cJSON_GetObjectItem(e, "seconds")->valuedouble, 1e-15);
            points[busy]++;
        }
    }
    CU_ASSERT_EQUAL(kernels, 12); /* Cholesky's 4, LU's 4, QR's 4 at nb 64 */
    CU_ASSERT_EQUAL(points[1], kernels);
    CU_ASSERT_EQUAL(points[2], kernels);
    cJSON_Delete(perf);
}

static void test_two_workers(void)
{
    const char *dir = calibrated_two();
    check_corun_curve(dir);
    static const struct {
        const char *w;
        int tasks;
    } cases[] = {
        {"cholesky:n=512,nb=64", 120}, {"gemm:n=384,nb=64", 216},
        {"lu:n=512,nb=64,ib=16", 204},  {"qr:n=512,nb=64,ib=16", 204},
        {"lu:n=512,nb=64,ib=64", 204},  {"qr:n=512,nb=64,ib=32", 204},
    };
    const char *policies[] = {"eager", "dmda", "heft", "ws"};
    int wrong = 0, runs = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int p = 0; p < 4; p++)
            for (int rep = 0; rep < 3; rep++) {
                char args[512], *path;
                snprintf(args, sizeof args, "-w %s -s %s --gpus 0 --cpus 2", cases[c].w, policies[p]);
                cJSON *real = run_on(dir, "real", args, &path);
                CU_ASSERT_PTR_NOT_NULL_FATAL(real);
                const cJSON *res = cJSON_GetObjectItem(real, "results");
                bool ok = cJSON_IsTrue(cJSON_GetObjectItem(res, "residual_ok"));
                if (!ok)
                    fprintf(stderr, "\n%s under %s (run %d): residual %g\n", cases[c].w, policies[p], rep,
                            cJSON_GetObjectItem(res, "residual")->valuedouble);
                wrong += !ok;
                runs++;
                CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "tasks")->valueint, cases[c].tasks);
                CU_ASSERT_EQUAL(tasks_on(real, "cpu"), cases[c].tasks);
                CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(real, "events"), "tasks")),
                                cases[c].tasks);
                cJSON_Delete(real);
                remove(path);
                free(path);
            }
    CU_ASSERT_EQUAL(runs, 6 * 4 * 3);
    CU_ASSERT_EQUAL(wrong, 0);
}

/* ---- synthetic DAGs ------------------------------------------------------------- */

/* Every task of the measured run lasted at least its duration in the
 * simulation (no costs, no noise: the requested duration). */
static void check_spins(const cJSON *sim, const cJSON *real)
{
    int n = 0, shorter = 0;
    const cJSON *s, *r;
    cJSON_ArrayForEach(s, cJSON_GetObjectItem(cJSON_GetObjectItem(sim, "events"), "tasks"))
    {
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(cJSON_GetObjectItem(real, "events"), "tasks"))
        {
            if (cJSON_GetObjectItem(r, "id")->valueint != cJSON_GetObjectItem(s, "id")->valueint)
                continue;
            double want = cJSON_GetObjectItem(s, "end")->valuedouble - cJSON_GetObjectItem(s, "start")->valuedouble;
            double got = cJSON_GetObjectItem(r, "end")->valuedouble - cJSON_GetObjectItem(r, "start")->valuedouble;
            shorter += got < want - 1e-9;
            n++;
        }
    }
    CU_ASSERT(n > 0);
    CU_ASSERT_EQUAL(n, cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(real, "events"), "tasks")));
    CU_ASSERT_EQUAL(shorter, 0);
}

static void synthetic(const char *dir, const char *workload, int tasks)
{
    char args[1024], *simf, *realf;
    snprintf(args, sizeof args, "-w %s -s dmda --cpus 1", workload);
    cJSON *sim = run_on(dir, NULL, args, &simf);
    cJSON *real = run_on(dir, "real", args, &realf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(real);
    check_pair(sim, real, tasks);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(cJSON_GetObjectItem(real, "results"), "residual"));
    check_spins(sim, real);
    cJSON_Delete(sim);
    cJSON_Delete(real);
    free(simf);
    free(realf);
}

static void test_synthetic_dags(void)
{
    const char *dir = calibrated();
    /* costs of a few ms each, for one processor (the run's one CPU worker) */
    const char *random = "random:v=12,p=1,wdag=0.002,ccr=1";
    synthetic(dir, random, 13); /* 12 and the root */
    char *dot = hs_test_tmp(".dot"), *json = hs_test_tmp(".json"), cmd[2048], w[2048];
    snprintf(cmd, sizeof cmd, "dag %s --format dot -o %s", random, dot);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "dag %s --format json -o %s", random, json);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(cmd, NULL, NULL), 0);
    synthetic(dir, dot, 13);
    synthetic(dir, json, 13);
    /* split, 3 × work, merge; runtimes of 0.5 to 3 s at 1 Gflop/s, here 100 times faster */
    snprintf(w, sizeof w, "wfformat:file=%s,speed=10M", hs_test_datafile("forkjoin-wf14.json"));
    synthetic(dir, w, 5);
    free(dot);
    free(json);
}

/* ---- bad input ------------------------------------------------------------------- */

static void test_bad_input(void)
{
    char args[4096], *base = hs_test_tmp("");
    /* a platform no calibration wrote: no machine description beside it */
    snprintf(args, sizeof args, "run --engine real -p %s -w cholesky:n=256,nb=64",
             hs_test_data("mapuche.xml"));
    hs_test_bad_cli(args, "mapuche.machine.json");
    hs_test_bad_cli("run --engine gpu -w cholesky:n=256,nb=64", "is not auto, simgrid, model or real");
    hs_test_bad_cli("calibrate -o a/b", "a name, not a path");
    hs_test_bad_cli("calibrate -o t --dir /nonexistent/hetsim", "not a folder this user can write");
    hs_test_bad_cli("calibrate -o t --engine simgrid", "only the real engine");
    hs_test_bad_cli("calibrate -o t --timing hot", "--timing 'hot': valid: run, cold, warm");
    /* a GPU machine: its GPUs need CUDA and a GPU here; its cores run alone */
    struct hs_machine m = hs_test_gpu_machine();
    hs_test_write_machine(&m, base);
    if (hs_calibrate_gpus_visible() == 0) {
        hs_test_bad_cli("calibrate -o t --gpus 1", "visible here");
        snprintf(args, sizeof args, "run --engine real -p %s.xml -w cholesky:n=256,nb=64 --gpus 1 --cpus 1", base);
        hs_test_bad_cli(args, "GPUs");
    }
    /* the runtime's costs are simulated time: a measured run spends its own */
    snprintf(args, sizeof args, "run --engine real -p %s.xml -w cholesky:n=256,nb=64 --gpus 0 --cpus 1 "
             "--costs task_cpu=1ms", base);
    hs_test_bad_cli(args, "--costs: runtime/task_cpu is simulated time");
    /* a machine file written on another machine: more cores than here */
    struct hs_machine big = {.name = "big", .gpu_model = "", .cores = 2, .core_speed = 1e9,
                             .task_overhead = {NAN, NAN}};
    big.topology = (struct hs_topology){.packages = 1, .numa_nodes = 1, .cores = 99999, .pus = 99999};
    snprintf(big.topology.cpu_model, sizeof big.topology.cpu_model, "%s", "Some Processor");
    char *other = hs_test_tmp("");
    hs_test_write_machine(&big, other);
    snprintf(args, sizeof args, "run --engine real -p %s.xml -w cholesky:n=256,nb=64 --cpus 1", other);
    hs_test_bad_cli(args, "topology.cores is 99999");
    free(other);
    /* a calibration records this machine's topology, which a measured run accepts */
    char path[1100];
    snprintf(path, sizeof path, "%s/t.machine.json", calibrated());
    cJSON *mj = hs_test_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mj);
    const cJSON *topo = cJSON_GetObjectItem(mj, "topology");
    CU_ASSERT(cJSON_GetObjectItem(topo, "cores")->valueint >= 1);
    CU_ASSERT(cJSON_GetObjectItem(topo, "largest_cache_bytes")->valuedouble > 0);
    CU_ASSERT(cJSON_IsString(cJSON_GetObjectItem(topo, "cpu_model")));
    cJSON_Delete(mj);
    snprintf(args, sizeof args, "--engine real -p %s.xml -w cholesky:n=256,nb=64 --gpus 0 --cpus 1 --no-costs",
             base);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const cJSON *res = cJSON_GetObjectItem(r, "results");
    CU_ASSERT_TRUE(cJSON_IsTrue(cJSON_GetObjectItem(res, "residual_ok")));
    CU_ASSERT_EQUAL(tasks_on(r, "cpu"), 20);
    cJSON_Delete(r);
    free(base);
}

/* Issue 39's bad input for a measured run on a calibration of two cores:
 * more CPU workers than the cores calibrated, and a timing table whose
 * co-running curve stops below the run's workers (its points at 2 busy
 * taken out); each refused with one line and exit 2. */
static void test_bad_run_input(void)
{
    const char *dir = calibrated_two();
    char args[4096], path[1100];
    snprintf(args, sizeof args, "run -q --engine real -p %s/t.xml --perf %s/perf/t.json -w cholesky:n=256,nb=64 "
             "--gpus 0 --cpus 3", dir, dir);
    hs_test_bad_cli(args, "has 2 cores: 3 CPU workers and 0 GPU workers (each driven by a core) do not fit");
    snprintf(path, sizeof path, "%s/perf/t.json", dir);
    cJSON *perf = hs_test_read_json(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(perf);
    cJSON *corun = cJSON_GetObjectItem(perf, "corun");
    int removed = 0;
    for (int i = cJSON_GetArraySize(corun) - 1; i >= 0; i--)
        if (cJSON_GetObjectItem(cJSON_GetArrayItem(corun, i), "busy")->valueint == 2) {
            cJSON_DeleteItemFromArray(corun, i);
            removed++;
        }
    CU_ASSERT_EQUAL(removed, 12); /* one per kernel (check_corun_curve) */
    char *short_curve = hs_test_tmp(".json"), *text = cJSON_Print(perf);
    hs_test_write_file(short_curve, text);
    snprintf(args, sizeof args, "run -q --engine real -p %s/t.xml --perf %s -w cholesky:n=256,nb=64 --gpus 0 "
             "--cpus 2", dir, short_curve);
    hs_test_bad_cli(args, "stops at 1 worker busy, and this run has 2 cpu workers (calibrate with --cpu-threads 2");
    free(text);
    free(short_curve);
    cJSON_Delete(perf);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"calibrate, simulate, measure, compare on the cores", test_loop},
        {"two CPU workers at once: the co-running curve, every workload right under every policy",
         test_two_workers},
        {"synthetic DAGs measured with spin kernels", test_synthetic_dags},
        {"measured runs refuse bad input", test_bad_input},
        {"measured runs refuse more workers than calibrated, a co-running curve too short", test_bad_run_input},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("run_real", tests);
}
