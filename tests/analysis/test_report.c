/* tests/analysis/test_report.c — what turns results into figures: `hetsim plot`
 * to PNG, SVG and PDF (with the means and confidence intervals it plots
 * checked in its gnuplot script), `hetsim gantt` of a run recorded with
 * --events, and `hetsim reproduce` of the shipped studies in their --quick
 * versions (under a minute: results, summary, plots, published values). */
#include "analysis/csv.h"
#include "base/util.h"
#include "scenario/scenario.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static bool starts_with_file(const char *path, const char *magic, size_t len)
{
    char *text = hs_test_read_file(path);
    bool ok = strlen(text) >= len && memcmp(text, magic, len) == 0;
    free(text);
    return ok;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) ? -1 : (long)st.st_size;
}

/* Makespans of A at x=1: 1 2 3 4 (mean 2.5, sd sqrt(5/3), ci 3.182 * 1.291 / 2 =
 * 2.054); at x=2: 6 (one run, no interval); B at x=1: 3 3 (sd 0). */
static const char *results =
    "key,instance,policy,gpus,status,makespan\n"
    "k1,1,A,1,ok,1\nk2,2,A,1,ok,2\nk3,3,A,1,ok,3\nk4,4,A,1,ok,4\nk5,5,A,2,ok,6\n"
    "k6,1,B,1,ok,3\nk7,2,B,1,ok,3\nk8,3,B,2,error,\n";

static void test_plot(void)
{
    char *csv = hs_test_tmp(".csv"), *script = hs_test_tmp(".gp"), args[2048];
    hs_test_write_file(csv, results);
    const char *ext[] = {".png", ".svg", ".pdf"}, *magic[] = {"\x89PNG", "<?xml", "%PDF"};
    for (int i = 0; i < 3; i++) {
        char *out = hs_test_tmp(ext[i]);
        snprintf(args, sizeof args, "plot %s -x gpus -y makespan --by policy -o %s --script %s", csv, out,
                 script);
        CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
        CU_ASSERT(file_size(out) > 1000);
        CU_ASSERT(starts_with_file(out, magic[i], strlen(magic[i])));
        free(out);
    }
    char *gp = hs_test_read_file(script);
    /* the two curves 0.075 to each side of x (their bars apart: test_pictures) */
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "$c0 << EOD\n0.92500000000000004 2.5 2.054"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "\n1.925 6 0\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "$c1 << EOD\n1.075 3 0\nEOD")); /* B at 2 failed: no point */
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set key title 'policy'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "title 'B'"));
    free(gp);
    free(csv), free(script);
}

static void test_gantt(void)
{
    char *rec = hs_test_tmp(".json"), *png = hs_test_tmp(".png"), *script = hs_test_tmp(".gp"), args[2048];
    snprintf(args, sizeof args, "run -q -w cholesky:n=4096,nb=1024 --gpus 2 --cpus 2 --events -o %s", rec);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "gantt %s -o %s --script %s", rec, png, script);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    CU_ASSERT(starts_with_file(png, "\x89PNG", 4));
    char *gp = hs_test_read_file(script);
    /* one row per worker that ran a task, the first on top; the idle ones share the last row */
    for (const char *const *w = (const char *const[]){"'GPU0' 3", "'GPU1' 2", "'CPU0' 1", "'idle (1): CPU1' 0", NULL}; *w; w++)
        CU_ASSERT_PTR_NOT_NULL(strstr(gp, *w));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "title 'dpotrf'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "title 'dgemm'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "$tin << EOD\n")); /* transfers on the GPU rows */
    CU_ASSERT_PTR_NULL(strstr(gp, "$tin << EOD\nnan"));
    free(gp);
    free(rec), free(png), free(script);
}

/* Every shipped study loads (a typo would make --list fail), and the HEFT-NC
 * study's quick version runs: 2 policies x 2 sizes x 2 shapes x 2 CCR x 3
 * DAGs, every row ok, and its report prints the statistics the thesis'
 * tables give (median, sd, Best Case %). */
