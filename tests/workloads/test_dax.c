/* tests/workloads/test_dax.c — Pegasus DAX files (workloads/dax.c):
 * WorkflowGenerator's Montage and a Pegasus 3.6 DAX with SimGrid's meaning
 * (runtimes at 4.2 Gflop/s; tests/data/README.md gives where each comes
 * from), bad files refused in one line, and an XML entity costing no more
 * than a plain file of the same size (CPU times compared as a ratio). */
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

/* flat:2 at 1 Gflop/s and 1 GB/s, no write-back: seconds are Gflop and GB. */
#define FLAT2 "-p flat:2,speed=1G,bw=1G -s heft --no-flush"

static void test_dax(void)
{
    /* SimGrid's DAX 2.1 example with SimGrid's 4.2 Gflop/s convention */
    struct hs_dag *dag = hs_test_build_file("dax:file=%s,simgrid=1", "simgrid-dax-simple.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 3);
    CU_ASSERT_DOUBLE_EQUAL(dag->tasks[hs_test_task_named(dag, "1")].flops, 10 * 4.2e9, 1);
    CU_ASSERT_DOUBLE_EQUAL(dag->tasks[hs_test_task_named(dag, "2")].flops, 50 * 4.2e9, 1);
    CU_ASSERT_STRING_EQUAL(dag->kernels[dag->tasks[hs_test_task_named(dag, "3")].kernel], "c3");
    CU_ASSERT_EQUAL(dag->handles[hs_test_handle_named(dag, "o1")].bytes, 5e8);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "1", "3"), 5e8); /* o1 */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "2", "3"), 0);   /* <parent> without a file */
    hs_dag_free(dag);
    /* at 1 Gflop/s: c2 (i2: 0.1 s up, 50 s) then c3 (20 s) on one processor;
     * c1 (i1: 0.2 s, 10 s) on the other sends o1 (0.5 s) long before */
    char args[1200];
    snprintf(args, sizeof args, FLAT2 " -w %s", hs_test_datafile("simgrid-dax-simple.xml"));
    CU_ASSERT_DOUBLE_EQUAL(hs_test_run_makespan(args), 0.1 + 50 + 20, 1e-9);
    /* WorkflowGenerator's Montage: 25 jobs whose runtimes add up to 227.75 s */
    dag = hs_test_build_file("%s", "simgrid-Montage_25.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 25);
    CU_ASSERT_DOUBLE_EQUAL(hs_dag_flops(dag), 227.75e9, 1e3);
    hs_dag_free(dag);
    /* DAX 3.6: runtimes from <profile> and <metadata>, sizes from the <file>
     * catalogue, a size attribute and <metadata> inside <uses> */
    dag = hs_test_build_file("%s", "pegasus-diamond-3.6.dax");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "diamond");
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "j1")].flops, 60e9);
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "j2")].flops, 30e9);
    CU_ASSERT_EQUAL(dag->handles[hs_test_handle_named(dag, "f.a")].bytes, 1024);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "j1", "j2"), 2048);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "j1", "j3"), 4096);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "j3", "j4"), 512);
    hs_dag_free(dag);
}

#define ADAG(body) "<?xml version=\"1.0\"?>\n<adag version=\"2.1\">\n" body "</adag>\n"
#define JOB(id) "<job id=\"" id "\" name=\"k\" runtime=\"1\"/>\n"

static void test_bad_dax(void)
{
    hs_test_bad_workload_file("dax", ADAG("<job id=\"a\" runtime=\"1\">\n</adag>\n"), "malformed XML: line 4");
    hs_test_bad_workload_file("dax", "<?xml version=\"1.0\"?>\n<workflow/>\n", ":2: <workflow>: not a DAX file (no <adag>)");
    hs_test_bad_workload_file("dax", "<adag version=\"4.0\"/>", "<adag version=\"4.0\">: hetsim reads DAX 2.1 and 3.x");
    hs_test_bad_workload_file("dax", ADAG("<job name=\"k\" runtime=\"1\"/>\n"), ":3: <job>: no id");
    hs_test_bad_workload_file("dax", ADAG("<job id=\"a\" runtime=\"-5\"/>\n"), ":3: <job> runtime -5 is negative");
    hs_test_bad_workload_file("dax", ADAG("<job id=\"a\" runtime=\"soon\"/>\n"), "<job> runtime 'soon' is not a number");
    hs_test_bad_workload_file("dax", ADAG("<job id=\"a\">\n<uses file=\"f\" link=\"sideways\"/>\n</job>\n"),
             ":4: <uses file=\"f\">: link 'sideways' is not input, output, inout, none or checkpoint");
    hs_test_bad_workload_file("dax", ADAG("<job id=\"a\">\n<uses file=\"f\" link=\"input\" size=\"-1\"/>\n</job>\n"),
             "<uses> size -1 is negative");
    hs_test_bad_workload_file("dax", ADAG(JOB("a") "<child ref=\"a\">\n<parent ref=\"zz\"/>\n</child>\n"),
             ":5: 'zz' is not the id of a job");
    hs_test_bad_workload_file("dax", ADAG(JOB("a") JOB("a")), "two jobs have id 'a'");
    hs_test_bad_workload_file("dax", ADAG("<dax id=\"sub\" file=\"x.dax\"/>\n"), "<dax>: sub-workflows are not read");
    hs_test_bad_workload_file("dax", ADAG(""), "no <job>");
    char args[1024];
    snprintf(args, sizeof args, "dag %s/tests/data/simgrid-dax-cycle.xml", HETSIM_SOURCE_DIR);
    hs_test_bad_cli(args, "has a cycle (through 1, 3)");
}

