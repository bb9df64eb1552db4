/* sim/dag.c — building a data-flow DAG and inferring its dependencies.
 *
 * Inference walks the tasks in submission order and keeps, per datum, its
 * current version, the last writer and the readers since that write:
 *   R  : edge last-writer -> task (RAW, carries the datum's bytes)
 *   RW : edges readers -> task (WAR, 0 bytes) and last-writer -> task (RAW/WAW)
 *   W  : no edge; if the datum was accessed before, the access is renamed to a
 *        fresh version (XKaapi's "W-only never waits").
 * Private handles of explicit edges bypass this and give their edge directly,
 * so DAG files need not list tasks in topological order; igraph then checks
 * that the result is acyclic and gives a topological order. */
#include "sim/dag.h"
#include "base/util.h"

#include <igraph/igraph.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hs_arch_name(enum hs_arch arch)
{
    return arch == HS_ARCH_GPU ? "gpu" : "cpu";
}

/* Task labels, handle names and per-processor costs are packed in blocks
 * that the DAG owns: a malloc each would cost a 32-byte chunk for "n12345"
 * or "e12_345" and 16 bytes of header for 4 costs, tens of bytes per task in
 * a DAG of a million tasks. */
struct hs_dag_pool {
    struct hs_dag_pool *next;
    size_t used, size;
    _Alignas(double) unsigned char data[];
};

enum { POOL_BLOCK = 64 * 1024 };

static struct hs_dag_pool *new_pool_block(size_t size)
{
    struct hs_dag_pool *b = hs_xmalloc(sizeof *b + size);
    b->next = NULL;
    b->used = 0;
    b->size = size;
    return b;
}

/* n bytes aligned to align (at most a double's), freed with the DAG. */
static void *pool_alloc(struct hs_dag *dag, size_t n, size_t align)
{
    struct hs_dag_pool *b = dag->pool;
    size_t at = b ? (b->used + align - 1) / align * align : 0;
    if (!b || at + n > b->size) {
        if (b && n > POOL_BLOCK / 8) { /* a large one gets its own block, behind the head */
            struct hs_dag_pool *own = new_pool_block(n);
            own->next = b->next;
            b->next = own;
            b = own;
        } else {
            b = new_pool_block(n > POOL_BLOCK ? n : POOL_BLOCK);
            b->next = dag->pool;
            dag->pool = b;
        }
        at = 0;
    }
    b->used = at + n;
    return b->data + at;
}

static char *pool_strdup(struct hs_dag *dag, const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(pool_alloc(dag, n, 1), s, n);
}

struct hs_dag *hs_dag_new(const char *name)
{
    struct hs_dag *dag = hs_xcalloc(1, sizeof *dag);
    dag->name = hs_xstrdup(name ? name : "dag");
    return dag;
}

void hs_dag_free(struct hs_dag *dag)
{
    if (!dag)
        return;
    for (int i = 0; i < dag->ntasks; i++) {
        free(dag->tasks[i].access);
        for (char **x = dag->tasks[i].extra; x && *x; x++)
            free(*x);
        free(dag->tasks[i].extra);
    }
    while (dag->pool) {
        struct hs_dag_pool *next = dag->pool->next;
        free(dag->pool);
        dag->pool = next;
    }
    for (int i = 0; i < dag->nkernels; i++)
        free(dag->kernels[i]);
    free(dag->kernel_slots);
    free(dag->tasks);
    free(dag->handles);
    free(dag->kernels);
    free(dag->edges);
    free(dag->edge_ids);
    free(dag->pred_ids);
    free(dag->topo);
    free(dag->name);
    free(dag);
}

/* Past KERNEL_SCAN kernels, names are found through an open-addressing hash
 * table instead of a scan: a file whose every task has a kernel of its own
 * (a DAX job's name, a WfFormat category) took a scan of all the kernels
 * before it per task, quadratic in their number. */
#define KERNEL_SCAN 16

