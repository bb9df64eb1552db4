/* tests/analysis/test_gantt.c — the Gantt chart of one run
 * (analysis/gantt.c): no box narrower than a pixel, the idle workers share
 * one row, and the kernels have a legend. */
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

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Gantt: no box vanishes, idle row, legend", test_gantt},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("gantt", tests);
}
