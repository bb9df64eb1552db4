/* sim/trace_chrome.c — Chrome trace-event JSON of a run (trace_chrome.h),
 * built with cJSON. Process 1 holds the workers (thread w = worker w),
 * process 2 the memory nodes (thread 2n = what leaves node n, 2n + 1 = what
 * enters it). */
#include "sim/trace_chrome.h"
#include "sim/util.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

enum { PID_WORKERS = 1, PID_NODES = 2 };

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
                    int tid, double t)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "cat", cat);
    cJSON_AddStringToObject(e, "ph", ph);
    cJSON_AddNumberToObject(e, "pid", pid);
    cJSON_AddNumberToObject(e, "tid", tid);
    cJSON_AddNumberToObject(e, "ts", t * 1e6);
    cJSON_AddItemToArray(events, e);
    return e;
}

static void tracks(cJSON *events, const struct hs_platform *pf)
{
    track_name(events, PID_WORKERS, -1, "process_name", "workers");
    track_name(events, PID_NODES, -1, "process_name", "memory nodes (copy streams)");
    for (int w = 0; w < pf->nworkers; w++)
        track_name(events, PID_WORKERS, w, "thread_name", pf->workers[w].name);
    for (int n = 0; n < pf->nnodes; n++) {
        char name[160];
        snprintf(name, sizeof name, "%s out", pf->nodes[n].name);
        track_name(events, PID_NODES, 2 * n, "thread_name", name);
        snprintf(name, sizeof name, "%s in", pf->nodes[n].name);
        track_name(events, PID_NODES, 2 * n + 1, "thread_name", name);
    }
}

static void tasks(cJSON *events, const struct hs_sched *rt)
{
    const struct hs_dag *dag = rt->dag;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task_event *ev = &rt->ts[i].ev;
        if (ev->worker < 0)
            continue;
        cJSON *e = event(events, dag->tasks[i].label, dag->kernels[dag->tasks[i].kernel], "X",
                         PID_WORKERS, ev->worker, ev->start);
        cJSON_AddNumberToObject(e, "dur", (ev->end - ev->start) * 1e6);
        cJSON *args = cJSON_AddObjectToObject(e, "args");
        cJSON_AddNumberToObject(args, "task", i);
        cJSON_AddNumberToObject(args, "ready_us", ev->ready * 1e6);
        cJSON_AddNumberToObject(args, "inputs_us", ev->inputs * 1e6);
    }
}

static void transfers(cJSON *events, const struct hs_sched *rt)
{
    static const char *const purpose[] = {"fetch", "writeback", "flush"};
    for (size_t x = 0; x < rt->nxfers; x++) {
        const struct hs_xfer_event *ev = &rt->xfers[x].ev;
        if (rt->xfers[x].state != HS_XS_DONE)
            continue;
        const char *name = rt->dag->handles[ev->handle].name;
        for (int side = 0; side < 2; side++) {
            int tid = side ? 2 * ev->dst + 1 : 2 * ev->src;
            cJSON *e = event(events, name, purpose[ev->purpose], "X", PID_NODES, tid, ev->start);
            cJSON_AddNumberToObject(e, "dur", (ev->end - ev->start) * 1e6);
            cJSON *args = cJSON_AddObjectToObject(e, "args");
            cJSON_AddNumberToObject(args, "bytes", ev->bytes);
            cJSON_AddStringToObject(args, "from", rt->pf->nodes[ev->src].name);
            cJSON_AddStringToObject(args, "to", rt->pf->nodes[ev->dst].name);
        }
        /* the flow, from inside the outgoing slice to inside the incoming one
         * (flow events bind to the slice that encloses them) */
        double mid = (ev->start + ev->end) / 2;
        cJSON *s = event(events, name, "transfer", "s", PID_NODES, 2 * ev->src, mid);
        cJSON_AddNumberToObject(s, "id", (double)x);
        cJSON *f = event(events, name, "transfer", "f", PID_NODES, 2 * ev->dst + 1, mid);
        cJSON_AddNumberToObject(f, "id", (double)x);
        cJSON_AddStringToObject(f, "bp", "e");
    }
}

int hs_trace_write_chrome(const struct hs_sched *rt, FILE *out)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *events = cJSON_AddArrayToObject(doc, "traceEvents");
    cJSON_AddStringToObject(doc, "displayTimeUnit", "ms");
    tracks(events, rt->pf);
    tasks(events, rt);
    transfers(events, rt);
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    int rc = !text || fputs(text, out) < 0 || fputc('\n', out) == EOF;
    free(text);
    return rc || ferror(out) ? hs_fail("cannot write the Chrome trace") : 0;
}
