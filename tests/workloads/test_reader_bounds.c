/* tests/workloads/test_reader_bounds.c — what a DAG file costs its reader stays
 * in proportion to its size (issue 40): an XML entity cannot stand for more
 * text than the file holds (a DAX file declaring one is refused, timed
 * against a plain file of the same size), a tasks.rec value continued over
 * many lines is joined in linear time (timed against the same lines
 * continuing a field hetsim ignores), and every reader refuses a name longer
 * than HS_NAME_MAX bytes in one line naming the file, the field and the
 * length; a DAG's kernels are found by hashing, not by a scan of them all,
 * and DOT defaults cannot copy more than the file holds into its nodes. Times are CPU times, the least of a few readings, compared as a
 * ratio (never in seconds), so that a loaded machine or a sanitizer build
 * does not change the verdict. */
#include "base/inputfile.h"
#include "base/buf.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CPU seconds that reading spec takes, the least of five readings; *read:
 * whether the reader built a DAG (else it refused the file). */
static double read_seconds(const char *spec, bool *read)
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

/* "X" repeated n times (caller frees). */
static char *repeat(char c, size_t n)
{
    char *s = hs_xmalloc(n + 1);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

/* A DAX file of 3,600 jobs whose kernel is one internal entity of 50,000
 * bytes (about 200 KB, 180 MB once expanded), or the same bytes with the
 * declaration a comment and the kernel "k00". */
static char *dax_file(bool entity, size_t *size)
{
    struct hs_buf b = {0};
    /* <!DOCTYPE adag [<!ENTITY e "TEXT">]> and <!--TEXT'--> are as long */
    char *text = repeat('x', 50000), *comment = repeat('c', 50000 + 25);
    hs_buf_add(&b, "<?xml version=\"1.0\"?>\n");
    if (entity)
        hs_buf_printf(&b, "<!DOCTYPE adag [<!ENTITY e \"%s\">]>\n", text);
    else
        hs_buf_printf(&b, "<!--%s-->\n", comment);
    hs_buf_add(&b, "<adag version=\"2.1\">\n");
    for (int j = 0; j < 3600; j++)
        hs_buf_printf(&b, "<job id=\"j%05d\" name=\"%s\" runtime=\"1\"/>\n", j, entity ? "&e;" : "k00");
    hs_buf_add(&b, "</adag>\n");
    char *path = hs_test_tmp_text(".dax", hs_buf_str(&b));
    *size = b.len;
    hs_buf_free(&b);
    free(text);
    free(comment);
    return path;
}

static void test_dax_entity_cost(void)
{
    size_t nent, nplain;
    char *ent = dax_file(true, &nent), *plain = dax_file(false, &nplain), spec[1200];
    CU_ASSERT_EQUAL(nent, nplain);
    CU_ASSERT(nent > 190000 && nent < 210000);
    bool read_ent, read_plain;
    snprintf(spec, sizeof spec, "dax:file=%s", plain);
    double t_plain = read_seconds(spec, &read_plain);
    CU_ASSERT(read_plain);
    snprintf(spec, sizeof spec, "dax:file=%s", ent);
    double t_ent = read_seconds(spec, &read_ent);
    CU_ASSERT(!read_ent); /* refused, in one line */
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "declares an XML entity (<!ENTITY)"));
    double ratio = t_ent / fmax(t_plain, 1e-6);
    fprintf(stderr, "\n  DAX of %zu bytes: entity %.2f ms, plain %.2f ms, ratio %.3f\n", nent,
            1e3 * t_ent, 1e3 * t_plain, ratio);
    CU_ASSERT(ratio < 5);
    free(ent);
    free(plain);
}

/* One task record whose field `key` (Name: the kernel; Nope: a field hetsim
 * ignores) goes on over n continuation lines. */
static char *rec_file(const char *key, int n)
{
    struct hs_buf b = {0};
    hs_buf_printf(&b, "JobId: 1\nWorkerId: 0\nStartTime: 0\nEndTime: 1\n%s: k\n", key);
    for (int i = 0; i < n; i++)
        hs_buf_add(&b, "+ y\n");
    hs_buf_add(&b, "\n");
    char *path = hs_test_tmp_text(".rec", hs_buf_str(&b));
    hs_buf_free(&b);
    return path;
}

static void test_taskrec_continuation_cost(void)
{
    /* 32,000 lines: a Name of 64,001 bytes, under HS_NAME_MAX */
    char *joined = rec_file("Name", 32000), *ignored = rec_file("Nope", 32000), spec[1200];
    bool read_joined, read_ignored;
    snprintf(spec, sizeof spec, "taskrec:file=%s", ignored);
    double t_ignored = read_seconds(spec, &read_ignored);
    snprintf(spec, sizeof spec, "taskrec:file=%s", joined);
    double t_joined = read_seconds(spec, &read_joined);
    CU_ASSERT(read_ignored && read_joined);
    double ratio = t_joined / fmax(t_ignored, 1e-6);
    fprintf(stderr, "  tasks.rec of 32,000 continuation lines: joined %.2f ms, ignored %.2f ms, ratio %.3f\n",
            1e3 * t_joined, 1e3 * t_ignored, ratio);
    CU_ASSERT(ratio < 5);
    free(joined);
    free(ignored);
}

