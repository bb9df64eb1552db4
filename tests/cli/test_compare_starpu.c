/* tests/cli/test_compare_starpu.c — tools/compare_starpu.sh's reduced run
 * (QUICK=1: StarPU's cholesky_implicit and lu_implicit_example_float at
 * 960 in 3×3 tiles of 320, 2 calibrating runs, 1 run under dmda and 1 under
 * eager, on the machine's cores), StarPU measuring and hetsim predicting
 * from the files StarPU wrote. Checked: a line per run with both times;
 * StarPU's history held (STARPU_HISTORY_MAX_ERROR=10000: every sample of
 * the calibrating runs kept but each codelet's first, which StarPU drops,
 * by hand from the tiles: Cholesky 3 POTRF, 3 TRSM and 4 updates a run, LU 3
 * GETRF, 3 TRSM of each side and 5 GEMM; no flush); each prediction within
 * the bounds of the means StarPU wrote (the tasks' total over the cores at
 * least, their total at most: the files read here with awk, not by hetsim);
 * the error column is (hetsim - StarPU) / StarPU; each case and policy's
 * median has its kernels' drift (its runs recorded samples, eager's too);
 * the script's bad input is
 * one line and exit 2. No accuracy is asserted: a 20 ms run on a CI machine
 * says little of the model (tools/compare_starpu.sh's default run does,
 * docs/platforms.md). Skipped (exit 77) where StarPU's examples are not
 * installed (Debian: starpu-examples); ctest label `starpu`, run alone. */
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *examples(void)
{
    const char *ex = getenv("STARPU_EXAMPLES");
    return ex && *ex ? ex : "/usr/lib/x86_64-linux-gnu/starpu/examples";
}

/* The total of the means × tasks a run makes, in ms, from the calibrated
 * copy's files (symbol: tasks of one run). */
static double work_ms(const char *dir, const char *const *symbols, const int *tasks, int n)
{
    double total = 0;
    for (int i = 0; i < n; i++) {
        char cmd[8400], *out = NULL;
        snprintf(cmd, sizeof cmd, "awk '/^[0-9a-f]+\\t/ {print $4}' %s/sampling/codelets/45/%s.*", dir, symbols[i]);
        CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, cmd, &out), 0);
        double us = atof(out);
        CU_ASSERT(us > 0);
        total += tasks[i] * us / 1000;
        free(out);
    }
    return total;
}

/* The table line of case c under policy p: StarPU's ms, hetsim's, the error. */
static int row(const char *out, const char *c, const char *p, double *ms, double *sim, double *err)
{
    char want[128];
    snprintf(want, sizeof want, "  %-18s %-6s ", c, p);
    const char *at = strstr(out, want);
    return at && sscanf(at + strlen(want), "%lf %lf %lf%%", ms, sim, err) == 3 ? 0 : -1;
}