static size_t kernel_slot(const struct hs_dag *dag, const char *name)
{
    size_t mask = (size_t)dag->nkernel_slots - 1;
    size_t i = (size_t)hs_fnv1a64(name, strlen(name), HS_FNV_OFFSET) & mask;
    while (dag->kernel_slots[i] >= 0 && strcmp(dag->kernels[dag->kernel_slots[i]], name) != 0)
        i = (i + 1) & mask;
    return i;
}

int hs_dag_find_kernel(const struct hs_dag *dag, const char *kernel_name)
{
    if (dag->nkernel_slots)
        return dag->kernel_slots[kernel_slot(dag, kernel_name)];
    for (int i = 0; i < dag->nkernels; i++)
        if (strcmp(dag->kernels[i], kernel_name) == 0)
            return i;
    return -1;
}

/* Room in the table for one more kernel (at most half the slots used). */
static void kernel_slots_reserve(struct hs_dag *dag)
{
    int need = 2 * (dag->nkernels + 1); /* kernels are at most INT_MAX / 4: tasks are ints */
    if (dag->nkernels + 1 <= KERNEL_SCAN || need <= dag->nkernel_slots)
        return;
    int n = dag->nkernel_slots ? 2 * dag->nkernel_slots : 4 * KERNEL_SCAN;
    while (n < need)
        n *= 2;
    free(dag->kernel_slots);
    dag->kernel_slots = hs_xmalloc((size_t)n * sizeof *dag->kernel_slots);
    dag->nkernel_slots = n;
    for (int i = 0; i < n; i++)
        dag->kernel_slots[i] = -1;
    for (int k = 0; k < dag->nkernels; k++)
        dag->kernel_slots[kernel_slot(dag, dag->kernels[k])] = k;
}

int hs_dag_kernel(struct hs_dag *dag, const char *kernel_name)
{
    int found = hs_dag_find_kernel(dag, kernel_name);
    if (found >= 0)
        return found;
    size_t cap = (size_t)dag->cap_kernels;
    HS_GROW(dag->kernels, cap, (size_t)dag->nkernels + 1);
    dag->cap_kernels = (int)cap;
    dag->kernels[dag->nkernels] = hs_xstrdup(kernel_name);
    kernel_slots_reserve(dag);
    if (dag->nkernel_slots)
        dag->kernel_slots[kernel_slot(dag, kernel_name)] = dag->nkernels;
    return dag->nkernels++;
}

static int new_handle(struct hs_dag *dag, const char *name, double bytes, int origin, int version)
{
    size_t cap = (size_t)dag->cap_handles;
    HS_GROW(dag->handles, cap, (size_t)dag->nhandles + 1);
    dag->cap_handles = (int)cap;
    struct hs_handle *h = &dag->handles[dag->nhandles];
    h->id = dag->nhandles;
    h->name = pool_strdup(dag, name);
    h->bytes = round(bytes);
    h->origin = origin < 0 ? h->id : origin;
    h->version = version;
    h->latest = true;
    return dag->nhandles++;
}

int hs_dag_add_handle(struct hs_dag *dag, const char *name, double bytes)
{
    return new_handle(dag, name, bytes, -1, 0);
}

int hs_dag_add_task(struct hs_dag *dag, const char *kernel, const char *label, double flops,
                    int footprint)
{
    size_t cap = (size_t)dag->cap_tasks;
    HS_GROW(dag->tasks, cap, (size_t)dag->ntasks + 1);
    dag->cap_tasks = (int)cap;
    struct hs_task *t = &dag->tasks[dag->ntasks];
    memset(t, 0, sizeof *t);
    t->id = dag->ntasks;
    t->kernel = hs_dag_kernel(dag, kernel);
    t->label = pool_strdup(dag, label ? label : kernel);
    t->flops = flops;
    t->footprint = footprint;
    t->arch_cost[HS_ARCH_CPU] = NAN;
    t->arch_cost[HS_ARCH_GPU] = NAN;
    t->arch_mask = HS_ARCHMASK_ALL;
    return dag->ntasks++;
}

