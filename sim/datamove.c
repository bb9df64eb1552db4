/* sim/datamove.c — how data gets where a task needs it.
 *
 * hs_rt_require(h, node) makes handle h valid on a memory node: it does
 * nothing if it already is, joins the transfer already bringing it there,
 * or creates one from the best source: host memory first (XKaapi reads the
 * lowest-index valid copy), a direct route between processors or, with
 * p2p, between GPUs; otherwise the copy is staged through host memory (a
 * device-to-host transfer, after which host memory holds a valid copy too,
 * then a host-to-device one). A transfer into a GPU waits in that GPU's
 * inbound FIFO stream, one out of a GPU in its outbound stream; a flat
 * processor's memory has no stream limit. Waiters (a task input, a task
 * allocation, the second leg of a staged copy, the final flush) are woken
 * when the copy lands. Eviction from a GPU cache writes sole copies back. */
#include "sim/runtime_internal.h"
#include "base/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct hs_waiter *new_waiter(struct hs_runtime *rt, enum hs_waiter_kind kind, int id)
{
    struct hs_waiter *w = rt->free_waiters;
    if (w)
        rt->free_waiters = w->next;
    else
        w = hs_xmalloc(sizeof *w);
    w->kind = kind;
    w->id = id;
    w->next = NULL;
    return w;
}

static void attach(struct hs_runtime *rt, int x, enum hs_waiter_kind kind, int id)
{
    struct hs_waiter *w = new_waiter(rt, kind, id);
    w->next = rt->xfers[x].waiters;
    rt->xfers[x].waiters = w;
}

_Static_assert(sizeof(void *) != 8 || sizeof(struct hs_xfer) == 72, "struct hs_xfer is packed");

static int new_xfer(struct hs_runtime *rt, int h, int src, int dst, enum hs_xfer_purpose purpose)
{
    HS_GROW_UNINIT(rt->xfers, rt->cap_xfers, rt->nxfers + 1); /* each record is cleared below */
    int id = (int)rt->nxfers++;
    struct hs_xfer *x = &rt->xfers[id];
    memset(x, 0, sizeof *x);
    x->ev.handle = h;
    x->ev.src = src;
    x->ev.dst = dst;
    x->ev.bytes = rt->dag->handles[h].bytes;
    x->ev.request = rt->engine->now(rt->engine);
    x->ev.purpose = purpose;
    x->stream = -1;
    x->next = -1;
    x->version = rt->coh.version[h];
    return id;
}

static bool is_cached(const struct hs_runtime *rt, int node)
{
    return isfinite(rt->pf->nodes[node].capacity);
}

/* A transfer occupies the inbound stream of a GPU it goes to, else the
 * outbound stream of a GPU it comes from, else none. A GPU with a single
 * copy engine has one stream for both directions. */
static int stream_of(const struct hs_runtime *rt, int src, int dst)
{
    const struct hs_memnode *d = &rt->pf->nodes[dst], *s = &rt->pf->nodes[src];
    if (d->copy_engines)
        return dst * 2;
    if (s->copy_engines)
        return src * 2 + (s->copy_engines == 1 ? 0 : 1);
    return -1;
}

static enum hs_dir direction(const struct hs_runtime *rt, int src, int dst)
{
    if (rt->pf->nodes[src].kind == HS_NODE_HOST)
        return HS_DIR_H2D;
    if (rt->pf->nodes[dst].kind == HS_NODE_HOST)
        return HS_DIR_D2H;
    return HS_DIR_P2P;
}

static void xfer_done(void *ctx, long id);

static void start_xfer(struct hs_runtime *rt, int id)
{
    struct hs_xfer *x = &rt->xfers[id];
    x->state = HS_XS_ACTIVE;
    x->ev.start = rt->engine->now(rt->engine);
    if (x->stream >= 0)
        rt->streams[x->stream].busy = true;
    if (direction(rt, x->ev.src, x->ev.dst) != HS_DIR_P2P) { /* a host-GPU copy (co-running) */
        rt->copies_active++;
        rt->copies_node[x->ev.src]++;
        rt->copies_node[x->ev.dst]++;
    }
    rt->activities++;
    rt->engine->transfer(rt->engine, x->ev.handle, x->ev.src, x->ev.dst, x->ev.bytes, xfer_done, rt,
                         id);
}

