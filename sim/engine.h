/* sim/engine.h — what the runtime asks of an engine: run a kernel for a given
 * duration on a worker, move bytes between two memory nodes over the
 * platform's routes, tell the clock, and learn that everything is done. The
 * runtime decides when an activity may start (its inputs are valid, its
 * stream or worker is free); the engine only executes it and calls
 * cb(ctx, id) on completion, never synchronously from inside exec/transfer. */
#ifndef HS_ENGINE_H
#define HS_ENGINE_H

typedef void (*hs_engine_cb)(void *ctx, long id);

struct hs_engine {
    double (*now)(struct hs_engine *e);
    /* Run task (a DAG task id) on worker: first `lead` seconds of the
     * runtime's own work and waits (sim/costs.h; a simulated engine spends
     * them, a real one has its own and gets 0), then the kernel: a simulated
     * engine takes `seconds` (SimGrid's, on a core whose platform declares
     * a memory link, until the kernel's bytes have crossed that shared link
     * too: sim/engines/simgrid/memory_link.h), a real one runs it (or a
     * calibrated spin of that duration). */
    void (*exec)(struct hs_engine *e, int worker, int task, double lead, double seconds,
                 hs_engine_cb cb, void *ctx, long id);
    /* Move datum `handle` (bytes long) from one memory node to another. */
    void (*transfer)(struct hs_engine *e, int handle, int src_node, int dst_node, double bytes,
                     hs_engine_cb cb, void *ctx, long id);
    /* Call back after `seconds` (scheduling overheads such as a steal). */
    void (*timer)(struct hs_engine *e, double seconds, hs_engine_cb cb, void *ctx, long id);
    void (*finished)(struct hs_engine *e);
};

#endif
