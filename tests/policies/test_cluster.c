/* tests/policies/test_cluster.c — the cluster policy in the runtime: max=0 is the
 * plan of heft:insertion=0; with clusters, the plan that runs keeps every
 * cluster on one worker, no cluster above max, and (sync=1) no task of a
 * cluster starts before the clusters it depends on have finished; on a
 * contention-free platform the run ends no later than the plan (with
 * order=ready, tasks as they become ready, clusters and waits hold too);
 * the synchronisation tasks cost the runtime's per-task work (by hand);
 * Cholesky with move tasks on Idgraf runs cleanly and reproducibly; the
 * thesis' LU example has its 23 tasks and 30 edges, and the record's cluster
 * and cluster-edge counts are those of the clusters made; the command refuses bad
 * parameters and reports the literal update step's non-convex clusters; the
 * calibration study runs in its quick version. */
#include "policies/cluster.h"
#include "base/util.h"
#include "policies/registry.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static cJSON *simulate(const struct hs_run_config *cfg, const struct hs_dag *dag,
                       const struct hs_policy *policy, const char *spec)
{
    cJSON *r = hs_test_simulate(cfg, dag, policy, spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
    return r;
}

static double task_field(const cJSON *r, int t, const char *key)
{
    return cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "tasks"), t), key)->valuedouble;
}

static double result(const cJSON *r, const char *key)
{
    return cJSON_GetObjectItem(r, key)->valuedouble;
}