/* A DAX file of 3,600 jobs whose kernel is one internal entity of 50,000
 * bytes (about 200 KB, 180 MB once expanded), or the same bytes with the
 * declaration a comment and the kernel "k00". */
static char *dax_file(bool entity, size_t *size)
{
    struct hs_buf b = {0};
    /* <!DOCTYPE adag [<!ENTITY e "TEXT">]> and <!--TEXT'--> are as long */
    char *text = hs_test_repeat('x', 50000), *comment = hs_test_repeat('c', 50000 + 25);
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
    double t_plain = hs_test_read_seconds(spec, &read_plain);
    CU_ASSERT(read_plain);
    snprintf(spec, sizeof spec, "dax:file=%s", ent);
    double t_ent = hs_test_read_seconds(spec, &read_ent);
    CU_ASSERT(!read_ent); /* refused, in one line */
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "declares an XML entity (<!ENTITY)"));
    double ratio = t_ent / fmax(t_plain, 1e-6);
    fprintf(stderr, "\n  DAX of %zu bytes: entity %.2f ms, plain %.2f ms, ratio %.3f\n", nent,
            1e3 * t_ent, 1e3 * t_plain, ratio);
    CU_ASSERT(ratio < 5);
    free(ent);
    free(plain);
}

/* One file given two sizes (issue 54): SimGrid's DAX loader keeps the
 * first and warns ("Ignore file f.dat size redefinition from 100 to 200");
 * so does hetsim, in one line, and the DAG holds 100 bytes: the stats' data
 * figure by hand, a 100-byte handle written by a and read by b. A use that
 * gives no size (it takes the catalogue's, or 0) is no second size. */
static void test_dax_two_sizes(void)
{
    char *path = hs_test_tmp(".dax"), args[4096], *out = NULL, *err = NULL;
    hs_test_write_file(path, "<?xml version=\"1.0\"?>\n"
                             "<adag xmlns=\"http://pegasus.isi.edu/schema/DAX\" version=\"2.1\">\n"
                             " <job id=\"a\" name=\"gen\" runtime=\"1\"><uses file=\"f.dat\" link=\"output\" size=\"100\"/></job>\n"
                             " <job id=\"b\" name=\"use\" runtime=\"1\"><uses file=\"f.dat\" link=\"input\" size=\"200\"/>"
                             "<uses file=\"g.dat\" link=\"input\"/></job>\n"
                             " <job id=\"c\" name=\"use\" runtime=\"1\"><uses file=\"g.dat\" link=\"input\" size=\"7\"/></job>\n"
                             " <child ref=\"b\"><parent ref=\"a\"/></child>\n"
                             "</adag>\n");
    snprintf(args, sizeof args, "dag dax:file=%s -o %s.json", path, path);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_EQUAL(hs_test_count_lines(err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "file 'f.dat' has 100 bytes in job 'a' and 200 in job 'b': the first, "
                                       "100 bytes, is kept (as SimGrid keeps it)\n"));
    CU_ASSERT_PTR_NULL(strstr(err, "g.dat"));
    free(out), free(err);
    snprintf(args, sizeof args, "%s.json", path);
    char *json = hs_test_read_file(args);
    CU_ASSERT_PTR_NOT_NULL(json ? strstr(json, "{\"name\":\"f.dat\",\"bytes\":100}") : NULL);
    free(json);
    unlink(args);
    free(path);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Pegasus DAX 2.1 and 3.6, SimGrid's convention", test_dax},
        {"bad DAX", test_bad_dax},
        {"a file given two sizes keeps the first, with a warning", test_dax_two_sizes},
        {"a DAX file with an entity costs what a plain one of its size does", test_dax_entity_cost},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dax", tests);
}
