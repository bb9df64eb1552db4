/* workloads/dag_json.c — writing a DAG as hetsim JSON (cJSON), one handle,
 * task or edge per line:
 *
 *   { "name": "...", "total_flops": f,
 *     "handles": [ {"name": "A(0,0)", "bytes": b}, … ],          original data
 *     "tasks":   [ {"label": "potrf(0)", "kernel": "dpotrf", "flops": f,
 *                   "footprint": nb, "accesses": [{"handle": i, "mode": "RW"}],
 *                   "costs": {"cpu": s, "gpu": s} | [s, s, …],   optional
 *                   "archs": ["cpu"],                             optional
 *                   "attrs": {"alpha": "0.5"} }, … ],             optional
 *     "edges":   [ {"src": i, "dst": j, "bytes": b}, … ],         explicit edges
 *     "dependencies": [ {"src": i, "dst": j, "bytes": b}, … ] }  inferred (informative)
 *
 * Accesses name the original handles (renamed versions are re-derived when
 * the file is read); private edge handles are written as explicit edges.
 * Each element is printed on its own, so a large DAG is never held twice in
 * memory. dag_json_read.c reads it back; docs/workloads.md documents the format. */
#include "workloads/dagio.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static const char *mode_name(enum hs_mode m)
{
    return m == HS_MODE_R ? "R" : m == HS_MODE_W ? "W" : "RW";
}

/* Numbers are printed by hs_format_double (exact, and much faster than
 * cJSON's print-then-scan check); infinity (a cost where a task cannot run)
 * is written null. */
static cJSON *num(double v)
{
    if (!isfinite(v))
        return cJSON_CreateNull();
    char buf[32];
    hs_format_double(buf, v);
    return cJSON_CreateRaw(buf);
}

static void add_num(cJSON *o, const char *key, double v)
{
    cJSON_AddItemToObject(o, key, num(v));
}

/* "  "key": [" … "\n  ]": one element per line, each printed and freed. */
struct jarray {
    FILE *out;
    int n;
};

static void jarray_open(struct jarray *a, FILE *out, const char *key)
{
    a->out = out;
    a->n = 0;
    fprintf(out, "  \"%s\": [", key);
}

static void jarray_add(struct jarray *a, cJSON *item)
{
    char *text = cJSON_PrintUnformatted(item);
    fprintf(a->out, "%s\n    %s", a->n++ ? "," : "", text);
    free(text);
    cJSON_Delete(item);
}

static void jarray_close(struct jarray *a, bool last)
{
    fprintf(a->out, "%s]%s\n", a->n ? "\n  " : "", last ? "" : ",");
}

/* Index of each original (non-temporary, version 0) handle in the output. */
static int *write_handles(const struct hs_dag *dag, FILE *out)
{
    int *idx = hs_xmalloc((size_t)(dag->nhandles ? dag->nhandles : 1) * sizeof(int));
    int n = 0;
    struct jarray a;
    jarray_open(&a, out, "handles");
    for (int h = 0; h < dag->nhandles; h++) {
        const struct hs_handle *hd = &dag->handles[h];
        idx[h] = -1;
        if (hd->temporary || hd->version > 0)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", hd->name);
        add_num(o, "bytes", hd->bytes);
        jarray_add(&a, o);
        idx[h] = n++;
    }
    jarray_close(&a, false);
    return idx;
}

static void add_costs(const struct hs_dag *dag, const struct hs_task *t, cJSON *o)
{
    if (t->proc_cost) {
        cJSON *c = cJSON_AddArrayToObject(o, "costs");
        for (int p = 0; p < dag->nproc_costs; p++)
            cJSON_AddItemToArray(c, num(t->proc_cost[p]));
    } else if (!isnan(t->arch_cost[HS_ARCH_CPU]) || !isnan(t->arch_cost[HS_ARCH_GPU])) {
        cJSON *c = cJSON_AddObjectToObject(o, "costs");
        for (int a = 0; a < HS_NARCH; a++)
            if (!isnan(t->arch_cost[a]))
                add_num(c, hs_arch_name((enum hs_arch)a), t->arch_cost[a]);
    }
}

