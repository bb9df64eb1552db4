/* tests/analysis/test_gantt.c — the Gantt chart of one run
 * (analysis/gantt.c): no box narrower than a pixel, the idle workers share
 * one row, the kernels have a legend and one colour each whatever the
 * window or the run, and the title says the makespan first. */
#include "analysis/csv.h"
#include "analysis/plot.h"
#include "analysis/stats.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A 1 s task and a 0.1 µs one on W0, nothing on W1: the short box is half a
 * pixel wide each side (1 s over 1000 pixels), W1 sits in the idle row, and
 * the legend names both kernels. */
static void test_gantt(void)
{
    char *rec = hs_test_tmp(".json"), *png = hs_test_tmp(".png"), *script = hs_test_tmp(".gp"), args[1024];
    hs_test_write_file(rec, "{\"inputs\":{\"workload\":\"w\",\"policy\":\"p\",\"platform\":\"f\"},"
                            "\"results\":{\"makespan\":1},"
                            "\"workers\":[{\"name\":\"W0\",\"memory_node\":\"P0\"},{\"name\":\"W1\",\"memory_node\":\"P1\"}],"
                            "\"events\":{\"tasks\":[{\"worker\":\"W0\",\"kernel\":\"long\",\"start\":0,\"end\":1},"
                            "{\"worker\":\"W0\",\"kernel\":\"short\",\"start\":0.5,\"end\":0.5000001}],"
                            "\"transfers\":[]}}");
    snprintf(args, sizeof args, "gantt %s -o %s --script %s", rec, png, script);
    char *err;
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    char *text = hs_test_read_file(script);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n0.50000005 1 0.0005 0.26\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "set ytics ('W0' 1, 'idle (1): W1' 0)"));
    CU_ASSERT_PTR_NULL(strstr(text, "border lc rgb 'white'"));
    CU_ASSERT(strstr(text, "title 'long'") && strstr(text, "title 'short'"));
    free(text), free(err);

    /* a window and a width: 0.4 to 0.6 s is 200 ms, the unit ms; half a pixel of the 400 left
       for the time axis of 600 is 0.25 ms; a task outside the window has no box nor key entry */
    hs_test_write_file(rec, "{\"inputs\":{\"workload\":\"w\",\"policy\":\"p\",\"platform\":\"f\"},"
                            "\"results\":{\"makespan\":1},"
                            "\"workers\":[{\"name\":\"W0\",\"memory_node\":\"P0\"}],"
                            "\"events\":{\"tasks\":[{\"worker\":\"W0\",\"kernel\":\"long\",\"start\":0,\"end\":1},"
                            "{\"worker\":\"W0\",\"kernel\":\"short\",\"start\":0.5,\"end\":0.5000001},"
                            "{\"worker\":\"W0\",\"kernel\":\"late\",\"start\":0.8,\"end\":0.9}],"
                            "\"transfers\":[]}}");
    snprintf(args, sizeof args, "gantt %s -o %s --script %s --from 0.4 --to 0.6 --width 600", rec, png, script);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    text = hs_test_read_file(script);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "set xrange [400:600]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "size 600,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n500.00005 0 0.25 0.26\n")); /* one worker: row 0 */
    CU_ASSERT_PTR_NULL(strstr(text, "title 'late'"));
    free(text), free(err);
    snprintf(args, sizeof args, "gantt %s -o %s --from 0.6 --to 0.4", rec, png);
    hs_test_bad_cli(args, "the window from 0.6 s to 0.4 s is empty");
    unlink(rec), unlink(png), unlink(script);
    free(rec), free(png), free(script);
}

/* The colour of each kernel's boxes and legend entry in a script. */
static const char *colour_of(const char *script, const char *kernel, char *out, size_t size)
{
    char key[128];
    snprintf(key, sizeof key, "' title '%s'", kernel);
    const char *at = strstr(script, key);
    out[0] = '\0';
    if (at && at - script >= 7)
        snprintf(out, size, "%.7s", at - 7);
    return out;
}

/* One colour per kernel name, stable across zooms, runs and policies: the
 * factorisations' kernels by their role (dpotrf the panel: Okabe and Ito's
 * blue #0072B2; dgemm the trailing update: their reddish purple #CC79A7),
 * others in alphabetical order on the colours left (alpha #D55E00, zeta
 * #009E73); the legend in that order (known ones first, then by name),
 * whatever order the tasks ran in, and the same in a window holding dgemm
 * alone and in a run that met the kernels the other way round. */
