/* workloads/wfformat.c — the "wfformat" workload: a WfCommons WfFormat
 * workflow instance (github.com/wfcommons/WfFormat) read with cJSON.
 *
 *   1.3/1.4 (and 1.2's "jobs"): workflow.tasks[] {name, id, category, type,
 *           runtimeInSeconds | runtime, parents, children,
 *           files[] {link: input|output, name, sizeInBytes | size}}
 *           tasks are named (and referred to) by name, else by id;
 *   1.5:    workflow.specification.tasks[] {name, id, parents, children,
 *           inputFiles, outputFiles}, workflow.specification.files[]
 *           {id, sizeInBytes}, workflow.execution.tasks[] {id,
 *           runtimeInSeconds, command.program}; tasks are referred to by id.
 *
 * Mapping: each file is a data handle (its size in bytes; 1.3's "size" is
 * taken as bytes, as WfCommons' own migration to 1.4 does); a task writes its
 * output files and reads its input files, so a file read by several tasks
 * moves once per memory node, and files nobody writes are initial data on the
 * host. A parent/child link with no file written by the parent (alone) and
 * read by the child becomes a 0-byte explicit edge. runtime r seconds becomes
 * r × speed flops (so a task lasts r on a processor of that speed; r = 0: an
 * explicit zero cost); the kernel is the category, else the program, else
 * "task"; the label is the task's name (1.5: its id). Tasks keep the file's
 * order when it is topological, else they are added in a topological order
 * (igraph), so that the data-flow inference sees writers before readers.
 * SimGrid's JSON DAGs, which look like 1.4 but mean other things, go to
 * sgjson.c (semantics=simgrid, or detected with semantics=auto). */
#include "workloads/dagio.h"
#include "workloads/foreign.h"
#include "workloads/workload.h"
#include "base/inputfile.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <igraph/igraph.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct wtask {
    const char *key, *id, *label, *kernel;
    double runtime;
    const cJSON *parents, *children;
    int *in, *out; /* file indices, sorted, unique */
    int nin, nout;
};

struct wfile {
    const char *name;
    double bytes;
    int seq;     /* first mention, to keep the file's order */
    int nprod;   /* tasks writing it */
    int handle;  /* -1 until used */
};

struct named {
    const char *name;
    int index;
};

struct wf {
    const char *path;
    char list[48]; /* "workflow.tasks", … for messages */
    bool v15;
    struct wtask *t;
    int nt;
    struct wfile *f;
    int nf;
    struct named *by_key, *by_id, *by_file;
    int nby_id;
    int (*links)[2], (*fedges)[2]; /* parent -> child; writer -> reader */
    size_t nlinks, caplinks, nfedges, capfedges;
};

#define bad(w, ...) hs_fail_at((w)->path, -1, __VA_ARGS__)

static const cJSON *item(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = item(o, key);
    return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}

/* A number >= 0 under one of two keys (newer first); 0 if neither. */
static int nonneg(const struct wf *w, const cJSON *o, const char *k1, const char *k2,
                  const char *where, double *out)
{
    const cJSON *v = item(o, k1);
    const char *key = k1;
    if (!v && k2)
        v = item(o, key = k2);
    *out = 0;
    if (!v)
        return 0;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return bad(w, "%s.%s: not a number", where, key);
    if (v->valuedouble < 0)
        return bad(w, "%s.%s: %g is negative", where, key, v->valuedouble);
    *out = v->valuedouble;
    return 0;
}

