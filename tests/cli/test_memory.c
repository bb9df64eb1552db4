/* tests/cli/test_memory.c — memory errors made findable (issue 40): `hetsim
 * run` under every registered policy on one platform, a GPU cache so small
 * that the GPUs evict, write back and prefetch all along, for tiled
 * Cholesky, LU, QR and GEMM and two random DAGs (DAGGEN's and the layered
 * one of the HEFT literature; Beaumont and Marchal's policies take their own
 * outer and matrix products instead). Run in the sanitizer build (label
 * `memory`, one CTest entry per platform: tests/memory.cmake), where any
 * AddressSanitizer, UndefinedBehaviorSanitizer or LeakSanitizer report
 * fails the run; `test_memory --valgrind VALGRIND` runs a few of these runs
 * under valgrind in a build without sanitizers. Every run must finish every
 * task with clean audit counters, and the GPUs of each workload must evict,
 * so that the runs cannot quietly stop exercising the cache. The
 * use-after-free once in sim/datamove.c's xfer_done (a transfer pointer kept
 * while starting the next copy in its stream let other actors grow the
 * transfer array) fails both. */
#include "policies/bm/bm_policies.h"
#include "policies/registry.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Data cache per GPU: 16 tiles of 256 × 256 doubles, whatever the GPU's
 * memory (the cache fraction is computed from it). */
#define CACHE_BYTES (8.0 * 1024 * 1024)

static const char *platform; /* a shipped name or a platform file */
static char platform_args[1200];
static int nworkers, ngpus;
static char valgrind[2048]; /* the runs' command prefix under valgrind, else "" */

/* The workloads run under every policy but Beaumont and Marchal's; %d is
 * the number of workers (the random DAG's per-processor costs). A run takes
 * a fraction of a second under AddressSanitizer (the process's start is most
 * of it) while every GPU cache (16 tiles) is filled many times over: 144 to
 * 256 tiles per matrix. Smaller DAGs miss what these find: Cholesky on 8 × 8
 * tiles under dmda on StarPU's file never met the use-after-free that 16 × 16
 * tiles meet at every run. A task's data stay below half the cache (DAGGEN
 * and random DAGs: at most 256 × 256 doubles a datum, 1 MB an edge): with
 * more, offline plans (heft, peft, heftnc, cluster) stall, a GPU's next task
 * in its window holding the room that the task before it waits for (a
 * runtime bug of its own, not a memory error). */
static const char *const dag_workloads[] = {
    "cholesky:n=4096,nb=256",
    "lu:n=3072,nb=256,ib=64",
    "qr:n=3072,nb=256,ib=64",
    "gemm:n=2048,nb=256",
    "daggen:n=80,mindata=128,maxdata=256",
    "random:v=80,p=%d,bw=5k", /* edges of up to 200 s × 5 kB/s */
};
/* Beaumont and Marchal's policies, by dimension: 512 KiB blocks */
static const char *const outer_workload = "outer:n=16,l=65536";
static const char *const matmul_workload = "matmul:n=6,l=256";

/* An AddressSanitizer, UndefinedBehaviorSanitizer or LeakSanitizer report
 * in a run's standard error, or under valgrind an error summary that is not
 * 0 or none at all (valgrind did not run); the exit code says so too, unless
 * an option changed it or the report came from a child process (hetsim
 * loads a platform file in one). */
static bool memory_report(const char *err)
{
    if (strstr(err, "Sanitizer") || strstr(err, "runtime error:"))
        return true;
    if (!valgrind[0])
        return false;
    int summaries = 0;
    for (const char *s = strstr(err, "ERROR SUMMARY: "); s; s = strstr(s + 1, "ERROR SUMMARY: "), summaries++)
        if (strncmp(s, "ERROR SUMMARY: 0 errors", 23) != 0)
            return true;
    return summaries == 0;
}

/* What `hetsim platform` says: the selected workers, the GPUs and the
 * smallest GPU memory, from which the cache fraction comes. */