static void test_gantt_colours(void)
{
    char *rec = hs_test_tmp(".json"), *png = hs_test_tmp(".png"), *script = hs_test_tmp(".gp"), args[1024], c[16];
    const char *head = "{\"inputs\":{\"workload\":\"w\",\"policy\":\"p\",\"platform\":\"f\"},\"results\":{\"makespan\":4},"
                       "\"workers\":[{\"name\":\"W0\",\"memory_node\":\"P0\"}],\"events\":{\"tasks\":[";
    const char *runs[2] = {"{\"worker\":\"W0\",\"kernel\":\"dgemm\",\"start\":0,\"end\":1},"
                           "{\"worker\":\"W0\",\"kernel\":\"zeta\",\"start\":1,\"end\":2},"
                           "{\"worker\":\"W0\",\"kernel\":\"alpha\",\"start\":2,\"end\":3},"
                           "{\"worker\":\"W0\",\"kernel\":\"dpotrf\",\"start\":3,\"end\":4}",
                           "{\"worker\":\"W0\",\"kernel\":\"dpotrf\",\"start\":0,\"end\":1},"
                           "{\"worker\":\"W0\",\"kernel\":\"alpha\",\"start\":1,\"end\":2},"
                           "{\"worker\":\"W0\",\"kernel\":\"zeta\",\"start\":2,\"end\":3},"
                           "{\"worker\":\"W0\",\"kernel\":\"dgemm\",\"start\":3,\"end\":4}"};
    const char *windows[2] = {"", " --from 0 --to 0.9"};
    for (int r = 0; r < 2; r++)
        for (int w = 0; w < 2; w++) {
            char text[2048];
            snprintf(text, sizeof text, "%s%s],\"transfers\":[]}}", head, runs[r]);
            hs_test_write_file(rec, text);
            /* the window holds the first task's kernel alone: dgemm, then dpotrf */
            snprintf(args, sizeof args, "gantt %s -o %s --script %s%s", rec, png, script, windows[w]);
            CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
            char *gp = hs_test_read_file(script);
            const char *first = r == 0 ? "dgemm" : "dpotrf";
            CU_ASSERT_STRING_EQUAL(colour_of(gp, "dgemm", c, sizeof c), w && r ? "" : "#CC79A7");
            CU_ASSERT_STRING_EQUAL(colour_of(gp, "dpotrf", c, sizeof c), w && !r ? "" : "#0072B2");
            CU_ASSERT_STRING_EQUAL(colour_of(gp, "alpha", c, sizeof c), w ? "" : "#D55E00");
            CU_ASSERT_STRING_EQUAL(colour_of(gp, "zeta", c, sizeof c), w ? "" : "#009E73");
            CU_ASSERT_PTR_NOT_NULL(strstr(gp, first));
            if (!w) { /* the legend: dpotrf, dgemm, alpha, zeta */
                const char *a = strstr(gp, "title 'dpotrf'"), *b = strstr(gp, "title 'dgemm'");
                const char *x = strstr(gp, "title 'alpha'"), *z = strstr(gp, "title 'zeta'");
                CU_ASSERT(a && b && x && z && a < b && b < x && x < z);
            }
            free(gp);
        }
    unlink(rec), unlink(png), unlink(script);
    free(rec), free(png), free(script);
}

/* The title: the makespan first, in its unit, then the policy's and
 * platform's names; on a second line the workload in words (a file by its
 * name alone) and the policy's parameters, cut with "…" to the width
 * (about 7 pixels a character: 85 characters at 600 pixels). */
static void test_gantt_title(void)
{
    char *rec = hs_test_tmp(".json"), *png = hs_test_tmp(".png"), *script = hs_test_tmp(".gp"), args[1024];
    hs_test_write_file(rec, "{\"inputs\":{\"workload\":\"/a/long/folder/wf.json:speed=2\",\"policy\":\"heft:rank=mean\","
                            "\"platform\":\"idgraf\",\"gpus\":8,\"cpus\":4},\"results\":{\"makespan\":0.39},"
                            "\"workers\":[{\"name\":\"W0\",\"memory_node\":\"P0\"}],"
                            "\"events\":{\"tasks\":[{\"worker\":\"W0\",\"kernel\":\"k\",\"start\":0,\"end\":0.39}],"
                            "\"transfers\":[]}}");
    snprintf(args, sizeof args, "gantt %s -o %s --script %s", rec, png, script);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    char *gp = hs_test_read_file(script);
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "set title 'makespan 390 ms: heft on idgraf, 8 GPUs and 4 CPU workers'.\"\\n\"."
                                      "'wf.json (speed = 2); policy heft (rank = mean)'\n"));
    free(gp);
    snprintf(args, sizeof args, "gantt %s -o %s --script %s --width 300", rec, png, script);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    gp = hs_test_read_file(script);
    /* 300 / 7 = 42 characters: 41 and the ellipsis */
    CU_ASSERT_PTR_NOT_NULL(strstr(gp, "'wf.json (speed = 2); policy heft (rank = …'\n"));
    free(gp);
    unlink(rec), unlink(png), unlink(script);
    free(rec), free(png), free(script);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Gantt: no box vanishes, idle row, legend", test_gantt},
        {"Gantt: one colour per kernel name, whatever the window or the run", test_gantt_colours},
        {"Gantt: the title in words, the makespan first", test_gantt_title},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("gantt", tests);
}
