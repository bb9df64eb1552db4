/* tests/workloads/test_dagfiles_bad.c — bad DAG files through the `hetsim`
 * command: malformed JSON and DOT (with the line), a cycle (named), negative
 * costs, sizes, bytes and runtimes, references to missing tasks and handles,
 * duplicate ids, missing files, parameters out of range. Each gives exit
 * code 2 and one line on stderr that says what is wrong. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void bad_args(const char *args, const char *expect)
{
    char *err;
    int rc = hs_test_cli(args, NULL, &err);
    if (rc != 2 || count_lines(err) != 1 || !strstr(err, expect))
        fprintf(stderr, "\n`hetsim %s` -> %d: %s(expected: %s)\n", args, rc, err, expect);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT_EQUAL(count_lines(err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, expect));
    free(err);
}

/* Write text to a file with that suffix, then `hetsim run` and `hetsim dag` on it. */
static void bad_file(const char *suffix, const char *text, const char *expect)
{
    char *path = hs_test_tmp(suffix), args[1024];
    hs_test_write_file(path, text);
    snprintf(args, sizeof args, "dag %s -o /dev/null", path);
    bad_args(args, expect);
    snprintf(args, sizeof args, "run -q -p flat:2 -w %s", path);
    bad_args(args, expect);
    free(path);
}

#define TASK(label) "{\"label\":\"" label "\",\"kernel\":\"k\",\"flops\":1}"

static void test_bad_json(void)
{
    bad_file(".json", "{\n  \"tasks\": [\n    {\"label\": \"a\",, }\n  ]\n}\n",
             "malformed JSON near line 3");
    bad_file(".json", "{\"tasks\": [" TASK("a") "]} trailing", "malformed JSON near line 1");
    bad_file(".json", "{\"tasks\": [" TASK("a") "," TASK("b") "," TASK("c") "],\n"
                      " \"edges\": [{\"src\":0,\"dst\":1},{\"src\":1,\"dst\":2},{\"src\":2,\"dst\":0}]}",
             "has a cycle (through a, b, c)");
    bad_file(".json", "{\"tasks\": [" TASK("a") "], \"edges\": [{\"src\":0,\"dst\":0}]}",
             "edges[0]: task a depends on itself (a cycle)");
    bad_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"costs\":{\"cpu\":-1}}]}",
             "tasks[0].costs.cpu: -1 is negative");
    bad_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"costs\":[1,\"x\"]}]}",
             "tasks[0].costs[1]: not a number");
    bad_file(".json", "{\"tasks\": [" TASK("a") "," TASK("b") "], \"edges\": [{\"src\":0,\"dst\":1.5}]}",
             "edges[0].dst: not an index (an integer >= 0)");
    bad_file(".json", "{\"tasks\": [" TASK("a") ",{\"kernel\":\"k\",\"flops\":-2}]}",
             "tasks[1].flops: -2 is negative");
    bad_file(".json", "{\"handles\": [{\"name\":\"x\",\"bytes\":-8}], \"tasks\": [" TASK("a") "]}",
             "handles[0].bytes: -8 is negative");
    bad_file(".json", "{\"tasks\": [" TASK("a") "," TASK("b") "], \"edges\": [{\"src\":0,\"dst\":1,\"bytes\":-3}]}",
             "edges[0].bytes: -3 is negative");
    bad_file(".json", "{\"tasks\": [" TASK("a") "," TASK("b") "], \"edges\": [{\"src\":0,\"dst\":5}]}",
             "edges[0]: task 5 is not a task (the file has 2)");
    bad_file(".json", "{\"handles\": [{\"name\":\"x\",\"bytes\":8}],\n \"tasks\": [{\"kernel\":\"k\","
                      "\"accesses\":[{\"handle\":0,\"mode\":\"R\"},{\"handle\":3,\"mode\":\"R\"}]}]}",
             "tasks[0].accesses[1].handle: 3 is not a handle (the file has 1)");
    bad_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"accesses\":[{\"handle\":0,\"mode\":\"X\"}]}]}",
             "tasks[0].accesses[0].mode: not \"R\", \"W\" or \"RW\"");
    bad_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"costs\":[1,2]},{\"kernel\":\"k\",\"costs\":[1,2,3]}]}",
             "tasks[1].costs: 3 per-processor costs, but tasks[0] has 2");
    bad_file(".json", "{\"tasks\": [" TASK("a") ",{\"kernel\":\"k\",\"costs\":[1,2]}]}",
             "tasks[0]: no per-processor costs, but tasks[1] has 2");
    bad_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"flop\":1}]}",
             "tasks[0]: unknown key 'flop' (valid: label, kernel, flops, footprint, accesses, costs, archs, attrs)");
    bad_file(".json", "{\"tasks\": [{\"kernel\":\"k\",\"archs\":[\"fpga\"]}]}",
             "tasks[0].archs: not a list of \"cpu\" and \"gpu\"");
    bad_file(".json", "{\"taks\": []}", "unknown key 'taks' (valid: name, total_flops, handles, tasks");
    bad_file(".json", "{\"tasks\": []}", "has no task");
    bad_file(".json", "[]", "the top level must be an object");
}