static void setup(void)
{
    if (platform_args[0])
        return;
    char args[1200], *out, *err;
    snprintf(args, sizeof args, "platform %s", platform);
    int rc = hs_test_cli(args, &out, &err);
    if (rc)
        fprintf(stderr, "\n`hetsim %s` -> %d: %s\n", args, rc, err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    enum { OTHER, HOSTS, WORKERS } section = OTHER;
    double memsize = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] != ' ') {
            section = strcmp(line, "hosts:") == 0                ? HOSTS
                      : strcmp(line, "workers (selected):") == 0 ? WORKERS
                                                                 : OTHER;
            continue;
        }
        char name[64], kind[16];
        double m;
        const char *mem = strstr(line, "  memory ");
        if (section == WORKERS) {
            nworkers++;
        } else if (section == HOSTS && sscanf(line, "%63s %15s", name, kind) == 2 && strcmp(kind, "gpu") == 0) {
            ngpus++;
            if (mem && sscanf(mem, "  memory %lf B", &m) == 1 && (memsize == 0 || m < memsize))
                memsize = m;
        }
    }
    free(out), free(err);
    CU_ASSERT_FATAL(nworkers > 0);
    /* every shipped platform has GPUs with a memory size: without one the
     * runs would not exercise the GPU cache, and this test would be trivial */
    CU_ASSERT_FATAL(ngpus > 0 && memsize > CACHE_BYTES);
    snprintf(platform_args, sizeof platform_args, "-p %s --cache-fraction %.6g", platform,
             CACHE_BYTES / memsize);
}

/* Totals of the runs of one workload. */
struct totals {
    int runs, tasks;
    double evictions, writebacks, prefetches;
};

/* `hetsim run` of workload under policy: exit 0 and no report, every task
 * done (as many as the workload's other runs), audit counters at 0. */
static void run(const char *workload, const char *policy, struct totals *t)
{
    char args[2048], *rec = hs_test_tmp(".json"), *err;
    snprintf(args, sizeof args, "run -q %s -w %s -s %s -o %s", platform_args, workload, policy, rec);
    if (valgrind[0]) /* hs_test_cli runs $HETSIM_TEST_BIN */
        setenv("HETSIM_TEST_BIN", valgrind, 1);
    int rc = hs_test_cli(args, NULL, &err);
    if (valgrind[0])
        unsetenv("HETSIM_TEST_BIN");
    bool report = memory_report(err);
    if (rc || report) {
        size_t n = strlen(err);
        fprintf(stderr, "\n`hetsim %s` -> %d:\n%s\n", args, rc, n > 6000 ? err + n - 6000 : err);
    }
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(!report);
    free(err);
    char *text = hs_test_read_file(rec);
    cJSON *r = cJSON_Parse(text), *res = cJSON_GetObjectItem(r, "results");
    free(text);
    remove(rec), free(rec);
    if (rc || !res) {
        CU_ASSERT_PTR_NOT_NULL(res);
        cJSON_Delete(r);
        return;
    }
    int tasks = cJSON_GetObjectItem(res, "tasks")->valueint;
    CU_ASSERT(tasks > 0);
    if (t->runs && tasks != t->tasks)
        fprintf(stderr, "\n%s under %s: %d tasks done, %d under the other policies\n", workload, policy, tasks,
                t->tasks);
    CU_ASSERT(t->runs == 0 || tasks == t->tasks);
    const cJSON *audit = cJSON_GetObjectItem(res, "audit");
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(audit, "inputs_invalid_at_start")->valuedouble, 0);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(audit, "stale_transfers")->valuedouble, 0);
    t->runs++;
    t->tasks = tasks;
    t->evictions += cJSON_GetObjectItem(res, "evictions")->valuedouble;
    t->writebacks += cJSON_GetObjectItem(res, "writebacks")->valuedouble;
    t->prefetches += cJSON_GetObjectItem(res, "prefetches")->valuedouble;
    cJSON_Delete(r);
}

/* Every run of a workload evicted something, between them */
static void check_totals(const char *workload, const struct totals *t)
{
    if (t->evictions == 0)
        fprintf(stderr, "\n%s on %s: no eviction in %d runs\n", workload, platform, t->runs);
    CU_ASSERT(t->runs > 0);
    CU_ASSERT(t->evictions > 0);
}

/* The policy's workload: the DAG workload for a list of any DAG, the
 * product its dimension gives for Beaumont and Marchal's. */
static const char *workload_for(const char *policy, const char *dag_workload)
{
    int dim;
    enum hs_bm_kind kind;
    if (hs_bm_policy_kind(policy, &dim, &kind))
        return dim == 2 ? outer_workload : matmul_workload;
    return dag_workload;
}

