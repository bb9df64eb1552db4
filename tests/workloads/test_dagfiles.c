/* tests/workloads/test_dagfiles.c — DAG files: a hand-written hetsim JSON file
 * read and written back to the same bytes, JSON and DOT round trips of the
 * Cholesky DAG, a hand-written DAGGEN DOT file through hetsim's DOT, the
 * WfFormat 1.4 and 1.5 versions of a hand-written 1→3→1 fork-join with the
 * counts and sizes of its structure, and `hetsim run` on flat:4 from files. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *data(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/tests/data/%s", HETSIM_SOURCE_DIR, name);
    return buf;
}

/* The DAG as the writer of that format prints it (caller frees). */
static char *written(const struct hs_dag *dag, bool dot)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CU_ASSERT_EQUAL(dot ? hs_dag_write_dot(dag, f) : hs_dag_write_json(dag, f), 0);
    fclose(f);
    return text;
}

/* Write the DAG to a temporary file and build it back from the path. */
static struct hs_dag *reread(const struct hs_dag *dag, bool dot)
{
    char *path = hs_test_tmp(dot ? ".dot" : ".json"), *text = written(dag, dot);
    hs_test_write_file(path, text);
    struct hs_dag *back = hs_workload_build(path);
    if (!back)
        fprintf(stderr, "\n%s\n", hs_last_error());
    free(text);
    free(path);
    return back;
}

static const struct hs_edge *find_edge(const struct hs_dag *dag, int src, int dst)
{
    for (int e = 0; e < dag->nedges; e++)
        if (dag->edges[e].src == src && dag->edges[e].dst == dst)
            return &dag->edges[e];
    return NULL;
}

static double edge_bytes(const struct hs_dag *dag, int src, int dst)
{
    const struct hs_edge *e = find_edge(dag, src, dst);
    return e ? e->bytes : -1;
}

static const char *extra(const struct hs_task *t, const char *key)
{
    for (char **x = t->extra; x && *x; x += 2)
        if (strcmp(x[0], key) == 0)
            return x[1];
    return NULL;
}

/* ---- hetsim JSON ------------------------------------------------------------ */

/* Written by hand in the writer's layout. Dependencies by hand: a writes x;
 * b reads x (RAW a->b, 1000 B); c's RW on x gives WAR b->c (0) and RAW a->c
 * (1000), plus the explicit edges a->c (64) and b->c (32): a->c 1064, b->c 32. */
static const char handmade[] =
    "{\n"
    "  \"name\": \"handmade\",\n"
    "  \"total_flops\": 600,\n"
    "  \"handles\": [\n"
    "    {\"name\":\"x\",\"bytes\":1000},\n"
    "    {\"name\":\"y\",\"bytes\":2000}\n"
    "  ],\n"
    "  \"tasks\": [\n"
    "    {\"label\":\"a\",\"kernel\":\"k1\",\"flops\":100,\"footprint\":0,\"accesses\":[{\"handle\":0,"
    "\"mode\":\"W\"}],\"costs\":[1,2,null,0.5]},\n"
    "    {\"label\":\"b\",\"kernel\":\"k1\",\"flops\":200,\"footprint\":0,\"accesses\":[{\"handle\":0,"
    "\"mode\":\"R\"},{\"handle\":1,\"mode\":\"RW\"}],\"costs\":[2,2,2,2],\"archs\":[\"cpu\"]},\n"
    "    {\"label\":\"c\",\"kernel\":\"k2\",\"flops\":300,\"footprint\":16,\"accesses\":[{\"handle\":0,"
    "\"mode\":\"RW\"}],\"costs\":[3,1.25,3,0.125],\"attrs\":{\"alpha\":\"0.5\"}}\n"
    "  ],\n"
    "  \"edges\": [\n"
    "    {\"src\":0,\"dst\":2,\"bytes\":64},\n"
    "    {\"src\":1,\"dst\":2,\"bytes\":32}\n"
    "  ],\n"
    "  \"dependencies\": [\n"
    "    {\"src\":0,\"dst\":1,\"bytes\":1000},\n"
    "    {\"src\":0,\"dst\":2,\"bytes\":1064},\n"
    "    {\"src\":1,\"dst\":2,\"bytes\":32}\n"
    "  ]\n"
    "}\n";

static struct hs_dag *handmade_dag(void)
{
    char *path = hs_test_tmp(".json");
    hs_test_write_file(path, handmade);
    struct hs_dag *dag = hs_workload_build(path);
    if (!dag)
        fprintf(stderr, "\n%s\n", hs_last_error());
    free(path);
    return dag;
}

