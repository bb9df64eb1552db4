/* sim/engines/model/engine_model.c — the free-network event loop
 * (engine_model.h). Each activity posts one event at the time it ends; its
 * callback waits in a slot until then, so the runtime is never called back
 * from inside exec/transfer/timer (sim/engine.h). */
#include "sim/engines/model/engine_model.h"
#include "base/evheap.h"
#include "base/util.h"

#include <stdlib.h>

struct pending {
    hs_engine_cb cb;
    void *ctx;
    long id;
    long next_free; /* -1: end of the free list */
};

struct model_engine {
    struct hs_engine base;
    double now;
    bool finished;
    uint64_t posted; /* events posted so far: the tag that orders simultaneous ones */
    struct hs_evheap events;
    struct pending *slots;
    size_t nslots, cap;
    long free_slot;
};

static double model_now(struct hs_engine *e)
{
    return ((struct model_engine *)e)->now;
}

static void post(struct model_engine *m, double at, hs_engine_cb cb, void *ctx, long id)
{
    long slot = m->free_slot;
    if (slot >= 0) {
        m->free_slot = m->slots[slot].next_free;
    } else {
        HS_GROW(m->slots, m->cap, m->nslots + 1);
        slot = (long)m->nslots++;
    }
    m->slots[slot] = (struct pending){cb, ctx, id, -1};
    hs_evheap_push(&m->events, (struct hs_event){at, m->posted++, slot});
}

static void model_exec(struct hs_engine *e, int worker, int task, double lead, double seconds,
                       hs_engine_cb cb, void *ctx, long id)
{
    (void)worker, (void)task;
    struct model_engine *m = (struct model_engine *)e;
    post(m, m->now + lead + seconds, cb, ctx, id);
}

/* The free network: every copy ends as it starts. */
static void model_transfer(struct hs_engine *e, int handle, int src, int dst, double bytes,
                           hs_engine_cb cb, void *ctx, long id)
{
    (void)handle, (void)src, (void)dst, (void)bytes;
    struct model_engine *m = (struct model_engine *)e;
    post(m, m->now, cb, ctx, id);
}

static void model_timer(struct hs_engine *e, double seconds, hs_engine_cb cb, void *ctx, long id)
{
    struct model_engine *m = (struct model_engine *)e;
    post(m, m->now + seconds, cb, ctx, id);
}

static void model_finished(struct hs_engine *e)
{
    ((struct model_engine *)e)->finished = true;
}

void hs_model_engine_run(struct hs_runtime *rt)
{
    struct model_engine m = {
        .base = {.now = model_now, .exec = model_exec, .transfer = model_transfer,
                 .timer = model_timer, .finished = model_finished},
        .free_slot = -1,
    };
    hs_runtime_start(rt, &m.base);
    while (!m.finished && m.events.n > 0) {
        struct hs_event ev = hs_evheap_pop(&m.events);
        struct pending p = m.slots[ev.id];
        m.slots[ev.id].next_free = m.free_slot;
        m.free_slot = ev.id;
        m.now = ev.time;
        p.cb(p.ctx, p.id);
    }
    /* The runtime reports its own stalls; an empty loop
     * without an end it did not report would be a runtime bug. */
    if (!m.finished && !hs_runtime_error(rt))
        hs_runtime_fail(rt, "model engine: nothing left to run, but the runtime did not finish");
    hs_evheap_free(&m.events);
    free(m.slots);
}
