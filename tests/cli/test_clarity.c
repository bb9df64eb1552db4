/* tests/cli/test_clarity.c — output a newcomer can read: the run summary
 * says what each figure is relative to and why the CPU workers' numbers have
 * gaps, hints at SetArch for work stealing on dense linear algebra; sweeps
 * warn when repetitions cannot differ, and the refusal of --vary seed names
 * the flag that draws other DAGs; misspelt names get the nearest one, a
 * range or a percentage written the wrong way says how, and HEFT's plan far
 * from its run says why. */
#define _DEFAULT_SOURCE /* strsep */
#include "analysis/csv.h"
#include "analysis/summary.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The default run on Idgraf: 8 GPUs and 4 CPU workers = 12 workers; DPOTRF
 * runs only on cores, so the sequential time is a core's, the first one's
 * (CPU0: every core is alike); GPU0 is driven by CPU5 (platform idgraf). */
static void test_summary_says_what_figures_are(void)
{
    char *out, *err;
    CU_ASSERT_EQUAL(hs_test_cli("run", &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "(flops of the whole operation / makespan)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "makespan / critical path with every task on its fastest worker"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "over CPU0 alone, the worker that runs every task fastest"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "speedup / 12 workers"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "GPU0       gpu"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "driven by CPU5\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "the cores that drive GPUs are not CPU workers"));
    CU_ASSERT_PTR_NULL(strstr(out, "hint"));
    free(out), free(err);
    /* with SetArch no single worker runs every task: no speedup, the split one */
    CU_ASSERT_EQUAL(hs_test_cli("run -w cholesky:n=4096,nb=1024,setarch=1", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "speedup      -        no one worker can run every task; speedup_split "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "efficiency   -"));
    free(out);
}

/* One CSV column, one meaning: with setarch=1 (no worker runs every task)
 * speedup, efficiency and sequential_time are null in the record and empty
 * in the CSV, never the sum of each task's best time; speedup_split is that
 * sum over the makespan in both. Checked as relations that hold by
 * definition: with setarch=0 speedup = sequential_time / makespan, and
 * speedup_split <= speedup (the sum of each task's best time is at most
 * one worker's sum for all). */
static void test_speedup_one_meaning(void)
{
    cJSON *r0 = hs_test_run_record("-w cholesky:n=4096,nb=1024,setarch=0");
    cJSON *r1 = hs_test_run_record("-w cholesky:n=4096,nb=1024,setarch=1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r1);
    const cJSON *res0 = cJSON_GetObjectItem(r0, "results"), *res1 = cJSON_GetObjectItem(r1, "results");
    double ms0 = cJSON_GetObjectItem(res0, "makespan")->valuedouble;
    double seq0 = cJSON_GetObjectItem(res0, "sequential_time")->valuedouble;
    double sp0 = cJSON_GetObjectItem(res0, "speedup")->valuedouble;
    CU_ASSERT_DOUBLE_EQUAL(sp0, seq0 / ms0, 1e-9 * sp0);
    CU_ASSERT(cJSON_GetObjectItem(res0, "speedup_split")->valuedouble <= sp0);
    CU_ASSERT(cJSON_IsNull(cJSON_GetObjectItem(res1, "speedup")));
    CU_ASSERT(cJSON_IsNull(cJSON_GetObjectItem(res1, "efficiency")));
    CU_ASSERT(cJSON_IsNull(cJSON_GetObjectItem(res1, "sequential_time")));
    CU_ASSERT(cJSON_IsNumber(cJSON_GetObjectItem(res1, "speedup_split")));
    cJSON_Delete(r0), cJSON_Delete(r1);
    /* the sweep's CSV: the setarch=1 row's speedup cell is empty */
    char *csv = hs_test_tmp(".csv"), args[1024], *out;
    snprintf(args, sizeof args, "sweep -w cholesky:n=4096,nb=1024 --vary setarch=0,1 -o %s -q", csv);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, &out, NULL), 0);
    free(out);
    char *text = hs_test_read_file(csv), *save = NULL;
    char *header = strtok_r(text, "\n", &save);
    int col = -1, setcol = -1, i = 0;
    for (char *p = header, *f; (f = strsep(&p, ",")); i++) {
        if (strcmp(f, "speedup") == 0)
            col = i;
        if (strcmp(f, "setarch") == 0)
            setcol = i;
    }
    CU_ASSERT_FATAL(col >= 0 && setcol >= 0);
    int rows = 0;
    for (char *line; (line = strtok_r(NULL, "\n", &save)); rows++) {
        char *cells[64] = {0};
        int n = 0;
        for (char *p = line, *f; n < 64 && (f = strsep(&p, ",")); n++)
            cells[n] = f;
        CU_ASSERT_FATAL(n > col && n > setcol);
        if (strcmp(cells[setcol], "1") == 0) {
            CU_ASSERT_STRING_EQUAL(cells[col], "");
        } else {
            CU_ASSERT(atof(cells[col]) > 1);
        }
    }
    CU_ASSERT_EQUAL(rows, 2);
    free(text);
    unlink(csv);
    free(csv);
}

