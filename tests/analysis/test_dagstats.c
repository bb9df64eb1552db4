/* tests/analysis/test_dagstats.c — DAG statistics (analysis/dagstats.h) against
 * hand-computed values: Topcuoglu et al. 2002's example DAG
 * (Fig. 2 of their paper; its rank_u(n1) = 108 is the critical path with mean costs), a
 * diamond with every kind of cost, and `hetsim dag … --stats` on a 2×2-tile
 * Cholesky and on the 10-task chain of random:alpha=0.1,v=10. */
#include "analysis/dagstats.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_topcuoglu(void)
{
    struct hs_dag *dag = hs_test_topcuoglu();
    struct hs_dagstats st;
    int level[10];
    hs_dag_stats(dag, 1e9, 1, &st, level);
    CU_ASSERT_EQUAL(st.tasks, 10);
    CU_ASSERT_EQUAL(st.edges, 15);
    /* levels: n1 | n2..n6 | n7 (via n3), n8, n9 | n10 */
    static const int want[10] = {0, 1, 1, 1, 1, 1, 2, 2, 2, 3};
    for (int i = 0; i < 10; i++)
        CU_ASSERT_EQUAL(level[i], want[i]);
    CU_ASSERT_EQUAL(st.depth, 4);
    CU_ASSERT_EQUAL(st.max_width, 5);
    /* row sums 39+50+43+38+35+38+33+30+50+44 = 400, over 3 processors */
    CU_ASSERT_DOUBLE_EQUAL(st.total_work, 400.0 / 3, 1e-12);
    /* rank_u(n1) = 108 (Topcuoglu et al. 2002, Table 1), path n1 n2 n9 n10:
     * 13 + 18 + 50/3 + 16 + 50/3 + 13 + 44/3 = 108 */
    CU_ASSERT_DOUBLE_EQUAL(st.critical_path, 108, 1e-12);
    /* edge costs sum to 241: (241/15) / (400/30) = 1.205 */
    CU_ASSERT_DOUBLE_EQUAL(st.total_comm, 241, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(st.ccr, 1.205, 1e-12);
    /* a free network: the longest path of mean costs alone, n1 n2 n9 n10:
     * 13 + 50/3 + 50/3 + 44/3 = 61 */
    hs_dag_stats(dag, 1e9, INFINITY, &st, NULL);
    CU_ASSERT_DOUBLE_EQUAL(st.critical_path, 61, 1e-12);
    CU_ASSERT_EQUAL(st.ccr, 0);
    hs_dag_free(dag);
}

/* a -> b, a -> c, b -> d, c -> d with a: per-processor [2, 4] (mean 3),
 * b: per-architecture cpu 1, gpu 3 (mean 2), c: 5e9 flops at 1e9 flop/s (5),
 * d: per-processor [1, -1] (-1 = cannot run there: mean 1). Edge bytes at
 * 1e9 B/s: a->b 1 s, a->c 2 s, b->d 0, c->d 3 s. */
static void test_diamond(void)
{
    struct hs_dag *dag = hs_dag_new("diamond");
    const char *names[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; i++)
        hs_dag_add_task(dag, "k", names[i], i == 2 ? 5e9 : 1, 0);
    hs_dag_set_proc_costs(dag, 0, (const double[]){2, 4}, 2);
    dag->tasks[1].arch_cost[HS_ARCH_CPU] = 1;
    dag->tasks[1].arch_cost[HS_ARCH_GPU] = 3;
    hs_dag_set_proc_costs(dag, 3, (const double[]){1, -1}, 2);
    hs_dag_add_edge(dag, 0, 1, 1e9);
    hs_dag_add_edge(dag, 0, 2, 2e9);
    hs_dag_add_edge(dag, 1, 3, 0);
    hs_dag_add_edge(dag, 2, 3, 3e9);
    CU_ASSERT_EQUAL_FATAL(hs_dag_finalize(dag), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_task_mean_cost(dag, &dag->tasks[0], 1e9), 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_task_mean_cost(dag, &dag->tasks[1], 1e9), 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_task_mean_cost(dag, &dag->tasks[2], 1e9), 5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_task_mean_cost(dag, &dag->tasks[3], 1e9), 1, 1e-12);
    struct hs_dagstats st;
    hs_dag_stats(dag, 1e9, 1e9, &st, NULL);
    CU_ASSERT_EQUAL(st.tasks, 4);
    CU_ASSERT_EQUAL(st.edges, 4);
    CU_ASSERT_EQUAL(st.depth, 3);
    CU_ASSERT_EQUAL(st.max_width, 2);
    CU_ASSERT_DOUBLE_EQUAL(st.total_work, 11, 1e-12);
    /* a c d: 3 + 2 + 5 + 3 + 1 = 14 (a b d: 3 + 1 + 2 + 0 + 1 = 7) */
    CU_ASSERT_DOUBLE_EQUAL(st.critical_path, 14, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(st.ccr, (6.0 / 4) / (11.0 / 4), 1e-12);
    /* twice the speed halves c only: a c d = 3 + 2 + 2.5 + 3 + 1 */
    hs_dag_stats(dag, 2e9, 1e9, &st, NULL);
    CU_ASSERT_DOUBLE_EQUAL(st.critical_path, 11.5, 1e-12);
    hs_dag_free(dag);
}

static double value_of(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\n%s: ", key);
    const char *p = strstr(text, pat); /* a key after the first line */
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    return strtod(p + strlen(pat), NULL);
}

/* cholesky:n=4,nb=2: potrf -> trsm -> syrk -> potrf, flops 5, 12, 12, 5
 * (test_dag.c), each edge one 2×2 tile of doubles, 32 bytes. At 1 flop/s and
 * 1 B/s: work 34, critical path 34 + 3·32 = 130, ccr 32 / (34/4). */
static void test_cli_cholesky(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL(hs_test_cli("dag cholesky:n=4,nb=2 --stats --speed 1 --bw 1", &out, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_EQUAL(strncmp(out, "tasks: 4\nedges: 3\ndepth: 4\nmax_width: 1\n", 40), 0);
    CU_ASSERT_DOUBLE_EQUAL(value_of(out, "total_work"), 34, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(value_of(out, "critical_path"), 130, 1e-9);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\ntotal_work: 34 s\ncritical_path: 130 s\n")); /* in seconds, said */
    CU_ASSERT_DOUBLE_EQUAL(value_of(out, "ccr"), 32 / 8.5, 1e-9);
    int lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    CU_ASSERT_EQUAL(lines, 7);
    free(out);
    free(err);
    /* bw = inf: communication is free */
    CU_ASSERT_EQUAL(hs_test_cli("dag cholesky:n=4,nb=2 --stats --speed 1 --bw inf", &out, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(value_of(out, "critical_path"), 34, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(value_of(out, "ccr"), 0, 0);
    free(out);
}

/* The chain of random:alpha=0.1,v=10 (test_random_dag.c): 11 tasks, 10 edges, 11 levels of 1; with
 * -o the DAG is written too, and stdout holds only the figures. */
static void test_cli_random_and_output(void)
{
    char *out, *file = hs_test_tmp(".json"), args[256];
    snprintf(args, sizeof args, "dag random:v=10,alpha=0.1 --stats -o %s", file);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_EQUAL(strncmp(out, "tasks: 11\nedges: 10\ndepth: 11\nmax_width: 1\n", 42), 0);
    free(out);
    char *text = hs_test_read_file(file);
    cJSON *j = cJSON_Parse(text);
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(j, "tasks")), 11);
    cJSON_Delete(j);
    free(text);
    free(file);
    char *err;
    CU_ASSERT_EQUAL(hs_test_cli("dag gemm --stats --speed 0", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "option --speed: '0' is not a positive number"));
    free(err);
    CU_ASSERT_EQUAL(hs_test_cli("dag gemm --stats --bw fast", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "option --bw: 'fast'"));
    free(err);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Topcuoglu's example: CP 108", test_topcuoglu},
        {"diamond with per-processor, per-architecture and flops costs", test_diamond},
        {"hetsim dag --stats on cholesky 2x2", test_cli_cholesky},
        {"hetsim dag --stats -o on a 10-task chain; bad options", test_cli_random_and_output},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dagstats", tests);
}
