/* tests/support/testing_dag.c — DAGs and DAG files for the tests: a DAG read
 * from a file of tests/data/, written by a writer and read back, its edges
 * and kept attributes looked up, bad files given to the command, and the
 * hand-written hetsim JSON DAG that the readers', writers' and command's
 * tests share. */
#include "base/buf.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hs_dag *hs_test_build_file(const char *fmt, const char *file)
{
    char spec[1200];
    snprintf(spec, sizeof spec, fmt, hs_test_datafile(file));
    struct hs_dag *dag = hs_workload_build(spec);
    if (!dag)
        fprintf(stderr, "\n%s: %s\n", spec, hs_last_error());
    return dag;
}

struct hs_dag *hs_test_build_seeded(const char *fmt, int seed)
{
    char spec[512];
    snprintf(spec, sizeof spec, fmt, seed);
    struct hs_dag *dag = hs_workload_build(spec);
    if (!dag)
        fprintf(stderr, "\n%s: %s\n", spec, hs_last_error());
    return dag;
}

double hs_test_run_makespan(const char *args)
{
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    double m = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "makespan")->valuedouble;
    cJSON_Delete(r);
    return m;
}

void hs_test_bad_workload_file(const char *workload, const char *text, const char *expect)
{
    char *path = hs_test_tmp(".in"), args[1024];
    hs_test_write_file(path, text);
    snprintf(args, sizeof args, "dag %s%sfile=%s -o /dev/null", workload,
             strchr(workload, ':') ? "," : ":", path);
    hs_test_bad_cli(args, expect);
    free(path);
}

void hs_test_bad_dag_file(const char *suffix, const char *text, const char *expect)
{
    char *path = hs_test_tmp(suffix), args[1024];
    hs_test_write_file(path, text);
    snprintf(args, sizeof args, "dag %s -o /dev/null", path);
    hs_test_bad_cli(args, expect);
    snprintf(args, sizeof args, "run -q -p flat:2 -w %s", path);
    hs_test_bad_cli(args, expect);
    free(path);
}

char *hs_test_dag_text(const struct hs_dag *dag, bool dot)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CU_ASSERT_EQUAL(dot ? hs_dag_write_dot(dag, f) : hs_dag_write_json(dag, f), 0);
    fclose(f);
    return text;
}

struct hs_dag *hs_test_dag_reread(const struct hs_dag *dag, bool dot)
{
    char *path = hs_test_tmp(dot ? ".dot" : ".json"), *text = hs_test_dag_text(dag, dot);
    hs_test_write_file(path, text);
    struct hs_dag *back = hs_workload_build(path);
    if (!back)
        fprintf(stderr, "\n%s\n", hs_last_error());
    free(text);
    free(path);
    return back;
}

double hs_test_edge_bytes(const struct hs_dag *dag, int src, int dst)
{
    for (int e = 0; e < dag->nedges; e++)
        if (dag->edges[e].src == src && dag->edges[e].dst == dst)
            return dag->edges[e].bytes;
    return -1;
}

const char *hs_test_extra(const struct hs_task *t, const char *key)
{
    for (char **x = t->extra; x && *x; x += 2)
        if (strcmp(x[0], key) == 0)
            return x[1];
    return NULL;
}

/* Written by hand in the writer's layout. Dependencies by hand: a writes x;
 * b reads x (RAW a->b, 1000 B); c's RW on x gives WAR b->c (0) and RAW a->c
 * (1000), plus the explicit edges a->c (64) and b->c (32): a->c 1064, b->c 32. */
const char hs_test_handmade_json[] =
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

struct hs_dag *hs_test_handmade_dag(void)
{
    char *path = hs_test_tmp(".json");
    hs_test_write_file(path, hs_test_handmade_json);
    struct hs_dag *dag = hs_workload_build(path);
    if (!dag)
        fprintf(stderr, "\n%s\n", hs_last_error());
    free(path);
    return dag;
}

void hs_test_check_handmade(const struct hs_dag *dag, bool with_handles)
{
    CU_ASSERT_STRING_EQUAL(dag->name, "handmade");
    CU_ASSERT_EQUAL_FATAL(dag->ntasks, 3);
    CU_ASSERT_EQUAL(dag->nedges, 3);
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, 0, 1), 1000);
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, 0, 2), 1064);
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, 1, 2), 32);
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
    CU_ASSERT_PTR_NOT_NULL_FATAL(hs_test_extra(&dag->tasks[2], "alpha"));
    CU_ASSERT_STRING_EQUAL(hs_test_extra(&dag->tasks[2], "alpha"), "0.5");
    CU_ASSERT_PTR_NULL(hs_test_extra(&dag->tasks[0], "alpha"));
    /* x, y and the two private handles of the explicit edges */
    if (with_handles)
        CU_ASSERT_EQUAL(dag->nhandles, 4);
}

