/* tests/cli/test_cmd_run.c — `hetsim run` (cli/cmd_run.c) end to end on DAG
 * files: a WfFormat fork-join, a DAGGEN DOT file and a hand-written hetsim
 * JSON file run on flat:4 under eager and dmda, makespans and bytes within
 * the bounds computed by hand from the files; a DOT file whose cost-free
 * tasks are numbered against their edges under every offline policy; two
 * cores sharing a memory link (issue 58). */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- hetsim run from files ------------------------------------------------- */

static cJSON *run_record(const char *workload, const char *policy)
{
    char *rec = hs_test_tmp(".json"), args[2048], *err;
    snprintf(args, sizeof args, "run -q -p flat:4 -w '%s' -s %s -o %s", workload, policy, rec);
    int rc = hs_test_cli(args, NULL, &err);
    if (rc)
        fprintf(stderr, "\n%s -> %d: %s", args, rc, err);
    CU_ASSERT_EQUAL(rc, 0);
    free(err);
    char *text = hs_test_read_file(rec);
    cJSON *r = cJSON_Parse(text);
    free(text);
    free(rec);
    return r;
}

static double result(const cJSON *r, const char *key)
{
    return cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), key)->valuedouble;
}

static void test_run_from_files(void)
{
    for (const char *const *pol = (const char *const[]){"eager", "dmda", NULL}; *pol; pol++) {
        /* the fork-join at 1 Gflop/s: critical path 2 + 5 + 1.5 s, at most the
         * sum 15.5 s; input.dat goes up once, every written file comes back */
        cJSON *r = run_record(hs_test_datafile("forkjoin-wf15.json"), *pol);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(result(r, "tasks"), 5);
        CU_ASSERT(result(r, "makespan") >= 8.5 && result(r, "makespan") <= 15.51);
        const cJSON *bytes = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "bytes");
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(bytes, "h2d")->valuedouble, 1000);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(bytes, "d2h")->valuedouble, 3 * 100 + 3 * 10 + 5);
        cJSON_Delete(r);
        /* DAGGEN: critical path 1 -> 3 -> 5 is 2 + 3 + 4 s, all tasks 10.5 s,
         * plus at most 22 MiB over 1 GB/s */
        r = run_record(hs_test_datafile("daggen-5.dot"), *pol);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(result(r, "tasks"), 5);
        CU_ASSERT(result(r, "makespan") >= 9 && result(r, "makespan") <= 10.53);
        cJSON_Delete(r);
    }
    /* hand-made JSON with 4 per-processor costs: chain a -> b -> c takes at
     * least 0.5 + 2 + 0.125 s and at most 2 + 2 + 3 s (plus microseconds) */
    char *path = hs_test_tmp(".json");
    hs_test_write_file(path, hs_test_handmade_json);
    cJSON *r = run_record(path, "dmda");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(result(r, "tasks"), 3);
    CU_ASSERT(result(r, "makespan") >= 2.625 && result(r, "makespan") <= 7.01);
    cJSON_Delete(r);
    free(path);
}

/* Issue 54: cost-free tasks numbered against their edges (`digraph g { b;
 * a; b -> a; }`, as Snakemake's and DVC's --dag files are) run under every
 * offline policy: both planned at 0 on one processor, whose order went by
 * task id (a first) and stalled. The makespan is 0 (no cost, no data). */
static void test_run_reversed_dot(void)
{
    char *dot = hs_test_tmp(".dot");
    hs_test_write_file(dot, "digraph g { b; a; b -> a; }\n");
    for (const char *const *pol = (const char *const[]){"heft", "cpop", "peft", "heftnc", "cluster", "dada", NULL};
         *pol; pol++) {
        char args[2048], *err = NULL;
        snprintf(args, sizeof args, "run -q -p flat:2 -w %s -s %s", dot, *pol);
        int rc = hs_test_cli(args, NULL, &err);
        if (rc)
            fprintf(stderr, "\n%s -> %d: %s", args, rc, err);
        CU_ASSERT_EQUAL(rc, 0);
        free(err);
    }
    free(dot);
}

/* Issue 58: a shared resource end to end, on platforms/socket-membw.xml
 * (cores CPU0 and CPU1 sharing one 10 GB/s memory link, no latency, no
 * runtime costs) and tests/data/memory-link-two.json: two 0.15 s kernels, t0 reading a (1e9 B moved), t1 reading
 * and writing b (5e8 B, moved twice: 1e9 B). By hand, a kernel lasts
 * max(its duration, its bytes / its share): on one core each runs alone,
 * max(0.15, 1e9 / 1e10) = 0.15 s, 0.30 s in all; on two they run at once at
 * 5 GB/s each, 1e9 / 5e9 = 0.2 s (0.15 s if the link were not shared). */
static void test_run_memory_link(void)
{
    const char *dag = hs_test_datafile("memory-link-two.json");
    const struct {
        const char *cpus;
        double makespan;
    } cases[] = {{"--cpus 1", 0.30}, {"", 0.2}};
    for (int i = 0; i < 2; i++) {
        char args[2048];
        snprintf(args, sizeof args, "-p socket-membw -w %s -s eager %s", dag, cases[i].cpus);
        cJSON *r = hs_test_run_record(args);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_DOUBLE_EQUAL(result(r, "makespan"), cases[i].makespan, 1e-12);
        cJSON_Delete(r);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"hetsim run from DAG files", test_run_from_files},
        {"cost-free tasks numbered against their edges, every offline policy", test_run_reversed_dot},
        {"a memory link shared by two cores (platforms/socket-membw.xml), by hand", test_run_memory_link},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_run", tests);
}