/* A random layered DAG whose edge costs are bytes on 1 B/s links. */
static struct hs_dag *random_dag(int seed, int p)
{
    char spec[128];
    snprintf(spec, sizeof spec, "random:v=60,p=%d,jump=3,ccr=0.5,bw=1,seed=%d", p, seed);
    struct hs_dag *dag = hs_workload_build(spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    return dag;
}

static void test_max0_is_heft(void)
{
    for (int seed = 1; seed <= 5; seed++) {
        int p = 2 + seed % 3;
        struct hs_dag *dag = random_dag(seed, p);
        struct hs_run_config cfg = hs_test_flat_config(p, NULL);
        cJSON *h = simulate(&cfg, dag, &hs_policy_heft, "heft:insertion=0");
        cJSON *c = simulate(&cfg, dag, &hs_policy_cluster, "cluster:max=0");
        CU_ASSERT_DOUBLE_EQUAL(result(c, "predicted"), result(h, "predicted"), 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(result(c, "makespan"), result(h, "makespan"), 1e-9);
        int moved = 0;
        for (int t = 0; t < dag->ntasks; t++)
            moved += task_field(c, t, "worker") != task_field(h, t, "worker");
        CU_ASSERT_EQUAL(moved, 0);
        cJSON_Delete(h);
        cJSON_Delete(c);
        hs_dag_free(dag);
    }
}

/* ---- the plan that runs, through a policy that records the clusters ------------ */

static char *cluster_file;

static int recording_init(struct hs_runtime *s)
{
    int rc = hs_policy_cluster.init(s);
    FILE *f = fopen(cluster_file, "w");
    for (int t = 0; rc == 0 && t < hs_sched_dag(s)->ntasks; t++)
        fprintf(f, "%d\n", hs_cluster_of(s, t));
    fclose(f);
    return rc;
}

static int *read_clusters(int n)
{
    char *text = hs_test_read_file(cluster_file), *save = NULL, *line = strtok_r(text, "\n", &save);
    int *cluster = hs_xmalloc((size_t)n * sizeof(int));
    for (int t = 0; t < n; t++, line = strtok_r(NULL, "\n", &save)) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        cluster[t] = atoi(line);
    }
    free(text);
    return cluster;
}

/* One worker per cluster, sizes, and the start of each cluster after the end
 * of every cluster it depends on. */
static void check_run(const struct hs_dag *dag, const cJSON *r, const int *cluster, int max)
{
    int n = dag->ntasks, ncl = 0;
    for (int t = 0; t < n; t++)
        ncl = cluster[t] + 1 > ncl ? cluster[t] + 1 : ncl;
    int *worker = hs_xmalloc((size_t)ncl * sizeof(int)), *size = hs_xcalloc((size_t)ncl, sizeof(int));
    double *first = hs_xmalloc((size_t)ncl * sizeof(double)), *last = hs_xcalloc((size_t)ncl, sizeof(double));
    for (int k = 0; k < ncl; k++) {
        worker[k] = -1;
        first[k] = INFINITY;
    }
    int split = 0, early = 0, oversize = 0;
    for (int t = 0; t < n; t++) {
        int k = cluster[t], w = (int)task_field(r, t, "worker");
        split += worker[k] >= 0 && worker[k] != w;
        worker[k] = w;
        oversize += ++size[k] > max;
        first[k] = fmin(first[k], task_field(r, t, "start"));
        last[k] = fmax(last[k], task_field(r, t, "end"));
    }
    for (int e = 0; e < dag->nedges; e++) {
        int a = cluster[dag->edges[e].src], b = cluster[dag->edges[e].dst];
        early += a != b && first[b] < last[a] - 1e-12;
    }
    CU_ASSERT_EQUAL(split, 0);
    CU_ASSERT_EQUAL(oversize, 0);
    CU_ASSERT_EQUAL(early, 0);
    free(worker), free(size), free(first), free(last);
}

static void test_plan_runs_as_clusters(void)
{
    struct hs_policy recording = hs_policy_cluster;
    recording.init = recording_init;
    cluster_file = hs_test_tmp(".txt");
    static const int sizes[] = {2, 5, 10};
    for (int seed = 1; seed <= 4; seed++) {
        int p = 2 + seed % 3;
        struct hs_dag *dag = random_dag(seed, p);
        struct hs_run_config cfg = hs_test_flat_config(p, NULL);
        for (int i = 0; i < 6; i++) {
            char spec[64];
            snprintf(spec, sizeof spec, "cluster:max=%d%s", sizes[i % 3], i < 3 ? "" : ",order=ready");
            cJSON *r = simulate(&cfg, dag, &recording, spec);
            int *cluster = read_clusters(dag->ntasks);
            check_run(dag, r, cluster, sizes[i % 3]);
            /* in planned order, transfers start when their producer ends: no later than planned */
            CU_ASSERT(i >= 3 || result(r, "makespan") <= result(r, "predicted") * (1 + 1e-9));
            free(cluster);
            cJSON_Delete(r);
        }
        hs_dag_free(dag);
    }
    free(cluster_file);
}

/* A shipped platform with a shipped timing table. */
static struct hs_run_config shipped(const char *platform, const char *perf)
{
    static char xml[512], table[512]; /* the configuration points at them */
    char file[64];
    snprintf(file, sizeof file, "%s.xml", platform);
    snprintf(xml, sizeof xml, "%s", hs_test_data(file));
    snprintf(table, sizeof table, "%s", hs_test_data(perf));
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = xml;
    cfg.perf_file = table;
    cfg.platform_name = platform;
    return cfg;
}

/* Cholesky with XKaapi's move tasks on Idgraf, 4 GPUs: every input valid
 * where its task ran, and the same seed gives the same run. */
static void test_cholesky_idgraf(void)
{
    struct hs_dag *dag = hs_workload_build("xkcholesky:n=1000,nb=50,precision=s");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    struct hs_run_config cfg = shipped("idgraf", "perf/idgraf.json");
    cfg.select.gpus = 4;
    struct hs_policy recording = hs_policy_cluster;
    recording.init = recording_init;
    cluster_file = hs_test_tmp(".txt");
    cJSON *a = simulate(&cfg, dag, &recording, "cluster:max=10");
    int *cluster = read_clusters(dag->ntasks);
    check_run(dag, a, cluster, 10);
    cJSON *b = simulate(&cfg, dag, &hs_policy_cluster, "cluster:max=10");
    CU_ASSERT_EQUAL(result(a, "audit"), 0);
    CU_ASSERT_EQUAL(result(a, "makespan"), result(b, "makespan"));
    free(cluster);
    free(cluster_file);
    cJSON_Delete(a);
    cJSON_Delete(b);
    hs_dag_free(dag);
}

/* The thesis' LU example (Beniamine 2013, §3.1.3, Fig. 3.3a): lunopiv with
 * NT = 3 and moves is 23 tasks (3 GETRF, 6 TRSM, 5 GEMM, 9 moves) and 30
 * edges (by hand: 12 for k = 0, 8 for k = 1, 1 for k = 2, and a move to the
 * first user of each of the 9 tiles). The record's clusters and
 * cluster_edges are the cluster graph's: counted here from the clusters the
 * policy made (distinct clusters; distinct pairs of clusters an edge of the
 * DAG crosses), over 5 seeds; with max=0 the tasks and edges themselves; no
 * such fields under heft. */
static double count(const cJSON *r, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(r, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static void test_lu_example_counts(void)
{
    struct hs_dag *dag = hs_workload_build("lunopiv:n=3,nb=1,moves=1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 23);
    CU_ASSERT_EQUAL(dag->nedges, 30);
    struct hs_run_config cfg = shipped("mapuche", "perf/mapuche-cal1.json");
    struct hs_policy recording = hs_policy_cluster;
    recording.init = recording_init;
    cluster_file = hs_test_tmp(".txt");
    for (unsigned long seed = 1; seed <= 5; seed++) {
        cfg.opts.seed = seed;
        cJSON *r = simulate(&cfg, dag, &recording, "cluster:max=5");
        int *cluster = read_clusters(dag->ntasks), distinct = 0, crossing = 0;
        bool *seen = hs_xcalloc((size_t)dag->ntasks * dag->ntasks, sizeof(bool));
        for (int t = 0; t < dag->ntasks; t++) {
            distinct += !seen[cluster[t]];
            seen[cluster[t]] = true;
        }
        memset(seen, 0, (size_t)dag->ntasks * dag->ntasks * sizeof(bool));
        for (int e = 0; e < dag->nedges; e++) {
            int a = cluster[dag->edges[e].src], b = cluster[dag->edges[e].dst];
            crossing += a != b && !seen[a * dag->ntasks + b];
            seen[a * dag->ntasks + b] = true;
        }
        CU_ASSERT_EQUAL(count(r, "clusters"), distinct);
        CU_ASSERT_EQUAL(count(r, "cluster_edges"), crossing);
        CU_ASSERT(distinct >= 5 && distinct < 23); /* at most 5 tasks each, some grouped */
        free(seen), free(cluster);
        cJSON_Delete(r);
    }
    cJSON *r = simulate(&cfg, dag, &hs_policy_cluster, "cluster:max=0");
    CU_ASSERT_EQUAL(count(r, "clusters"), 23);
    CU_ASSERT_EQUAL(count(r, "cluster_edges"), 30);
    cJSON_Delete(r);
    r = simulate(&cfg, dag, &hs_policy_heft, "heft");
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "clusters"));
    cJSON_Delete(r);
    free(cluster_file);
    hs_dag_free(dag);
}

/* Zero-cost move tasks make ties in the planned times: a move ordered before
 * a move of a cluster it depends on once stalled the run (seed 65071816 of
 * convex-mapuche, Mapuche with its calibrated table). Every run must finish. */
static void test_no_stall(void)
{
    struct hs_dag *dag = hs_workload_build("xkcholesky:n=400,nb=40,precision=s");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    struct hs_run_config cfg = shipped("mapuche", "perf/mapuche-cal1.json");
    int stalled = 0;
    for (int i = 0; i < 20; i++) {
        cfg.opts.seed = i == 0 ? 65071816 : (unsigned long)i;
        cJSON *r = hs_test_simulate(&cfg, dag, &hs_policy_cluster, i % 2 ? "cluster:max=20" : "cluster:max=10");
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        stalled += cJSON_GetObjectItem(r, "error") != NULL;
        cJSON_Delete(r);
    }
    CU_ASSERT_EQUAL(stalled, 0);
    hs_dag_free(dag);
}

static void test_cli(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p flat:4 -w xkcholesky:n=8,nb=1 -s cluster:max=-1", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "parameter max"));
    free(out), free(err);
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p flat:4 -w xkcholesky:n=8,nb=1 -s cluster:closure=bfs", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "closure"));
    free(out), free(err);
    /* the update step as the thesis writes it makes a non-convex cluster there:
     * the policy refuses the run, a usage error */
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p flat:4 -w xkcholesky:n=8,nb=1 -s cluster:update=single,max=5 "
                                "--seed 1 -o /dev/null", &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not convex"));
    free(out), free(err);
    CU_ASSERT_EQUAL(hs_test_cli("run -q -p flat:4 -w xkcholesky:n=8,nb=1 -s cluster:stats=1 -o /dev/null",
                                &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "156 tasks, 288 edges ->"));
    free(out), free(err);
}

/* The calibration study in its quick version: every run ends well and the
 * thesis' figures are printed beside ours. */
static void test_study_quick(void)
{
    long n;
    char *out = hs_test_quick_study("convex-idgraf-heft", &n);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "R13 (Fig. 3.11)"));
    CU_ASSERT_EQUAL(n, 16); /* 2 sizes x 2 GPU counts x 2 calibrations x 2 policies */
    free(out);
    out = hs_test_quick_study("convex-sync-overhead", &n);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "R4 (Fig. 3.6)"));
    CU_ASSERT_EQUAL(n, 8); /* 2 sizes x 2 policies x 2 costs */
    free(out);
    out = hs_test_quick_study("convex-idgraf-decide", &n);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "R17 (Fig. 3.13b)"));
    CU_ASSERT_EQUAL(n, 8); /* 1 size x 4 policies x 2 decision costs */
    free(out);
}