/* "X" repeated n times (caller frees). */
char *hs_test_repeat(char c, size_t n)
{
    char *s = hs_xmalloc(n + 1);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

/* n bytes in a DOT quoted string: Graphviz's scanner takes at most 16,384
 * bytes between two quotes, so the text is cut into quoted pieces joined
 * by '+', which DOT concatenates (the opening and closing quotes are the
 * caller's). Caller frees. */
char *hs_test_dot_pieces(char c, size_t n)
{
    struct hs_buf b = {0};
    char *piece = hs_test_repeat(c, 10000);
    for (size_t done = 0; done < n; done += 10000)
        hs_buf_printf(&b, "%s%.*s", done ? "\" + \"" : "", (int)(n - done < 10000 ? n - done : 10000), piece);
    free(piece);
    return hs_buf_take(&b);
}

/* CPU seconds that reading spec takes, the least of five readings; *read:
 * whether the reader built a DAG (else it refused the file). */
double hs_test_read_seconds(const char *spec, bool *read)
{
    double best = INFINITY;
    for (int k = 0; k < 5; k++) {
        double t0 = hs_thread_seconds();
        struct hs_dag *dag = hs_workload_build(spec);
        double t = hs_thread_seconds() - t0;
        *read = dag != NULL;
        hs_dag_free(dag);
        best = fmin(best, t);
    }
    return best;
}

/* Topcuoglu 2002, Fig. 2 / Table 1 (tasks n1..n10 are ids 0..9). */
static const double topcuoglu_w[10][3] = {{14, 16, 9},  {13, 19, 18}, {11, 13, 19}, {13, 8, 17},
                                          {12, 13, 10}, {13, 16, 9},  {7, 15, 11},  {5, 11, 14},
                                          {18, 12, 20}, {21, 7, 16}};
static const int topcuoglu_e[15][3] = {{1, 2, 18}, {1, 3, 12}, {1, 4, 9},  {1, 5, 11}, {1, 6, 14},
                                       {2, 8, 19}, {2, 9, 16}, {3, 7, 23}, {4, 8, 27}, {4, 9, 23},
                                       {5, 9, 13}, {6, 8, 15}, {7, 10, 17}, {8, 10, 11}, {9, 10, 13}};

struct hs_dag *hs_test_topcuoglu(void)
{
    struct hs_dag *dag = hs_dag_new("topcuoglu2002");
    char label[8];
    for (int i = 0; i < 10; i++) {
        snprintf(label, sizeof label, "n%d", i + 1);
        hs_dag_set_proc_costs(dag, hs_dag_add_task(dag, "k", label, 0, 0), topcuoglu_w[i], 3);
    }
    for (int e = 0; e < 15; e++) /* on flat:P,bw=1 a byte takes one time unit */
        hs_dag_add_edge(dag, topcuoglu_e[e][0] - 1, topcuoglu_e[e][1] - 1, topcuoglu_e[e][2]);
    CU_ASSERT_EQUAL_FATAL(hs_dag_finalize(dag), 0);
    return dag;
}

struct hs_dag *hs_test_random_costs_dag(unsigned long seed, int v, int p)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    struct hs_dag *dag = hs_dag_new("random");
    double costs[8];
    for (int i = 0; i < v; i++) {
        double mean = 1 + 99 * gsl_rng_uniform(r);
        for (int q = 0; q < p; q++)
            costs[q] = mean * (0.25 + 1.5 * gsl_rng_uniform(r));
        hs_dag_set_proc_costs(dag, hs_dag_add_task(dag, "k", NULL, 0, 0), costs, p);
    }
    for (int i = 0; i < v; i++)
        for (int j = i + 1; j < v; j++)
            if (gsl_rng_uniform(r) < 3.0 / v)
                hs_dag_add_edge(dag, i, j, 100 * gsl_rng_uniform(r)); /* rounded to bytes */
    gsl_rng_free(r);
    hs_dag_finalize(dag);
    return dag;
}

void hs_test_bad_workload(const char *spec, const char *needle)
{
    CU_ASSERT_PTR_NULL(hs_workload_build(spec));
    if (!strstr(hs_last_error(), needle))
        fprintf(stderr, "\n%s: '%s' lacks '%s'\n", spec, hs_last_error(), needle);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), needle));
    CU_ASSERT_PTR_NULL(strchr(hs_last_error(), '\n'));
}