/* No figure printed where it means nothing: GFlop/s of a replay whose tasks
 * declare no flops (StarPU's tasks.rec), or printed as if a workflow of
 * runtimes gave them, H2D/D2H for a machine without GPUs
 * (flat:P's processors have memories of their own: their moves are named as
 * such; cores in host memory move nothing). */
static void test_no_meaningless_figures(void)
{
    char *out;
    CU_ASSERT_EQUAL(hs_test_cli("run -p flat:4 -w taskrec:file=" HETSIM_SOURCE_DIR "/tests/data/starpu-lu-rank0.rec",
                                &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "performance  -        the workload declares no flops\n"));
    CU_ASSERT_PTR_NULL(strstr(out, "GFlop/s"));
    CU_ASSERT_PTR_NULL(strstr(out, "H2D"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "data moved   host to processors "));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("run -p idgraf --gpus 0 -w cholesky:n=2048,nb=512", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "data moved   none: no GPU worker"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "GFlop/s"));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("run -w cholesky:n=2048,nb=512", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "data moved   H2D ")); /* GPUs: the copies named as such */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, " GFlop/s (flops of the whole operation / makespan)\n"));
    free(out);
    /* a workflow of runtimes (WfCommons, STG): its GFlop/s come from the
     * reader's speed=, and the summary says so; SimGrid's JSON DAGs give
     * flops and do not */
    static const char *const runtimes[] = {"wfformat:" HETSIM_SOURCE_DIR "/tests/data/forkjoin-wf15.json,speed=2G",
                                           "stg:" HETSIM_SOURCE_DIR "/tests/data/stg-robot.stg,speed=2G"};
    char args[2048];
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "run -p flat:4 -w %s", runtimes[i]);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, " GFlop/s (not the workflow's own: it gives runtimes, counted as "
                                           "runtime x speed=2e+09 flop/s)\n"));
        free(out);
    }
    CU_ASSERT_EQUAL(hs_test_cli("run -p flat:4 -w wfformat:" HETSIM_SOURCE_DIR "/tests/data/simgrid-dag.json", &out,
                                NULL), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "gives runtimes"));
    free(out);
}

/* A workflow without runtimes (Pegasus files often are), DAX or Pegasus 5
 * YAML: every task costs 0 s, so the makespan is its transfers; one warning
 * line, and SLR, speedup and efficiency are n/a (null in the record), not 0. */
static void check_costless(const char *workflow, const char *name)
{
    char *rec = hs_test_tmp(".json"), args[1024], want[256], *out, *err;
    snprintf(args, sizeof args, "run -p flat:2 -w %s -o %s", workflow, rec);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, &out, &err), 0);
    snprintf(want, sizeof want, "hetsim: warning: DAG %s: no task has a cost", name);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    CU_ASSERT_PTR_NULL(strchr(strchr(err, '\n') + 1, '\n')); /* one line */
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "SLR          -        n/a"));
    free(out), free(err);
    char *text = hs_test_read_file(rec);
    cJSON *r = cJSON_Parse(text);
    const cJSON *res = cJSON_GetObjectItem(r, "results");
    CU_ASSERT(cJSON_IsNull(cJSON_GetObjectItem(res, "slr")));
    CU_ASSERT(cJSON_IsNull(cJSON_GetObjectItem(res, "speedup")));
    CU_ASSERT(cJSON_IsNull(cJSON_GetObjectItem(res, "efficiency")));
    CU_ASSERT(cJSON_GetObjectItem(res, "makespan")->valuedouble > 0);
    cJSON_Delete(r);
    free(text);
    unlink(rec);
    free(rec);
}

