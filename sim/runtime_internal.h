/* sim/runtime_internal.h — the runtime's internals, as Lua keeps lua_State's
 * fields in lstate.h and its API in lua.h: the state of a run (struct
 * hs_runtime: tasks, workers, copies, streams, caches and counters) and the
 * functions runtime.c, datamove.c and sched.c share. Only sim/ (the runtime,
 * the record and the traces, which read the run's events) and tests/ include
 * it (tests/docs/test_layout.c); an engine sees sim/engine.h and the runtime's
 * API in sim/runtime.h, a policy sim/policy.h and sim/sched.h. */
#ifndef HS_RUNTIME_INTERNAL_H
#define HS_RUNTIME_INTERNAL_H

#include "sim/coherence.h"
#include "sim/gpucache.h"
#include "sim/runtime.h"

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stdint.h>

enum hs_xfer_state { HS_XS_WAIT_SOURCE, HS_XS_QUEUED, HS_XS_ACTIVE, HS_XS_DONE };
enum hs_waiter_kind { HS_WAIT_INPUT, HS_WAIT_ALLOC, HS_WAIT_CHAIN, HS_WAIT_FLUSH, HS_WAIT_PREFETCH };

struct hs_waiter {
    enum hs_waiter_kind kind;
    int id; /* task, or transfer for a chain */
    struct hs_waiter *next;
};

/* One per copy of the run, kept to the end for the events: packed to 72
 * bytes (a run of a million tasks makes millions of them). */
struct hs_xfer {
    struct hs_xfer_event ev;
    uint8_t state;  /* an enum hs_xfer_state */
    bool pinned_src;
    uint32_t version;
    int stream;     /* -1: none, else node * 2 + (0 in, 1 out) */
    int next;       /* next in its stream's FIFO */
    struct hs_waiter *waiters;
};

struct hs_stream {
    bool busy;
    int head, tail; /* FIFO of transfer ids, -1 if empty */
};

struct hs_task_state {
    int pending_alloc, pending_inputs, npred_left;
    int issued;     /* copies its prologue started (each costs costs.transfer_issue) */
    double release; /* when its push was decided: its kernel starts no earlier */
    bool room;      /* its data hold room in its worker's memory (pinned until it ends) */
    bool inputs_ok;
    struct hs_task_event ev;
};

struct hs_worker_state {
    int inflight;
    int running;             /* task executing, -1 if none */
    int *queue;              /* held tasks not started: in the order their inputs became
                                valid, or in pop order for in-order policies */
    int qhead, qlen, qcap;   /* qcap: the room of queue and of deferred (window + 1; twice
                                that once a pop that yielded let w take more, hold_room) */
    int *deferred;           /* popped tasks waiting for room in the data cache */
    int ndeferred;
    double pending_estimate; /* estimates of held tasks not yet started */
    double delay;            /* asked by the policy during pop (hs_sched_delay) */
    double overhead;         /* seconds spent in such delays */
    double runtime;          /* seconds of runtime costs before its kernels (sim/costs.h) */
    double busy_until;       /* a CPU worker deciding its successors' pushes is busy until then */
    double busy;             /* seconds spent executing */
    int ntasks;
};

struct hs_runtime {
    const struct hs_dag *dag;
    const struct hs_platform *pf;
    const struct hs_perfmodel *perf;
    const struct hs_policy *policy;
    const struct hs_spec *params;
    struct hs_runtime_opts opts;
    struct hs_engine *engine;
    void *policy_data;
    gsl_rng *rng_policy, *rng_noise;

    struct hs_task_state *ts;
    struct hs_worker_state *ws;
    double *est_arch;        /* [task * HS_NARCH + arch]: timing-table estimate, NAN
                                (NULL, as true_arch, when no kernel is in the table) */
    double *true_arch;       /* the same as executed: differs where the table is calibrated */
    bool *kernel_in_table;   /* per kernel: the timing table decides */
    bool *gpu_scaled;        /* per kernel: gpu_speed applies to it (opts.machine.gpu_kernels) */
    bool *cpu_scaled;        /* per kernel: cpu_speed applies to it (opts.machine.cpu_kernels) */
    double *task_bytes;      /* per task: bytes of the distinct data it accesses, which the
                                memory of the worker running it must hold at once */
    struct hs_coherence coh;
    struct hs_cache *cache;  /* per node; capacity INFINITY: no cache */
    struct hs_stream *streams; /* 2 per node */
    int *arriving;           /* [h * nnodes + node]: transfer bringing h there, -1 */
    int *narriving, *arriving_cap; /* per handle: the nodes with a copy on its way (datamove.c) */
    int **arriving_nodes;
    struct hs_wclasses *classes; /* classes of identical workers, made when a policy asks */
    struct hs_xfer *xfers;
    size_t nxfers, cap_xfers;
    struct hs_waiter *free_waiters;
    int *victims;

