/* tests/cli/test_robust.c — odd but valid input runs, and says what it
 * does: a WfFormat instance without a single dependency (it once gave an
 * UndefinedBehaviorSanitizer report), `-s none` stopping after building the
 * DAG (how a user checks a DAG file), a platform file without a timing table
 * warning that kernels are timed by rates, StarPU's hosts that hetsim
 * ignores (OpenCL views, disks) listed but not checked; a policy without
 * push (only pop is required) runs to the end (it once crashed); StarPU's
 * own Idgraf file without a timing table under dmda, whose prefetches add
 * transfers while one completes (a use-after-free in datamove.c once: a
 * segfault at every run); offline plans (heft, peft, heftnc, cluster) on
 * GPUs whose cache holds a task's data but not two tasks' run to the end
 * (a later task of a GPU's order took the room the earlier one waited for,
 * and waited for it in turn: 'simulation stalled'). */
#include "sim/policy.h"
#include "base/util.h"
#include "sim/sched.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_wfformat_without_dependencies(void)
{
    char *path = hs_test_tmp(".json"), args[1024], *out, *err;
    hs_test_write_file(path, "{\"name\": \"nodeps\", \"schemaVersion\": \"1.4\", \"workflow\": {\"tasks\": ["
                             "{\"name\": \"a\", \"runtimeInSeconds\": 1}, {\"name\": \"b\", \"runtimeInSeconds\": 2}]}}");
    snprintf(args, sizeof args, "dag %s --stats", path);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "tasks: 2\nedges: 0\n"));
    CU_ASSERT_STRING_EQUAL(err, "");
    free(out), free(err);
    /* two tasks of 1 s and 2 s on two 1 Gflop/s processors: 2 s */
    snprintf(args, sizeof args, "-p flat:2 -w %s -s heft", path);
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "results"), "makespan")->valuedouble,
                           2, 1e-9);
    cJSON_Delete(rec);
    remove(path), free(path);
}

static void test_policy_none(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL(hs_test_cli("run -w " HETSIM_SOURCE_DIR "/tests/data/daggen-5.dot -s none", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, ": 5 tasks, 5 dependencies, 5 data (-s none: built, not run)"));
    CU_ASSERT_STRING_EQUAL(err, "");
    free(out), free(err);
    CU_ASSERT_EQUAL(hs_test_cli("run -q -w cholesky:n=2048,nb=512 -s none", &out, &err), 0);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out), free(err);
}

static void test_platform_file_without_table(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p " HETSIM_SOURCE_DIR "/platforms/mapuche.xml "
                                "-w cholesky:n=1024,nb=512,precision=s", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "has no timing table: kernels such as spotrf last flops / host "
                                       "speed (name a table with --perf)"));
    free(out), free(err);
    /* with a table named, or the shipped name (its table), no warning */
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p " HETSIM_SOURCE_DIR "/platforms/mapuche.xml --perf mapuche "
                                "-w cholesky:n=1024,nb=512,precision=s", &out, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    free(out), free(err);
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p mapuche -w cholesky:n=1024,nb=512,precision=s", &out, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    free(out), free(err);
}

/* OpenCL0 (beside CUDA0) and DISK0 are ignored: properties hetsim would
 * refuse on a worker (a memsize in StarPU's OpenCL units, a copy_engines
 * it does not know) must not stop the platform. */
static void test_ignored_hosts_unchecked(void)
{
    char *pf = hs_test_tmp(".xml"), args[1024], *out, *err;
    hs_test_write_file(pf, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                           "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
                           "<host id=\"CPU0\" speed=\"1Gf\"/><host id=\"CPU1\" speed=\"1Gf\"/>\n"
                           "<host id=\"CUDA0\" speed=\"10Gf\"><prop id=\"memsize\" value=\"1e9\"/></host>\n"
                           "<host id=\"OpenCL0\" speed=\"0f\"><prop id=\"memsize\" value=\"12G\"/>"
                           "<prop id=\"copy_engines\" value=\"x\"/></host>\n"
                           "<host id=\"DISK0\" speed=\"0f\"><prop id=\"switch\" value=\"-7\"/></host>\n"
                           "<host id=\"RAM\" speed=\"1f\"/>\n"
                           "<link id=\"pcie\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
                           "<route src=\"RAM\" dst=\"CUDA0\"><link_ctn id=\"pcie\"/></route>\n"
                           "</zone></platform>\n");
    snprintf(args, sizeof args, "platform %s", pf);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "note: host OpenCL0 is ignored: StarPU's OpenCL view"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "note: host DISK0 is ignored: disks are not modelled"));
    CU_ASSERT_STRING_EQUAL(err, "");
    free(out), free(err);
    remove(pf), free(pf);
}

/* A policy with pop and done only: it hands out tasks in topological order,
 * each once every predecessor is done (it follows readiness in done). */
struct pop_only {
    bool *done, *taken;
};

static int pop_only_init(struct hs_runtime *s)
{
    struct pop_only *p = hs_xcalloc(1, sizeof *p);
    int n = hs_sched_dag(s)->ntasks;
    p->done = hs_xcalloc((size_t)n, sizeof(bool));
    p->taken = hs_xcalloc((size_t)n, sizeof(bool));
    hs_sched_set_data(s, p);
    return 0;
}

