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
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cmd_plot", tests);
}