void hs_dag_access(struct hs_dag *dag, int task, int handle, enum hs_mode mode)
{
    struct hs_task *t = &dag->tasks[task];
    /* doubling past 8: one realloc per access copied a wide task's array each time */
    HS_GROW_IMPLIED(t->access, t->naccess, (size_t)t->naccess + 1);
    t->access[t->naccess].handle = handle;
    t->access[t->naccess].mode = mode;
    t->naccess++;
}

void hs_dag_add_edge(struct hs_dag *dag, int src, int dst, double bytes)
{
    char name[64];
    snprintf(name, sizeof name, "e%d_%d", src, dst);
    int h = hs_dag_add_handle(dag, name, bytes);
    dag->handles[h].temporary = true;
    hs_dag_access(dag, src, h, HS_MODE_W);
    hs_dag_access(dag, dst, h, HS_MODE_R);
}

void hs_dag_set_proc_costs(struct hs_dag *dag, int task, const double *costs, int n)
{
    struct hs_task *t = &dag->tasks[task];
    /* in the DAG's pool: costs set again for a task leave the old ones there */
    t->proc_cost = pool_alloc(dag, (size_t)n * sizeof(double), _Alignof(double));
    memcpy(t->proc_cost, costs, (size_t)n * sizeof(double));
    if (n > dag->nproc_costs)
        dag->nproc_costs = n;
}

double hs_dag_flops(const struct hs_dag *dag)
{
    if (dag->total_flops > 0)
        return dag->total_flops;
    double sum = 0;
    for (int i = 0; i < dag->ntasks; i++)
        sum += dag->tasks[i].flops;
    return sum;
}

double hs_dag_data_bytes(const struct hs_dag *dag)
{
    double sum = 0;
    for (int h = 0; h < dag->nhandles; h++)
        sum += dag->handles[h].bytes;
    return sum;
}

/* ---- inference ---------------------------------------------------------- */

struct pending_edge {
    int src;
    double bytes;
};

struct datum_state {
    int current;    /* handle id of the current version */
    int last_writer;
    int *readers;
    size_t nreaders, cap;
};

struct edge_list {
    struct hs_edge *edges;
    size_t n, cap;
    struct pending_edge *pend; /* edges of the task being processed */
    size_t npend, cap_pend;
};

static void pend(struct edge_list *el, int src, int dst, double bytes)
{
    if (src == dst)
        return;
    HS_GROW(el->pend, el->cap_pend, el->npend + 1);
    el->pend[el->npend].src = src;
    el->pend[el->npend].bytes = bytes;
    el->npend++;
}

static int cmp_pending(const void *a, const void *b)
{
    const struct pending_edge *x = a, *y = b;
    return (x->src > y->src) - (x->src < y->src);
}

/* Sort the pending in-edges of `dst`, merge duplicates, append them. */
static void flush_pending(struct edge_list *el, int dst)
{
    if (el->npend == 0)
        return;
    qsort(el->pend, el->npend, sizeof *el->pend, cmp_pending);
    for (size_t i = 0; i < el->npend; i++) {
        if (el->n && el->edges[el->n - 1].dst == dst && el->edges[el->n - 1].src == el->pend[i].src) {
            el->edges[el->n - 1].bytes += el->pend[i].bytes;
            continue;
        }
        HS_GROW(el->edges, el->cap, el->n + 1);
        el->edges[el->n].src = el->pend[i].src;
        el->edges[el->n].dst = dst;
        el->edges[el->n].bytes = el->pend[i].bytes;
        el->n++;
    }
    el->npend = 0;
}

static void add_reader(struct datum_state *d, int task)
{
    if (d->nreaders && d->readers[d->nreaders - 1] == task)
        return;
    HS_GROW(d->readers, d->cap, d->nreaders + 1);
    d->readers[d->nreaders++] = task;
}

static int rename_datum(struct hs_dag *dag, int cur)
{
    const struct hs_handle *old = &dag->handles[cur];
    char name[256];
    int origin = old->origin, version = old->version + 1;
    snprintf(name, sizeof name, "%s#%d", dag->handles[origin].name, version);
    int v = new_handle(dag, name, old->bytes, origin, version);
    dag->handles[cur].latest = false;
    return v;
}