static void enqueue_xfer(struct hs_runtime *rt, int id)
{
    struct hs_xfer *x = &rt->xfers[id];
    x->state = HS_XS_QUEUED;
    x->version = rt->coh.version[x->ev.handle];
    if (is_cached(rt, x->ev.src) && hs_cache_has(&rt->cache[x->ev.src], x->ev.handle)) {
        hs_cache_pin(&rt->cache[x->ev.src], x->ev.handle); /* not evicted while read */
        x->pinned_src = true;
    }
    x->stream = stream_of(rt, x->ev.src, x->ev.dst);
    if (x->stream < 0) {
        start_xfer(rt, id);
        return;
    }
    struct hs_stream *s = &rt->streams[x->stream];
    if (s->tail >= 0)
        rt->xfers[s->tail].next = id;
    else
        s->head = id;
    s->tail = id;
    if (!s->busy) {
        s->head = rt->xfers[id].next;
        if (s->head < 0)
            s->tail = -1;
        start_xfer(rt, id);
    }
}

static void start_next_in_stream(struct hs_runtime *rt, int stream)
{
    struct hs_stream *s = &rt->streams[stream];
    s->busy = false;
    int id = s->head;
    if (id < 0)
        return;
    s->head = rt->xfers[id].next;
    if (s->head < 0)
        s->tail = -1;
    start_xfer(rt, id);
}

bool hs_rt_direct_allowed(const struct hs_runtime *rt, int src, int dst)
{
    const struct hs_platform *pf = rt->pf;
    if (!hs_platform_has_route(pf, src, dst))
        return false;
    if (pf->nodes[src].kind == HS_NODE_HOST || pf->nodes[dst].kind == HS_NODE_HOST)
        return true;
    if (pf->nodes[src].kind == HS_NODE_PROC || pf->nodes[dst].kind == HS_NODE_PROC)
        return true;
    return pf->p2p;
}

/* The lowest-index node holding a valid copy of h that may send it to dst directly. */
static int direct_source(const struct hs_runtime *rt, int h, int dst)
{
    const int *holders;
    int nh = hs_coh_holders(&rt->coh, h, &holders), best = -1;
    for (int i = 0; i < nh; i++) {
        int n = holders[i];
        if (n != dst && (best < 0 || n < best) && hs_rt_direct_allowed(rt, n, dst))
            best = n;
    }
    return best;
}

/* Choose where transfer id (to its dst) reads from, and start it or chain it. */
static void plan_source(struct hs_runtime *rt, int id)
{
    struct hs_xfer *x = &rt->xfers[id];
    int h = x->ev.handle, dst = x->ev.dst;
    int src = direct_source(rt, h, dst);
    if (src >= 0) {
        x->ev.src = src;
        enqueue_xfer(rt, id);
        return;
    }
    /* stage through host memory: wait for h to be valid there first */
    x->ev.src = 0;
    x->state = HS_XS_WAIT_SOURCE;
    if (hs_rt_require(rt, h, 0, HS_WAIT_CHAIN, id))
        enqueue_xfer(rt, id);
}

/* rt->arriving[h * nnodes + node] = x (-1: none arriving), and the list of
 * the nodes with a copy of h on its way kept beside it (hs_sched_arriving),
 * so that whoever looks for them pays for the copies there are, not for the
 * memory nodes. */
