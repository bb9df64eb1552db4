/* sim/trace_chrome.c — Chrome trace-event JSON of a run (trace_chrome.h),
 * built with cJSON. Process 1 holds the workers (a track per worker),
 * process 2 the memory nodes' copy streams: what leaves a node and what
 * enters it, each on as many tracks ("lanes") as it has copies at once.
 *
 * Perfetto (and chrome://tracing) expect the slices of one track to nest:
 * two that partly overlap are drawn wrong or dropped. Copies of one node run
 * concurrently (a RAM feeding several GPUs), so each copy goes to the first
 * lane of its node and direction that is free when it starts. Times are
 * written in microseconds from whole nanoseconds, and a slice that touches
 * the next one of its lane ends 1 ns before it: a reader that truncates
 * ts × 1000 and dur × 1000 to nanoseconds (Perfetto's JSON importer does)
 * gets slices that never overlap, where the exact doubles overlapped by
 * 1e-8 µs of rounding. */
#include "sim/trace_chrome.h"
#include "sim/runtime_internal.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

enum { PID_WORKERS = 1, PID_NODES = 2 };

/* A slice to place: [start, end) in nanoseconds, its track group (a worker,
 * or a node's direction), the lane it gets and its end as written. */
struct slice {
    long long start, end;
    int group, index; /* index: the task or transfer */
    int lane;
};

static long long ns(double seconds)
{
    return llround(seconds * 1e9);
}

static int by_group_start(const void *a, const void *b)
{
    const struct slice *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Give each slice the first lane of its group free at its start (sorted by
 * group then start), ending the previous slice of that lane 1 ns before
 * the new one where they touch; lanes[g] = the lanes group g needs. */
static void place(struct slice *s, size_t n, int *lanes)
{
    qsort(s, n, sizeof *s, by_group_start);
    size_t cap = 0;
    struct slice **last = NULL; /* per lane of the current group: its last slice */
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || s[i].group != s[i - 1].group)
            lanes[s[i].group] = 0;
        int g = s[i].group, l = 0;
        while (l < lanes[g] && last[l]->end > s[i].start)
            l++;
        if (l == lanes[g]) {
            if ((size_t)l == cap)
                last = hs_xrealloc(last, (cap = cap ? 2 * cap : 8) * sizeof *last);
            lanes[g]++;
        } else if (last[l]->end == s[i].start && s[i].start - 1 > last[l]->start) {
            last[l]->end = s[i].start - 1;
        }
        s[i].lane = l;
        last[l] = &s[i];
    }
    free(last);
}

static void track_name(cJSON *events, int pid, int tid, const char *what, const char *name)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", what);
    cJSON_AddStringToObject(e, "ph", "M");
    cJSON_AddNumberToObject(e, "pid", pid);
    if (tid >= 0)
        cJSON_AddNumberToObject(e, "tid", tid);
    cJSON *args = cJSON_AddObjectToObject(e, "args");
    cJSON_AddStringToObject(args, "name", name);
    cJSON_AddItemToArray(events, e);
}

static cJSON *event(cJSON *events, const char *name, const char *cat, const char *ph, int pid,
                    int tid, long long t)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "cat", cat);
    cJSON_AddStringToObject(e, "ph", ph);
    cJSON_AddNumberToObject(e, "pid", pid);
    cJSON_AddNumberToObject(e, "tid", tid);
    cJSON_AddNumberToObject(e, "ts", (double)t / 1e3);
    cJSON_AddItemToArray(events, e);
    return e;
}

static cJSON *complete(cJSON *events, const char *name, const char *cat, int pid, int tid,
                       const struct slice *s)
{
    cJSON *e = event(events, name, cat, "X", pid, tid, s->start);
    cJSON_AddNumberToObject(e, "dur", (double)(s->end - s->start) / 1e3);
    return e;
}

typedef void group_name_fn(const struct hs_runtime *rt, int g, char *buf, size_t size);

/* A track per lane of each of the ngroups groups (one at least), named
 * "NAME", "NAME #2", …; base[g] receives the tid of group g's first lane. */
static void lane_tracks(cJSON *events, const struct hs_runtime *rt, int pid, int ngroups, const int *lanes,
                        int *base, group_name_fn *group_name)
{
    for (int g = 0, tid = 0; g < ngroups; g++) {
        base[g] = tid;
        char group[160], name[176];
        group_name(rt, g, group, sizeof group);
        for (int l = 0; l < (lanes[g] ? lanes[g] : 1); l++, tid++) {
            if (l == 0)
                snprintf(name, sizeof name, "%s", group);
            else
                snprintf(name, sizeof name, "%s #%d", group, l + 1);
            track_name(events, pid, tid, "thread_name", name);
        }
    }
}

static void worker_name(const struct hs_runtime *rt, int w, char *buf, size_t size)
{
    snprintf(buf, size, "%s", rt->pf->workers[w].name);
}

/* Group 2n: what leaves node n; 2n + 1: what enters it. */
static void stream_name(const struct hs_runtime *rt, int g, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s", rt->pf->nodes[g / 2].name, g % 2 ? "in" : "out");
}

/* Workers: a track each (a worker runs one task at a time; a second lane,
 * "NAME #2", only if it did not). tid = base[w] + lane. */
