/* sim/record.c — building the JSON run record and writing the CSV trace. */
#include "sim/record.h"
#include "sim/runtime_internal.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef HETSIM_VERSION
#define HETSIM_VERSION "unknown"
#endif

static const char *dir_names[HS_NDIR] = {"h2d", "d2h", "p2p"};

static const char *purpose_name(enum hs_xfer_purpose p)
{
    return p == HS_XFER_FETCH ? "fetch" : p == HS_XFER_WRITEBACK ? "writeback" : "flush";
}

static void add_number_or_null(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

const char *hs_version(void)
{
    return HETSIM_VERSION;
}

/* The runtime's costs the run charged (sim/costs.h), when it charged any. */
static void add_costs(cJSON *o, const struct hs_costs *c)
{
    if (!hs_costs_any(c))
        return;
    cJSON *costs = cJSON_AddObjectToObject(o, "runtime_costs");
    for (int i = 0; hs_costs_props[i]; i++)
        cJSON_AddNumberToObject(costs, strchr(hs_costs_props[i], '/') + 1, hs_costs_get(c, i));
}

static cJSON *inputs_json(const struct hs_record_inputs *in, const struct hs_run *run)
{
    int gpus = 0, cpus = 0;
    for (int w = 0; w < run->pf.nworkers; w++)
        run->pf.workers[w].arch == HS_ARCH_GPU ? gpus++ : cpus++;
    cJSON *o = hs_record_inputs_json(in, gpus, cpus);
    if (run->rt)
        add_costs(o, &run->rt->opts.costs);
    if (run->has_perf && run->perf.nnotes) { /* what reading StarPU's perfmodels left out or assumed */
        cJSON *notes = cJSON_AddArrayToObject(o, "perf_notes");
        for (int i = 0; i < run->perf.nnotes; i++)
            cJSON_AddItemToArray(notes, cJSON_CreateString(run->perf.notes[i]));
    }
    return o;
}

cJSON *hs_record_inputs_json(const struct hs_record_inputs *in, int gpus, int cpus)
{
    const struct hs_run_config *cfg = in->cfg;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "platform", in->platform);
    cJSON_AddStringToObject(o, "perf_model", in->perf ? in->perf : "");
    cJSON_AddStringToObject(o, "workload", in->workload);
    cJSON_AddStringToObject(o, "policy", in->policy);
    cJSON_AddNumberToObject(o, "gpus", gpus);
    cJSON_AddNumberToObject(o, "cpus", cpus);
    cJSON_AddStringToObject(o, "gpu_order", hs_gpu_order_name(cfg->select.gpu_order));
    cJSON_AddNumberToObject(o, "window", cfg->select.window);
    cJSON_AddNumberToObject(o, "cache_fraction", cfg->select.cache_fraction);
    cJSON_AddBoolToObject(o, "p2p", cfg->select.p2p);
    cJSON_AddBoolToObject(o, "flush", cfg->opts.flush);
    cJSON_AddNumberToObject(o, "seed", (double)cfg->opts.seed);
    cJSON_AddNumberToObject(o, "noise", cfg->opts.noise);
    return o;
}