static struct hs_task *pop_only_pop(struct hs_runtime *s, int w)
{
    struct pop_only *p = hs_sched_data(s);
    const struct hs_dag *dag = hs_sched_dag(s);
    for (int i = 0; i < dag->ntasks; i++) {
        struct hs_task *t = &dag->tasks[dag->topo[i]];
        bool ready = !p->taken[t->id] && hs_sched_can_run(s, t, w);
        for (int e = 0; ready && e < t->npred; e++)
            ready = p->done[dag->edges[t->pred[e]].src];
        if (ready) {
            p->taken[t->id] = true;
            return t;
        }
    }
    return NULL;
}

static void pop_only_done(struct hs_runtime *s, struct hs_task *t, int w)
{
    (void)w;
    ((struct pop_only *)hs_sched_data(s))->done[t->id] = true;
}

static void pop_only_fini(struct hs_runtime *s)
{
    struct pop_only *p = hs_sched_data(s);
    free(p->done);
    free(p->taken);
    free(p);
}

static void test_policy_without_push(void)
{
    static const struct hs_policy pop_only = {.name = "pop-only", .init = pop_only_init, .pop = pop_only_pop,
                                              .done = pop_only_done, .fini = pop_only_fini};
    struct hs_dag *dag = hs_workload_build("cholesky:n=40,nb=10"); /* 4 + 6 + 6 + 4 tasks */
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = hs_test_data("mapuche.xml");
    cfg.platform_name = "mapuche";
    cJSON *r = hs_test_simulate(&cfg, dag, &pop_only, "pop-only");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r); /* NULL: the run crashed */
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(r, "tasks")), 20);
    CU_ASSERT(cJSON_GetObjectItem(r, "makespan")->valuedouble > 0);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

static void test_transfers_added_while_one_completes(void)
{
    const char *gpus[] = {"", "--gpus 1"};
    for (int i = 0; i < 2; i++) {
        char args[2048], *out = hs_test_tmp(".json");
        snprintf(args, sizeof args, "run -q -p %s -w cholesky:n=8192,nb=512 -s dmda %s -o %s",
                 hs_test_datafile("starpu-idgraf.platform.v4.xml"), gpus[i], out);
        CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
        char *text = hs_test_read_file(out);
        cJSON *r = cJSON_Parse(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "tasks")->valueint,
                        816); /* 16 tiles: 16 + 2 × 120 + 560 */
        cJSON_Delete(r);
        free(text);
        remove(out);
        free(out);
    }
}

static void test_offline_plans_small_caches(void)
{
    static const struct {
        const char *platform, *fraction, *workload, *policy;
        int tasks;
    } runs[] = {
        {"idgraf", "0.0026", "daggen:n=80,mindata=128,maxdata=512", "heft", 80},
        {"mapuche", "0.015625", "random:v=80,p=4,bw=10k", "heft", 81}, /* with its root */
        {"idgraf", "0.004", "daggen:n=80,mindata=128,maxdata=512", "peft", 80},
        {"idgraf", "0.0026", "daggen:n=80,mindata=128,maxdata=512", "heftnc", 80},
        {"idgraf", "0.004", "daggen:n=80,mindata=128,maxdata=512", "cluster", 80},
        {"idgraf", "0.015625", "daggen:n=60,mindata=256,maxdata=1024,fat=0.8", "heft", 60},
        {"idgraf", "0.03", "daggen:n=60,mindata=256,maxdata=1024,fat=0.8", "heftnc", 60},
        {"mapuche", "0.008", "daggen:n=80,mindata=128,maxdata=512", "heft", 80},
        {"mapuche", "0.004", "random:v=80,p=4,bw=10k", "peft", 81},
        {"mapuche", "0.015625", "random:v=80,p=4,bw=10k", "cluster", 81},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, "-p %s --cache-fraction %s -w %s -s %s", runs[i].platform,
                 runs[i].fraction, runs[i].workload, runs[i].policy);
        cJSON *rec = hs_test_run_record(args); /* asserts exit 0: every task done */
        if (!rec)
            continue; /* the failed run's stderr is printed */
        cJSON *results = cJSON_GetObjectItem(rec, "results");
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(results, "tasks")->valueint, runs[i].tasks);
        CU_ASSERT(cJSON_GetObjectItem(results, "evictions")->valueint > 0); /* the cache was small */
        cJSON_Delete(rec);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"a WfFormat instance without dependencies", test_wfformat_without_dependencies},
        {"-s none builds the DAG and stops", test_policy_none},
        {"a platform file without a timing table: a warning", test_platform_file_without_table},
        {"StarPU's ignored hosts are not checked", test_ignored_hosts_unchecked},
        {"a policy without push runs to the end", test_policy_without_push},
        {"StarPU's Idgraf under dmda: transfers added while one completes", test_transfers_added_while_one_completes},
        {"offline plans on small GPU caches run to the end", test_offline_plans_small_caches},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("robust", tests);
}