static void test_heftnc_study_quick(void)
{
    char *out, *dir = hs_test_tmp(""), args[2048], path[2048];
    CU_ASSERT_EQUAL(hs_test_cli("reproduce --list", &out, NULL), 0);
    const char *names[] = {"heftnc-ch5", "heftnc-ch6-p4", "heftnc-ch6-p8"};
    for (int i = 0; i < 3; i++)
        CU_ASSERT_PTR_NOT_NULL(strstr(out, names[i]));
    free(out);
    snprintf(args, sizeof args, "reproduce heftnc-ch5 --quick -j 2 -o %s", dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "slr_cpic median"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "makespan better_pct  policy=heftnc ccr=5 vs policy=heft"));
    free(out);
    /* -q: one line of where the results went (it printed about 80) */
    snprintf(args, sizeof args, "reproduce heftnc-ch5 --quick -j 2 -q -o %s", dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    snprintf(path, sizeof path, "heftnc-ch5: 48 runs; summary.csv, pairwise.csv, published.csv and 3 plots in %s\n",
             dir);
    CU_ASSERT_STRING_EQUAL(out, path);
    free(out);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_read(path, &csv), 0);
    CU_ASSERT_EQUAL(csv.nrows, 48);
    int st = hs_csv_col(&csv, "status"), slr = hs_csv_col(&csv, "slr_cpic");
    CU_ASSERT_FATAL(st >= 0 && slr >= 0);
    for (long r = 0; r < csv.nrows; r++) {
        CU_ASSERT_STRING_EQUAL(csv.rows[r][st], "ok");
        CU_ASSERT(atof(csv.rows[r][slr]) > 0);
    }
    hs_csv_free(&csv);
    free(dir);
}

/* A quick version's plots do not carry the full study's sizes in their
 * title (cholesky-idgraf-gpus said N = 16384 over runs of 8192): they name
 * the settings the quick version ran with. */
static void test_quick_titles(void)
{
    struct hs_study full, quick;
    CU_ASSERT_EQUAL_FATAL(hs_study_load("cholesky-idgraf-gpus", false, &full), 0);
    CU_ASSERT_EQUAL_FATAL(hs_study_load("cholesky-idgraf-gpus", true, &quick), 0);
    CU_ASSERT_FATAL(full.nplots > 0 && quick.nplots == full.nplots);
    char *t = hs_study_plot_title(&full, &full.plots[0]);
    CU_ASSERT_STRING_EQUAL(t, "Tiled Cholesky on Idgraf (N = 16384, NB = 1024)"); /* the study file's */
    free(t);
    for (int i = 0; i < quick.nplots; i++) {
        t = hs_study_plot_title(&quick, &quick.plots[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(t, "cholesky-idgraf-gpus, quick version: "));
        CU_ASSERT_PTR_NOT_NULL(strstr(t, "workload cholesky:n=8192,nb=1024,setarch=1"));
        CU_ASSERT_PTR_NULL(strstr(t, "16384"));
        free(t);
    }
    hs_study_free(&full);
    hs_study_free(&quick);
}

/* A study resumed after failures is not done: reproduce exits 1 and says
 * so, and --retry-failed runs the failed rows again (a rerun used to do 0
 * runs and exit 0). The runs fail by a timeout of 1 ms. */
static void test_reproduce_retry_failed(void)
{
    char *out, *err, *dir = hs_test_tmp(""), args[2048];
    /* every run times out: no row to summarize either (exit 1 or 2) */
    snprintf(args, sizeof args, "reproduce heftnc-ch5 --quick -j 2 -q --timeout 0.001 -o %s", dir);
    CU_ASSERT_NOT_EQUAL(hs_test_cli(args, &out, &err), 0);
    free(out), free(err);
    snprintf(args, sizeof args, "reproduce heftnc-ch5 --quick -j 2 -q -o %s", dir);
    CU_ASSERT_NOT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, " already in ")); /* 48 where no run ends within 1 ms */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "not run again: --retry-failed runs"));
    free(out), free(err);
    snprintf(args, sizeof args, "reproduce heftnc-ch5 --quick -j 2 -q --retry-failed -o %s", dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    free(out), free(err);
    snprintf(args, sizeof args, "%s/results.csv", dir);
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_read(args, &csv), 0);
    CU_ASSERT_EQUAL(csv.nrows, 48);
    int st = hs_csv_col(&csv, "status");
    for (long r = 0; r < csv.nrows; r++)
        CU_ASSERT_STRING_EQUAL(csv.rows[r][st], "ok");
    hs_csv_free(&csv);
    free(dir);
}