/* The synchronisation tasks cost what the runtime charges any task: a chain
 * a -> b of 1 s tasks on one processor, every task its own cluster (max=1),
 * with 10 us per task: a's entry task (10 us), then a (10 us + 1 s); b's
 * worker first runs a's exit task and b's entry task (20 us), then b (10 us
 * + 1 s); b's exit task has no task after it to charge. Without clusters
 * (max=0) or without synchronisation (sync=0): 2 x (10 us + 1 s). */
static void test_sync_tasks_cost(void)
{
    struct hs_dag *dag = hs_dag_new("chain");
    int a = hs_test_task(dag, "a", (const double[]){1}, 1), b = hs_test_task(dag, "b", (const double[]){1}, 1);
    hs_dag_add_edge(dag, a, b, 0);
    hs_dag_finalize(dag);
    struct hs_run_config cfg = hs_test_flat_config(1, NULL);
    cfg.opts.costs = (struct hs_costs){.task = {10e-6, 10e-6}};
    const char *specs[] = {"cluster:max=0", "cluster:max=1,sync=0", "cluster:max=1"};
    const double expect[] = {2 + 20e-6, 2 + 20e-6, 2 + 50e-6};
    for (int i = 0; i < 3; i++) {
        cJSON *r = simulate(&cfg, dag, &hs_policy_cluster, specs[i]);
        CU_ASSERT_DOUBLE_EQUAL(result(r, "makespan"), expect[i], 1e-12);
        cJSON_Delete(r);
    }
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"max=0 gives heft:insertion=0's plan", test_max0_is_heft},
        {"synchronisation tasks cost two empty tasks per cluster (by hand)", test_sync_tasks_cost},
        {"clusters run on one worker, in order, after their predecessors", test_plan_runs_as_clusters},
        {"Cholesky with moves on Idgraf", test_cholesky_idgraf},
        {"the thesis' LU example: 23 tasks, 30 edges; the cluster graph's size", test_lu_example_counts},
        {"ties of zero-cost tasks never stall a run", test_no_stall},
        {"command: bad parameters, single update, stats", test_cli},
        {"reproduce convex-idgraf-heft, convex-sync-overhead and convex-idgraf-decide --quick", test_study_quick},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cluster", tests);
}
