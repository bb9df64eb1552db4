/* sim/runtime.h — the runtime model: it takes ready tasks from the policy,
 * moves their data between memory nodes (MSI coherence, GPU caches, FIFO copy
 * streams, host staging), runs them on their workers through an engine, and
 * records what happened. It is engine-agnostic: the same state machine runs
 * in simulated time (SimGrid) and in real time (the real engine).
 *
 * This is the runtime as an engine and a run's caller see it (as Lua's lua.h):
 * create it, start it, and read what the run left. Its state and the
 * functions its own files share are in sim/runtime_internal.h (Lua's
 * lstate.h), which only sim/ and tests/ include; a policy sees the runtime
 * through sim/sched.h. */
#ifndef HS_RUNTIME_H
#define HS_RUNTIME_H

#include "platforms/machine_params.h"
#include "platforms/perfmodel.h"
#include "base/params.h"
#include "sim/costs.h"
#include "sim/dag.h"
#include "sim/engine.h"
#include "sim/platform.h"
#include "sim/policy.h"

#include <stdbool.h>

struct hs_runtime_opts {
    double noise;       /* coefficient of variation of the lognormal factor on
                           execution times (0: deterministic) */
    unsigned long seed;
    bool flush;         /* write every datum back to host memory at the end */
    /* the machine's parameters (platforms/machine_params.def), whole: the
       runtime applies those of kernel times (sim/runtime.c), the engine those
       of the loaded platform (cfg->opts.machine); its texts are borrowed */
    struct hs_machine_params machine;
    struct hs_costs costs; /* the runtime's own costs (sim/costs.h); NAN entries: none */
};

void hs_runtime_opts_defaults(struct hs_runtime_opts *o);

enum hs_dir { HS_DIR_H2D = 0, HS_DIR_D2H = 1, HS_DIR_P2P = 2, HS_NDIR = 3 };
enum hs_xfer_purpose { HS_XFER_FETCH, HS_XFER_WRITEBACK, HS_XFER_FLUSH };

struct hs_task_event {
    int worker;
    double ready, popped, inputs, start, end; /* inputs: all inputs valid */
    double duration;                          /* actual execution time */
    double estimate;                          /* estimate on its worker */
};

struct hs_xfer_event {
    int handle, src, dst;
    enum hs_xfer_purpose purpose; /* beside the ints: no padding (one record per copy) */
    double bytes;
    double request, start, end;
};

/* Create the runtime for a finalized DAG on a built platform. Returns NULL
 * with hs_fail if some task cannot run on any selected worker. */
struct hs_runtime *hs_runtime_new(const struct hs_dag *dag, const struct hs_platform *pf,
                                const struct hs_perfmodel *perf, const struct hs_policy *policy,
                                const struct hs_spec *params, const struct hs_runtime_opts *opts);
void hs_runtime_free(struct hs_runtime *rt);

/* Called by the engine at time 0 from its main context. */
void hs_runtime_start(struct hs_runtime *rt, struct hs_engine *engine);

/* Estimated duration of t on w from the cost model (no noise); INFINITY if w
 * cannot run t. */
double hs_runtime_estimate(const struct hs_runtime *rt, const struct hs_task *t, int w);

/* An engine stops the run: msg becomes its error (the first one stays). */
void hs_runtime_fail(struct hs_runtime *rt, const char *msg);

/* ---- what a run left ------------------------------------------------------ */
/* Why the run failed, or NULL. */
const char *hs_runtime_error(const struct hs_runtime *rt);
/* It failed because the policy's init refused its input (bad parameters for
 * this DAG or platform): a usage error, not a failed run. */
bool hs_runtime_refused(const struct hs_runtime *rt);
/* The DAG the runtime runs. */
const struct hs_dag *hs_runtime_dag(const struct hs_runtime *rt);
/* How many tasks ended (the DAG's count when the run finished). */
int hs_runtime_tasks_done(const struct hs_runtime *rt);
/* When the last task ended (seconds of the engine's clock). */
double hs_runtime_makespan(const struct hs_runtime *rt);
/* Wall-clock seconds spent in the policy's callbacks. */
double hs_runtime_policy_seconds(const struct hs_runtime *rt);
/* Bytes the run moved in direction d. */
double hs_runtime_bytes(const struct hs_runtime *rt, enum hs_dir d);
/* What happened to task `task`: its worker and its times. */
const struct hs_task_event *hs_runtime_task_event(const struct hs_runtime *rt, int task);

#endif
