/* tests/workloads/test_pegasus_yaml.c — Pegasus 5 workflows (YAML, libyaml):
 * two real files of Pegasus' own tests (tests/data/pegasus5/README.md) read
 * with the counts their text gives; runtimes, sizes, dependencies and file
 * flows of a file written here, read as DAX files are; found by extension
 * and by content (a YAML file named .xml); bad variants in one line naming
 * the file and line, exit 2. (Without runtimes: test_clarity.) */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct hs_dag *build_file(const char *path)
{
    struct hs_dag *dag = hs_workload_build(path);
    if (!dag)
        fprintf(stderr, "\n%s: %s\n", path, hs_last_error());
    return dag;
}

/* The counts of the two real files, taken from their text with grep and awk
 * (jobs: the "- type: job" / "- id:" items under jobs:; dependencies: the
 * children under jobDependencies:; files: the distinct lfn of the jobs'
 * uses): 4 jobs each, dependencies ID1 -> ID2, ID3 and ID2, ID3 -> ID4 (4
 * edges, the same pairs as their files' producer -> consumer pairs), 6
 * files (f.a, read by ID1 and written by nobody, is initial data). */
static void test_real_files(void)
{
    struct hs_dag *dag = build_file(hs_test_datafile("pegasus5/blackdiamond-condor-request.yml"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "blackdiamond");
    CU_ASSERT_EQUAL(dag->ntasks, 4);
    CU_ASSERT_EQUAL(dag->nedges, 4);
    CU_ASSERT_EQUAL(dag->nhandles, 6);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "ID0000001", "ID0000002"), 0); /* f.b1 has no size */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "ID0000003", "ID0000004"), 0);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "ID0000001", "ID0000004"), -1);
    CU_ASSERT_STRING_EQUAL(dag->kernels[dag->tasks[hs_test_task_named(dag, "ID0000002")].kernel], "findrange");
    hs_dag_free(dag);
    /* the planner's test file: catalogues and hooks beside the jobs, and
     * f.b1's size in its use's metadata ("2048") */
    dag = build_file(hs_test_datafile("pegasus5/diamond-parser.yml"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "diamond");
    CU_ASSERT_EQUAL(dag->ntasks, 4);
    CU_ASSERT_EQUAL(dag->nedges, 4);
    CU_ASSERT_EQUAL(dag->nhandles, 6);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "ID000001", "ID000002"), 2048);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "ID000001", "ID000003"), 0);
    CU_ASSERT_EQUAL(dag->handles[hs_test_handle_named(dag, "f.b1")].bytes, 2048);
    hs_dag_free(dag);
}

/* Written for this test: runtimes in a pegasus profile and in metadata,
 * sizes in a use (size:, metadata size) and in the replica catalogue, an
 * inout file, a dependency with no file (b -> c) and a file flow with no
 * dependency (a writes f1, c reads it). At speed=2G: a 3 s = 6e9 flops,
 * b 0.5 s = 1e9, c none. */
static const char *const handmade =
    "pegasus: '5.0'\n"
    "name: hand\n"
    "replicaCatalog:\n"
    "  replicas:\n"
    "    - {lfn: in0, pfns: [{site: local, pfn: /x}], metadata: {size: 100}}\n"
    "jobs:\n"
    "  - type: job\n"
    "    id: a\n"
    "    name: stage\n"
    "    arguments: []\n"
    "    profiles: {pegasus: {runtime: '3'}, env: {X: y}}\n"
    "    uses:\n"
    "      - {lfn: in0, type: input}\n"
    "      - {lfn: f1, type: output, size: 4096, stageOut: false, registerReplica: false}\n"
    "  - type: job\n"
    "    id: b\n"
    "    name: work\n"
    "    arguments: [-v]\n"
    "    metadata: {runtime: 0.5}\n"
    "    uses:\n"
    "      - lfn: f2\n"
    "        type: inout\n"
    "        metadata: {size: '512'}\n"
    "  - {type: job, id: c, name: work, arguments: [], uses: [{lfn: f1, type: input}]}\n"
    "jobDependencies:\n"
    "  - id: b\n"
    "    children: [c]\n";