/* n bytes in a DOT quoted string: Graphviz's scanner takes at most 16,384
 * bytes between two quotes, so the text is cut into quoted pieces joined
 * by '+', which DOT concatenates (the opening and closing quotes are the
 * caller's). Caller frees. */
static char *dot_pieces(char c, size_t n)
{
    struct hs_buf b = {0};
    char *piece = repeat(c, 10000);
    for (size_t done = 0; done < n; done += 10000)
        hs_buf_printf(&b, "%s%.*s", done ? "\" + \"" : "", (int)(n - done < 10000 ? n - done : 10000), piece);
    free(piece);
    return hs_buf_take(&b);
}

/* `hetsim dag WORKLOAD:file=PATH` on text (one %s in fmt: the name, in DOT
 * pieces for the dot workload) refuses the name in one line holding expect. */
static void long_name(const char *workload, const char *suffix, const char *fmt, const char *expect)
{
    bool dot = strcmp(workload, "dot") == 0;
    char *name = dot ? dot_pieces('n', HS_NAME_MAX + 1) : repeat('n', HS_NAME_MAX + 1);
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

/* A DOT default gives its value to every node after it: 5,000 nodes under
 * a 60,000-byte default label stood for 300 MB of labels in an 80 KB file. */
static void test_dot_defaults(void)
{
    struct hs_buf b = {0};
    char *label = dot_pieces('l', 60000), args[1200];
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

/* CPU seconds to add n tasks whose kernels are all different (distinct) or
 * all the same, the least of three. */
static double kernel_seconds(int n, bool distinct)
{
    double best = INFINITY;
    for (int k = 0; k < 3; k++) {
        struct hs_dag *dag = hs_dag_new("kernels");
        double t0 = hs_thread_seconds();
        for (int i = 0; i < n; i++) {
            char name[32];
            snprintf(name, sizeof name, "kernel%d", distinct ? i : 0);
            hs_dag_add_task(dag, name, name, 1, 0);
        }
        best = fmin(best, hs_thread_seconds() - t0);
        CU_ASSERT_EQUAL(dag->nkernels, distinct ? n : 1);
        CU_ASSERT_EQUAL(hs_dag_find_kernel(dag, distinct ? "kernel17" : "kernel0"), distinct ? 17 : 0);
        CU_ASSERT_EQUAL(hs_dag_find_kernel(dag, "kernel-1"), -1);
        hs_dag_free(dag);
    }
    return best;
}

/* A file whose every task has a kernel of its own (a DAX job's name, a
 * WfFormat category) searched all the kernels before it per task. */
static void test_many_kernels(void)
{
    double t_distinct = kernel_seconds(40000, true), t_same = kernel_seconds(40000, false);
    double ratio = t_distinct / fmax(t_same, 1e-6);
    fprintf(stderr, "  40,000 tasks: distinct kernels %.2f ms, one kernel %.2f ms, ratio %.3f\n",
            1e3 * t_distinct, 1e3 * t_same, ratio);
    CU_ASSERT(ratio < 10); /* a scan of the kernels before: 30 and more */
}

/* A host of the shipped Idgraf platform renamed to HS_NAME_MAX + 1 bytes
 * (SimGrid reads the file; hetsim's inventory of its hosts refuses it). */
static void test_long_host_name(void)
{
    char *text = hs_test_read_file(hs_test_data("idgraf.xml"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *host = strstr(text, "<host id=\"CPU0\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(host);
    char *name = repeat('n', HS_NAME_MAX + 1), args[1200], want[256];
    struct hs_buf b = {0};
    hs_buf_addn(&b, text, (size_t)(host - text));
    hs_buf_printf(&b, "<host id=\"%s\"%s", name, host + strlen("<host id=\"CPU0\""));
    char *path = hs_test_tmp_text(".xml", hs_buf_str(&b));
    snprintf(args, sizeof args, "platform %s", path);
    snprintf(want, sizeof want, "a host name of %d bytes, more than the %d bytes hetsim reads in a name",
             HS_NAME_MAX + 1, HS_NAME_MAX);
    hs_test_bad_cli(args, want);
    hs_buf_free(&b);
    free(path);
    free(name);
    free(text);
}

/* A name of exactly HS_NAME_MAX bytes is read. */
static void test_longest_name(void)
{
    char *name = repeat('n', HS_NAME_MAX), *text = hs_xmalloc(HS_NAME_MAX + 128), spec[1200];
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
        {"a DAX file with an entity costs what a plain one of its size does", test_dax_entity_cost},
        {"a tasks.rec value of many continuation lines is joined in linear time", test_taskrec_continuation_cost},
        {"names longer than HS_NAME_MAX are refused by every reader", test_long_names},
        {"a name of HS_NAME_MAX bytes is read", test_longest_name},
        {"a host name longer than HS_NAME_MAX is refused", test_long_host_name},
        {"DOT defaults copied into every node are bounded by the file's size", test_dot_defaults},
        {"a kernel is found in constant time, however many there are", test_many_kernels},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("reader_bounds", tests);
}