static int cmp_named(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int find(const struct named *v, int n, const char *name)
{
    struct named key = {name, -1};
    const struct named *lo = v, *hi = v + n;
    while (lo < hi) { /* first entry not below key */
        const struct named *mid = lo + (hi - lo) / 2;
        if (cmp_named(mid, &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v + n && strcmp(lo->name, name) == 0 ? lo->index : -1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int unique_ints(int *v, int n)
{
    if (n > 1) /* v may be NULL when empty: not for qsort */
        qsort(v, (size_t)n, sizeof *v, cmp_int);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

/* ---- tasks ---------------------------------------------------------------- */

static const char *program_of(const cJSON *o)
{
    return str(item(o, "command"), "program");
}

static int read_task(struct wf *w, const cJSON *o, int i)
{
    struct wtask *t = &w->t[i];
    char where[96];
    snprintf(where, sizeof where, "%s[%d]", w->list, i);
    if (!cJSON_IsObject(o))
        return bad(w, "%s: not an object", where);
    t->id = str(o, "id");
    const char *name = str(o, "name");
    t->key = w->v15 ? t->id : name;
    if (!t->key)
        return bad(w, "%s: no %s (a non-empty string)", where, w->v15 ? "id" : "name");
    t->label = t->key;
    t->kernel = str(o, "category") ? str(o, "category") : program_of(o) ? program_of(o) : "task";
    if (hs_name_ok(t->key, "%s: %s.%s", w->path, where, w->v15 ? "id" : "name") ||
        (t->id && hs_name_ok(t->id, "%s: %s.id", w->path, where)) ||
        hs_name_ok(t->kernel, "%s: %s.%s", w->path, where, str(o, "category") ? "category" : "command.program"))
        return -1;
    t->parents = item(o, "parents");
    t->children = item(o, "children");
    if ((t->parents && !cJSON_IsArray(t->parents)) || (t->children && !cJSON_IsArray(t->children)))
        return bad(w, "%s: parents and children must be arrays of task names", where);
    return w->v15 ? 0 : nonneg(w, o, "runtimeInSeconds", "runtime", where, &t->runtime);
}

static int index_tasks(struct wf *w)
{
    w->by_key = hs_xmalloc((size_t)w->nt * sizeof *w->by_key);
    w->by_id = hs_xmalloc((size_t)w->nt * sizeof *w->by_id);
    for (int i = 0; i < w->nt; i++) {
        w->by_key[i] = (struct named){w->t[i].key, i};
        if (w->t[i].id)
            w->by_id[w->nby_id++] = (struct named){w->t[i].id, i};
    }
    qsort(w->by_key, (size_t)w->nt, sizeof *w->by_key, cmp_named);
    qsort(w->by_id, (size_t)w->nby_id, sizeof *w->by_id, cmp_named);
    for (int i = 1; i < w->nt; i++)
        if (strcmp(w->by_key[i - 1].name, w->by_key[i].name) == 0)
            return bad(w, "%s[%d]: duplicate task %s '%s' (also %s[%d])", w->list,
                       w->by_key[i].index, w->v15 ? "id" : "name", w->by_key[i].name, w->list,
                       w->by_key[i - 1].index);
    return 0;
}

static int task_ref(const struct wf *w, const char *ref)
{
    int k = find(w->by_key, w->nt, ref);
    return k >= 0 || w->v15 ? k : find(w->by_id, w->nby_id, ref);
}

static void add_pair(int (**v)[2], size_t *n, size_t *cap, int a, int b)
{
    HS_GROW(*v, *cap, *n + 1);
    (*v)[*n][0] = a;
    (*v)[*n][1] = b;
    (*n)++;
}

static int read_links(struct wf *w, int i, const cJSON *list, bool parents)
{
    const cJSON *x;
    cJSON_ArrayForEach(x, list)
    {
        const char *kind = parents ? "parents" : "children";
        int j = cJSON_IsString(x) ? task_ref(w, x->valuestring) : -1;
        if (j < 0)
            return bad(w, "%s[%d].%s: '%s' is not a task", w->list, i, kind,
                       cJSON_IsString(x) ? x->valuestring : "(not a string)");
        if (j == i)
            return bad(w, "%s[%d].%s: task '%s' depends on itself (a cycle)", w->list, i, kind,
                       w->t[i].key);
        add_pair(&w->links, &w->nlinks, &w->caplinks, parents ? j : i, parents ? i : j);
    }
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

static int all_links(struct wf *w)
{
    for (int i = 0; i < w->nt; i++)
        if (read_links(w, i, w->t[i].parents, true) || read_links(w, i, w->t[i].children, false))
            return -1;
    if (w->nlinks > 1) /* NULL when there are none: not for qsort */
        qsort(w->links, w->nlinks, sizeof *w->links, cmp_pair);
    size_t m = 0;
    for (size_t i = 0; i < w->nlinks; i++)
        if (m == 0 || cmp_pair(w->links[m - 1], w->links[i]))
            memcpy(w->links[m++], w->links[i], sizeof *w->links);
    w->nlinks = m;
    return 0;
}

/* ---- files ---------------------------------------------------------------- */

static int add_file(struct wf *w, const char *name, double bytes, int *cap)
{
    if (w->nf == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        w->f = hs_xrealloc(w->f, (size_t)*cap * sizeof *w->f);
    }
    w->f[w->nf] = (struct wfile){name, bytes, w->nf, 0, -1};
    return w->nf++;
}

/* Sort the files by name (first mention first) and drop repeated mentions;
 * map[i] is where mention i went. */
static int *index_files(struct wf *w)
{
    int *map = hs_xmalloc((size_t)(w->nf ? w->nf : 1) * sizeof *map);
    struct named *v = hs_xmalloc((size_t)(w->nf ? w->nf : 1) * sizeof *v);
    for (int i = 0; i < w->nf; i++)
        v[i] = (struct named){w->f[i].name, i};
    qsort(v, (size_t)w->nf, sizeof *v, cmp_named);
    struct wfile *files = hs_xmalloc((size_t)(w->nf ? w->nf : 1) * sizeof *files);
    int m = 0;
    for (int i = 0; i < w->nf; i++) {
        if (m == 0 || strcmp(files[m - 1].name, v[i].name) != 0)
            files[m++] = w->f[v[i].index];
        map[v[i].index] = m - 1;
        v[m - 1] = (struct named){files[m - 1].name, m - 1};
    }
    free(w->f);
    w->f = files;
    w->nf = m;
    w->by_file = v;
    return map;
}

/* 1.3/1.4: files[] of each task. */
static int legacy_files(struct wf *w, const cJSON *tasks)
{
    int cap = 0, i = 0, rc = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, tasks)
    {
        struct wtask *t = &w->t[i];
        int nfiles = cJSON_GetArraySize(item(o, "files")), k = 0;
        t->in = hs_xmalloc((size_t)(nfiles + 1) * sizeof(int));
        t->out = hs_xmalloc((size_t)(nfiles + 1) * sizeof(int));
        const cJSON *f;
        cJSON_ArrayForEach(f, item(o, "files"))
        {
            char where[128];
            snprintf(where, sizeof where, "%s[%d].files[%d]", w->list, i, k++);
            const char *name = str(f, "name"), *link = str(f, "link");
            double bytes;
            if (!rc && (!name || !link || (strcmp(link, "input") && strcmp(link, "output"))))
                rc = bad(w, "%s: needs a name and a link \"input\" or \"output\"", where);
            if (!rc && hs_name_ok(name, "%s: %s.name", w->path, where))
                rc = -1;
            if (!rc && !item(f, "sizeInBytes") && !item(f, "size"))
                rc = bad(w, "%s: no sizeInBytes", where);
            if (!rc && nonneg(w, f, "sizeInBytes", "size", where, &bytes))
                rc = -1;
            if (rc)
                continue;
            int idx = add_file(w, name, bytes, &cap);
            if (link[0] == 'i')
                t->in[t->nin++] = idx;
            else
                t->out[t->nout++] = idx;
        }
        i++;
    }
    if (rc)
        return rc;
    int *map = index_files(w);
    for (i = 0; i < w->nt; i++) {
        for (int k = 0; k < w->t[i].nin; k++)
            w->t[i].in[k] = map[w->t[i].in[k]];
        for (int k = 0; k < w->t[i].nout; k++)
            w->t[i].out[k] = map[w->t[i].out[k]];
    }
    free(map);
    return 0;
}

/* 1.5: specification.files[] and each task's inputFiles/outputFiles. */
static int spec_file_refs(struct wf *w, const cJSON *o, int i, const char *key, int **out, int *n)
{
    *out = hs_xmalloc((size_t)(cJSON_GetArraySize(item(o, key)) + 1) * sizeof(int));
    const cJSON *x;
    cJSON_ArrayForEach(x, item(o, key))
    {
        int f = cJSON_IsString(x) ? find(w->by_file, w->nf, x->valuestring) : -1;
        if (f < 0)
            return bad(w, "%s[%d].%s: '%s' is not in workflow.specification.files", w->list, i,
                       key, cJSON_IsString(x) ? x->valuestring : "(not a string)");
        (*out)[(*n)++] = f;
    }
    return 0;
}

static int spec_files(struct wf *w, const cJSON *spec)
{
    int cap = 0, k = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, item(spec, "files"))
    {
        char where[96];
        snprintf(where, sizeof where, "workflow.specification.files[%d]", k++);
        double bytes;
        if (!str(f, "id"))
            return bad(w, "%s: no id", where);
        if (hs_name_ok(str(f, "id"), "%s: %s.id", w->path, where))
            return -1;
        if (!item(f, "sizeInBytes"))
            return bad(w, "%s: no sizeInBytes", where);
        if (nonneg(w, f, "sizeInBytes", NULL, where, &bytes))
            return -1;
        add_file(w, str(f, "id"), bytes, &cap);
    }
    free(index_files(w)); /* a repeated id keeps its first size */
    int i = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, item(spec, "tasks"))
    {
        struct wtask *t = &w->t[i];
        if (spec_file_refs(w, o, i, "inputFiles", &t->in, &t->nin) ||
            spec_file_refs(w, o, i, "outputFiles", &t->out, &t->nout))
            return -1;
        i++;
    }
    return 0;
}

/* 1.5: runtimes and programs from workflow.execution.tasks[]. */
static int execution(struct wf *w, const cJSON *exec)
{
    int k = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, item(exec, "tasks"))
    {
        char where[96];
        snprintf(where, sizeof where, "workflow.execution.tasks[%d]", k++);
        const char *id = str(o, "id");
        int i = id ? find(w->by_key, w->nt, id) : -1;
        if (i < 0)
            return bad(w, "%s.id: '%s' is not a task of the specification", where,
                       id ? id : "(missing)");
        if (nonneg(w, o, "runtimeInSeconds", NULL, where, &w->t[i].runtime))
            return -1;
        if (program_of(o) && hs_name_ok(program_of(o), "%s: %s.command.program", w->path, where))
            return -1;
        if (program_of(o) && strcmp(w->t[i].kernel, "task") == 0)
            w->t[i].kernel = program_of(o);
    }
    return 0;
}

/* Writer -> reader pairs of each file, and each file's writer count. */
static void file_edges(struct wf *w)
{
    for (int i = 0; i < w->nt; i++) {
        w->t[i].nin = unique_ints(w->t[i].in, w->t[i].nin);
        w->t[i].nout = unique_ints(w->t[i].out, w->t[i].nout);
        for (int k = 0; k < w->t[i].nout; k++)
            w->f[w->t[i].out[k]].nprod++;
    }
    /* CSR of writers per file */
    int *start = hs_xcalloc((size_t)w->nf + 1, sizeof *start);
    for (int f = 0; f < w->nf; f++)
        start[f + 1] = start[f] + w->f[f].nprod;
    int *fill = hs_xmalloc((size_t)(w->nf ? w->nf : 1) * sizeof *fill);
    memcpy(fill, start, (size_t)w->nf * sizeof *fill);
    int *writer = hs_xmalloc((size_t)(start[w->nf] ? start[w->nf] : 1) * sizeof *writer);
    for (int i = 0; i < w->nt; i++)
        for (int k = 0; k < w->t[i].nout; k++)
            writer[fill[w->t[i].out[k]]++] = i;
    for (int i = 0; i < w->nt; i++)
        for (int k = 0; k < w->t[i].nin; k++) {
            int f = w->t[i].in[k];
            for (int p = start[f]; p < start[f + 1]; p++)
                if (writer[p] != i)
                    add_pair(&w->fedges, &w->nfedges, &w->capfedges, writer[p], i);
        }
    free(fill);
    free(start);
    free(writer);
}

/* pos[i]: where task i goes. The file's order if it is topological, else
 * igraph's; -1 with every pos[i] = i if the links have a cycle. */
static int build_order(const struct wf *w, int *pos)
{
    bool forward = true;
    for (size_t e = 0; e < w->nlinks; e++)
        forward &= w->links[e][0] < w->links[e][1];
    for (size_t e = 0; e < w->nfedges; e++)
        forward &= w->fedges[e][0] < w->fedges[e][1];
    for (int i = 0; i < w->nt; i++)
        pos[i] = i;
    if (forward)
        return 0;
    igraph_set_error_handler(igraph_error_handler_ignore);
    igraph_vector_int_t ev, order;
    igraph_vector_int_init(&ev, 2 * (igraph_integer_t)(w->nlinks + w->nfedges));
    for (size_t e = 0; e < w->nlinks + w->nfedges; e++) {
        const int *pair = e < w->nlinks ? w->links[e] : w->fedges[e - w->nlinks];
        VECTOR(ev)[2 * e] = pair[0];
        VECTOR(ev)[2 * e + 1] = pair[1];
    }
    igraph_t g;
    igraph_create(&g, &ev, w->nt, IGRAPH_DIRECTED);
    igraph_vector_int_destroy(&ev);
    igraph_bool_t is_dag = 0;
    igraph_is_dag(&g, &is_dag);
    if (is_dag) {
        igraph_vector_int_init(&order, 0);
        igraph_topological_sorting(&g, &order, IGRAPH_OUT);
        for (int k = 0; k < w->nt; k++)
            pos[VECTOR(order)[k]] = k;
        igraph_vector_int_destroy(&order);
    }
    igraph_destroy(&g);
    return is_dag ? 0 : -1;
}

/* Does child read a file that parent alone writes? */
static bool shares_file(const struct wf *w, int parent, int child)
{
    const struct wtask *p = &w->t[parent], *c = &w->t[child];
    for (int a = 0, b = 0; a < p->nout && b < c->nin;) {
        if (p->out[a] == c->in[b] && w->f[p->out[a]].nprod == 1)
            return true;
        if (p->out[a] < c->in[b])
            a++;
        else
            b++;
    }
    return false;
}

static void add_task(struct wf *w, struct hs_dag *dag, int i, double speed)
{
    struct wtask *t = &w->t[i];
    int id = hs_dag_add_task(dag, t->kernel, t->label, t->runtime * speed, 0);
    if (t->runtime == 0)
        hs_task_zero_cost(&dag->tasks[id]);
    for (int k = 0; k < t->nin + t->nout; k++) {
        bool input = k < t->nin;
        int f = input ? t->in[k] : t->out[k - t->nin];
        bool both = input ? bsearch(&f, t->out, (size_t)t->nout, sizeof f, cmp_int) != NULL
                          : bsearch(&f, t->in, (size_t)t->nin, sizeof f, cmp_int) != NULL;
        if (!input && both)
            continue; /* already accessed RW */
        if (w->f[f].handle < 0)
            w->f[f].handle = hs_dag_add_handle(dag, w->f[f].name, w->f[f].bytes);
        hs_dag_access(dag, id, w->f[f].handle, both ? HS_MODE_RW : input ? HS_MODE_R : HS_MODE_W);
    }
}

static void build(struct wf *w, struct hs_dag *dag, double speed)
{
    int *pos = hs_xmalloc((size_t)w->nt * sizeof *pos), *at = hs_xmalloc((size_t)w->nt * sizeof *at);
    bool cycle = build_order(w, pos) != 0;
    for (int i = 0; i < w->nt; i++)
        at[pos[i]] = i;
    for (int k = 0; k < w->nt; k++)
        add_task(w, dag, at[k], speed);
    for (size_t e = 0; e < w->nlinks; e++)
        if (cycle || !shares_file(w, w->links[e][0], w->links[e][1]))
            hs_dag_add_edge(dag, pos[w->links[e][0]], pos[w->links[e][1]], 0);
    /* with a cycle, hs_dag_finalize finds it among the explicit edges and names it */
    for (size_t e = 0; cycle && e < w->nfedges; e++)
        hs_dag_add_edge(dag, w->fedges[e][0], w->fedges[e][1], 0);
    free(pos);
    free(at);
}

/* ---- the document --------------------------------------------------------- */

static const cJSON *task_list(struct wf *w, const cJSON *workflow)
{
    const cJSON *spec = item(workflow, "specification");
    w->v15 = spec != NULL;
    const char *key = !w->v15 && !item(workflow, "tasks") && item(workflow, "jobs") ? "jobs" : "tasks";
    snprintf(w->list, sizeof w->list, "workflow.%s%s", w->v15 ? "specification." : "", key);
    const cJSON *tasks = item(w->v15 ? spec : workflow, key);
    if (!cJSON_IsArray(tasks) || cJSON_GetArraySize(tasks) == 0) {
        bad(w, "%s: not a non-empty array of tasks", w->list);
        return NULL;
    }
    return tasks;
}

static int read_instance(struct wf *w, const cJSON *root, struct hs_dag *dag, double speed)
{
    const cJSON *workflow = item(root, "workflow");
    if (!cJSON_IsObject(workflow))
        return bad(w, "no 'workflow' object (not a WfFormat instance)");
    if (str(root, "name") && hs_name_ok(str(root, "name"), "%s: name", w->path))
        return -1;
    if (str(root, "name"))
        hs_dag_rename(dag, str(root, "name"));
    const cJSON *tasks = task_list(w, workflow), *o;
    if (!tasks)
        return -1;
    w->nt = cJSON_GetArraySize(tasks);
    w->t = hs_xcalloc((size_t)w->nt, sizeof *w->t);
    int i = 0;
    cJSON_ArrayForEach(o, tasks)
    {
        if (read_task(w, o, i++))
            return -1;
    }
    if (index_tasks(w))
        return -1;
    if (w->v15 ? spec_files(w, item(workflow, "specification")) ||
                     execution(w, item(workflow, "execution"))
               : legacy_files(w, tasks))
        return -1;
    if (all_links(w))
        return -1;
    file_edges(w);
    for (int k = 0; k < w->nt; k++) /* flops = runtime x speed must be a number a double holds */
        if (!isfinite(w->t[k].runtime * speed))
            return bad(w, "task %s: runtime %g s at %g flop/s gives more flops than a double holds",
                       w->t[k].id ? w->t[k].id : w->t[k].label, w->t[k].runtime, speed);
    build(w, dag, speed);
    return 0;
}

static void free_wf(struct wf *w)
{
    for (int i = 0; w->t && i < w->nt; i++) {
        free(w->t[i].in);
        free(w->t[i].out);
    }
    free(w->t);
    free(w->f);
    free(w->by_key);
    free(w->by_id);
    free(w->by_file);
    free(w->links);
    free(w->fedges);
}

int hs_wfformat_build(const char *path, const cJSON *root, double speed, struct hs_dag *dag)
{
    struct wf w = {.path = path};
    int rc = read_instance(&w, root, dag, speed);
    free_wf(&w);
    dag->runtime_speed = speed; /* flops = runtime x speed (add_task) */
    return rc;
}

/* semantics: "auto" (SimGrid's JSON DAGs are told by their transfer tasks),
 * "wfformat" or "simgrid" (sgjson.c). */
static int read_file(const char *path, double speed, const char *semantics, struct hs_dag *dag)
{
    size_t len = 0;
    char *text = hs_read_text(path, &len);
    if (!text)
        return -1;
    char err[1024];
    cJSON *root = hs_json_parse_strict(path, text, len, err, sizeof err);
    int rc;
    if (!root)
        rc = hs_fail("%s", err);
    else if (semantics[0] == 's' || (semantics[0] == 'a' && hs_sgjson_detect(root)))
        rc = hs_sgjson_build(path, root, dag);
    else
        rc = hs_wfformat_build(path, root, speed, dag);
    cJSON_Delete(root);
    free(text);
    return rc;
}

int hs_wfformat_read(const char *path, double speed, struct hs_dag *dag)
{
    return read_file(path, speed, "auto", dag);
}

static const struct hs_param wfformat_params[] = {
    {.name = "file", .type = HS_P_STRING, .positional = true,
     .help = "WfCommons WfFormat instance (JSON, schema 1.3 to 1.5), or a SimGrid JSON DAG"},
    {.name = "speed", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "flop/s of the machine the runtimes were measured on (flops = runtime x speed)"},
    {.name = "semantics", .type = HS_P_CHOICE, .defval = "auto", .choices = "auto|wfformat|simgrid",
     .help = "simgrid: SimGrid's reading (runtimeInSeconds are flops, transfer tasks are data); "
             "auto: simgrid for files with SimGrid's transfer tasks"},
    {0},
};

static int build_wfformat(const struct hs_spec *spec, struct hs_dag *dag)
{
    return read_file(hs_spec_get(spec, "file"), hs_spec_double(spec, "speed"),
                     hs_spec_get(spec, "semantics"), dag);
}

const struct hs_workload hs_workload_wfformat = {
    .name = "wfformat",
    .summary = "WfCommons WfFormat workflow instance (files become data handles)",
    .params = wfformat_params,
    .build = build_wfformat,
};
