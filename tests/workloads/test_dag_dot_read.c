/* tests/workloads/test_dag_dot_read.c — the "dot" workload
 * (workloads/dag_dot_read.c): a hand-written DAGGEN DOT file, SimGrid's DOT
 * examples with SimGrid's meaning (size="-1" a pure dependency, root and
 * end), bad DOT files (one line with the line number), and DOT defaults
 * copied into every node bounded by the file's size. */
#include "base/buf.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        CU_ASSERT_PTR_NOT_NULL_FATAL(hs_test_extra(&dag->tasks[t], "alpha"));
        CU_ASSERT_STRING_EQUAL(hs_test_extra(&dag->tasks[t], "alpha"), alpha[t]);
    }
    CU_ASSERT_EQUAL(dag->nedges, 5);
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, 0, 2), 8388608);
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, 0, 3), 8388608);
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, 1, 3), 4194304);
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, 2, 4), 1048576);
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, 3, 4), 2097152);
    CU_ASSERT_EQUAL(dag->topo[0] <= 1, 1);
    CU_ASSERT_EQUAL(dag->topo[4], 4);
}

static void test_daggen_dot(void)
{
    struct hs_dag *dag = hs_workload_build(hs_test_datafile("daggen-5.dot"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "G");
    check_daggen(dag);
    struct hs_dag *back = hs_test_dag_reread(dag, true);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    check_daggen(back);
    char *a = hs_test_dag_text(dag, true), *b = hs_test_dag_text(back, true);
    CU_ASSERT_STRING_EQUAL(a, b); /* hetsim's DOT is read back as written */
    free(a);
    free(b);
    hs_dag_free(back);
    /* the same through JSON, alpha kept in "attrs" */
    back = hs_test_dag_reread(dag, false);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    check_daggen(back);
    hs_dag_free(back);
    hs_dag_free(dag);
}

/* ---- hetsim run from files ------------------------------------------------- */

static void test_bad_dot(void)
{
    hs_test_bad_dag_file(".dot", "digraph G {\n  a -> b;\n  c [size=3\n  d -> ;\n}\n",
             "malformed DOT: syntax error in line 4");
    hs_test_bad_dag_file(".dot", "", "malformed DOT: no graph in the file");
    hs_test_bad_dag_file(".dot", "graph G { a -- b }", "not a directed graph");
    hs_test_bad_dag_file(".dot", "digraph G { a -> b -> c -> a; c -> d }", "has a cycle (through a, b, c)");
    hs_test_bad_dag_file(".dot", "digraph G { a -> a }", "edge 'a' -> 'a': a task that depends on itself");
    hs_test_bad_dag_file(".dot", "digraph G { a [size=\"-5\"]; a -> b }", "node 'a': size: -5 is negative");
    hs_test_bad_dag_file(".gv", "digraph G { a [size=\"lots\"] }", "node 'a': size: 'lots' is not a number");
    /* SimGrid's size="-1" (a pure dependency) is refused only with hetsim's own semantics */
    char *path = hs_test_tmp(".dot"), args[1024];
    hs_test_write_file(path, "digraph G { a -> b [size=\"-1\"] }");
    snprintf(args, sizeof args, "dag dot:file=%s,semantics=hetsim -o /dev/null", path);
    hs_test_bad_cli(args, "edge 'a' -> 'b': size: -1 is negative");
    free(path);
    hs_test_bad_dag_file(".dot", "digraph G { a [costs=\"cpu=-1\"] }", "node 'a': costs: '-1' is not a non-negative");
    hs_test_bad_dag_file(".dot", "digraph G { a [costs=\"1,2\"]; b [costs=\"1\"] }",
             "1 per-processor costs, but node 'a' has 2");
    hs_test_bad_dag_file(".dot", "digraph G { a [archs=\"tpu\"] }", "node 'a': archs 'tpu' is not cpu, gpu or cpu,gpu");
}

/* flat:2 at 1 Gflop/s and 1 GB/s, no write-back: seconds are Gflop and GB. */
#define FLAT2 "-p flat:2,speed=1G,bw=1G -s heft --no-flush"

static void test_simgrid_dot(void)
{
    struct hs_dag *dag = hs_test_build_file("%s", "simgrid-dag-simple.dot");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 5); /* c1 c2 c3 and SimGrid's root and end */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "c2", "c3"), 0); /* size="-1.": a pure dependency */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "c1", "c3"), 5e8);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "root", "c1"), 2e8);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "c3", "end"), 2e8);
    hs_dag_free(dag);
    /* c2 (5 s) then c3 (2 s) bound the makespan; root's 0.1 GB to c2 is local
     * when both share a processor, c1 (0.2 + 1 s) and its 0.5 GB fit beside */
    char args[1200];
    snprintf(args, sizeof args, FLAT2 " -w %s", hs_test_datafile("simgrid-dag-simple.dot"));
    CU_ASSERT_DOUBLE_EQUAL(hs_test_run_makespan(args), 7, 1e-9);
    dag = hs_test_build_file("%s", "simgrid-dag.dot"); /* size "-1", "0.0", none; undeclared root */
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 12);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "3", "4"), 0);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "root", "5"), 10014000);
    hs_dag_free(dag);
}

/* A DOT default gives its value to every node after it: 5,000 nodes under
 * a 60,000-byte default label stood for 300 MB of labels in an 80 KB file. */
static void test_dot_defaults(void)
{
    struct hs_buf b = {0};
    char *label = hs_test_dot_pieces('l', 60000), args[1200];
    hs_buf_printf(&b, "digraph g {\nnode [label=\"%s\"];\n", label);
    for (int i = 0; i < 5000; i++)
        hs_buf_printf(&b, "n%d;\n", i);
    hs_buf_add(&b, "}\n");
    char *path = hs_test_tmp_text(".dot", hs_buf_str(&b));
    snprintf(args, sizeof args, "dag dot:file=%s -o /dev/null", path);
    hs_test_bad_cli(args, ": label: the nodes' labels, kernels and attributes come to more than 16 times "
                          "the file's size (a default, node [label=...], copied into every node?)");
    hs_buf_free(&b);
    free(label);
    free(path);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"DAGGEN DOT file", test_daggen_dot},
        {"bad DOT", test_bad_dot},
        {"SimGrid's DOT DAGs: size=-1, root and end", test_simgrid_dot},
        {"DOT defaults copied into every node are bounded by the file's size", test_dot_defaults},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dag_dot_read", tests);
}