static void infer_access(struct hs_dag *dag, struct datum_state *ds, struct edge_list *el, int t,
                         struct hs_access *a)
{
    struct datum_state *d = &ds[dag->handles[a->handle].origin];
    double bytes = dag->handles[d->current].bytes;
    if (a->mode == HS_MODE_W && (d->last_writer >= 0 || d->nreaders > 0) && d->last_writer != t) {
        d->current = rename_datum(dag, d->current);
        d->last_writer = -1;
        d->nreaders = 0;
    }
    a->handle = d->current;
    if (a->mode == HS_MODE_R) {
        if (d->last_writer >= 0)
            pend(el, d->last_writer, t, bytes);
        add_reader(d, t);
        return;
    }
    if (a->mode == HS_MODE_RW) {
        for (size_t i = 0; i < d->nreaders; i++)
            pend(el, d->readers[i], t, 0);
        if (d->last_writer >= 0)
            pend(el, d->last_writer, t, bytes);
    }
    d->last_writer = t;
    d->nreaders = 0;
}

static void infer_edges(struct hs_dag *dag, struct edge_list *el)
{
    int norig = dag->nhandles;
    struct datum_state *ds = hs_xcalloc((size_t)norig, sizeof *ds);
    for (int h = 0; h < norig; h++) {
        ds[h].current = h;
        ds[h].last_writer = -1;
    }
    /* writer of each private edge handle, found before the walk */
    int *edge_writer = hs_xmalloc((size_t)norig * sizeof(int));
    for (int h = 0; h < norig; h++)
        edge_writer[h] = -1;
    for (int t = 0; t < dag->ntasks; t++)
        for (int i = 0; i < dag->tasks[t].naccess; i++) {
            const struct hs_access *a = &dag->tasks[t].access[i];
            if (dag->handles[a->handle].temporary && HS_MODE_WRITES(a->mode))
                edge_writer[a->handle] = t;
        }
    for (int t = 0; t < dag->ntasks; t++) {
        struct hs_task *task = &dag->tasks[t];
        for (int i = 0; i < task->naccess; i++) {
            struct hs_access *a = &task->access[i];
            if (dag->handles[a->handle].temporary) {
                if (HS_MODE_READS(a->mode) && edge_writer[a->handle] >= 0)
                    pend(el, edge_writer[a->handle], t, dag->handles[a->handle].bytes);
                continue;
            }
            infer_access(dag, ds, el, t, a);
        }
        flush_pending(el, t);
    }
    for (int h = 0; h < norig; h++)
        free(ds[h].readers);
    free(ds);
    free(edge_writer);
}

/* Lay the edges out: dag->edges sorted by dst (as produced), preds contiguous;
 * succ lists through an index array sorted by src. */
static void index_edges(struct hs_dag *dag)
{
    int n = dag->ntasks, m = dag->nedges;
    dag->pred_ids = hs_xmalloc((size_t)(m ? m : 1) * sizeof(int));
    dag->edge_ids = hs_xmalloc((size_t)(m ? m : 1) * sizeof(int));
    int *start = hs_xcalloc((size_t)n + 1, sizeof(int));
    for (int e = 0; e < m; e++) {
        dag->pred_ids[e] = e;
        start[dag->edges[e].src + 1]++;
    }
    for (int t = 0; t < n; t++)
        start[t + 1] += start[t];
    int *fill = hs_xmalloc((size_t)n * sizeof(int));
    memcpy(fill, start, (size_t)n * sizeof(int));
    for (int e = 0; e < m; e++)
        dag->edge_ids[fill[dag->edges[e].src]++] = e;
    for (int t = 0; t < n; t++) {
        dag->tasks[t].succ = dag->edge_ids + start[t];
        dag->tasks[t].nsucc = start[t + 1] - start[t];
        dag->tasks[t].npred = 0;
    }
    for (int e = 0; e < m; e++) {
        struct hs_task *d = &dag->tasks[dag->edges[e].dst];
        if (d->npred == 0)
            d->pred = dag->pred_ids + e;
        d->npred++;
    }
    free(fill);
    free(start);
}

