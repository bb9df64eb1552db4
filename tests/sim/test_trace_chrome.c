/* tests/sim/test_trace_chrome.c — the Chrome trace-event JSON
 * (sim/trace_chrome.c): a track per worker and per copy stream, a slice per
 * task, each transfer a slice on both ends and a flow; the slices of every
 * track nest. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <rec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SMALL_RUN "-p idgraf --gpus 2 --cpus 2 -w cholesky:n=2048,nb=512 -s dmda"

/* Is t inside a complete slice of track (pid, tid)? */
static bool inside_slice(const cJSON *events, double pid, double tid, double t)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        const cJSON *ph = cJSON_GetObjectItem(e, "ph");
        if (strcmp(ph->valuestring, "X") == 0 && hs_test_num(e, "pid") == pid && hs_test_num(e, "tid") == tid &&
            t >= hs_test_num(e, "ts") && t <= hs_test_num(e, "ts") + hs_test_num(e, "dur"))
            return true;
    }
    return false;
}

static void test_chrome_trace(void)
{
    char *trace = hs_test_tmp(".json"), args[1024];
    snprintf(args, sizeof args, SMALL_RUN " --chrome-trace %s", trace);
    cJSON *r = hs_test_run_record(args);
    char *text = hs_test_read_file(trace);
    cJSON *doc = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const cJSON *events = cJSON_GetObjectItem(doc, "traceEvents"), *e;
    CU_ASSERT_FATAL(cJSON_IsArray(events));
    int threads = 0, slices = 0, starts = 0, finishes = 0, unbound = 0;
    double last_end = 0;
    cJSON_ArrayForEach(e, events)
    {
        const char *ph = cJSON_GetObjectItem(e, "ph")->valuestring;
        double pid = hs_test_num(e, "pid");
        if (strcmp(ph, "M") == 0 && pid == 1 && cJSON_GetObjectItem(e, "tid"))
            threads++;
        if (strcmp(ph, "X") == 0 && pid == 1) {
            slices++;
            CU_ASSERT(hs_test_num(e, "dur") >= 0);
            last_end = fmax(last_end, hs_test_num(e, "ts") + hs_test_num(e, "dur"));
        }
        if (strcmp(ph, "s") == 0 || strcmp(ph, "f") == 0) {
            if (ph[0] == 's')
                starts++;
            else
                finishes++;
            unbound += !inside_slice(events, pid, hs_test_num(e, "tid"), hs_test_num(e, "ts"));
        }
    }
    const cJSON *res = cJSON_GetObjectItem(r, "results"), *n = cJSON_GetObjectItem(res, "transfers");
    CU_ASSERT_EQUAL(threads, cJSON_GetArraySize(cJSON_GetObjectItem(r, "workers")));
    CU_ASSERT_EQUAL(slices, hs_test_num(res, "tasks"));
    CU_ASSERT_EQUAL(starts, hs_test_num(n, "h2d") + hs_test_num(n, "d2h") + hs_test_num(n, "p2p"));
    CU_ASSERT_EQUAL(finishes, starts);
    CU_ASSERT_EQUAL(unbound, 0); /* every flow end lies in a transfer slice */
    CU_ASSERT(last_end <= hs_test_makespan(r) * 1e6 * (1 + 1e-12));
    cJSON_Delete(doc);
    cJSON_Delete(r);
    free(text);
    unlink(trace);
    free(trace);
}

/* A complete slice as Perfetto's JSON importer reads it: ts and dur in
 * microseconds, each times 1000 truncated to whole nanoseconds. */
struct read_slice {
    double pid, tid;
    long long start, end;
};

static int by_track_start(const void *a, const void *b)
{
    const struct read_slice *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The slices of every track nest: none partly overlaps the next one of its
 * track (read as Perfetto reads them); returns how many do. */
static int partial_overlaps(const cJSON *events, int *nslices)
{
    int n = cJSON_GetArraySize(events), k = 0, bad = 0;
    struct read_slice *s = hs_xcalloc((size_t)n + 1, sizeof *s);
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        if (strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "X") != 0)
            continue;
        long long start = (long long)(hs_test_num(e, "ts") * 1000.0), dur = (long long)(hs_test_num(e, "dur") * 1000.0);
        s[k++] = (struct read_slice){hs_test_num(e, "pid"), hs_test_num(e, "tid"), start, start + dur};
    }
    qsort(s, (size_t)k, sizeof *s, by_track_start);
    for (int i = 1; i < k; i++)
        if (s[i].pid == s[i - 1].pid && s[i].tid == s[i - 1].tid && s[i].start < s[i - 1].end &&
            s[i].end > s[i - 1].end) /* starts inside the previous one, ends after it */
            bad++;
    free(s);
    *nslices = k;
    return bad;
}

/* Copies run concurrently on one node (RAM feeding 8 GPUs): each gets a lane
 * of its own, and back-to-back tasks of a worker do not overlap by rounding
 * (before: 133 partly overlapping slices in this run, all of copies). */
static void test_chrome_trace_nests(void)
{
    char *trace = hs_test_tmp(".json"), args[1024];
    snprintf(args, sizeof args, "-p idgraf -w cholesky:n=4096,nb=512 -s dmda --chrome-trace %s", trace);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    char *text = hs_test_read_file(trace);
    cJSON *doc = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    const cJSON *events = cJSON_GetObjectItem(doc, "traceEvents"), *e;
    int slices = 0, lanes = 0;
    CU_ASSERT_EQUAL(partial_overlaps(events, &slices), 0);
    const cJSON *res = cJSON_GetObjectItem(r, "results"), *n = cJSON_GetObjectItem(res, "transfers");
    double copies = hs_test_num(n, "h2d") + hs_test_num(n, "d2h") + hs_test_num(n, "p2p");
    CU_ASSERT(copies > 0);
    CU_ASSERT_EQUAL(slices, hs_test_num(res, "tasks") + 2 * copies);
    cJSON_ArrayForEach(e, events) /* concurrent copies did take second lanes */
    {
        const cJSON *args_ = cJSON_GetObjectItem(e, "args"), *name = cJSON_GetObjectItem(args_, "name");
        lanes += strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "M") == 0 && cJSON_IsString(name) &&
                 strstr(name->valuestring, "host out #2") != NULL;
    }
    CU_ASSERT_EQUAL(lanes, 1);
    cJSON_Delete(doc);
    cJSON_Delete(r);
    free(text);
    unlink(trace);
    free(trace);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Chrome trace-event JSON", test_chrome_trace},
        {"Chrome trace: the slices of every track nest", test_chrome_trace_nests},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("trace_chrome", tests);
}