static void test_handmade(void)
{
    char *path = hs_test_tmp_text(".yaml", handmade), spec[1200];
    snprintf(spec, sizeof spec, "pegasus:file=%s,speed=2G", path);
    struct hs_dag *dag = build_file(spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "hand");
    CU_ASSERT_EQUAL(dag->ntasks, 3);
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "a")].flops, 6e9);
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "b")].flops, 1e9);
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "c")].flops, 0);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "a", "c"), 4096); /* the file flow */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "b", "c"), 0);    /* the dependency alone */
    CU_ASSERT_EQUAL(dag->handles[hs_test_handle_named(dag, "in0")].bytes, 100); /* the catalogue */
    CU_ASSERT_EQUAL(dag->handles[hs_test_handle_named(dag, "f2")].bytes, 512);
    hs_dag_free(dag);
    /* the same text in a .xml file (where DAX files were): read by content */
    char *xml = hs_test_tmp_text(".xml", handmade), *out;
    snprintf(spec, sizeof spec, "dag %s --stats", xml);
    CU_ASSERT_EQUAL(hs_test_cli(spec, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "tasks: 3\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "edges: 2\n"));
    free(out);
    unlink(xml), unlink(path);
    free(xml), free(path);
}

/* `hetsim dag FILE.yml` on text: exit 2, one line holding PATH:LINE: expect. */
static void bad_yaml(const char *text, int line, const char *expect)
{
    char *path = hs_test_tmp_text(".yml", text), args[1200], want[1200];
    snprintf(args, sizeof args, "dag %s -o /dev/null", path);
    snprintf(want, sizeof want, "%s:%d: %s", path, line, expect);
    hs_test_bad_cli(args, want);
    unlink(path);
    free(path);
}

#define HEAD "pegasus: '5.0'\nname: w\njobs:\n"
#define JOB(id) "  - {type: job, id: " id ", name: k, arguments: [], uses: []}\n"

static void test_bad(void)
{
    bad_yaml("- a\n- b\n", 1, "not a Pegasus 5 workflow: the document is a sequence, not a mapping");
    bad_yaml(HEAD "  - {type: job, name: k, arguments: [], uses: []}\n", 4, "jobs[0]: a job without id");
    bad_yaml(HEAD JOB("a") "jobDependencies:\n  - id: a\n    children: [zz]\n", 7, "'zz' is not the id of a job");
    bad_yaml(HEAD "  - type: job\n    id: a\n    uses:\n      - {lfn: f, type: input, size: -5}\n", 7,
             "size -5 is negative");
    bad_yaml(HEAD "  - type: job\n    id: a\n    profiles:\n      pegasus: {runtime: soon}\n", 7,
             "runtime 'soon' is not a number");
    bad_yaml(HEAD "  - type: job\n    id: a\n   name: x\n", 6, "YAML syntax error: ");
    bad_yaml(HEAD "  - type: job\n    id: a\n    uses:\n      - {lfn: f, type: sideways}\n", 7,
             "lfn f: type 'sideways' is not input, output, inout, none or checkpoint");
    bad_yaml(HEAD "  - {type: pegasusWorkflow, id: s, file: x.yml}\n", 4, "jobs[0]: type pegasusWorkflow: sub-workflows are not read");
    bad_yaml("pegasus: '4.0'\njobs: []\n", 1, "pegasus: '4.0': hetsim reads Pegasus 5 workflows");
    bad_yaml(HEAD "  - &j {type: job, id: a, uses: []}\n  - *j\n", 4, "jobs[1]: this node is used a second time through a YAML alias");
    bad_yaml(HEAD "  - {type: job, id: a, id: b}\n", 4, "jobs[0]: key 'id' given twice");
    bad_yaml(HEAD JOB("a") "---\n" HEAD JOB("b"), 5, "a second YAML document");
    bad_yaml(HEAD "  - {type: job, id: \"a\\0b\"}\n", 4, "id: a NUL byte in the text");
    char *path = hs_test_tmp_text(".yml", HEAD JOB("a") JOB("a")), args[1200];
    snprintf(args, sizeof args, "dag %s -o /dev/null", path);
    hs_test_bad_cli(args, "two jobs have id 'a'");
    unlink(path);
    free(path);
    snprintf(args, sizeof args, "dag pegasus:file=%s -o /dev/null", hs_test_datafile("pegasus-diamond-3.6.dax"));
    hs_test_bad_cli(args, "pegasus-diamond-3.6.dax: an XML file, not a Pegasus 5 workflow (YAML): read a DAX file as dax:file=");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"real Pegasus 5 files: counts from their text", test_real_files},
        {"runtimes, sizes, dependencies and file flows; found by content", test_handmade},
        {"bad variants: one line with the file and line", test_bad},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("pegasus_yaml", tests);
}
