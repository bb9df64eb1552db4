/* tests/cli/test_cmd_reproduce.c — `hetsim reproduce` (cli/cmd_reproduce.c)
 * end to end on the shipped studies in their --quick versions (under a
 * minute: results, summary, plots, published values): --list, failed rows
 * not done and --retry-failed, plot titles naming what a quick version ran,
 * the HEFT-NC studies, and every shipped study. */
#include "analysis/csv.h"
#include "base/util.h"
#include "scenario/scenario.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) ? -1 : (long)st.st_size;
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
    snprintf(path, sizeof path, "heftnc-ch5: 48 runs; summary.csv, pairwise.csv, published.csv and 4 plots in %s\n",
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

/* The published-values table: three tasks of 1, 3 and 2 s on one processor
 * run 6 s under any policy (by hand). A figure of 6 is ok (+0.0%), one of 5
 * missed by +20.0%; against a bound (<= 10) no difference is shown, only
 * the verdict; a count line follows; --quick (other sizes) shows no
 * difference and counts what it did not check. Every line fits 120
 * characters where the terminal has 120 (the source wrapped). */
static void test_published_table(void)
{
    char *dag = hs_test_tmp_text(".json", "{\"name\":\"three\",\"handles\":[],\"tasks\":["
                                          "{\"label\":\"a\",\"kernel\":\"k\",\"accesses\":[],\"costs\":[1]},"
                                          "{\"label\":\"b\",\"kernel\":\"k\",\"accesses\":[],\"costs\":[3]},"
                                          "{\"label\":\"c\",\"kernel\":\"k\",\"accesses\":[],\"costs\":[2]}]}");
    char text[4096], *dir = hs_test_tmp(""), args[2048], *out;
    snprintf(text, sizeof text,
             "{\"name\": \"tiny\", \"sweep\": {\"base\": {\"platform\": \"flat:1\", \"workload\": \"%s\"}, "
             "\"vary\": {\"policy\": [\"eager\", \"heft\"]}, \"reps\": 1}, \"quick\": {\"vary\": {\"policy\": [\"eager\"]}},"
             " \"published\": ["
             "{\"where\": {\"policy\": \"eager\"}, \"metric\": \"makespan\", \"value\": 6, \"tolerance\": 0.1, "
             "\"source\": \"by hand: 1 + 3 + 2 s, a source long enough to make the row wider than a terminal if it "
             "were printed beside the others\"},"
             "{\"where\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", \"value\": 5, \"tolerance\": 0.1},"
             "{\"where\": {\"policy\": \"heft\"}, \"metric\": \"makespan\", \"value\": 10, \"bound\": \"upper\"}]}",
             dag);
    char *study = hs_test_tmp_text(".json", text);
    snprintf(args, sizeof args, "reproduce %s -o %s", study, dir);
    setenv("COLUMNS", "120", 1); /* as a terminal of 120 columns; into a pipe, whole rows */
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    unsetenv("COLUMNS");
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "makespan  policy=eager          6     6        1  +0.0%   10%        ok       by hand: 1 + 3"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "makespan  policy=heft           5     6        1  +20.0%  10%        MISS\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "makespan  policy=heft   <= 10         6        1                     ok\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n2 ok, 1 missed of 3 checked\n"));
    for (char *line = out, *eol; line && *line; line = eol ? eol + 1 : NULL) {
        eol = strchr(line, '\n');
        CU_ASSERT((eol ? (size_t)(eol - line) : strlen(line)) <= 120);
    }
    free(out);
    snprintf(args, sizeof args, "reproduce %s --quick -o %s-quick", study, dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "+0.0%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n3 of 3 not checked (quick run: other sizes than the paper's)\n"));
    free(out);
    unlink(dag), unlink(study);
    free(dag), free(study), free(dir);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"reproduce --list; reproduce --quick", test_reproduce_quick},
        {"reproduce: failed rows are not done; --retry-failed", test_reproduce_retry_failed},
        {"a quick version's plot titles name what it ran", test_quick_titles},
        {"the HEFT-NC studies load; heftnc-ch5 --quick", test_heftnc_study_quick},
        {"every shipped study runs in its --quick version", test_every_study_quick},
        {"the published-values table: differences where they mean something, a count, 120 columns",
         test_published_table},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_reproduce", tests);
}