/* Every shipped study runs in its --quick version, from its sweep (a --vary
 * key that more than one of the workload, the policy and the platform take
 * must be qualified) to its table and plots (their columns must exist):
 * exit 0 and a summary for each. A study that only loads is not enough: a
 * new policy parameter named like a workload's once broke one that way. */
static void test_every_study_quick(void)
{
    char *list, *dir = hs_test_tmp("");
    CU_ASSERT_EQUAL_FATAL(hs_test_cli("reproduce --list", &list, NULL), 0);
    int studies = 0;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        char name[256], args[2048], path[2048], *out, *err;
        if (sscanf(line, "%255s", name) != 1)
            continue;
        snprintf(args, sizeof args, "reproduce %s --quick -j 2 -q -o %s/%s", name, dir, name);
        int rc = hs_test_cli(args, &out, &err);
        if (rc != 0)
            fprintf(stderr, "\n%s: exit %d: %s\n", name, rc, err);
        CU_ASSERT_EQUAL(rc, 0);
        snprintf(path, sizeof path, "%s/%s/summary.csv", dir, name);
        CU_ASSERT(file_size(path) > 0);
        free(out);
        free(err);
        studies++;
    }
    CU_ASSERT(studies >= 40); /* the shipped studies (43 today) */
    free(list);
    free(dir);
}

static void test_reproduce_quick(void)
{
    char *out, *dir = hs_test_tmp(""), args[2048], path[2048];
    CU_ASSERT_EQUAL(hs_test_cli("reproduce --list", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "cholesky-idgraf-gpus"));
    free(out);
    snprintf(args, sizeof args, "reproduce cholesky-idgraf-gpus --quick -j 2 -o %s", dir);
    time_t t0 = time(NULL);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT(time(NULL) - t0 < 60);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "published values beside ours"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "not checked (quick)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "policy  gpus  metric"));
    free(out);
    snprintf(path, sizeof path, "%s/results.csv", dir);
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_read(path, &csv), 0);
    CU_ASSERT_EQUAL(csv.nrows, 16); /* heft, dmda, eager, ws x 1, 2, 4, 8 GPUs */
    int st = hs_csv_col(&csv, "status");
    for (long r = 0; r < csv.nrows; r++)
        CU_ASSERT_STRING_EQUAL(csv.rows[r][st], "ok");
    hs_csv_free(&csv);
    const char *files[] = {"summary.csv", "pairwise.csv", "published.csv", "gflops.png", "transfers.png"};
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        CU_ASSERT(file_size(path) > 100);
    }
    /* run again: nothing to simulate, the same report */
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "0 runs in"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "16 already in"));
    free(out);
    free(dir);
}

static void test_help(void)
{
    const char *cmds[] = {"sweep", "merge", "summarize", "plot", "gantt", "reproduce"};
    for (int i = 0; i < 6; i++) {
        char args[64], *out;
        snprintf(args, sizeof args, "%s --help", cmds[i]);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: hetsim"));
        free(out);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"help of the commands", test_help},
        {"plot to PNG, SVG, PDF", test_plot},
        {"Gantt chart of a run", test_gantt},
        {"reproduce --list; reproduce --quick", test_reproduce_quick},
        {"reproduce: failed rows are not done; --retry-failed", test_reproduce_retry_failed},
        {"a quick version's plot titles name what it ran", test_quick_titles},
        {"the HEFT-NC studies load; heftnc-ch5 --quick", test_heftnc_study_quick},
        {"every shipped study runs in its --quick version", test_every_study_quick},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("report", tests);
}