static void test_quick(void)
{
    char *dir = hs_test_tmp_dir(".starpu"), cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd, "QUICK=1 HETSIM='%s' tools/compare_starpu.sh '%s' 2>&1", HETSIM_BIN, dir);
    int rc = hs_test_sh(HETSIM_SOURCE_DIR, cmd, &out);
    if (rc)
        fprintf(stderr, "\n%s\n", out);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "# load before: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "history (samples kept / taken by the 2 calibrating runs, less the first, "
                                       "which StarPU drops): cholesky:960:3: POTRF 5/5, TRSM 5/5, GEMM+SYRK 7/7; "
                                       "lu:960:3: GETRF 5/5, TRSM12 5/5, TRSM21 5/5, GEMM 9/9"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "StarPU's flushes (\"Too big deviation\", every run of the table): 0\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "summary: 4 runs, error mean "));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "summary: 4 medians (case and policy), error mean "));
    static const char *const chol[] = {"chol_model_11", "chol_model_21", "chol_model_22"};
    static const char *const lu[] = {"starpu_slu_lu_model_11", "starpu_slu_lu_model_12", "starpu_slu_lu_model_21",
                                     "starpu_slu_lu_model_22"};
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/cholesky-960-3", dir);
    double work[2];
    work[0] = work_ms(sub, chol, (const int[]){3, 3, 4}, 3);
    snprintf(sub, sizeof sub, "%s/lu-960-3", dir);
    work[1] = work_ms(sub, lu, (const int[]){3, 3, 3, 5}, 4);
    const char *cases[] = {"cholesky:960:3", "lu:960:3"}, *policies[] = {"dmda", "eager"};
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < 2; p++) {
            double ms, sim, err;
            CU_ASSERT_EQUAL_FATAL(row(out, cases[c], policies[p], &ms, &sim, &err), 0);
            CU_ASSERT(ms > 0);
            CU_ASSERT(sim >= work[c] / 2 - 0.05 && sim <= work[c] + 0.05);
            CU_ASSERT_DOUBLE_EQUAL(err, 100 * (sim - ms) / ms, 0.051);
            if (!(sim >= work[c] / 2 - 0.05 && sim <= work[c] + 0.05))
                fprintf(stderr, "\n%s %s: hetsim %.1f ms, the means' total %.1f ms\n", cases[c], policies[p], sim,
                        work[c]);
        }
    /* the medians, with the kernels' drift of each policy's runs (samples recorded under eager too) */
    const char *med = strstr(out, " median_ms ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(med);
    for (int c = 0; c < 2; c++)
        for (int p = 0; p < 2; p++) {
            char want[128], kd[32] = "";
            double m, sim, err;
            snprintf(want, sizeof want, "  %-18s %-6s ", cases[c], policies[p]);
            const char *at = strstr(med, want);
            CU_ASSERT_PTR_NOT_NULL_FATAL(at);
            CU_ASSERT_EQUAL(sscanf(at + strlen(want), "%lf %*s %lf %lf%% %31s", &m, &sim, &err, kd), 4);
            CU_ASSERT(kd[0] && kd[strlen(kd) - 1] == '%');
        }
    free(out);
    free(dir);
}

/* The script's own bad input: one line, exit 2. */
static void test_bad(void)
{
    static const char *const runs[][2] = {
        {"CASES=cholesky:1000:3", "case 'cholesky:1000:3': 1000 is not a multiple of 3"},
        {"CASES=qr:960:3", "case 'qr:960:3': example 'qr' is cholesky or lu"},
        {"POLICIES=heft", "policy 'heft': StarPU's and hetsim's dmda and eager are compared"},
        {"REPS=0", "REPS '0' is not a whole number >= 1"},
        {"HETSIM=/nonexistent", "/nonexistent not found: build hetsim or set HETSIM"},
        {"STARPU_EXAMPLES=/nonexistent", "/nonexistent/cholesky_implicit not found: install StarPU's examples"},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char cmd[4096], *out = NULL;
        snprintf(cmd, sizeof cmd, "HETSIM='%s' %s tools/compare_starpu.sh 2>&1 >/dev/null", HETSIM_BIN, runs[i][0]);
        CU_ASSERT_EQUAL(hs_test_sh(HETSIM_SOURCE_DIR, cmd, &out), 2);
        CU_ASSERT_EQUAL(hs_test_count_lines(out), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, runs[i][1]));
        if (!strstr(out, runs[i][1]))
            fprintf(stderr, "\n%s: %s\n", runs[i][0], out);
        free(out);
    }
    /* an output folder that holds something */
    char *dir = hs_test_tmp_dir(".out"), cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd, "touch '%s/x' && HETSIM='%s' tools/compare_starpu.sh '%s' 2>&1 >/dev/null", dir,
             HETSIM_BIN, dir);
    CU_ASSERT_EQUAL(hs_test_sh(HETSIM_SOURCE_DIR, cmd, &out), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "exists and is not an empty folder"));
    CU_ASSERT_EQUAL(hs_test_count_lines(out), 1);
    free(out);
    free(dir);
}

int main(void)
{
    char prog[4096];
    snprintf(prog, sizeof prog, "%s/cholesky_implicit", examples());
    if (access(prog, X_OK) != 0) {
        printf("compare_starpu: skipped: %s not found (StarPU's examples: Debian's starpu-examples)\n", prog);
        return 77;
    }
    static const CU_TestInfo tests[] = {
        {"the reduced run: a line per run, the history held", test_quick},
        {"the script's bad input: one line, exit 2", test_bad},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("compare_starpu", tests);
}