static void test_costless_dag(void)
{
    char *dax = hs_test_tmp(".dax");
    hs_test_write_file(dax, "<?xml version=\"1.0\"?>\n<adag xmlns=\"http://pegasus.isi.edu/schema/DAX\" "
                            "version=\"2.1\" name=\"nort\">\n"
                            "<job id=\"ID1\" name=\"a\"><uses file=\"f1\" link=\"output\" size=\"1000\"/></job>\n"
                            "<job id=\"ID2\" name=\"b\"><uses file=\"f1\" link=\"input\" size=\"1000\"/></job>\n"
                            "<child ref=\"ID2\"><parent ref=\"ID1\"/></child>\n</adag>\n");
    check_costless(dax, "nort");
    unlink(dax);
    free(dax);
    /* Pegasus' own parser test file: no runtime, f.b1 of 2048 bytes */
    check_costless(hs_test_datafile("pegasus5/diamond-parser.yml"), "diamond");
}

static void test_ws_hint(void)
{
    char *out;
    CU_ASSERT_EQUAL(hs_test_cli("run -s ws -w cholesky:n=4096,nb=1024", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "hint         idle cores steal GPU kernels"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "setarch=1"));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("run -s ws -w cholesky:n=4096,nb=1024,setarch=1", &out, NULL), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "hint"));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("run -s ws -w gemm:n=4096,nb=1024 --cpus 0", &out, NULL), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "hint")); /* no core to steal */
    free(out);
}

/* hs_reps_alike on rows written by hand: runs a and b have two repetitions
 * each; a's agree, b's do not. */
static void test_reps_alike(void)
{
    char *file = hs_test_tmp(".csv");
    hs_test_write_file(file, "key,instance,rep,seed,policy,status,error,makespan,sim_seconds\n"
                             "1,1,0,11,a,ok,,2.5,0.1\n"
                             "2,1,1,12,a,ok,,2.5,0.3\n"
                             "3,1,0,11,b,ok,,3,0.1\n"
                             "4,1,1,12,b,ok,,3.5,0.1\n"
                             "5,2,0,13,c,ok,,1,0.1\n");
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_read(file, &csv), 0);
    long alike, runs = hs_reps_alike(&csv, file, &alike);
    CU_ASSERT_EQUAL(runs, 2);
    CU_ASSERT_EQUAL(alike, 1);
    hs_csv_free(&csv);
    unlink(file), free(file);
}

static void test_sweep_warnings(void)
{
    char *csv = hs_test_tmp(".csv"), args[1024], *err;
    /* a deterministic policy, no noise: 3 repetitions of the same run */
    snprintf(args, sizeof args, "sweep -q -w cholesky:n=2048,nb=1024 --vary policy=dmda,heft --reps 3 -o %s", csv);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "warning: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "the repetitions of every run gave the same results"));
    free(err);
    unlink(csv);
    /* with noise they differ: no warning */
    snprintf(args, sizeof args, "sweep -q -w cholesky:n=2048,nb=1024 --vary policy=dmda --reps 3 --noise 0.1 -o %s", csv);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    free(err);
    unlink(csv);
    /* a random workload: --reps meets one DAG; the warning names the flag that draws more */
    snprintf(args, sizeof args, "sweep -q -p flat:2 -w random:v=20 --vary policy=heft --reps 2 --noise 0.1 -o %s", csv);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "every repetition of random:v=20 meets the same DAG"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--vary workload.seed=1..2"));
    free(err);
    unlink(csv);
    snprintf(args, sizeof args, "sweep -q -p flat:2 -w random:v=20 --vary workload.seed=1..2 --reps 2 --noise 0.1 -o %s", csv);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    free(err);
    unlink(csv);
    /* --vary seed is refused, naming --vary workload.seed */
    snprintf(args, sizeof args, "sweep -q -p flat:2 -w random:v=20 --vary seed=1..3 -o %s", csv);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "--vary workload.seed=1..20"));
    free(err);
    free(csv);
}

