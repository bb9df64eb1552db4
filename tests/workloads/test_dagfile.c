/* tests/workloads/test_dagfile.c — what the DAG file readers share
 * (workloads/dagfile.c): missing files and bad parameters give exit code 2
 * and one line; every reader refuses a name longer than HS_NAME_MAX bytes in
 * one line naming the file, the field and the length, and reads one of
 * HS_NAME_MAX bytes. */
#include "base/buf.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_bad_files_and_parameters(void)
{
    hs_test_bad_cli("run -w /nonexistent/dag.json", "/nonexistent/dag.json: No such file or directory");
    hs_test_bad_cli("dag dot:file=/nonexistent/dag.dot", "/nonexistent/dag.dot: No such file or directory");
    hs_test_bad_cli("dag wfformat:/nonexistent/wf.json", "/nonexistent/wf.json: No such file or directory");
    hs_test_bad_cli("dag json", "workload json: parameter file is required");
    hs_test_bad_cli("dag json:file=x.json,speed=2", "workload json: unknown parameter 'speed' (valid: file)");
    hs_test_bad_cli("dag wfformat:file=x.json,speed=0", "parameter speed: 0 is outside the allowed range (0,inf)");
    hs_test_bad_cli("dag wfformat:file=x.json,speed=fast", "parameter speed: 'fast' is not a number");
    hs_test_bad_cli("dag nosuch.txt", "unknown workload 'nosuch.txt'");
}

/* `hetsim dag WORKLOAD:file=PATH` on text (one %s in fmt: the name, in DOT
 * pieces for the dot workload) refuses the name in one line holding expect. */
static void long_name(const char *workload, const char *suffix, const char *fmt, const char *expect)
{
    bool dot = strcmp(workload, "dot") == 0;
    char *name = dot ? hs_test_dot_pieces('n', HS_NAME_MAX + 1) : hs_test_repeat('n', HS_NAME_MAX + 1);
    char *text = hs_xmalloc(strlen(fmt) + strlen(name) + 1);
    sprintf(text, fmt, name);
    char *path = hs_test_tmp_text(suffix, text), args[1200], want[512];
    snprintf(args, sizeof args, "dag %s%sfile=%s -o /dev/null", workload, strchr(workload, ':') ? "," : ":",
             path);
    snprintf(want, sizeof want, "%s: a name of %d bytes, more than the %d bytes hetsim reads in a name",
             expect, HS_NAME_MAX + 1, HS_NAME_MAX);
    hs_test_bad_cli(args, want);
    free(path);
    free(text);
    free(name);
}

#define REC "JobId: 1\nWorkerId: 0\nStartTime: 0\nEndTime: 1\n"

static void test_long_names(void)
{
    long_name("dax", ".dax", "<adag version=\"2.1\">\n<job id=\"%s\" name=\"k\" runtime=\"1\"/>\n</adag>\n",
              ":2: <job> id");
    long_name("dax", ".dax", "<adag version=\"2.1\">\n<job id=\"a\" runtime=\"1\">\n<uses file=\"%s\" link=\"input\"/>\n</job>\n</adag>\n",
              ":3: <uses> file");
    long_name("wfformat", ".json", "{\"workflow\": {\"tasks\": [{\"name\": \"%s\", \"runtimeInSeconds\": 1}]}}",
              "workflow.tasks[0].name");
    long_name("wfformat", ".json",
              "{\"workflow\": {\"tasks\": [{\"name\": \"a\", \"files\": [{\"link\": \"input\", \"name\": \"%s\", "
              "\"sizeInBytes\": 1}]}]}}",
              "workflow.tasks[0].files[0].name");
    long_name("wfformat:semantics=simgrid", ".json",
              "{\"workflow\": {\"tasks\": [{\"name\": \"%s\", \"type\": \"compute\", \"runtimeInSeconds\": 1}]}}",
              "workflow.tasks[0].name");
    long_name("json", ".json", "{\"handles\": [{\"name\": \"%s\", \"bytes\": 1}], \"tasks\": []}",
              "handles[0].name");
    long_name("json", ".json", "{\"tasks\": [{\"label\": \"a\", \"kernel\": \"%s\"}]}", "tasks[0].kernel");
    /* a default label would be copied into every node */
    long_name("dot", ".dot", "digraph g {\nnode [label=\"%s\"];\na -> b;\n}\n", "node 'a': label");
    long_name("dot", ".dot", "digraph g {\n\"%s\" -> b;\n}\n", "a node name");
    long_name("taskrec", ".rec", REC "Model: %s\n\n", ":1: JobId 1: Model");
    long_name("taskrec", ".rec", REC "Handles: %s\nModes: R\nSizes: 8\n\n", ":1: JobId 1: Handles");
}

/* A name of exactly HS_NAME_MAX bytes is read. */
static void test_longest_name(void)
{
    char *name = hs_test_repeat('n', HS_NAME_MAX), *text = hs_xmalloc(HS_NAME_MAX + 128), spec[1200];
    sprintf(text, "<adag version=\"2.1\">\n<job id=\"%s\" name=\"k\" runtime=\"1\"/>\n</adag>\n", name);
    char *path = hs_test_tmp_text(".dax", text);
    snprintf(spec, sizeof spec, "dax:file=%s", path);
    struct hs_dag *dag = hs_workload_build(spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(strlen(dag->tasks[0].label), HS_NAME_MAX);
    hs_dag_free(dag);
    free(path);
    free(text);
    free(name);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"missing files, bad parameters", test_bad_files_and_parameters},
        {"names longer than HS_NAME_MAX are refused by every reader", test_long_names},
        {"a name of HS_NAME_MAX bytes is read", test_longest_name},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dagfile", tests);
}