static void tasks(cJSON *events, const struct hs_runtime *rt)
{
    const struct hs_dag *dag = rt->dag;
    int nw = rt->pf->nworkers;
    struct slice *s = hs_xcalloc((size_t)dag->ntasks + 1, sizeof *s);
    size_t n = 0;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task_event *ev = &rt->ts[i].ev;
        if (ev->worker >= 0)
            s[n++] = (struct slice){ns(ev->start), ns(ev->end), ev->worker, i, 0};
    }
    int *lanes = hs_xcalloc((size_t)nw + 1, sizeof *lanes), *base = hs_xcalloc((size_t)nw + 1, sizeof *base);
    place(s, n, lanes);
    track_name(events, PID_WORKERS, -1, "process_name", "workers");
    lane_tracks(events, rt, PID_WORKERS, nw, lanes, base, worker_name);
    for (size_t k = 0; k < n; k++) {
        const struct hs_task *t = &dag->tasks[s[k].index];
        const struct hs_task_event *ev = &rt->ts[s[k].index].ev;
        cJSON *e = complete(events, t->label, dag->kernels[t->kernel], PID_WORKERS, base[s[k].group] + s[k].lane,
                            &s[k]);
        cJSON *args = cJSON_AddObjectToObject(e, "args");
        cJSON_AddNumberToObject(args, "task", s[k].index);
        cJSON_AddNumberToObject(args, "ready_us", ev->ready * 1e6);
        cJSON_AddNumberToObject(args, "inputs_us", ev->inputs * 1e6);
    }
    free(s), free(lanes), free(base);
}

/* Copies: group 2n = what leaves node n, 2n + 1 = what enters it; each copy
 * a slice on both (slices 2x and 2x + 1 before sorting) and a flow arrow
 * from inside the first to inside the second. */
static void transfers(cJSON *events, const struct hs_runtime *rt)
{
    static const char *const purpose[] = {"fetch", "writeback", "flush"};
    int nn = rt->pf->nnodes, ngroups = 2 * nn;
    struct slice *s = hs_xcalloc(2 * rt->nxfers + 1, sizeof *s);
    size_t n = 0;
    for (size_t x = 0; x < rt->nxfers; x++) {
        const struct hs_xfer_event *ev = &rt->xfers[x].ev;
        if (rt->xfers[x].state != HS_XS_DONE)
            continue;
        s[n++] = (struct slice){ns(ev->start), ns(ev->end), 2 * ev->src, (int)x, 0};
        s[n++] = (struct slice){ns(ev->start), ns(ev->end), 2 * ev->dst + 1, (int)x, 0};
    }
    int *lanes = hs_xcalloc((size_t)ngroups + 1, sizeof *lanes);
    int *base = hs_xcalloc((size_t)ngroups + 1, sizeof *base);
    place(s, n, lanes);
    track_name(events, PID_NODES, -1, "process_name", "memory nodes (copy streams)");
    lane_tracks(events, rt, PID_NODES, ngroups, lanes, base, stream_name);
    /* where each copy's two slices went: its flow binds inside both */
    int *out_tid = hs_xcalloc(rt->nxfers + 1, sizeof *out_tid), *in_tid = hs_xcalloc(rt->nxfers + 1, sizeof *in_tid);
    long long *mid = hs_xcalloc(rt->nxfers + 1, sizeof *mid);
    for (size_t x = 0; x < rt->nxfers; x++)
        mid[x] = LLONG_MAX;
    for (size_t k = 0; k < n; k++) {
        const struct hs_xfer_event *ev = &rt->xfers[s[k].index].ev;
        const char *name = rt->dag->handles[ev->handle].name;
        int tid = base[s[k].group] + s[k].lane;
        cJSON *e = complete(events, name, purpose[ev->purpose], PID_NODES, tid, &s[k]);
        cJSON *args = cJSON_AddObjectToObject(e, "args");
        cJSON_AddNumberToObject(args, "bytes", ev->bytes);
        cJSON_AddStringToObject(args, "from", rt->pf->nodes[ev->src].name);
        cJSON_AddStringToObject(args, "to", rt->pf->nodes[ev->dst].name);
        if (s[k].group % 2)
            in_tid[s[k].index] = tid;
        else
            out_tid[s[k].index] = tid;
        /* the middle of the shorter of the two (one may have been ended 1 ns early) */
        long long m = s[k].start + (s[k].end - s[k].start) / 2;
        if (m < mid[s[k].index])
            mid[s[k].index] = m;
    }
    for (size_t x = 0; x < rt->nxfers; x++) {
        const struct hs_xfer_event *ev = &rt->xfers[x].ev;
        if (rt->xfers[x].state != HS_XS_DONE)
            continue;
        const char *name = rt->dag->handles[ev->handle].name;
        cJSON *st = event(events, name, "transfer", "s", PID_NODES, out_tid[x], mid[x]);
        cJSON_AddNumberToObject(st, "id", (double)x);
        cJSON *f = event(events, name, "transfer", "f", PID_NODES, in_tid[x], mid[x]);
        cJSON_AddNumberToObject(f, "id", (double)x);
        cJSON_AddStringToObject(f, "bp", "e");
    }
    free(s), free(lanes), free(base), free(out_tid), free(in_tid), free(mid);
}

int hs_trace_write_chrome(const struct hs_runtime *rt, FILE *out)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *events = cJSON_AddArrayToObject(doc, "traceEvents");
    cJSON_AddStringToObject(doc, "displayTimeUnit", "ms");
    tasks(events, rt);
    transfers(events, rt);
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    int rc = !text || fputs(text, out) < 0 || fputc('\n', out) == EOF;
    free(text);
    return rc || ferror(out) ? hs_fail("cannot write the Chrome trace") : 0;
}