static void add_archs_attrs(const struct hs_task *t, cJSON *o)
{
    if (t->arch_mask != HS_ARCHMASK_ALL) {
        cJSON *archs = cJSON_AddArrayToObject(o, "archs");
        for (int a = 0; a < HS_NARCH; a++)
            if (t->arch_mask & HS_ARCH_BIT(a))
                cJSON_AddItemToArray(archs, cJSON_CreateString(hs_arch_name((enum hs_arch)a)));
    }
    if (t->extra) {
        cJSON *attrs = cJSON_AddObjectToObject(o, "attrs");
        for (char **x = t->extra; *x; x += 2)
            cJSON_AddStringToObject(attrs, x[0], x[1]);
    }
}

static cJSON *task_json(const struct hs_dag *dag, const struct hs_task *t, const int *idx)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "label", t->label);
    cJSON_AddStringToObject(o, "kernel", dag->kernels[t->kernel]);
    add_num(o, "flops", t->flops);
    add_num(o, "footprint", t->footprint);
    cJSON *acc = cJSON_AddArrayToObject(o, "accesses");
    for (int i = 0; i < t->naccess; i++) {
        const struct hs_handle *hd = &dag->handles[t->access[i].handle];
        if (hd->temporary)
            continue;
        cJSON *a = cJSON_CreateObject();
        add_num(a, "handle", idx[hd->origin]);
        cJSON_AddStringToObject(a, "mode", mode_name(t->access[i].mode));
        cJSON_AddItemToArray(acc, a);
    }
    add_costs(dag, t, o);
    add_archs_attrs(t, o);
    return o;
}

/* Edges are the bulk of a large file: printed directly, in the text
 * cJSON_PrintUnformatted gives (what the reader and the tests expect). */
static void jarray_add_edge(struct jarray *a, int src, int dst, double bytes)
{
    char buf[32];
    hs_format_double(buf, bytes);
    fprintf(a->out, "%s\n    {\"src\":%d,\"dst\":%d,\"bytes\":%s}", a->n++ ? "," : "", src, dst,
            isfinite(bytes) ? buf : "null");
}

/* Private edge handles: written by one task, read by another, in task order. */
static void write_edges(const struct hs_dag *dag, FILE *out)
{
    int *writer = hs_xmalloc((size_t)(dag->nhandles ? dag->nhandles : 1) * sizeof(int));
    for (int h = 0; h < dag->nhandles; h++)
        writer[h] = -1;
    for (int i = 0; i < dag->ntasks; i++)
        for (int a = 0; a < dag->tasks[i].naccess; a++) {
            const struct hs_access *ac = &dag->tasks[i].access[a];
            if (dag->handles[ac->handle].temporary && HS_MODE_WRITES(ac->mode))
                writer[ac->handle] = i;
        }
    struct jarray arr;
    jarray_open(&arr, out, "edges");
    for (int i = 0; i < dag->ntasks; i++)
        for (int a = 0; a < dag->tasks[i].naccess; a++) {
            const struct hs_access *ac = &dag->tasks[i].access[a];
            const struct hs_handle *hd = &dag->handles[ac->handle];
            if (hd->temporary && ac->mode == HS_MODE_R && writer[hd->id] >= 0)
                jarray_add_edge(&arr, writer[hd->id], i, hd->bytes);
        }
    jarray_close(&arr, false);
    free(writer);
}

static void write_scalar(FILE *out, const char *key, cJSON *value)
{
    char *text = cJSON_PrintUnformatted(value);
    fprintf(out, "  \"%s\": %s,\n", key, text);
    free(text);
    cJSON_Delete(value);
}

int hs_dag_write_json(const struct hs_dag *dag, FILE *out)
{
    fputs("{\n", out);
    write_scalar(out, "name", cJSON_CreateString(dag->name));
    write_scalar(out, "total_flops", num(hs_dag_flops(dag)));
    int *idx = write_handles(dag, out);
    struct jarray a;
    jarray_open(&a, out, "tasks");
    for (int i = 0; i < dag->ntasks; i++)
        jarray_add(&a, task_json(dag, &dag->tasks[i], idx));
    jarray_close(&a, false);
    free(idx);
    write_edges(dag, out);
    jarray_open(&a, out, "dependencies");
    for (int e = 0; e < dag->nedges; e++)
        jarray_add_edge(&a, dag->edges[e].src, dag->edges[e].dst, dag->edges[e].bytes);
    jarray_close(&a, true);
    fputs("}\n", out);
    return ferror(out) ? hs_fail("cannot write the DAG") : 0;
}