static void test_bad_dot(void)
{
    bad_file(".dot", "digraph G {\n  a -> b;\n  c [size=3\n  d -> ;\n}\n",
             "malformed DOT: syntax error in line 4");
    bad_file(".dot", "", "malformed DOT: no graph in the file");
    bad_file(".dot", "graph G { a -- b }", "not a directed graph");
    bad_file(".dot", "digraph G { a -> b -> c -> a; c -> d }", "has a cycle (through a, b, c)");
    bad_file(".dot", "digraph G { a -> a }", "edge 'a' -> 'a': a task that depends on itself");
    bad_file(".dot", "digraph G { a [size=\"-5\"]; a -> b }", "node 'a': size: -5 is negative");
    bad_file(".gv", "digraph G { a [size=\"lots\"] }", "node 'a': size: 'lots' is not a number");
    /* SimGrid's size="-1" (a pure dependency) is refused only with hetsim's own semantics */
    char *path = hs_test_tmp(".dot"), args[1024];
    hs_test_write_file(path, "digraph G { a -> b [size=\"-1\"] }");
    snprintf(args, sizeof args, "dag dot:file=%s,semantics=hetsim -o /dev/null", path);
    bad_args(args, "edge 'a' -> 'b': size: -1 is negative");
    free(path);
    bad_file(".dot", "digraph G { a [costs=\"cpu=-1\"] }", "node 'a': costs: '-1' is not a non-negative");
    bad_file(".dot", "digraph G { a [costs=\"1,2\"]; b [costs=\"1\"] }",
             "1 per-processor costs, but node 'a' has 2");
    bad_file(".dot", "digraph G { a [archs=\"tpu\"] }", "node 'a': archs 'tpu' is not cpu, gpu or cpu,gpu");
}

#define WF14(tasks) "{\"name\": \"w\", \"schemaVersion\": \"1.4\", \"workflow\": {\"tasks\": [" tasks "]}}"
#define WF15(tasks, files)                                                                          \
    "{\"name\": \"w\", \"schemaVersion\": \"1.5\", \"workflow\": {\"specification\": {\"tasks\": [" \
    tasks "], \"files\": [" files "]}}}"

static void test_bad_wfformat(void)
{
    bad_file(".json", "{\"schemaVersion\": \"1.4\",\n \"workflow\": {\n \"tasks\": [}\n}",
             "malformed JSON near line 3");
    bad_file(".json", WF14("{\"name\": \"a\", \"parents\": [\"b\"]}, {\"name\": \"b\", \"parents\": [\"a\"]}"),
             "has a cycle (through a, b)");
    bad_file(".json", WF14("{\"name\": \"a\", \"runtimeInSeconds\": -2}"),
             "workflow.tasks[0].runtimeInSeconds: -2 is negative");
    bad_file(".json", WF14("{\"name\": \"a\", \"files\": [{\"link\": \"input\", \"name\": \"f\", \"sizeInBytes\": -1}]}"),
             "workflow.tasks[0].files[0].sizeInBytes: -1 is negative");
    bad_file(".json", WF14("{\"name\": \"a\"}, {\"name\": \"b\", \"parents\": [\"nosuch\"]}"),
             "workflow.tasks[1].parents: 'nosuch' is not a task");
    bad_file(".json", WF14("{\"name\": \"a\"}, {\"name\": \"a\"}"),
             "workflow.tasks[1]: duplicate task name 'a' (also workflow.tasks[0])");
    bad_file(".json", WF15("{\"name\": \"t\", \"id\": \"x\", \"parents\": [], \"children\": []},"
                           "{\"name\": \"t\", \"id\": \"x\", \"parents\": [], \"children\": []}", ""),
             "duplicate task id 'x'");
    bad_file(".json", WF15("{\"name\": \"t\", \"id\": \"x\", \"parents\": [], \"children\": [], \"inputFiles\": [\"g\"]}",
                           "{\"id\": \"f\", \"sizeInBytes\": 1}"),
             "workflow.specification.tasks[0].inputFiles: 'g' is not in workflow.specification.files");
    bad_file(".json", "{\"schemaVersion\": \"1.4\", \"workflow\": {}}",
             "workflow.tasks: not a non-empty array of tasks");
}

static void test_bad_files_and_parameters(void)
{
    bad_args("run -w /nonexistent/dag.json", "/nonexistent/dag.json: No such file or directory");
    bad_args("dag dot:file=/nonexistent/dag.dot", "/nonexistent/dag.dot: No such file or directory");
    bad_args("dag wfformat:/nonexistent/wf.json", "/nonexistent/wf.json: No such file or directory");
    bad_args("dag json", "workload json: parameter file is required");
    bad_args("dag json:file=x.json,speed=2", "workload json: unknown parameter 'speed' (valid: file)");
    bad_args("dag wfformat:file=x.json,speed=0", "parameter speed: 0 is outside the allowed range (0,inf)");
    bad_args("dag wfformat:file=x.json,speed=fast", "parameter speed: 'fast' is not a number");
    bad_args("dag nosuch.txt", "unknown workload 'nosuch.txt'");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"bad hetsim JSON", test_bad_json},
        {"bad DOT", test_bad_dot},
        {"bad WfFormat", test_bad_wfformat},
        {"missing files, bad parameters", test_bad_files_and_parameters},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dagfiles_bad", tests);
}
