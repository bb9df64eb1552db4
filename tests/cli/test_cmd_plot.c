/* tests/cli/test_cmd_plot.c — `hetsim plot` and `hetsim gantt`
 * (cli/cmd_plot.c) end to end: plots to PNG, SVG and PDF (with the means and
 * confidence intervals they plot checked in the gnuplot script), and the
 * Gantt chart of a run recorded with --events. */
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
    /* the two curves 0.075 to each side of x (their bars apart: test_plot) */
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "$c0 << EOD\n0.92500000000000004 2.5 2.054"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "\n1.925 6 0\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "$c1 << EOD\n1.075 3 0\nEOD")); /* B at 2 failed: no point */
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set key title 'policy'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "title 'B'"));
    free(gp);
    free(csv), free(script);
}

/* The default labels: the title names what against what, then the
 * workload and platform every row shares and the runs behind a point ("1 to
 * 4"); the y axis claims "mean, 95% CI" only where a point has repetitions;
 * axis names in words; an axis of values >= 0 stops at 0, not below. */
static void test_plot_labels(void)
{
    char *csv = hs_test_tmp(".csv"), *png = hs_test_tmp(".png"), *script = hs_test_tmp(".gp"), args[2048];
    hs_test_write_file(csv, "key,policy,gpus,workload,platform,status,makespan\n"
                            "k1,A,1,\"cholesky:n=4096,nb=512\",idgraf,ok,0.1\n"
                            "k2,A,2,\"cholesky:n=4096,nb=512\",idgraf,ok,5\n");
    snprintf(args, sizeof args, "plot %s -x gpus -y makespan --by policy -o %s --script %s", csv, png, script);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    char *gp = hs_test_read_file(script);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(gp, "set title 'makespan against GPUs'.\"\\n\".'cholesky (n = 4096, nb = 512) on idgraf, 1 run per point'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set ylabel 'makespan [s]'\n")); /* one run: no interval claimed */
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set xlabel 'GPUs'\n"));
    /* 0.1 - 5% of (5 - 0.1) is below 0: the axis starts at 0 */
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set yrange [0:*]\n"));
    free(gp);
    hs_test_write_file(csv, results);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    gp = hs_test_read_file(script);
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set title 'makespan against GPUs'.\"\\n\".'1 to 4 runs per point'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set ylabel 'makespan (mean, 95% CI) [s]'\n"));
    free(gp);
    unlink(csv), unlink(png), unlink(script);
    free(csv), free(png), free(script);
}

/* --ratio policy=A: B's point is A's mean makespan over B's, 2.5 / 3, with
 * the delta method's interval: B's sd is 0, A's relative standard error
 * (1.29099 / 2.5) / sqrt(4) = 0.258199, times Student's t at 1 degree of
 * freedom (B's 2 runs less 1) 12.7062: 0.8333 x 3.28079 = 2.73394; labelled
 * which way it reads, on a log axis with a line at 1. --gain with a slower
 * point is drawn so too, with a note. */
static void test_plot_ratio(void)
{
    char *csv = hs_test_tmp(".csv"), *png = hs_test_tmp(".png"), *script = hs_test_tmp(".gp"), args[2048];
    hs_test_write_file(csv, results);
    snprintf(args, sizeof args, "plot %s -x gpus -y makespan --by policy --ratio policy=A -o %s --script %s", csv, png,
             script);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    char *gp = hs_test_read_file(script);
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "$c0 << EOD\n1 0.83333333333333"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, " 2.73393996"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set ylabel 'speedup over A: A''s makespan / this one''s; above 1 is faster'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set logscale y\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set arrow from graph 0, first 1 to graph 1, first 1 nohead"));
    free(gp);
    char *err = NULL;
    snprintf(args, sizeof args, "plot %s -x gpus -y makespan --by policy --gain policy=B -o %s --script %s", csv, png,
             script);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0); /* A (2.5) is faster than B (3): a gain, in % */
    gp = hs_test_read_file(script);
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set ylabel 'gain over B (%): above 0 is faster'"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "$c0 << EOD\n1 16.66666666666666"));
    CU_ASSERT_PTR_NULL(strstr(gp, "set logscale y"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "first 0 to graph 1, first 0 nohead"));
    free(gp), free(err);
    snprintf(args, sizeof args, "plot %s -x gpus -y makespan --by policy --gain policy=A -o %s --script %s", csv, png,
             script);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0); /* B (3) is slower than A (2.5) */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "some points are slower than policy=A: drawn as ratios on a log axis"));
    gp = hs_test_read_file(script);
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set logscale y\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "$c0 << EOD\n1 0.83333333333333"));
    free(gp), free(err);
    unlink(csv), unlink(png), unlink(script);
    free(csv), free(png), free(script);
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

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"plot to PNG, SVG, PDF", test_plot},
        {"Gantt chart of a run", test_gantt},
        {"plot: default labels in words, runs per point, an axis from 0", test_plot_labels},
        {"plot --ratio, --gain: direction in words, log axis, line, intervals", test_plot_ratio},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_plot", tests);
}