/* Name up to three tasks of a strongly connected component with a cycle. */
static void describe_cycle(const struct hs_dag *dag, igraph_t *g, char *buf, size_t size)
{
    igraph_vector_int_t membership, csize;
    igraph_integer_t ncomp = 0;
    igraph_vector_int_init(&membership, 0);
    igraph_vector_int_init(&csize, 0);
    igraph_connected_components(g, &membership, &csize, &ncomp, IGRAPH_STRONG);
    snprintf(buf, size, "?");
    for (igraph_integer_t c = 0; c < ncomp; c++) {
        if (VECTOR(csize)[c] < 2)
            continue;
        size_t len = 0;
        int shown = 0;
        for (int v = 0; v < dag->ntasks && shown < 3; v++)
            if (VECTOR(membership)[v] == c) {
                len += (size_t)snprintf(buf + len, size - len, "%s%s", shown ? ", " : "",
                                        dag->tasks[v].label);
                shown++;
            }
        break;
    }
    igraph_vector_int_destroy(&membership);
    igraph_vector_int_destroy(&csize);
}

/* igraph gives the topological order, and finds a cycle when there is one. */
static int order_tasks(struct hs_dag *dag)
{
    igraph_vector_int_t ev, order;
    igraph_t g;
    igraph_vector_int_init(&ev, 2 * (igraph_integer_t)dag->nedges);
    for (int e = 0; e < dag->nedges; e++) {
        VECTOR(ev)[2 * e] = dag->edges[e].src;
        VECTOR(ev)[2 * e + 1] = dag->edges[e].dst;
    }
    igraph_create(&g, &ev, dag->ntasks, IGRAPH_DIRECTED);
    igraph_vector_int_destroy(&ev);
    igraph_vector_int_init(&order, 0);
    /* a cycle leaves tasks out of the order (igraph says so, and returns the
     * partial order): one pass where igraph_is_dag and the sort made two */
    if (igraph_topological_sorting(&g, &order, IGRAPH_OUT) != IGRAPH_SUCCESS ||
        igraph_vector_int_size(&order) != dag->ntasks) {
        char where[256];
        igraph_vector_int_destroy(&order);
        describe_cycle(dag, &g, where, sizeof where);
        igraph_destroy(&g);
        return hs_fail("DAG '%s' has a cycle (through %s)", dag->name, where);
    }
    dag->topo = hs_xmalloc((size_t)dag->ntasks * sizeof(int));
    for (int i = 0; i < dag->ntasks; i++)
        dag->topo[i] = (int)VECTOR(order)[i];
    igraph_vector_int_destroy(&order);
    igraph_destroy(&g);
    return 0;
}

/* The builders grow tasks, handles and edges by doubling (hs_grow zeroes
 * the room, so it is resident): a finalised DAG keeps only what it uses. */
static void *fit(void *array, size_t n, size_t elem_size)
{
    return hs_xrealloc(array, (n ? n : 1) * elem_size);
}

int hs_dag_finalize(struct hs_dag *dag)
{
    if (dag->finalized)
        return 0;
    if (dag->ntasks == 0)
        return hs_fail("DAG '%s' has no task", dag->name);
    igraph_set_error_handler(igraph_error_handler_ignore);
    dag->tasks = fit(dag->tasks, (size_t)dag->ntasks, sizeof *dag->tasks);
    dag->cap_tasks = dag->ntasks;
    struct edge_list el = {0};
    infer_edges(dag, &el); /* adds the renamed versions of handles */
    free(el.pend);
    dag->handles = fit(dag->handles, (size_t)dag->nhandles, sizeof *dag->handles);
    dag->cap_handles = dag->nhandles;
    dag->edges = fit(el.edges, el.n, sizeof *el.edges);
    dag->nedges = (int)el.n;
    index_edges(dag);
    if (order_tasks(dag))
        return -1;
    dag->finalized = true;
    return 0;
}