/* Messages that point to the fix: the nearest name for a misspelt or
 * wrong-case policy, workload, platform, study or command; a range written
 * 1-8 and a noise written 5%; where a sweep without -o wrote. */
static void test_messages_point_to_the_fix(void)
{
    hs_test_bad_cli("run -q -s hfet", "unknown policy 'hfet' (valid: eager");
    hs_test_bad_cli("run -q -s hfet", "lib*.so); did you mean 'heft'?");
    hs_test_bad_cli("run -q -s HEFT", "lib*.so); did you mean 'heft'?");
    hs_test_bad_cli("run -q -w choleski:n=2048", "DAG file); did you mean 'cholesky'?");
    hs_test_bad_cli("run -q -p idgrf", "platform file); did you mean 'idgraf'?");
    hs_test_bad_cli("reproduce dada-choleski", "unknown study 'dada-choleski'; did you mean 'dada-cholesky'? (shipped:");
    hs_test_bad_cli("swep", "unknown command 'swep' (see `hetsim --help`); did you mean 'sweep'?");
    hs_test_bad_cli("sweep --dry-run -w cholesky:n=2048 --vary gpus=1-8",
                    "'1-8' is not an integer in [0, 1048576] (a range of values, in --vary or a study, is written 1..8)");
    hs_test_bad_cli("run -q --noise 5%",
                    "'5%' is not a number in [0, 10] (a coefficient of variation, a fraction: 5% is written 0.05)");
    char *dir = hs_test_tmp("-sweep"), cmd[2048], *out;
    /* hetsim --help: the summaries in one column, after the longest name */
    CU_ASSERT_EQUAL(hs_test_cli("--help", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  run            simulate"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n  calibrate-sim  simulate"));
    free(out);
    snprintf(cmd, sizeof cmd, "mkdir -p %s && cd %s && %s/hetsim sweep -w cholesky:n=1024,nb=512 --vary gpus=1,2 -q 2>&1",
             dir, dir, HETSIM_BUILD_DIR);
    CU_ASSERT_EQUAL(hs_test_sh(NULL, cmd, &out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "sweep: rows in results.csv (the default; -o names another file)\n"));
    free(out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    hs_test_sh(NULL, cmd, NULL);
    free(dir);
}

/* HEFT's plan against what the run met: Cholesky 8192 on 8 GPUs behind
 * StarPU 1.1's one shared host link (idgraf-starpu) runs 0.690 s against a
 * plan of 0.166 s (4.15 times): a hint says why; on Idgraf as the papers
 * describe it (idgraf: 0.275 against 0.166 s, 1.65 times) none. */
static void test_heft_plan_hint(void)
{
    char *out;
    CU_ASSERT_EQUAL(hs_test_cli("run -p idgraf-starpu -w cholesky:n=8192,nb=512 -s heft", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "  hint         the makespan is 4.1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "times the plan's: heft planned on its estimates of kernels and transfers, "
                                       "without the contention for links and memory the run then met"));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("run -w cholesky:n=8192,nb=512 -s heft", &out, NULL), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "hint         the makespan is"));
    free(out);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"the summary says what each figure is relative to", test_summary_says_what_figures_are},
        {"speedup has one meaning: null where no worker runs every task", test_speedup_one_meaning},
        {"no figure printed where it means nothing (no flops, no GPU)", test_no_meaningless_figures},
        {"a DAG without costs (DAX, Pegasus 5): one warning, SLR and speedup n/a", test_costless_dag},
        {"work stealing without SetArch: a hint", test_ws_hint},
        {"repetitions alike, counted", test_reps_alike},
        {"sweeps warn when repetitions cannot differ", test_sweep_warnings},
        {"messages point to the fix: nearest names, ranges, percentages, default file", test_messages_point_to_the_fix},
        {"HEFT's plan far from the run: a hint", test_heft_plan_hint},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("clarity", tests);
}