static void every_policy_on(int i)
{
    setup();
    char workload[256];
    snprintf(workload, sizeof workload, dag_workloads[i], nworkers);
    struct totals t = {0};
    for (const struct hs_policy *const *p = hs_policies(); *p; p++)
        if (workload_for((*p)->name, workload) == workload)
            run(workload, (*p)->name, &t);
    run(workload, "heft:online=1", &t); /* XKaapi's online HEFT: other code than the plan's */
    run(workload, "dmda --gpus 1", &t); /* StarPU's file: glibc aborted there on the use-after-free */
    check_totals(workload, &t);
    /* StarPU's dmda prefetches every pushed task's inputs */
    CU_ASSERT(t.prefetches > 0);
    printf(" %d runs, %g evictions, %g write-backs, %g prefetches ", t.runs, t.evictions, t.writebacks,
           t.prefetches);
}

static void test_cholesky(void) { every_policy_on(0); }
static void test_lu(void) { every_policy_on(1); }
static void test_qr(void) { every_policy_on(2); }
static void test_gemm(void) { every_policy_on(3); }
static void test_daggen(void) { every_policy_on(4); }
static void test_random(void) { every_policy_on(5); }

static void test_products(void)
{
    setup();
    const char *const products[] = {outer_workload, matmul_workload};
    for (int d = 0; d < 2; d++) {
        struct totals t = {0};
        for (const struct hs_policy *const *p = hs_policies(); *p; p++)
            if (workload_for((*p)->name, NULL) == products[d])
                run(products[d], (*p)->name, &t);
        check_totals(products[d], &t);
        CU_ASSERT(t.prefetches > 0); /* the master sends blocks ahead (prefetches in pop) */
        printf(" %s: %d runs, %g evictions, %g prefetches ", products[d], t.runs, t.evictions, t.prefetches);
    }
}

/* Under valgrind, a few of the runs above: the runs that found the
 * use-after-free of xfer_done (dmda, StarPU's file), a list scheduler, work
 * stealing, a dual approximation and a product, on one platform each. */
static void test_valgrind(void)
{
    static const struct {
        const char *platform, *workload, *policy;
    } runs[] = {
        {HETSIM_SOURCE_DIR "/tests/data/starpu-idgraf.platform.v4.xml", "cholesky:n=4096,nb=256", "dmda"},
        {HETSIM_SOURCE_DIR "/tests/data/starpu-idgraf.platform.v4.xml", "cholesky:n=4096,nb=256", "dmda --gpus 1"},
        {"idgraf", "lu:n=3072,nb=256,ib=64", "heft"},
        {"mapuche", "qr:n=3072,nb=256,ib=64", "ws"},
        {"idgraf-numa", "gemm:n=2048,nb=256", "dada"},
        {"idgraf-pcie", "outer:n=16,l=65536", "dynamic-outer"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        platform = runs[i].platform;
        platform_args[0] = '\0';
        nworkers = ngpus = 0;
        setup();
        struct totals t = {0};
        run(runs[i].workload, runs[i].policy, &t);
        check_totals(runs[i].workload, &t);
    }
}

int main(int argc, char **argv)
{
    static const CU_TestInfo matrix[] = {
        {"Cholesky under every policy", test_cholesky},
        {"LU under every policy", test_lu},
        {"QR under every policy", test_qr},
        {"GEMM under every policy", test_gemm},
        {"a DAGGEN DAG under every policy", test_daggen},
        {"a random layered DAG under every policy", test_random},
        {"outer and matrix products under Beaumont and Marchal's policies", test_products},
        CU_TEST_INFO_NULL,
    };
    static const CU_TestInfo under_valgrind[] = {
        {"a few runs under valgrind", test_valgrind},
        CU_TEST_INFO_NULL,
    };
    if (argc == 3 && strcmp(argv[1], "--valgrind") == 0) {
        /* any error makes valgrind exit 97, not one of hetsim's codes; leaks
         * are LeakSanitizer's (the sanitizer build) */
        snprintf(valgrind, sizeof valgrind, "%s --error-exitcode=97 --leak-check=no %s", argv[2], HETSIM_BIN);
        return hs_test_main("memory under valgrind", under_valgrind);
    }
    if (argc != 2) {
        fprintf(stderr, "usage: %s PLATFORM (a shipped name or a platform file) | --valgrind VALGRIND\n", argv[0]);
        return 2;
    }
    platform = argv[1];
    return hs_test_main("memory", matrix);
}
