/* workloads/sgjson.c — SimGrid's JSON DAGs (its dag-from-json examples and
 * simgrid::s4u::create_DAG_from_json), which look like WfFormat 1.4 but mean
 * other things:
 *
 *   type "compute"   an execution of runtimeInSeconds FLOPS (SimGrid sets the
 *                    flops amount to that number; WfFormat means seconds)
 *   type "transfer"  a communication of writtenBytes bytes from its parent's
 *                    host to its children's: here a datum of that size that
 *                    the parent writes and the children read (a transfer
 *                    with no parent is refused: SimGrid's reader takes the
 *                    source host from the parent, and the data would
 *                    otherwise be read as initial data, its dependency lost)
 *   parents          dependencies; compute -> compute is a pure dependency
 *   machine          the host SimGrid runs it on: dropped, the policy places
 *
 * hetsim's WfFormat reader read such a file as seconds, and lost the
 * transfers: their bytes are in writtenBytes, not in files[], so a transfer
 * became an empty task. Only the types compute and transfer exist in
 * SimGrid's reader; anything else is refused, as is a transfer whose parent
 * is not a compute task, that has several or none. Tasks are added in a
 * topological order, so that writers come before readers. */
#include "base/util.h"
#include "workloads/dagio.h"
#include "workloads/foreign.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct sgtask {
    const char *name;
    bool transfer;
    double amount;    /* flops, or bytes of a transfer */
    const cJSON *parents;
    int parent;       /* a transfer's writer, -1 if none */
    int id;           /* hetsim task, or handle of a transfer */
};