    int ndone, pending_flush, activities;
    bool flushing, finished;
    bool in_order;           /* kernels start in pop order (hs_sched_set_in_order) */
    enum hs_decision_kind decision; /* how the policy places a task (hs_sched_set_decision) */
    double predicted_makespan, makespan;
    int clusters, cluster_edges; /* the graph of clusters planned (hs_sched_set_clusters); -1: none */
    double bytes[HS_NDIR];
    long count[HS_NDIR];
    long evictions, writebacks, stale, audit_violations, prefetches;
    int running_arch[HS_NARCH]; /* workers of each architecture running a task now */
    int copies_active;       /* host-GPU transfers in flight now (co-running, hs_perf_corun_time) */
    int *copies_node;        /* per memory node: those of them into or out of it */
    double policy_wall;      /* wall-clock seconds spent in policy callbacks */
    double policy_t0;        /* when the policy call being timed started */
    int policy_depth;        /* policy calls being timed (0: none; see hs_rt_policy_enter) */
    long policy_yields;      /* calls of the policy that may have yielded (hs_rt_policy_pause) */
    /* Offers (hs_sched_offer_mode): the runtime offers work (calls pop) only
     * to a worker with room in its window that the policy named, alone
     * (want_bits, until a pop of it returns nothing) or by its architecture
     * (want_arch, until the policy says otherwise); bit w of word w / 64. */
    bool offers;
    int nwords;
    uint64_t *room_bits;     /* workers with room in their window */
    uint64_t *want_bits;     /* workers named alone */
    uint64_t *arch_bits[HS_NARCH]; /* the workers of each architecture */
    bool want_arch[HS_NARCH];
    char *error;             /* set if the run failed */
    bool refused;            /* ... because the policy's init refused its input (bad parameters
                                for this DAG or platform): a usage error, not a failed run */
};

/* ---- shared between runtime.c, datamove.c and sched.c ------------------ */
/* The policy's timer (timing.policy_seconds): a call of the policy counts from
 * its start to its end, once; a call the policy makes that may yield to other
 * actors (hs_sched_prefetch starts a copy) stops it meanwhile, so that what
 * those actors do, policy calls of their own included, is not counted again
 * inside it (hs_rt_policy_pause and hs_rt_policy_resume around the call). */
void hs_rt_policy_enter(struct hs_runtime *rt);
void hs_rt_policy_leave(struct hs_runtime *rt);
int hs_rt_policy_pause(struct hs_runtime *rt);
void hs_rt_policy_resume(struct hs_runtime *rt, int depth);
/* May h move from src to dst in one copy? To and from host memory and flat
 * processors when a route exists; between GPUs only with p2p. */
bool hs_rt_direct_allowed(const struct hs_runtime *rt, int src, int dst);
void hs_rt_fail(struct hs_runtime *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Make h valid on node; waiter is attached unless it already is (returns true). */
bool hs_rt_require(struct hs_runtime *rt, int h, int node, enum hs_waiter_kind kind, int id);
/* Free room on node's cache for task t's blocks and pin them; returns false
 * if the task must wait for room. */
bool hs_rt_allocate(struct hs_runtime *rt, int task, int node);
void hs_rt_unpin_task(struct hs_runtime *rt, int task, int node);
bool hs_rt_prefetch(struct hs_runtime *rt, int h, int node);
void hs_rt_task_input_arrived(struct hs_runtime *rt, int task);
void hs_rt_task_alloc_done(struct hs_runtime *rt, int task);
void hs_rt_flush_done(struct hs_runtime *rt);
void hs_rt_check_stall(struct hs_runtime *rt);
/* A block of node's data cache was unpinned (a copy out of it or into it
 * ended): tasks of its workers waiting for room try again. */
void hs_rt_room_freed(struct hs_runtime *rt, int node);
void hs_rt_datamove_init(struct hs_runtime *rt);
void hs_rt_datamove_free(struct hs_runtime *rt);

#endif