static void set_arriving(struct hs_runtime *rt, int h, int node, int x)
{
    int *slot = &rt->arriving[(size_t)h * rt->pf->nnodes + node];
    if ((*slot >= 0) != (x >= 0)) {
        int *n = &rt->narriving[h];
        if (x >= 0) {
            if (*n == rt->arriving_cap[h]) {
                rt->arriving_cap[h] = rt->arriving_cap[h] ? 2 * rt->arriving_cap[h] : 2;
                rt->arriving_nodes[h] = hs_xrealloc(rt->arriving_nodes[h],
                                                    (size_t)rt->arriving_cap[h] * sizeof(int));
            }
            rt->arriving_nodes[h][(*n)++] = node;
        } else {
            int *list = rt->arriving_nodes[h];
            for (int i = 0; i < *n; i++)
                if (list[i] == node) {
                    list[i] = list[--*n];
                    break;
                }
        }
    }
    *slot = x;
}

bool hs_rt_require(struct hs_runtime *rt, int h, int node, enum hs_waiter_kind kind, int id)
{
    if (hs_coh_valid(&rt->coh, h, node))
        return true;
    if (rt->dag->handles[h].bytes == 0) { /* a pure dependency: nothing to move */
        hs_coh_add_copy(&rt->coh, h, node);
        return true;
    }
    int *arr = &rt->arriving[(size_t)h * rt->pf->nnodes + node];
    if (*arr >= 0) {
        attach(rt, *arr, kind, id);
        return false;
    }
    /* no valid copy anywhere is fine only while the sole copy is being written back */
    if (hs_coh_source(&rt->coh, h, node) < 0 && rt->arriving[(size_t)h * rt->pf->nnodes] < 0) {
        hs_rt_fail(rt, "internal error: no valid copy of %s to bring to %s",
                   rt->dag->handles[h].name, rt->pf->nodes[node].name);
        return false;
    }
    int x = new_xfer(rt, h, -1, node, kind == HS_WAIT_FLUSH ? HS_XFER_FLUSH : HS_XFER_FETCH);
    set_arriving(rt, h, node, x);
    attach(rt, x, kind, id);
    plan_source(rt, x);
    return false;
}

/* Wake the waiters of h having landed on dst. */
static void wake(struct hs_runtime *rt, struct hs_waiter *list, int h, int dst)
{
    while (list) {
        struct hs_waiter *w = list;
        list = w->next;
        switch (w->kind) {
        case HS_WAIT_INPUT:
            hs_rt_task_input_arrived(rt, w->id);
            break;
        case HS_WAIT_ALLOC:
            hs_rt_task_alloc_done(rt, w->id);
            break;
        case HS_WAIT_CHAIN:
            enqueue_xfer(rt, w->id);
            break;
        case HS_WAIT_FLUSH:
            hs_rt_flush_done(rt);
            break;
        case HS_WAIT_PREFETCH: /* the block was pinned while it travelled */
            if (is_cached(rt, dst)) {
                hs_cache_unpin(&rt->cache[dst], h);
                hs_rt_room_freed(rt, dst);
            }
            break;
        }
        w->next = rt->free_waiters;
        rt->free_waiters = w;
    }
}

/* A copy landed that a write made obsolete on the way: bring the current
 * version instead, for everyone who waited. (Dependencies make this
 * impossible for task inputs; it is kept as a safety net.) */
static void requeue_stale(struct hs_runtime *rt, int h, int dst, struct hs_waiter *list)
{
    rt->stale++;
    while (list) {
        struct hs_waiter *w = list;
        list = w->next;
        w->next = NULL;
        if (hs_rt_require(rt, h, dst, w->kind, w->id)) {
            wake(rt, w, h, dst); /* valid by now: wake this waiter alone */
        } else {
            w->next = rt->free_waiters;
            rt->free_waiters = w;
        }
    }
}

