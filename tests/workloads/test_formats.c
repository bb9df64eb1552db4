/* tests/workloads/test_formats.c — other tools' DAG files, read from real files of
 * their ecosystems (tests/data/README.md gives where each comes from):
 * SimGrid's DOT, JSON and DAX examples with SimGrid's meaning (size="-1" a
 * pure dependency, runtimeInSeconds as flops, a transfer task as data, DAX
 * runtimes at 4.2 Gflop/s), WorkflowGenerator's Montage and a Pegasus 3.6
 * DAX, Kasahara's robot.stg against the critical path its comment states,
 * DAGGEN's text output against its DOT output of the same graph, and a
 * StarPU tasks.rec against StarPU's own performance-model means. Makespans
 * on flat:2 are computed by hand in the comments. */
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static struct hs_dag *build(const char *fmt, const char *file)
{
    char spec[1200];
    snprintf(spec, sizeof spec, fmt, hs_test_datafile(file));
    struct hs_dag *dag = hs_workload_build(spec);
    if (!dag)
        fprintf(stderr, "\n%s: %s\n", spec, hs_last_error());
    return dag;
}

static double run_makespan(const char *args)
{
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    double m = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "results"), "makespan")->valuedouble;
    cJSON_Delete(r);
    return m;
}

/* flat:2 at 1 Gflop/s and 1 GB/s, no write-back: seconds are Gflop and GB. */
#define FLAT2 "-p flat:2,speed=1G,bw=1G -s heft --no-flush"

static void test_simgrid_dot(void)
{
    struct hs_dag *dag = build("%s", "simgrid-dag-simple.dot");
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
    CU_ASSERT_DOUBLE_EQUAL(run_makespan(args), 7, 1e-9);
    dag = build("%s", "simgrid-dag.dot"); /* size "-1", "0.0", none; undeclared root */
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 12);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "3", "4"), 0);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "root", "5"), 10014000);
    hs_dag_free(dag);
}

static void test_simgrid_json(void)
{
    struct hs_dag *dag = build("%s", "simgrid-dag.json"); /* detected */
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_STRING_EQUAL(dag->name, "simple_json");
    CU_ASSERT_EQUAL(dag->ntasks, 3); /* the transfer t1 is data, not a task */
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "c2")].flops, 5e9); /* runtimeInSeconds: flops */
    int t1 = hs_test_handle_named(dag, "t1");
    CU_ASSERT_FATAL(t1 >= 0);
    CU_ASSERT_EQUAL(dag->handles[t1].bytes, 5e8); /* the transfer hetsim used to drop */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "c1", "c3"), 5e8);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "c2", "c3"), 0);
    hs_dag_free(dag);
    /* read as WfFormat: t1 an empty task, no data, runtimes in seconds */
    dag = build("wfformat:file=%s,semantics=wfformat", "simgrid-dag.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 4);
    for (int h = 0; h < dag->nhandles; h++) /* only the private handles of 0-byte edges */
        CU_ASSERT_EQUAL(dag->handles[h].bytes, 0);
    hs_dag_free(dag);
    /* c2 then c3: 5 + 2 s; c1 (1 s) and t1 (0.5 GB) elsewhere fit in c2's 5 s */
    char args[1200];
    snprintf(args, sizeof args, FLAT2 " -w %s", hs_test_datafile("simgrid-dag.json"));
    CU_ASSERT_DOUBLE_EQUAL(run_makespan(args), 7, 1e-9);
}

static void test_dax(void)
{
    /* SimGrid's DAX 2.1 example with SimGrid's 4.2 Gflop/s convention */
    struct hs_dag *dag = build("dax:file=%s,simgrid=1", "simgrid-dax-simple.xml");
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
    CU_ASSERT_DOUBLE_EQUAL(run_makespan(args), 0.1 + 50 + 20, 1e-9);
    /* WorkflowGenerator's Montage: 25 jobs whose runtimes add up to 227.75 s */
    dag = build("%s", "simgrid-Montage_25.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 25);
    CU_ASSERT_DOUBLE_EQUAL(hs_dag_flops(dag), 227.75e9, 1e3);
    hs_dag_free(dag);
    /* DAX 3.6: runtimes from <profile> and <metadata>, sizes from the <file>
     * catalogue, a size attribute and <metadata> inside <uses> */
    dag = build("%s", "pegasus-diamond-3.6.dax");
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

static void test_stg(void)
{
    /* robot.stg: 88 tasks and 2 dummies; its comment says "CP Length: 569" */
    char args[1200], *out;
    snprintf(args, sizeof args, "dag %s --stats", hs_test_datafile("stg-robot.stg"));
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "tasks: 90\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "critical_path: 569 s\n"));
    free(out);
    /* with a processor per task and no communication cost, the schedule is
     * the critical path */
    snprintf(args, sizeof args, "-p flat:90,bw=inf -s heft -w %s", hs_test_datafile("stg-robot.stg"));
    CU_ASSERT_DOUBLE_EQUAL(run_makespan(args), 569, 1e-9);
    struct hs_dag *dag = build("stg:file=%s,speed=2G", "stg-robot.stg");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "53")].flops, 111 * 2e9); /* line "53 111 1 45" */
    CU_ASSERT_EQUAL(hs_test_dep_bytes(dag, "45", "53"), 0);
    CU_ASSERT_EQUAL(dag->processors, 0); /* robot.stg's header is its task count alone */
    hs_dag_free(dag);

    /* the set's proto*.stg headers add the processor count ("473 4"): read and kept;
       a third field, or a header disagreeing with the task lines, refused in one line */
    char *f = hs_test_tmp(".stg");
    hs_test_write_file(f, "2 4\n0 0 0\n1 5 1 0\n2 3 1 0\n3 0 2 1 2\n# proto-like, by hand\n");
    snprintf(args, sizeof args, "dag stg:file=%s --stats", f);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "tasks: 4\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "critical_path: 5 s\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "processors: 4 (the file's own)\n"));
    free(out);
    hs_test_write_file(f, "2 4 7\n0 0 0\n");
    hs_test_bad_cli(args, ":1: header field '7': a header holds the number of tasks and at most the number of processors");
    hs_test_write_file(f, "2 x\n0 0 0\n");
    hs_test_bad_cli(args, ":1: header field 'x' is not a number of processors");
    hs_test_write_file(f, "2 4\n0 0 0\n1 5 1 0\n3 0 1 1\n");
    hs_test_bad_cli(args, ":4: task id 3 where 2 was expected");
    unlink(f);
    free(f);
}

