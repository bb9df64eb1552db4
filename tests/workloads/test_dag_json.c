/* tests/workloads/test_dag_json.c — writing a DAG as hetsim JSON
 * (workloads/dag_json.c): every number follows the rule the writer documents
 * (integers below 1e15 as integers, else %.15g when it reads back exactly,
 * else %.17g, non-finite as null) — checked against that rule applied by
 * brute force, which the writer shortcuts — and reads back exactly, in the
 * dependencies too; strings are escaped; the whole file parses; a
 * hand-written file read and written back gives the same bytes. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <float.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reference(double v, char *buf, size_t size)
{
    if (!isfinite(v))
        snprintf(buf, size, "null");
    else if (v == trunc(v) && fabs(v) < 1e15)
        snprintf(buf, size, "%lld", (long long)v);
    else {
        snprintf(buf, size, "%1.15g", v);
        if (strtod(buf, NULL) != v)
            snprintf(buf, size, "%1.17g", v);
    }
}

static char *write_to_memory(const struct hs_dag *dag)
{
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(hs_dag_write_json(dag, f), 0);
    long len = ftell(f);
    rewind(f);
    char *text = hs_xmalloc((size_t)len + 1);
    CU_ASSERT_EQUAL(fread(text, 1, (size_t)len, f), (size_t)len);
    text[len] = 0;
    fclose(f);
    return text;
}

/* Values: hand-picked edge cases, short decimals and their neighbours (where
 * %.15g does and does not read back), and random doubles of every size. */
static int fill_values(double *v, int max)
{
    static const double fixed[] = {0, 1, -1, 0.1, 0.5, 1.0 / 3, 2.0 / 3, -0.25, 1e-5, 1.5e-7,
                                   123456.789, 1e15, 1e16, 9007199254740993.0, 1e300, 5e-324,
                                   DBL_MIN, DBL_MAX, 0.30000000000000004, 99999999999999.99,
                                   9.999999999999999e22, 4294967296.5, -1e-300};
    int n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        v[n++] = fixed[i];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    char buf[64];
    while (n + 3 <= max) {
        double mag = pow(10, (double)gsl_rng_uniform_int(r, 40) - 20);
        v[n++] = gsl_rng_uniform(r) * mag;
        snprintf(buf, sizeof buf, "%.*g", 1 + (int)gsl_rng_uniform_int(r, 15), v[n - 1]);
        double d = strtod(buf, NULL); /* a short decimal */
        v[n++] = d;
        v[n++] = nextafter(d, INFINITY);
    }
    gsl_rng_free(r);
    return n;
}

static void test_numbers(void)
{
    enum { N = 30000 };
    double *v = hs_xmalloc(N * sizeof(double));
    int n = fill_values(v, N);
    struct hs_dag *dag = hs_dag_new("numbers");
    hs_dag_add_task(dag, "k", "t", 0, 0);
    hs_dag_set_proc_costs(dag, 0, v, n);
    char *text = write_to_memory(dag);
    const char *p = strstr(text, "\"costs\":[");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    p += strlen("\"costs\":[");
    int bad = 0;
    for (int i = 0; i < n; i++) {
        char want[64];
        reference(v[i], want, sizeof want);
        size_t len = strcspn(p, ",]");
        if (len != strlen(want) || strncmp(p, want, len) != 0)
            bad++;
        CU_ASSERT_EQUAL(strtod(p, NULL), v[i]); /* reads back exactly */
        p += len + (p[len] == ',' ? 1 : 0);
    }
    CU_ASSERT_EQUAL(bad, 0);
    double odd[] = {NAN, INFINITY, -INFINITY};
    hs_dag_set_proc_costs(dag, 0, odd, 3);
    dag->nproc_costs = 3;
    free(text);
    text = write_to_memory(dag);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"costs\":[null,null,null]"));
    free(text);
    hs_dag_free(dag);
    free(v);
}

static void test_strings_and_parse(void)
{
    struct hs_dag *dag = hs_dag_new("quote\" back\\slash\nnew\ttab\x01 é");
    int h = hs_dag_add_handle(dag, "A\"(0)", 64);
    int a = hs_dag_add_task(dag, "ker\\nel", "lab\"el\x1f", 1e9, 4);
    int b = hs_dag_add_task(dag, "k", "plain", 2.5, 0);
    hs_dag_access(dag, a, h, HS_MODE_W);
    hs_dag_access(dag, b, h, HS_MODE_R);
    hs_dag_add_edge(dag, a, b, 8);
    dag->tasks[b].arch_cost[HS_ARCH_GPU] = 0.75;
    CU_ASSERT_EQUAL_FATAL(hs_dag_finalize(dag), 0);
    char *text = write_to_memory(dag);
    cJSON *j = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(j, "name")->valuestring, dag->name);
    const cJSON *tasks = cJSON_GetObjectItem(j, "tasks");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 0), "label")->valuestring,
                           "lab\"el\x1f");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 0), "kernel")->valuestring,
                           "ker\\nel");
    const cJSON *costs = cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 1), "costs");
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(costs, "gpu")->valuedouble, 0.75, 0);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(costs, "cpu"));
    const cJSON *acc = cJSON_GetObjectItem(cJSON_GetArrayItem(tasks, 1), "accesses");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(acc, 0), "mode")->valuestring, "R");
    const cJSON *edges = cJSON_GetObjectItem(j, "edges");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(edges), 1);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(edges, 0), "bytes")->valuedouble, 8, 0);
    /* the inferred dependency a -> b sums the datum (64) and the edge (8) */
    const cJSON *deps = cJSON_GetObjectItem(j, "dependencies");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(deps), 1);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(cJSON_GetArrayItem(deps, 0), "bytes")->valuedouble, 72, 0);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(j, "handles")), 1);
    CU_ASSERT_STRING_EQUAL(text + strlen(text) - 2, "}\n");
    cJSON_Delete(j);
    free(text);
    hs_dag_free(dag);
}

/* Dependencies of explicit edges reuse the edges' text: still the rule. */
static void test_dependencies(void)
{
    struct hs_dag *dag = hs_workload_build("random:v=300,seed=9");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    char *text = write_to_memory(dag);
    const char *p = strstr(text, "\"dependencies\": [");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (int e = 0; e < dag->nedges; e++) {
        char want[128], num[64];
        reference(dag->edges[e].bytes, num, sizeof num);
        snprintf(want, sizeof want, "{\"src\":%d,\"dst\":%d,\"bytes\":%s}",
                 dag->edges[e].src, dag->edges[e].dst, num);
        p = strstr(p, want);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    }
    free(text);
    hs_dag_free(dag);
}

/* ---- hetsim JSON ------------------------------------------------------------ */

static void test_json_handmade_same_bytes(void)
{
    struct hs_dag *dag = hs_test_handmade_dag();
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    hs_test_check_handmade(dag, true);
    char *text = hs_test_dag_text(dag, false);
    CU_ASSERT_STRING_EQUAL(text, hs_test_handmade_json);
    free(text);
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"numbers: the documented rule, exact read-back", test_numbers},
        {"strings escaped, the file parses", test_strings_and_parse},
        {"dependencies: the same rule", test_dependencies},
        {"hand-made JSON read and written to the same bytes", test_json_handmade_same_bytes},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dag_json", tests);
}
