/* tests/workloads/test_wfformat.c — WfCommons WfFormat files
 * (workloads/wfformat.c): the 1.4 and 1.5 versions of a hand-written 1→3→1
 * fork-join with the counts and sizes of its structure, and bad files
 * refused in one line. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, id[0], id[w]), 100);
        CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, id[w], id[4]), 10);
    }
    CU_ASSERT_EQUAL(hs_test_edge_bytes(dag, id[0], id[4]), 0);
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
    check_forkjoin(hs_test_datafile("forkjoin-wf14.json"), v14, 1e9); /* by extension, detected by keys */
    snprintf(spec, sizeof spec, "wfformat:file=%s,speed=2G", hs_test_datafile("forkjoin-wf14.json"));
    check_forkjoin(spec, v14, 2e9);
    snprintf(spec, sizeof spec, "wfformat:%s", hs_test_datafile("forkjoin-wf15.json"));
    check_forkjoin(spec, v15, 1e9); /* listed merge first: reordered */
}

/* ---- hetsim run from files ------------------------------------------------- */

#define WF14(tasks) "{\"name\": \"w\", \"schemaVersion\": \"1.4\", \"workflow\": {\"tasks\": [" tasks "]}}"
#define WF15(tasks, files)                                                                          \
    "{\"name\": \"w\", \"schemaVersion\": \"1.5\", \"workflow\": {\"specification\": {\"tasks\": [" \
    tasks "], \"files\": [" files "]}}}"

static void test_bad_wfformat(void)
{
    hs_test_bad_dag_file(".json", "{\"schemaVersion\": \"1.4\",\n \"workflow\": {\n \"tasks\": [}\n}",
             "malformed JSON near line 3");
    hs_test_bad_dag_file(".json", WF14("{\"name\": \"a\", \"parents\": [\"b\"]}, {\"name\": \"b\", \"parents\": [\"a\"]}"),
             "has a cycle (through a, b)");
    hs_test_bad_dag_file(".json", WF14("{\"name\": \"a\", \"runtimeInSeconds\": -2}"),
             "workflow.tasks[0].runtimeInSeconds: -2 is negative");
    hs_test_bad_dag_file(".json", WF14("{\"name\": \"a\", \"files\": [{\"link\": \"input\", \"name\": \"f\", \"sizeInBytes\": -1}]}"),
             "workflow.tasks[0].files[0].sizeInBytes: -1 is negative");
    hs_test_bad_dag_file(".json", WF14("{\"name\": \"a\"}, {\"name\": \"b\", \"parents\": [\"nosuch\"]}"),
             "workflow.tasks[1].parents: 'nosuch' is not a task");
    hs_test_bad_dag_file(".json", WF14("{\"name\": \"a\"}, {\"name\": \"a\"}"),
             "workflow.tasks[1]: duplicate task name 'a' (also workflow.tasks[0])");
    hs_test_bad_dag_file(".json", WF15("{\"name\": \"t\", \"id\": \"x\", \"parents\": [], \"children\": []},"
                           "{\"name\": \"t\", \"id\": \"x\", \"parents\": [], \"children\": []}", ""),
             "duplicate task id 'x'");
    hs_test_bad_dag_file(".json", WF15("{\"name\": \"t\", \"id\": \"x\", \"parents\": [], \"children\": [], \"inputFiles\": [\"g\"]}",
                           "{\"id\": \"f\", \"sizeInBytes\": 1}"),
             "workflow.specification.tasks[0].inputFiles: 'g' is not in workflow.specification.files");
    hs_test_bad_dag_file(".json", "{\"schemaVersion\": \"1.4\", \"workflow\": {}}",
             "workflow.tasks: not a non-empty array of tasks");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"WfFormat 1.4 and 1.5 fork-join", test_wfformat},
        {"bad WfFormat", test_bad_wfformat},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("wfformat", tests);
}