static const cJSON *item(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const struct sgtask *sort_base; /* qsort and bsearch have no context */

static int cmp_index(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(sort_base[x].name, sort_base[y].name);
    return c ? c : (x > y) - (x < y);
}

static int cmp_key(const void *key, const void *b)
{
    return strcmp((const char *)key, sort_base[*(const int *)b].name);
}

/* by_name: task indices sorted by name. */
static int find_task(const struct sgtask *t, const int *by_name, int n, const char *name)
{
    sort_base = t;
    const int *k = bsearch(name, by_name, (size_t)n, sizeof *by_name, cmp_key);
    return k ? *k : -1;
}

static int *index_names(const char *path, const struct sgtask *t, int n)
{
    int *by_name = hs_xmalloc((size_t)n * sizeof *by_name);
    for (int i = 0; i < n; i++)
        by_name[i] = i;
    sort_base = t;
    qsort(by_name, (size_t)n, sizeof *by_name, cmp_index);
    for (int i = 1; i < n; i++)
        if (strcmp(t[by_name[i]].name, t[by_name[i - 1]].name) == 0) {
            hs_fail("%s: workflow.tasks[%d]: duplicate task name '%s' (also workflow.tasks[%d])",
                    path, by_name[i], t[by_name[i]].name, by_name[i - 1]);
            free(by_name);
            return NULL;
        }
    return by_name;
}

int hs_sgjson_detect(const cJSON *root)
{
    const cJSON *o;
    cJSON_ArrayForEach(o, item(item(root, "workflow"), "tasks"))
    {
        const cJSON *type = item(o, "type");
        if (cJSON_IsString(type) && strcmp(type->valuestring, "transfer") == 0 &&
            item(o, "writtenBytes") && !item(o, "files"))
            return 1;
    }
    return 0;
}

static int read_task(const char *path, const cJSON *o, int i, struct sgtask *t)
{
    const cJSON *name = item(o, "name"), *type = item(o, "type");
    if (!cJSON_IsString(name) || !*name->valuestring)
        return hs_fail("%s: workflow.tasks[%d].name: not a non-empty string", path, i);
    t->name = name->valuestring;
    if (hs_name_ok(t->name, "%s: workflow.tasks[%d].name", path, i))
        return -1;
    const char *ty = cJSON_IsString(type) ? type->valuestring : "(none)";
    if (strcmp(ty, "compute") && strcmp(ty, "transfer"))
        return hs_fail("%s: workflow.tasks[%d].type: '%s' is not compute or transfer (SimGrid's "
                       "JSON DAGs have only these)", path, i, ty);
    t->transfer = ty[0] == 't';
    const char *key = t->transfer ? "writtenBytes" : "runtimeInSeconds";
    const cJSON *v = item(o, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
        return hs_fail("%s: workflow.tasks[%d].%s: %s", path, i, key,
                       !v ? "missing" : cJSON_IsNumber(v) ? "negative" : "not a number");
    t->amount = v->valuedouble;
    t->parents = item(o, "parents");
    if (t->parents && !cJSON_IsArray(t->parents))
        return hs_fail("%s: workflow.tasks[%d].parents: not an array of task names", path, i);
    t->parent = -1;
    return 0;
}

/* Every parent link as (parent, child); -1 with hs_fail on a bad reference. */
static int links(const char *path, struct sgtask *t, const int *by_name, int n, struct hs_edges *ev)
{
    for (int i = 0; i < n; i++) {
        int k = 0;
        const cJSON *p;
        cJSON_ArrayForEach(p, t[i].parents)
        {
            int j = cJSON_IsString(p) ? find_task(t, by_name, n, p->valuestring) : -1;
            if (j < 0 || j == i)
                return hs_fail("%s: workflow.tasks[%d].parents[%d]: '%s' is %s", path, i, k,
                               cJSON_IsString(p) ? p->valuestring : "(not a string)",
                               j < 0 ? "not a task" : "the task itself (a cycle)");
            if (t[i].transfer && (t[j].transfer || k > 0))
                return hs_fail("%s: workflow.tasks[%d]: a transfer has one parent, a compute "
                               "task (SimGrid's reader)", path, i);
            if (t[i].transfer)
                t[i].parent = j;
            hs_edges_add(ev, j, i, 0);
            k++;
        }
        if (t[i].transfer && t[i].parent < 0) /* SimGrid's reader sends it from its parent's host */
            return hs_fail("%s: workflow.tasks[%d]: transfer '%s' has no parent (a transfer sends the "
                           "output of its one parent, a compute task, to its children)", path, i,
                           t[i].name);
    }
    return 0;
}

static void build(struct sgtask *t, const int *by_name, int n, const int *order,
                  struct hs_dag *dag)
{
    for (int k = 0; k < n; k++) {
        struct sgtask *x = &t[order[k]];
        if (x->transfer) {
            x->id = hs_dag_add_handle(dag, x->name, x->amount);
            if (x->parent >= 0)
                hs_dag_access(dag, t[x->parent].id, x->id, HS_MODE_W);
            continue;
        }
        x->id = hs_dag_add_task(dag, "compute", x->name, x->amount, 0);
        if (x->amount == 0)
            hs_task_zero_cost(&dag->tasks[x->id]);
        const cJSON *p;
        cJSON_ArrayForEach(p, x->parents)
        {
            const struct sgtask *q = &t[find_task(t, by_name, n, p->valuestring)];
            if (q->transfer)
                hs_dag_access(dag, x->id, q->id, HS_MODE_R);
            else
                hs_dag_add_edge(dag, q->id, x->id, 0);
        }
    }
}

int hs_sgjson_build(const char *path, const cJSON *root, struct hs_dag *dag)
{
    const cJSON *tasks = item(item(root, "workflow"), "tasks");
    int n = cJSON_GetArraySize(tasks);
    if (!cJSON_IsArray(tasks) || n == 0)
        return hs_fail("%s: workflow.tasks: not a non-empty array of tasks", path);
    const cJSON *name = item(root, "name");
    if (cJSON_IsString(name) && hs_name_ok(name->valuestring, "%s: name", path))
        return -1;
    if (cJSON_IsString(name) && *name->valuestring)
        hs_dag_rename(dag, name->valuestring);
    struct sgtask *t = hs_xcalloc((size_t)n, sizeof *t);
    int *order = hs_xmalloc((size_t)n * sizeof *order), *by_name = NULL, i = 0, rc = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, tasks)
    {
        if (!rc)
            rc = read_task(path, o, i, &t[i]);
        i++;
    }
    if (!rc && !(by_name = index_names(path, t, n)))
        rc = -1;
    struct hs_edges ev = {0};
    if (!rc)
        rc = links(path, t, by_name, n, &ev);
    if (!rc && hs_topo_order(n, &ev, order))
        rc = hs_fail("%s: workflow.tasks: the parents links have a cycle", path);
    if (!rc)
        build(t, by_name, n, order, dag);
    hs_edges_free(&ev);
    free(by_name);
    free(order);
    free(t);
    return rc;
}