static void xfer_done(void *ctx, long id)
{
    struct hs_runtime *rt = ctx;
    struct hs_xfer *x = &rt->xfers[id];
    rt->activities--;
    x->state = HS_XS_DONE;
    x->ev.end = rt->engine->now(rt->engine);
    int h = x->ev.handle, src = x->ev.src, dst = x->ev.dst;
    enum hs_dir dir = direction(rt, src, dst);
    if (dir != HS_DIR_P2P) {
        rt->copies_active--;
        rt->copies_node[src]--;
        rt->copies_node[dst]--;
    }
    rt->bytes[dir] += x->ev.bytes;
    rt->count[dir]++;
    bool unpinned = x->pinned_src;
    if (unpinned)
        hs_cache_unpin(&rt->cache[src], h);
    if (x->stream >= 0) {
        start_next_in_stream(rt, x->stream);
        x = &rt->xfers[id]; /* starting the next copy may yield to other actors that add transfers */
    }
    set_arriving(rt, h, dst, -1);
    struct hs_waiter *waiters = x->waiters;
    x->waiters = NULL;
    if (x->version != rt->coh.version[h]) {
        requeue_stale(rt, h, dst, waiters);
    } else {
        hs_coh_add_copy(&rt->coh, h, dst);
        wake(rt, waiters, h, dst);
    }
    if (unpinned) /* last: it may add transfers, which moves rt->xfers (x) */
        hs_rt_room_freed(rt, src);
    hs_rt_check_stall(rt);
}

/* ---- GPU cache allocation and eviction --------------------------------- */

static bool task_touches(const struct hs_task *t, int upto, int h)
{
    for (int i = 0; i < upto; i++)
        if (t->access[i].handle == h)
            return true;
    return false;
}

/* Evict h from node's cache. A sole copy gets a write-back, created here but
 * left for the caller to enqueue: starting a copy may yield to other actors,
 * which must not find an allocation half made (nor rt->victims overwritten). */
static void evict(struct hs_runtime *rt, int node, int h, int task)
{
    rt->evictions++;
    hs_cache_remove(&rt->cache[node], h);
    if (hs_coh_state(&rt->coh, h, node) == HS_MSI_M) {
        /* the only valid copy: write it back before the memory is reused */
        rt->writebacks++;
        hs_coh_drop_in_transit(&rt->coh, h, node);
        int x = new_xfer(rt, h, node, 0, HS_XFER_WRITEBACK);
        set_arriving(rt, h, 0, x);
        attach(rt, x, HS_WAIT_ALLOC, task);
        rt->ts[task].pending_alloc++;
    } else {
        hs_coh_drop(&rt->coh, h, node);
    }
}

bool hs_rt_allocate(struct hs_runtime *rt, int task, int node)
{
    const struct hs_task *t = &rt->dag->tasks[task];
    if (!is_cached(rt, node))
        return true;
    struct hs_cache *c = &rt->cache[node];
    double need = 0;
    /* pin the blocks already there first, so that they are not chosen as victims */
    for (int i = 0; i < t->naccess; i++) {
        int h = t->access[i].handle;
        if (task_touches(t, i, h))
            continue;
        if (hs_cache_has(c, h))
            hs_cache_pin(c, h);
        else
            need += rt->dag->handles[h].bytes;
    }
    int nv = hs_cache_victims(c, need, rt->victims, rt->dag->nhandles);
    if (nv < 0) {
        for (int i = 0; i < t->naccess; i++) {
            int h = t->access[i].handle;
            if (!task_touches(t, i, h) && hs_cache_has(c, h))
                hs_cache_unpin(c, h);
        }
        return false;
    }
    size_t first = rt->nxfers; /* the write-backs of these evictions: ids first .. end - 1 */
    for (int i = 0; i < nv; i++)
        evict(rt, node, rt->victims[i], task);
    size_t end = rt->nxfers;
    for (int i = 0; i < t->naccess; i++) {
        int h = t->access[i].handle;
        if (task_touches(t, i, h))
            continue;
        bool fresh = !hs_cache_has(c, h);
        hs_cache_touch(c, h, rt->dag->handles[h].bytes, HS_MODE_WRITES(t->access[i].mode));
        if (fresh)
            hs_cache_pin(c, h);
    }
    for (size_t x = first; x < end; x++) /* last: starting one may yield to other actors */
        enqueue_xfer(rt, (int)x);
    return true;
}