static cJSON *workers_json(const struct hs_run *run)
{
    const struct hs_runtime *rt = run->rt;
    cJSON *arr = cJSON_CreateArray();
    for (int w = 0; w < run->pf.nworkers; w++) {
        const struct hs_worker *wk = &run->pf.workers[w];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", wk->name);
        cJSON_AddStringToObject(o, "arch", hs_arch_name(wk->arch));
        cJSON_AddStringToObject(o, "memory_node", run->pf.nodes[wk->node].name);
        if (wk->driver)
            cJSON_AddStringToObject(o, "driver", wk->driver);
        cJSON_AddNumberToObject(o, "tasks", rt->ws[w].ntasks);
        cJSON_AddNumberToObject(o, "busy", rt->ws[w].busy);
        cJSON_AddNumberToObject(o, "scheduling_overhead", rt->ws[w].overhead);
        if (hs_costs_any(&rt->opts.costs))
            cJSON_AddNumberToObject(o, "runtime_costs", rt->ws[w].runtime);
        cJSON_AddNumberToObject(o, "utilisation", rt->makespan > 0 ? rt->ws[w].busy / rt->makespan : 0);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *results_json(const struct hs_run *run)
{
    const struct hs_runtime *rt = run->rt;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "makespan", rt->makespan);
    add_number_or_null(o, "predicted_makespan", rt->predicted_makespan);
    if (rt->clusters >= 0) { /* only under a policy that plans clusters */
        cJSON_AddNumberToObject(o, "clusters", rt->clusters);
        cJSON_AddNumberToObject(o, "cluster_edges", rt->cluster_edges);
    }
    cJSON_AddNumberToObject(o, "tasks", rt->ndone);
    if (run->core_time) { /* a measured run: how loaded the machine was */
        cJSON *load = cJSON_AddObjectToObject(o, "load_average");
        add_number_or_null(load, "before", run->load[0]);
        add_number_or_null(load, "after", run->load[1]);
    }
    int per_arch[HS_NARCH] = {0};
    for (int w = 0; w < run->pf.nworkers; w++)
        per_arch[run->pf.workers[w].arch] += rt->ws[w].ntasks;
    cJSON *pa = cJSON_AddObjectToObject(o, "tasks_per_arch");
    for (int a = 0; a < HS_NARCH; a++)
        cJSON_AddNumberToObject(pa, hs_arch_name(a), per_arch[a]);
    /* each architecture's busy time over its workers' time (makespan x workers);
     * absent for an architecture without workers */
    double busy[HS_NARCH] = {0};
    int nw[HS_NARCH] = {0};
    for (int w = 0; w < run->pf.nworkers; w++) {
        busy[run->pf.workers[w].arch] += rt->ws[w].busy;
        nw[run->pf.workers[w].arch]++;
    }
    cJSON *ua = cJSON_AddObjectToObject(o, "utilisation_per_arch");
    for (int a = 0; a < HS_NARCH; a++)
        if (nw[a])
            cJSON_AddNumberToObject(ua, hs_arch_name(a), rt->makespan > 0 ? busy[a] / (nw[a] * rt->makespan) : 0);
    cJSON *bytes = cJSON_AddObjectToObject(o, "bytes");
    cJSON *count = cJSON_AddObjectToObject(o, "transfers");
    for (int d = 0; d < HS_NDIR; d++) {
        cJSON_AddNumberToObject(bytes, dir_names[d], rt->bytes[d]);
        cJSON_AddNumberToObject(count, dir_names[d], (double)rt->count[d]);
    }
    if (isfinite(run->residual)) {
        cJSON_AddNumberToObject(o, "residual", run->residual);
        cJSON_AddBoolToObject(o, "residual_ok", run->residual < 1.0); /* HS_RESIDUAL_OK */
    }
    cJSON_AddNumberToObject(o, "evictions", (double)rt->evictions);
    cJSON_AddNumberToObject(o, "writebacks", (double)rt->writebacks);
    cJSON_AddNumberToObject(o, "prefetches", (double)rt->prefetches);
    if (run->energy.n > 0) { /* only where the platform declares energy properties */
        cJSON *e = cJSON_AddObjectToObject(o, "energy");
        cJSON_AddNumberToObject(e, "total_joules", run->energy.total);
        cJSON *hosts = cJSON_AddObjectToObject(e, "hosts");
        for (int i = 0; i < run->energy.n; i++)
            cJSON_AddNumberToObject(hosts, run->energy.hosts[i], run->energy.joules[i]);
    }
    cJSON *audit = cJSON_AddObjectToObject(o, "audit");
    cJSON_AddNumberToObject(audit, "inputs_invalid_at_start", (double)rt->audit_violations);
    cJSON_AddNumberToObject(audit, "stale_transfers", (double)rt->stale);
    return o;
}

cJSON *hs_record_new(const struct hs_record_inputs *in, const struct hs_run *run)
{
    cJSON *rec = cJSON_CreateObject();
    cJSON_AddStringToObject(rec, "hetsim_version", hs_version());
    cJSON_AddStringToObject(rec, "engine", run->engine ? run->engine : "simgrid");
    if (in->engine_reason)
        cJSON_AddStringToObject(rec, "engine_reason", in->engine_reason);
    cJSON_AddBoolToObject(rec, "measured", run->engine && strcmp(run->engine, "real") == 0);
    cJSON_AddItemToObject(rec, "inputs", inputs_json(in, run));
    cJSON_AddItemToObject(rec, "workers", workers_json(run));
    cJSON_AddItemToObject(rec, "results", results_json(run));
    return rec;
}


static cJSON *task_events(const struct hs_runtime *rt)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < rt->dag->ntasks; i++) {
        const struct hs_task_event *ev = &rt->ts[i].ev;
        if (ev->worker < 0)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", i);
        cJSON_AddStringToObject(o, "label", rt->dag->tasks[i].label);
        cJSON_AddStringToObject(o, "kernel", rt->dag->kernels[rt->dag->tasks[i].kernel]);
        cJSON_AddStringToObject(o, "worker", rt->pf->workers[ev->worker].name);
        cJSON_AddNumberToObject(o, "ready", ev->ready);
        cJSON_AddNumberToObject(o, "popped", ev->popped);
        cJSON_AddNumberToObject(o, "inputs", ev->inputs);
        cJSON_AddNumberToObject(o, "start", ev->start);
        cJSON_AddNumberToObject(o, "end", ev->end);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *transfer_events(const struct hs_runtime *rt)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t x = 0; x < rt->nxfers; x++) {
        const struct hs_xfer *t = &rt->xfers[x];
        if (t->state != HS_XS_DONE)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "data", rt->dag->handles[t->ev.handle].name);
        cJSON_AddStringToObject(o, "purpose", purpose_name(t->ev.purpose));
        cJSON_AddStringToObject(o, "src", rt->pf->nodes[t->ev.src].name);
        cJSON_AddStringToObject(o, "dst", rt->pf->nodes[t->ev.dst].name);
        cJSON_AddNumberToObject(o, "bytes", t->ev.bytes);
        cJSON_AddNumberToObject(o, "request", t->ev.request);
        cJSON_AddNumberToObject(o, "start", t->ev.start);
        cJSON_AddNumberToObject(o, "end", t->ev.end);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

