/* sim/wclass.c — classes of identical workers and the choice of a worker
 * through them (sim/wclass.h). */
#include "sim/wclass.h"
#include "base/evheap.h"
#include "base/util.h"
#include "sim/runtime_internal.h"
#include "sim/sched.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Route asks allowed for comparing the routes of a platform that is not
 * uniform (workers x memory nodes), and classes a worker is compared with:
 * past them workers stay alone (each its own class: the choice is then the
 * scan's, at its cost). An assumption on what a platform's start may spend. */
#define HS_WCLASS_COMPARE (1L << 20)
#define HS_WCLASS_MAX_COMPARED 64

/* What a member of a class is reached by from memory node n. */
struct inbound {
    double lat, bw;
    bool direct, set;
};

struct hs_wclasses {
    int nworkers, nclasses;
    int *class_of, *slot;      /* per worker: its class, its place among the members */
    int *first, *count, *cap;  /* per class: members[first .. first+count), tree leaves */
    bool *shared;              /* per class: its members share one memory node */
    int *members;
    int *node_worker;          /* per node: the worker alone on it, -1 */
    size_t *base;              /* per class: its tree's offset in the three arrays below */
    double *minE, *minp, *minq;/* per tree node over its members: (R + p) + q, p, q */
    bool scan;                 /* HETSIM_WORKER_SCAN, or every worker alone */
    const double *queued;      /* the policy's, as the trees last read it (NULL: not built) */
    bool *dirty;
    int *dirty_list, ndirty;
    bool *excluded;            /* this decision's members weighed one by one */
    int *exlist, nex;
    struct hs_evheap heap;
    const double *slow_seen;   /* the last slow checked, and whether it is even per class */
    bool slow_even;
};

/* ---- the classes ------------------------------------------------------------ */

static struct inbound inbound(const struct hs_runtime *rt, int n, int node)
{
    struct hs_route r = hs_platform_route(rt->pf, n, node);
    return (struct inbound){.lat = r.lat, .bw = r.bw, .direct = hs_rt_direct_allowed(rt, n, node),
                            .set = true};
}

/* A staged move (not direct) takes the route from host memory, node 0's. */
static bool same_inbound(struct inbound a, struct inbound b)
{
    return a.direct == b.direct && (!a.direct || (a.lat == b.lat && a.bw == b.bw));
}

/* Can worker w join the class whose first member is r? in: the class's
 * inbound routes per node (NULL on a uniform platform). */
static bool fits(const struct hs_runtime *rt, const int *on_node, int r, int w, const struct inbound *in)
{
    const struct hs_platform *pf = rt->pf;
    const struct hs_worker *a = &pf->workers[r], *b = &pf->workers[w];
    const struct hs_memnode *na = &pf->nodes[a->node], *nb = &pf->nodes[b->node];
    if (a->arch != b->arch || a->speed != b->speed || a->window != b->window ||
        na->kind != nb->kind || na->capacity != nb->capacity)
        return false;
    if (on_node[a->node] > 1 || on_node[b->node] > 1)
        return a->node == b->node; /* the workers of one memory node */
    if (a->node == 0 || b->node == 0)
        return false; /* host memory is the preferred source: a member there differs */
    if (pf->uniform)
        return true;
    for (int n = 0; n < pf->nnodes; n++)
        if (n != b->node && in[n].set && !same_inbound(in[n], inbound(rt, n, b->node)))
            return false;
    return true;
}

static void note_inbound(const struct hs_runtime *rt, int w, struct inbound *in)
{
    int node = rt->pf->workers[w].node;
    for (int n = 0; n < rt->pf->nnodes; n++)
        if (n != node && !in[n].set)
            in[n] = inbound(rt, n, node);
}

static bool env_scan(void)
{
    const char *v = getenv("HETSIM_WORKER_SCAN");
    return v && *v && strcmp(v, "0") != 0;
}

struct hs_wclasses *hs_wclasses_new(const struct hs_runtime *rt)
{
    const struct hs_platform *pf = rt->pf;
    int P = pf->nworkers, N = pf->nnodes;
    struct hs_wclasses *wc = hs_xcalloc(1, sizeof *wc);
    wc->nworkers = P;
    wc->class_of = hs_xmalloc((size_t)P * sizeof(int));
    wc->slot = hs_xmalloc((size_t)P * sizeof(int));
    wc->members = hs_xmalloc((size_t)P * sizeof(int));
    wc->node_worker = hs_xmalloc((size_t)N * sizeof(int));
    int *on_node = hs_xcalloc((size_t)N, sizeof(int));
    for (int w = 0; w < P; w++)
        on_node[pf->workers[w].node]++;
    for (int n = 0; n < N; n++)
        wc->node_worker[n] = -1;
    for (int w = 0; w < P; w++)
        if (on_node[pf->workers[w].node] == 1)
            wc->node_worker[pf->workers[w].node] = w;
    /* worker-specific costs, routes too many to compare, or the scan asked
     * for: every worker alone */
    bool compare = !env_scan() && rt->dag->nproc_costs == 0 &&
                   (pf->uniform || (long)P * N <= HS_WCLASS_COMPARE);
    int *rep = hs_xmalloc((size_t)P * sizeof(int));
    struct inbound **in = hs_xcalloc((size_t)P, sizeof *in);
    int nc = 0;
    for (int w = 0; w < P; w++) {
        int c = -1;
        for (int k = 0; compare && k < nc && k < HS_WCLASS_MAX_COMPARED && c < 0; k++)
            if (fits(rt, on_node, rep[k], w, in[k]))
                c = k;
        if (c < 0) {
            c = nc++;
            rep[c] = w;
            if (compare && !pf->uniform)
                in[c] = hs_xcalloc((size_t)N, sizeof **in);
        }
        if (in[c] && on_node[pf->workers[w].node] == 1)
            note_inbound(rt, w, in[c]);
        wc->class_of[w] = c;
    }
    wc->nclasses = nc;
    wc->first = hs_xcalloc((size_t)nc, sizeof(int));
    wc->count = hs_xcalloc((size_t)nc, sizeof(int));
    wc->cap = hs_xcalloc((size_t)nc, sizeof(int));
    wc->shared = hs_xcalloc((size_t)nc, sizeof(bool));
    wc->base = hs_xcalloc((size_t)nc, sizeof(size_t));
    for (int w = 0; w < P; w++)
        wc->count[wc->class_of[w]]++;
    size_t nodes = 0;
    for (int c = 0, at = 0; c < nc; c++) {
        wc->first[c] = at;
        at += wc->count[c];
        wc->cap[c] = 1;
        while (wc->cap[c] < wc->count[c])
            wc->cap[c] *= 2;
        wc->base[c] = nodes;
        nodes += 2 * (size_t)wc->cap[c];
        wc->shared[c] = on_node[pf->workers[rep[c]].node] > 1;
        wc->count[c] = 0;
    }
    for (int w = 0; w < P; w++) {
        int c = wc->class_of[w];
        wc->slot[w] = wc->count[c]++;
        wc->members[wc->first[c] + wc->slot[w]] = w;
    }
    wc->minE = hs_xmalloc(nodes * sizeof(double));
    wc->minp = hs_xmalloc(nodes * sizeof(double));
    wc->minq = hs_xmalloc(nodes * sizeof(double));
    wc->dirty = hs_xcalloc((size_t)P, sizeof(bool));
    wc->dirty_list = hs_xmalloc((size_t)P * sizeof(int));
    wc->excluded = hs_xcalloc((size_t)P, sizeof(bool));
    wc->exlist = hs_xmalloc((size_t)P * sizeof(int));
    wc->scan = nc == P;
    for (int c = 0; c < nc; c++)
        free(in[c]);
    free(in);
    free(rep);
    free(on_node);
    return wc;
}

void hs_wclasses_free(struct hs_wclasses *wc)
{
    if (!wc)
        return;
    free(wc->class_of);
    free(wc->slot);
    free(wc->first);
    free(wc->count);
    free(wc->cap);
    free(wc->shared);
    free(wc->members);
    free(wc->node_worker);
    free(wc->base);
    free(wc->minE);
    free(wc->minp);
    free(wc->minq);
    free(wc->dirty);
    free(wc->dirty_list);
    free(wc->excluded);
    free(wc->exlist);
    hs_evheap_free(&wc->heap);
    free(wc);
}

int hs_wclasses_count(const struct hs_wclasses *wc)
{
    return wc->nclasses;
}

int hs_wclasses_of(const struct hs_wclasses *wc, int w)
{
    return wc->class_of[w];
}

int hs_wclasses_members(const struct hs_wclasses *wc, int c, const int **members)
{
    *members = wc->members + wc->first[c];
    return wc->count[c];
}

/* ---- the trees of availability ---------------------------------------------
 * A member's availability is avail = max(now, ready_at) + queued, ready_at =
 * max(now, R) + p (R: the end its running task was estimated to have, -inf
 * without one; p: the estimates of its held tasks; queued: the policy's q).
 * Every rounding step is non-decreasing, so avail = max(A, B) with A =
 * max(now, now + p) + q and B = max(now, R + p) + q >= E = (R + p) + q, and
 * over a subtree, max(min E, max(now, now + min p) + min q) bounds every
 * member's avail from below: fit(bound) bounds its fit. */

void hs_wclasses_touch(struct hs_wclasses *wc, int w)
{
    if (!wc->dirty[w]) {
        wc->dirty[w] = true;
        wc->dirty_list[wc->ndirty++] = w;
    }
}

/* Node k of the tree at b from its children 2k and 2k + 1. */
static void pull(struct hs_wclasses *wc, size_t b, size_t k)
{
    size_t i = b + k, l = b + 2 * k, r = l + 1;
    wc->minE[i] = fmin(wc->minE[l], wc->minE[r]);
    wc->minp[i] = fmin(wc->minp[l], wc->minp[r]);
    wc->minq[i] = fmin(wc->minq[l], wc->minq[r]);
}

static void read_leaf(struct hs_wclasses *wc, const struct hs_runtime *rt, int w)
{
    int c = wc->class_of[w];
    size_t i = wc->base[c] + (size_t)wc->cap[c] + (size_t)wc->slot[w];
    const struct hs_worker_state *ws = &rt->ws[w];
    double p = ws->pending_estimate, q = wc->queued[w], E = -INFINITY;
    if (ws->running >= 0) {
        const struct hs_task_event *ev = &rt->ts[ws->running].ev;
        E = ev->start + ev->estimate + p + q;
    }
    wc->minE[i] = E;
    wc->minp[i] = p;
    wc->minq[i] = q;
}

/* Every tree read again from the runtime and the policy's queued. */
static void build(struct hs_wclasses *wc, const struct hs_runtime *rt)
{
    for (int c = 0; c < wc->nclasses; c++) {
        size_t b = wc->base[c], cap = (size_t)wc->cap[c];
        for (size_t i = b; i < b + 2 * cap; i++)
            wc->minE[i] = wc->minp[i] = wc->minq[i] = INFINITY;
    }
    for (int w = 0; w < wc->nworkers; w++)
        read_leaf(wc, rt, w);
    for (int c = 0; c < wc->nclasses; c++) {
        size_t b = wc->base[c];
        for (size_t k = (size_t)wc->cap[c] - 1; k >= 1; k--)
            pull(wc, b, k);
    }
    for (int i = 0; i < wc->ndirty; i++)
        wc->dirty[wc->dirty_list[i]] = false;
    wc->ndirty = 0;
}

static void refresh(struct hs_wclasses *wc, const struct hs_runtime *rt)
{
    for (int k = 0; k < wc->ndirty; k++) {
        int w = wc->dirty_list[k], c = wc->class_of[w];
        wc->dirty[w] = false;
        read_leaf(wc, rt, w);
        size_t b = wc->base[c];
        for (size_t i = ((size_t)wc->cap[c] + (size_t)wc->slot[w]) / 2; i >= 1; i /= 2)
            pull(wc, b, i);
    }
    wc->ndirty = 0;
}

static double bound(const struct hs_wclasses *wc, size_t i, double now)
{
    return fmax(wc->minE[i], fmax(now, now + wc->minp[i]) + wc->minq[i]);
}

static double avail(const struct hs_runtime *rt, const double *queued, int w, double now)
{
    return fmax(now, hs_sched_worker_ready_at(rt, w)) + queued[w];
}

/* The member of c, not excluded, with the lowest fit (ties: the lowest id),
 * best first on (fit of the bound, first slot) of subtrees; -1 if none. */
static int class_best(struct hs_wclasses *wc, const struct hs_runtime *rt, int c, const double *queued,
                      double now, double transfer, double exec, int rep, hs_fit_fn fit, void *ctx,
                      double *fitness)
{
    size_t b = wc->base[c], cap = (size_t)wc->cap[c];
    const int *members = wc->members + wc->first[c];
    struct hs_evheap *h = &wc->heap;
    h->n = 0;
    hs_evheap_push(h, (struct hs_event){.time = fit(ctx, rep, bound(wc, b + 1, now), transfer, exec),
                                        .tag = 0, .id = 1});
    while (h->n) {
        struct hs_event e = hs_evheap_pop(h);
        if (e.id < 0) { /* a member's own fit: no subtree left can do better */
            *fitness = e.time;
            return members[e.tag];
        }
        size_t k = (size_t)e.id;
        if (k >= cap) {
            int w = members[k - cap];
            if (!wc->excluded[w])
                hs_evheap_push(h, (struct hs_event){
                                      .time = fit(ctx, w, avail(rt, queued, w, now), transfer, exec),
                                      .tag = e.tag, .id = -1});
            continue;
        }
        for (size_t child = 2 * k; child <= 2 * k + 1; child++) {
            size_t first = child;
            while (first < cap)
                first *= 2;
            if (first - cap >= (size_t)wc->count[c])
                continue; /* empty slots */
            hs_evheap_push(h, (struct hs_event){.time = fit(ctx, rep, bound(wc, b + child, now), transfer, exec),
                                                .tag = first - cap, .id = (long)child});
        }
    }
    return -1;
}

/* Does slow give every member of a class with a node each the same factor? */
static bool slow_even(const struct hs_wclasses *wc, const struct hs_runtime *rt, const double *slow)
{
    for (int c = 0; c < wc->nclasses; c++) {
        const int *m = wc->members + wc->first[c];
        for (int i = 1; i < wc->count[c]; i++)
            if (slow[rt->pf->workers[m[i]].node] != slow[rt->pf->workers[m[0]].node])
                return false;
    }
    return true;
}

static int scan_best(struct hs_runtime *rt, const struct hs_task *t, const double *queued,
                     const double *slow, hs_fit_fn fit, void *ctx, double *fitness)
{
    double now = hs_sched_now(rt), best = INFINITY;
    int best_w = -1;
    for (int w = 0; w < rt->pf->nworkers; w++) {
        double exec = hs_sched_exec_estimate(rt, t, w);
        if (!isfinite(exec))
            continue;
        double f = fit(ctx, w, avail(rt, queued, w, now), hs_sched_transfer_estimate_shared(rt, t, w, slow), exec);
        if (f < best) {
            best = f;
            best_w = w;
        }
    }
    *fitness = best;
    return best_w;
}

static void exclude(struct hs_wclasses *wc, int node)
{
    int w = wc->node_worker[node];
    if (w >= 0 && !wc->excluded[w] && !wc->shared[wc->class_of[w]] && wc->count[wc->class_of[w]] > 1) {
        wc->excluded[w] = true;
        wc->exlist[wc->nex++] = w;
    }
}

int hs_wclasses_best(struct hs_runtime *rt, const struct hs_task *t, const double *queued,
                     const double *slow, hs_fit_fn fit, void *ctx, double *fitness)
{
    if (!rt->classes)
        rt->classes = hs_wclasses_new(rt);
    struct hs_wclasses *wc = rt->classes;
    if (slow && slow != wc->slow_seen) {
        wc->slow_seen = slow;
        wc->slow_even = slow_even(wc, rt, slow);
    }
    if (wc->scan || (slow && !wc->slow_even))
        return scan_best(rt, t, queued, slow, fit, ctx, fitness);
    if (queued != wc->queued) {
        wc->queued = queued;
        build(wc, rt);
    } else {
        refresh(wc, rt);
    }
    /* the members whose memory holds or awaits an input: weighed one by one */
    wc->nex = 0;
    for (int i = 0; i < t->naccess; i++) {
        if (!HS_MODE_READS(t->access[i].mode))
            continue;
        int h = t->access[i].handle;
        const int *nodes;
        int n = hs_coh_holders(&rt->coh, h, &nodes);
        for (int k = 0; k < n; k++)
            exclude(wc, nodes[k]);
        for (int k = 0; rt->narriving && k < rt->narriving[h]; k++)
            exclude(wc, rt->arriving_nodes[h][k]);
    }
    double now = hs_sched_now(rt), best = INFINITY;
    int best_w = -1;
    for (int c = 0; c < wc->nclasses; c++) {
        const int *m = wc->members + wc->first[c];
        int rep = -1;
        for (int i = 0; i < wc->count[c] && rep < 0; i++)
            if (!wc->excluded[m[i]])
                rep = m[i];
        if (rep < 0)
            continue;
        double exec = hs_sched_exec_estimate(rt, t, rep);
        if (!isfinite(exec))
            continue;
        double transfer = hs_sched_transfer_estimate_shared(rt, t, rep, slow), f;
        int w = class_best(wc, rt, c, queued, now, transfer, exec, rep, fit, ctx, &f);
        if (w >= 0 && (f < best || (f == best && isfinite(f) && w < best_w))) {
            best = f;
            best_w = w;
        }
    }
    for (int k = 0; k < wc->nex; k++) {
        int w = wc->exlist[k];
        wc->excluded[w] = false;
        double exec = hs_sched_exec_estimate(rt, t, w);
        if (!isfinite(exec))
            continue;
        double f = fit(ctx, w, avail(rt, queued, w, now), hs_sched_transfer_estimate_shared(rt, t, w, slow), exec);
        if (f < best || (f == best && isfinite(f) && w < best_w)) {
            best = f;
            best_w = w;
        }
    }
    wc->nex = 0;
    *fitness = best;
    return best_w;
}
