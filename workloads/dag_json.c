/* workloads/dag_json.c — a DAG as JSON (cJSON).
 *
 *   { "name": "...", "total_flops": f,
 *     "handles": [ {"name": "A(0,0)", "bytes": b}, … ],          original data
 *     "tasks":   [ {"label": "potrf(0)", "kernel": "dpotrf", "flops": f,
 *                   "footprint": nb, "accesses": [{"handle": i, "mode": "RW"}],
 *                   "costs": {"cpu": s, "gpu": s} | [s, s, …] }, … ],
 *     "edges":   [ {"src": i, "dst": j, "bytes": b}, … ],         explicit edges
 *     "dependencies": [ {"src": i, "dst": j, "bytes": b}, … ] }  inferred (informative)
 *
 * Accesses name the original handles (renamed versions are re-derived when
 * the file is read); private edge handles are written as explicit edges. */
#include "workloads/dagio.h"
#include "sim/util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>

static const char *mode_name(enum hs_mode m)
{
    return m == HS_MODE_R ? "R" : m == HS_MODE_W ? "W" : "RW";
}

/* Index of each original (non-temporary, version 0) handle in the output. */
static int *original_index(const struct hs_dag *dag, cJSON *handles)
{
    int *idx = hs_xmalloc((size_t)(dag->nhandles ? dag->nhandles : 1) * sizeof(int));
    int n = 0;
    for (int h = 0; h < dag->nhandles; h++) {
        const struct hs_handle *hd = &dag->handles[h];
        idx[h] = -1;
        if (hd->temporary || hd->version > 0)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", hd->name);
        cJSON_AddNumberToObject(o, "bytes", hd->bytes);
        cJSON_AddItemToArray(handles, o);
        idx[h] = n++;
    }
    return idx;
}

static cJSON *task_json(const struct hs_dag *dag, const struct hs_task *t, const int *idx)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "label", t->label);
    cJSON_AddStringToObject(o, "kernel", dag->kernels[t->kernel]);
    cJSON_AddNumberToObject(o, "flops", t->flops);
    cJSON_AddNumberToObject(o, "footprint", t->footprint);
    cJSON *acc = cJSON_AddArrayToObject(o, "accesses");
    for (int i = 0; i < t->naccess; i++) {
        const struct hs_handle *hd = &dag->handles[t->access[i].handle];
        if (hd->temporary)
            continue;
        cJSON *a = cJSON_CreateObject();
        cJSON_AddNumberToObject(a, "handle", idx[hd->origin]);
        cJSON_AddStringToObject(a, "mode", mode_name(t->access[i].mode));
        cJSON_AddItemToArray(acc, a);
    }
    if (t->proc_cost) {
        cJSON *c = cJSON_AddArrayToObject(o, "costs");
        for (int p = 0; p < dag->nproc_costs; p++)
            cJSON_AddItemToArray(c, cJSON_CreateNumber(t->proc_cost[p]));
    } else if (!isnan(t->arch_cost[HS_ARCH_CPU]) || !isnan(t->arch_cost[HS_ARCH_GPU])) {
        cJSON *c = cJSON_AddObjectToObject(o, "costs");
        for (int a = 0; a < HS_NARCH; a++)
            if (!isnan(t->arch_cost[a]))
                cJSON_AddNumberToObject(c, hs_arch_name(a), t->arch_cost[a]);
    }
    return o;
}

static cJSON *edge_json(int src, int dst, double bytes)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddNumberToObject(e, "src", src);
    cJSON_AddNumberToObject(e, "dst", dst);
    cJSON_AddNumberToObject(e, "bytes", bytes);
    return e;
}

int hs_dag_write_json(const struct hs_dag *dag, FILE *out)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", dag->name);
    cJSON_AddNumberToObject(root, "total_flops", hs_dag_flops(dag));
    int *idx = original_index(dag, cJSON_AddArrayToObject(root, "handles"));
    cJSON *tasks = cJSON_AddArrayToObject(root, "tasks");
    cJSON *edges = cJSON_AddArrayToObject(root, "edges");
    /* writer and reader of each private edge handle */
    int *writer = hs_xmalloc((size_t)(dag->nhandles ? dag->nhandles : 1) * sizeof(int));
    for (int h = 0; h < dag->nhandles; h++)
        writer[h] = -1;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        cJSON_AddItemToArray(tasks, task_json(dag, t, idx));
        for (int a = 0; a < t->naccess; a++)
            if (dag->handles[t->access[a].handle].temporary && HS_MODE_WRITES(t->access[a].mode))
                writer[t->access[a].handle] = i;
    }
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        for (int a = 0; a < t->naccess; a++) {
            const struct hs_handle *hd = &dag->handles[t->access[a].handle];
            if (hd->temporary && t->access[a].mode == HS_MODE_R && writer[hd->id] >= 0)
                cJSON_AddItemToArray(edges, edge_json(writer[hd->id], i, hd->bytes));
        }
    }
    free(writer);
    cJSON *deps = cJSON_AddArrayToObject(root, "dependencies");
    for (int e = 0; e < dag->nedges; e++)
        cJSON_AddItemToArray(deps, edge_json(dag->edges[e].src, dag->edges[e].dst,
                                             dag->edges[e].bytes));
    free(idx);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    int rc = fputs(text, out) < 0 || fputc('\n', out) == EOF ? hs_fail("cannot write the DAG") : 0;
    free(text);
    return rc;
}