void hs_record_add_events(cJSON *rec, const struct hs_runtime *rt)
{
    cJSON *ev = cJSON_AddObjectToObject(rec, "events");
    cJSON_AddItemToObject(ev, "tasks", task_events(rt));
    cJSON_AddItemToObject(ev, "transfers", transfer_events(rt));
}

void hs_record_add_core_times(cJSON *rec, const struct hs_run *run)
{
    if (!run->core_time)
        return;
    cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "events"), "tasks"))
    {
        double core = run->core_time[cJSON_GetObjectItem(t, "id")->valueint];
        if (isfinite(core))
            cJSON_AddNumberToObject(t, "core_time", core);
    }
}

/* A field as RFC 4180 writes it: quoted (quotes doubled, line breaks kept)
 * when always is set (task and data names like "gemm(3,2,1)" hold commas) or
 * when it holds a comma, a quote or a line break (a kernel name read from a
 * file may: a WfFormat category can be a whole shell script). */
static void csv_field(FILE *out, const char *s, bool always)
{
    if (!always && !s[strcspn(s, ",\"\r\n")]) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

int hs_trace_write_csv(const struct hs_runtime *rt, FILE *out)
{
    const struct hs_dag *dag = rt->dag;
    const struct hs_platform *pf = rt->pf;
    fprintf(out, "kind,id,name,what,worker,src,dst,bytes,ready,inputs,start,end\n");
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task_event *ev = &rt->ts[i].ev;
        if (ev->worker < 0)
            continue;
        const struct hs_worker *w = &pf->workers[ev->worker];
        fprintf(out, "task,%d,", i);
        csv_field(out, dag->tasks[i].label, true);
        fputc(',', out);
        csv_field(out, dag->kernels[dag->tasks[i].kernel], false);
        fputc(',', out);
        csv_field(out, w->name, false);
        fputs(",,", out);
        csv_field(out, pf->nodes[w->node].name, false);
        fprintf(out, ",0,%.9f,%.9f,%.9f,%.9f\n", ev->ready, ev->inputs, ev->start, ev->end);
    }
    for (size_t x = 0; x < rt->nxfers; x++) {
        const struct hs_xfer *t = &rt->xfers[x];
        if (t->state != HS_XS_DONE)
            continue;
        fprintf(out, "transfer,%zu,", x);
        csv_field(out, dag->handles[t->ev.handle].name, true);
        fprintf(out, ",%s,,", purpose_name(t->ev.purpose));
        csv_field(out, pf->nodes[t->ev.src].name, false);
        fputc(',', out);
        csv_field(out, pf->nodes[t->ev.dst].name, false);
        fprintf(out, ",%.0f,%.9f,,%.9f,%.9f\n", t->ev.bytes, t->ev.request, t->ev.start, t->ev.end);
    }
    return ferror(out) ? hs_fail("cannot write the trace") : 0;
}