static void check_handmade(const struct hs_dag *dag, bool with_handles)
{
    CU_ASSERT_STRING_EQUAL(dag->name, "handmade");
    CU_ASSERT_EQUAL_FATAL(dag->ntasks, 3);
    CU_ASSERT_EQUAL(dag->nedges, 3);
    CU_ASSERT_EQUAL(edge_bytes(dag, 0, 1), 1000);
    CU_ASSERT_EQUAL(edge_bytes(dag, 0, 2), 1064);
    CU_ASSERT_EQUAL(edge_bytes(dag, 1, 2), 32);
    CU_ASSERT_EQUAL(dag->total_flops, 600);
    CU_ASSERT_EQUAL(dag->nproc_costs, 4);
    CU_ASSERT(isinf(dag->tasks[0].proc_cost[2]));
    CU_ASSERT_EQUAL(dag->tasks[0].proc_cost[3], 0.5);
    CU_ASSERT_EQUAL(dag->tasks[2].proc_cost[1], 1.25);
    CU_ASSERT_EQUAL(dag->tasks[1].arch_mask, HS_ARCH_BIT(HS_ARCH_CPU));
    CU_ASSERT_EQUAL(dag->tasks[0].arch_mask, HS_ARCHMASK_ALL);
    CU_ASSERT_EQUAL(dag->tasks[2].footprint, 16);
    CU_ASSERT_STRING_EQUAL(dag->kernels[dag->tasks[2].kernel], "k2");
    CU_ASSERT_STRING_EQUAL(dag->tasks[1].label, "b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(extra(&dag->tasks[2], "alpha"));
    CU_ASSERT_STRING_EQUAL(extra(&dag->tasks[2], "alpha"), "0.5");
    CU_ASSERT_PTR_NULL(extra(&dag->tasks[0], "alpha"));
    /* x, y and the two private handles of the explicit edges */
    if (with_handles)
        CU_ASSERT_EQUAL(dag->nhandles, 4);
}

static void test_json_handmade_same_bytes(void)
{
    struct hs_dag *dag = handmade_dag();
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    check_handmade(dag, true);
    char *text = written(dag, false);
    CU_ASSERT_STRING_EQUAL(text, handmade);
    free(text);
    hs_dag_free(dag);
}

static void round_trip(const char *spec, bool dot)
{
    struct hs_dag *dag = hs_workload_build(spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    struct hs_dag *back = reread(dag, dot);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    CU_ASSERT_EQUAL(back->ntasks, dag->ntasks);
    CU_ASSERT_EQUAL(back->nedges, dag->nedges);
    CU_ASSERT_STRING_EQUAL(back->name, dag->name);
    CU_ASSERT_EQUAL(back->total_flops, dag->total_flops);
    int same = 0;
    for (int e = 0; e < dag->nedges; e++) {
        const struct hs_edge *x = &dag->edges[e], *y = &back->edges[e];
        same += x->src == y->src && x->dst == y->dst && x->bytes == y->bytes;
    }
    CU_ASSERT_EQUAL(same, dag->nedges);
    for (int t = 0; t < dag->ntasks; t++) {
        CU_ASSERT_EQUAL(back->tasks[t].flops, dag->tasks[t].flops);
        CU_ASSERT_EQUAL(back->tasks[t].footprint, dag->tasks[t].footprint);
        CU_ASSERT_STRING_EQUAL(back->tasks[t].label, dag->tasks[t].label);
        CU_ASSERT_STRING_EQUAL(back->kernels[back->tasks[t].kernel], dag->kernels[dag->tasks[t].kernel]);
    }
    if (!dot) /* the data-flow is kept: the same handles, renamed versions included */
        CU_ASSERT_EQUAL(back->nhandles, dag->nhandles);
    char *a = written(dag, dot), *b = written(back, dot);
    CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
    hs_dag_free(back);
    hs_dag_free(dag);
}

static void test_round_trips(void)
{
    /* 4x4 tiles: 4 + 6 + 6 + 4 = 20 tasks */
    round_trip("cholesky:n=2048,nb=512", false);
    round_trip("cholesky:n=2048,nb=512", true);
    round_trip("gemm:n=2048,m=1024,k=3072,nb=1024,precision=s", false);
    /* the hand-made DAG through DOT: costs, archs, footprint, kept attributes */
    struct hs_dag *dag = handmade_dag();
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    struct hs_dag *back = reread(dag, true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    check_handmade(back, false);
    CU_ASSERT_EQUAL(back->nhandles, 3); /* one private handle per dependency */
    char *a = written(dag, true), *b = written(back, true);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_PTR_NOT_NULL(strstr(a, "costs=\"1,2,inf,0.5\""));
    free(a);
    free(b);
    hs_dag_free(back);
    hs_dag_free(dag);
}

/* ---- DAGGEN DOT ----------------------------------------------------------- */

/* daggen-5.dot: nodes 1..5 with size = flops and alpha, edges 1->3, 1->4
 * (8 MiB), 2->4 (4 MiB), 3->5 (1 MiB), 4->5 (2 MiB); node 4 appears in an edge
 * before node 2 is declared. */
static void check_daggen(const struct hs_dag *dag)
{
    static const double flops[] = {2e9, 1e9, 3e9, 5e8, 4e9};
    static const char *const alpha[] = {"0.05", "0.10", "0.00", "0.20", "0.15"};
    CU_ASSERT_EQUAL_FATAL(dag->ntasks, 5);
    for (int t = 0; t < 5; t++) {
        char label[8];
        snprintf(label, sizeof label, "%d", t + 1);
        CU_ASSERT_STRING_EQUAL(dag->tasks[t].label, label);
        CU_ASSERT_EQUAL(dag->tasks[t].flops, flops[t]);
        CU_ASSERT_STRING_EQUAL(dag->kernels[dag->tasks[t].kernel], "task");
        CU_ASSERT_PTR_NOT_NULL_FATAL(extra(&dag->tasks[t], "alpha"));
        CU_ASSERT_STRING_EQUAL(extra(&dag->tasks[t], "alpha"), alpha[t]);
    }
    CU_ASSERT_EQUAL(dag->nedges, 5);
    CU_ASSERT_EQUAL(edge_bytes(dag, 0, 2), 8388608);
    CU_ASSERT_EQUAL(edge_bytes(dag, 0, 3), 8388608);
    CU_ASSERT_EQUAL(edge_bytes(dag, 1, 3), 4194304);
    CU_ASSERT_EQUAL(edge_bytes(dag, 2, 4), 1048576);
    CU_ASSERT_EQUAL(edge_bytes(dag, 3, 4), 2097152);
    CU_ASSERT_EQUAL(dag->topo[0] <= 1, 1);
    CU_ASSERT_EQUAL(dag->topo[4], 4);
}

static void test_daggen_dot(void)
{
    struct hs_dag *dag = hs_workload_build(data("daggen-5.dot"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "G");
    check_daggen(dag);
    struct hs_dag *back = reread(dag, true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    check_daggen(back);
    char *a = written(dag, true), *b = written(back, true);
    CU_ASSERT_STRING_EQUAL(a, b); /* hetsim's DOT is read back as written */
    free(a);
    free(b);
    hs_dag_free(back);
    /* the same through JSON, alpha kept in "attrs" */
    back = reread(dag, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    check_daggen(back);
    hs_dag_free(back);
    hs_dag_free(dag);
}

/* ---- WfFormat --------------------------------------------------------------- */

static int task_labelled(const struct hs_dag *dag, const char *label)
{
    for (int t = 0; t < dag->ntasks; t++)
        if (strcmp(dag->tasks[t].label, label) == 0)
            return t;
    return -1;
}

/* split (2 s) reads input.dat (1000 B) and writes part_1..3 (100 B each);
 * work_i (3, 4, 5 s) reads part_i and writes out_i (10 B); merge (1.5 s) reads
 * out_1..3 and writes result.dat (5 B), and lists split as a parent without a
 * shared file: 7 dependencies, 8 file handles and 1 private handle. */
static void check_forkjoin(const char *spec, const char *const *labels, double speed)
{
    struct hs_dag *dag = hs_workload_build(spec);
    if (!dag)
        fprintf(stderr, "\n%s\n", hs_last_error());
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "forkjoin-1-3-1");
    CU_ASSERT_EQUAL_FATAL(dag->ntasks, 5);
    int id[5];
    for (int i = 0; i < 5; i++) {
        id[i] = task_labelled(dag, labels[i]);
        CU_ASSERT_FATAL(id[i] >= 0);
    }
    CU_ASSERT_EQUAL(id[0], 0); /* writers before readers */
    CU_ASSERT_EQUAL(id[4], 4);
    static const double runtime[] = {2, 3, 4, 5, 1.5};
    static const char *const kernel[] = {"split", "work", "work", "work", "merge"};
    for (int i = 0; i < 5; i++) {
        CU_ASSERT_DOUBLE_EQUAL(dag->tasks[id[i]].flops, runtime[i] * speed, 1e-6);
        CU_ASSERT_STRING_EQUAL(dag->kernels[dag->tasks[id[i]].kernel], kernel[i]);
    }
    CU_ASSERT_EQUAL(dag->nedges, 7);
    for (int w = 1; w <= 3; w++) {
        CU_ASSERT_EQUAL(edge_bytes(dag, id[0], id[w]), 100);
        CU_ASSERT_EQUAL(edge_bytes(dag, id[w], id[4]), 10);
    }
    CU_ASSERT_EQUAL(edge_bytes(dag, id[0], id[4]), 0);
    int files = 0, temporary = 0;
    double bytes = 0;
    for (int h = 0; h < dag->nhandles; h++) {
        files += !dag->handles[h].temporary;
        temporary += dag->handles[h].temporary;
        bytes += dag->handles[h].temporary ? 0 : dag->handles[h].bytes;
    }
    CU_ASSERT_EQUAL(files, 8);
    CU_ASSERT_EQUAL(temporary, 1);
    CU_ASSERT_EQUAL(bytes, 1000 + 3 * 100 + 3 * 10 + 5);
    /* input.dat is read by split and written by nobody */
    int in = dag->tasks[id[0]].access[0].handle;
    CU_ASSERT_STRING_EQUAL(dag->handles[in].name, "input.dat");
    CU_ASSERT_EQUAL(dag->tasks[id[0]].access[0].mode, HS_MODE_R);
    hs_dag_free(dag);
}

static void test_wfformat(void)
{
    static const char *const v14[] = {"split_ID0000001", "work_ID0000002", "work_ID0000003",
                                      "work_ID0000004", "merge_ID0000005"};
    static const char *const v15[] = {"split_1", "work_2", "work_3", "work_4", "merge_5"};
    char spec[1200];
    check_forkjoin(data("forkjoin-wf14.json"), v14, 1e9); /* by extension, detected by keys */
    snprintf(spec, sizeof spec, "wfformat:file=%s,speed=2G", data("forkjoin-wf14.json"));
    check_forkjoin(spec, v14, 2e9);
    snprintf(spec, sizeof spec, "wfformat:%s", data("forkjoin-wf15.json"));
    check_forkjoin(spec, v15, 1e9); /* listed merge first: reordered */
}

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
        cJSON *r = run_record(data("forkjoin-wf15.json"), *pol);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(result(r, "tasks"), 5);
        CU_ASSERT(result(r, "makespan") >= 8.5 && result(r, "makespan") <= 15.51);
        const cJSON *bytes = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "bytes");
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(bytes, "h2d")->valuedouble, 1000);
        CU_ASSERT_EQUAL(cJSON_GetObjectItem(bytes, "d2h")->valuedouble, 3 * 100 + 3 * 10 + 5);
        cJSON_Delete(r);
        /* DAGGEN: critical path 1 -> 3 -> 5 is 2 + 3 + 4 s, all tasks 10.5 s,
         * plus at most 22 MiB over 1 GB/s */
        r = run_record(data("daggen-5.dot"), *pol);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(result(r, "tasks"), 5);
        CU_ASSERT(result(r, "makespan") >= 9 && result(r, "makespan") <= 10.53);
        cJSON_Delete(r);
    }
    /* hand-made JSON with 4 per-processor costs: chain a -> b -> c takes at
     * least 0.5 + 2 + 0.125 s and at most 2 + 2 + 3 s (plus microseconds) */
    char *path = hs_test_tmp(".json");
    hs_test_write_file(path, handmade);
    cJSON *r = run_record(path, "dmda");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(result(r, "tasks"), 3);
    CU_ASSERT(result(r, "makespan") >= 2.625 && result(r, "makespan") <= 7.01);
    cJSON_Delete(r);
    free(path);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"hand-made JSON read and written to the same bytes", test_json_handmade_same_bytes},
        {"JSON and DOT round trips", test_round_trips},
        {"DAGGEN DOT file", test_daggen_dot},
        {"WfFormat 1.4 and 1.5 fork-join", test_wfformat},
        {"hetsim run from DAG files", test_run_from_files},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dagfiles", tests);
}