bool hs_rt_prefetch(struct hs_runtime *rt, int h, int node)
{
    if (rt->finished || hs_coh_valid(&rt->coh, h, node) ||
        rt->arriving[(size_t)h * rt->pf->nnodes + node] >= 0)
        return false;
    if (hs_coh_source(&rt->coh, h, node) < 0 && rt->arriving[(size_t)h * rt->pf->nnodes] < 0)
        return false;
    if (is_cached(rt, node)) {
        struct hs_cache *c = &rt->cache[node];
        if (!hs_cache_has(c, h)) {
            int nv = hs_cache_victims(c, rt->dag->handles[h].bytes, rt->victims, rt->dag->nhandles);
            if (nv < 0)
                return false;
            for (int i = 0; i < nv; i++)
                if (hs_coh_state(&rt->coh, rt->victims[i], node) == HS_MSI_M)
                    return false; /* would need a write-back: not worth it */
            for (int i = 0; i < nv; i++) /* no sole copy among them: no write-back, no yield */
                evict(rt, node, rt->victims[i], -1);
            hs_cache_touch(c, h, rt->dag->handles[h].bytes, false);
        }
        hs_cache_pin(c, h);
    }
    rt->prefetches++;
    hs_rt_require(rt, h, node, HS_WAIT_PREFETCH, node);
    return true;
}

void hs_rt_unpin_task(struct hs_runtime *rt, int task, int node)
{
    const struct hs_task *t = &rt->dag->tasks[task];
    if (!is_cached(rt, node))
        return;
    for (int i = 0; i < t->naccess; i++)
        if (!task_touches(t, i, t->access[i].handle))
            hs_cache_unpin(&rt->cache[node], t->access[i].handle);
}

void hs_rt_datamove_init(struct hs_runtime *rt)
{
    int nn = rt->pf->nnodes, nh = rt->dag->nhandles;
    hs_coh_init(&rt->coh, nh, nn, 0);
    rt->cache = hs_xcalloc((size_t)nn, sizeof *rt->cache);
    for (int n = 0; n < nn; n++)
        hs_cache_init(&rt->cache[n], rt->pf->nodes[n].capacity, is_cached(rt, n) ? nh : 0);
    rt->streams = hs_xcalloc((size_t)nn * 2, sizeof *rt->streams);
    for (int s = 0; s < nn * 2; s++)
        rt->streams[s].head = rt->streams[s].tail = -1;
    rt->arriving = hs_xmalloc((size_t)nh * nn * sizeof(int));
    for (size_t i = 0; i < (size_t)nh * nn; i++)
        rt->arriving[i] = -1;
    rt->narriving = hs_xcalloc((size_t)nh, sizeof(int));
    rt->arriving_cap = hs_xcalloc((size_t)nh, sizeof(int));
    rt->arriving_nodes = hs_xcalloc((size_t)nh, sizeof(int *));
    rt->victims = hs_xmalloc(((size_t)nh + 1) * sizeof(int));
    rt->copies_node = hs_xcalloc((size_t)nn, sizeof(int));
}

void hs_rt_datamove_free(struct hs_runtime *rt)
{
    free(rt->copies_node);
    for (size_t i = 0; i < rt->nxfers; i++)
        while (rt->xfers[i].waiters) {
            struct hs_waiter *w = rt->xfers[i].waiters;
            rt->xfers[i].waiters = w->next;
            free(w);
        }
    while (rt->free_waiters) {
        struct hs_waiter *w = rt->free_waiters;
        rt->free_waiters = w->next;
        free(w);
    }
    for (int n = 0; n < rt->pf->nnodes; n++)
        hs_cache_free(&rt->cache[n]);
    free(rt->cache);
    free(rt->streams);
    free(rt->arriving);
    for (int h = 0; rt->arriving_nodes && h < rt->dag->nhandles; h++)
        free(rt->arriving_nodes[h]);
    free(rt->arriving_nodes);
    free(rt->arriving_cap);
    free(rt->narriving);
    free(rt->victims);
    free(rt->xfers);
    hs_coh_free(&rt->coh);
}