static void test_daggen_text(void)
{
    /* one DAGGEN graph, written by DAGGEN as text and as DOT */
    struct hs_dag *t = build("daggen-text:%s", "daggen-6.txt"), *d = build("%s", "daggen-6.dot");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(t->ntasks, 6);
    CU_ASSERT_EQUAL(t->ntasks, d->ntasks);
    CU_ASSERT_EQUAL(t->nedges, d->nedges);
    for (int i = 0; i < t->ntasks && i < d->ntasks; i++) {
        CU_ASSERT_STRING_EQUAL(t->tasks[i].label, d->tasks[i].label);
        CU_ASSERT_EQUAL(t->tasks[i].flops, d->tasks[i].flops);
    }
    for (int e = 0; e < t->nedges && e < d->nedges; e++) {
        CU_ASSERT_EQUAL(t->edges[e].src, d->edges[e].src);
        CU_ASSERT_EQUAL(t->edges[e].dst, d->edges[e].dst);
        CU_ASSERT_EQUAL(t->edges[e].bytes, d->edges[e].bytes);
    }
    /* "NODE 4 5,6 COMPUTATION 380623105500 0.07", its transfer 5 to node 7 */
    CU_ASSERT_EQUAL(t->tasks[hs_test_task_named(t, "3")].flops, 380623105500.0);
    CU_ASSERT_EQUAL(hs_test_dep_bytes(t, "3", "5"), 411041792);
    hs_dag_free(t);
    hs_dag_free(d);
}

/* The cost a task was given on the CPU. */
static double cpu_cost(const struct hs_dag *dag, const char *job)
{
    int i = hs_test_task_named(dag, job);
    return i < 0 ? -1 : dag->tasks[i].arch_cost[HS_ARCH_CPU];
}

static void test_taskrec(void)
{
    struct hs_dag *dag = build("%s", "starpu-lu-rank0.rec");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->ntasks, 118);
    /* a simulated StarPU run: each duration is the mean of StarPU's own
     * performance model, which StarVZ's platform_file.rec of that trace
     * gives: dplrnt 5.076191e+03 us, dgetrf_nopiv 2.573344e+04, dtrsm 3.526222e+04 */
    CU_ASSERT_DOUBLE_EQUAL(cpu_cost(dag, "0_1"), 5076.191e-6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cpu_cost(dag, "0_129"), 25733.44e-6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cpu_cost(dag, "0_130"), 35262.22e-6, 1e-12);
    int t = hs_test_task_named(dag, "0_130");
    CU_ASSERT_EQUAL(dag->tasks[t].arch_mask, HS_ARCH_BIT(HS_ARCH_CPU)); /* MemoryNode 0 */
    CU_ASSERT_STRING_EQUAL(dag->kernels[dag->tasks[t].kernel], "dtrsm");
    /* StarPU's internal tasks (no worker) cost nothing */
    CU_ASSERT_EQUAL(cpu_cost(dag, "0_34"), 0);
    hs_dag_free(dag);
    /* workers 0-18 said to be GPUs: every timed task is GPU-only */
    dag = build("taskrec:file=%s,gpu_workers=0-18", "starpu-lu-rank0.rec");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    CU_ASSERT_EQUAL(dag->tasks[hs_test_task_named(dag, "0_130")].arch_mask, HS_ARCH_BIT(HS_ARCH_GPU));
    hs_dag_free(dag);
    char args[1200];
    snprintf(args, sizeof args, "-p flat:19,bw=inf -s dmda -w %s", hs_test_datafile("starpu-lu-rank0.rec"));
    double m = run_makespan(args);
    CU_ASSERT(m >= 5076.191e-6 + 25733.44e-6 + 35262.22e-6); /* dplrnt, getrf, trsm in a row */
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"SimGrid's DOT DAGs: size=-1, root and end", test_simgrid_dot},
        {"SimGrid's JSON DAG: flops and a transfer task", test_simgrid_json},
        {"Pegasus DAX 2.1 and 3.6, SimGrid's convention", test_dax},
        {"Kasahara's STG: robot.stg's critical path", test_stg},
        {"DAGGEN's text output is its DOT output", test_daggen_text},
        {"StarPU tasks.rec: StarPU's model means", test_taskrec},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("formats", tests);
}
