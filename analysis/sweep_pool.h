/* analysis/sweep_pool.h — a pool of child processes running sweep runs: each
 * run is forked, runs the caller's callback, and sends its CSV row back
 * through a pipe; its stdout and stderr go through a second pipe (the last
 * line explains a crash). A child closes both pipes as soon as its row is
 * sent, so the next run starts while it is still exiting (tearing down a
 * simulation's memory takes a while); it is reaped later. Used by the local
 * sweep, by every MPI rank, and by the ledger, whose one pool runs the runs
 * of several sweeps (each run started with its own sweep's ops). */
#ifndef HS_SWEEP_POOL_H
#define HS_SWEEP_POOL_H

#include "base/buf.h"
#include "analysis/sweep.h"

#include <sys/types.h>

struct hs_pool_slot {
    pid_t pid;            /* 0: free */
    int fd[2];            /* row pipe, output pipe; -1 once closed */
    struct hs_buf row, out;
    struct hs_sweep_job job;
    const struct hs_sweep_ops *ops; /* the sweep the run belongs to */
    double start, deadline, timeout;
    bool timed_out;
};

struct hs_pool {
    const struct hs_sweep_ops *ops;
    double timeout;
    int nslots, busy;
    struct hs_pool_slot *slots;
    pid_t *exiting;       /* children that sent their row and are still exiting */
    int nexiting;
};

/* Called once per finished run with its row (owned by the pool). */
typedef void (*hs_pool_done_fn)(void *ctx, const struct hs_sweep_job *job,
                                enum hs_run_status status, const char *row);

void hs_pool_init(struct hs_pool *p, int nslots, const struct hs_sweep_ops *ops, double timeout);
/* Start a run in a free slot; the pool takes the job (and frees its params).
 * -1 with hs_fail when no process can be made. */
int hs_pool_start(struct hs_pool *p, struct hs_sweep_job *job);
/* The same for a run of another sweep than the pool's (ops: that sweep's,
 * kept by the caller until the run is reported), killed after timeout
 * seconds (0: never). */
int hs_pool_start_of(struct hs_pool *p, struct hs_sweep_job *job, const struct hs_sweep_ops *ops,
                     double timeout);
/* Wait up to max_ms (-1: until something happens) and report finished runs;
 * returns how many finished, or -1 if a signal interrupted the wait. */
int hs_pool_wait(struct hs_pool *p, int max_ms, hs_pool_done_fn done, void *ctx);
/* Kill every running child and reap it, reporting nothing. */
void hs_pool_kill(struct hs_pool *p);
void hs_pool_free(struct hs_pool *p);

#endif
