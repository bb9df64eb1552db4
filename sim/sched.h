/* sim/sched.h — the read-only view of the runtime that scheduling policies
 * get. Everything here is an estimate (from the performance model and the
 * route table): the engine produces the actual times, which differ under
 * contention or noise. */
#ifndef HS_SCHED_H
#define HS_SCHED_H

#include "sim/costs.h"
#include "base/params.h"
#include "sim/dag.h"
#include "sim/platform.h"

#include <gsl/gsl_rng.h>
#include <stdbool.h>

struct hs_runtime; /* the runtime, as a policy sees it */

const struct hs_dag *hs_sched_dag(const struct hs_runtime *s);
const struct hs_platform *hs_sched_platform(const struct hs_runtime *s);
int hs_sched_nworkers(const struct hs_runtime *s);
const struct hs_worker *hs_sched_worker(const struct hs_runtime *s, int w);
double hs_sched_now(const struct hs_runtime *s);

/* Parameters of the policy (validated, defaults filled in). */
const struct hs_spec *hs_sched_params(const struct hs_runtime *s);
/* Seeded random stream reserved for the policy. */
gsl_rng *hs_sched_rng(struct hs_runtime *s);

/* Private state of the policy. */
void *hs_sched_data(const struct hs_runtime *s);
void hs_sched_set_data(struct hs_runtime *s, void *data);

bool hs_sched_can_run(const struct hs_runtime *s, const struct hs_task *t, int w);
/* Estimated execution time of t on w (seconds); INFINITY if w cannot run it. */
double hs_sched_exec_estimate(const struct hs_runtime *s, const struct hs_task *t, int w);
/* Estimated time to bring t's inputs that are missing on w's memory node
 * there, given where valid copies are now (copies already on their way count 0). */
double hs_sched_transfer_estimate(const struct hs_runtime *s, const struct hs_task *t, int w);
/* The same when the links of some memory nodes are shared: the bytes/bandwidth
 * part of a move to or from node n takes slow[n] (>= 1) times longer, the
 * larger of its two ends counting (slow: one entry per memory node). */
double hs_sched_transfer_estimate_shared(const struct hs_runtime *s, const struct hs_task *t, int w,
                                         const double *slow);
/* Per memory node, the factor on a transfer estimate's bytes/bandwidth part
 * (the slow of hs_sched_transfer_estimate_shared) of a runtime that counts
 * per_gpu times the GPUs among the workers, 1 without GPUs: StarPU 1.0 and
 * 1.1 (2 per GPU), XKaapi 2.1's Eq. 6.2 of Lima 2014 (1 per GPU). Free it. */
double *hs_sched_gpu_factors(const struct hs_runtime *s, double per_gpu);
/* Estimated time to move bytes from memory node src to dst, staged through
 * host memory where there is no direct route. */
double hs_sched_move_time(const struct hs_runtime *s, int src, int dst, double bytes);
/* The mean communication cost of the list-scheduling literature, c̄(bytes) =
 * lat + per_byte·bytes: move times averaged over the ordered pairs of distinct
 * workers (pairs sharing a memory node cost 0); 0 and 0 with one worker. */
void hs_sched_mean_comm(const struct hs_runtime *s, double *lat, double *per_byte);
/* Estimated time at which w will have finished the tasks it already holds. */
double hs_sched_worker_ready_at(const struct hs_runtime *s, int w);
/* Number of tasks w holds (fetching inputs, queued or running). */
int hs_sched_worker_inflight(const struct hs_runtime *s, int w);

bool hs_sched_valid(const struct hs_runtime *s, int handle, int node);
/* The memory nodes holding a valid copy of handle (*nodes, in no order);
 * returns how many. Read the array at once: it changes with the copies. */
int hs_sched_holders(const struct hs_runtime *s, int handle, const int **nodes);

/* The memory nodes a copy of handle is on its way to (*nodes, in no order);
 * returns how many. Read the array at once: it changes with the copies. */
int hs_sched_arriving(const struct hs_runtime *s, int handle, const int **nodes);

/* Classes of identical workers (sim/wclass.h), made on first use (a cache
 * of the runtime, hence const): how many, a worker's, a class's members by
 * increasing id. */
int hs_sched_nclasses(const struct hs_runtime *s);
int hs_sched_class_of(const struct hs_runtime *s, int w);
int hs_sched_class_members(const struct hs_runtime *s, int c, const int **members);

/* The worker on which t has the lowest fit(ctx, w, avail, transfer, exec)
 * (ties: the lowest id; -1 if none is finite, *fitness its fit), where
 * avail = max(now, hs_sched_worker_ready_at(w)) + queued[w], transfer =
 * hs_sched_transfer_estimate_shared(t, w, slow) and exec =
 * hs_sched_exec_estimate(t, w) (workers that cannot run t skipped): the
 * choice of a scan of every worker, made through the classes of identical
 * workers in O(classes x log P + copies) (sim/wclass.h). fit must be
 * non-decreasing in avail and the same on the members of a class; the
 * policy calls hs_sched_queued_changed(w) whenever it changes queued[w]. */
typedef double (*hs_fit_fn)(void *ctx, int w, double avail, double transfer, double exec);
int hs_sched_best_worker(struct hs_runtime *s, const struct hs_task *t, const double *queued,
                         const double *slow, hs_fit_fn fit, void *ctx, double *fitness);
void hs_sched_queued_changed(struct hs_runtime *s, int w);

/* Start moving a datum to a memory node now (typically when its producer
 * finished and its consumer is planned there), unless it is valid there or on
 * its way. A GPU copy takes room in the cache only if that evicts no sole
 * copy and no data in use. Returns whether a copy was started. */
bool hs_sched_prefetch(struct hs_runtime *s, int handle, int node);

/* What the runtime charges for one task on w besides its kernel (its work
 * per task and a push: sim/costs.h): the cost of an empty task there. */
double hs_sched_task_overhead(const struct hs_runtime *s, int w);

/* Called from pop: the task returned to worker w starts its prologue (cache
 * room, input transfers) only after `seconds` of scheduling work on w (for
 * instance the cost of stealing it); w holds it meanwhile. */
void hs_sched_delay(struct hs_runtime *s, int w, double seconds);

/* Called from init: kernels start in the order each worker took its tasks (a
 * static plan's order), instead of the order their inputs became valid
 * (XKaapi's GPU streams, the default: a task whose data is there may overtake
 * one still waiting for its inputs). */
void hs_sched_set_in_order(struct hs_runtime *s, bool in_order);

/* Called from init by a policy that examines every worker to place a ready
 * task (online HEFT, dmda, DADA, DDA): each push then costs the platform's
 * decide_worker per worker (sim/costs.h). The default is a look-up. */
void hs_sched_set_decision(struct hs_runtime *s, enum hs_decision_kind kind);

/* Called from init: the runtime then offers work (calls pop) only to the
 * workers the policy names, so that a completion costs the work that is
 * ready, not a visit of every worker. The policy names a worker whenever its
 * pop may return a task, or change anything, where it would have returned
 * nothing before: hs_sched_offer(w, true) names w until the policy calls it
 * with false or a pop of w returns nothing (one that prefetched none: a copy
 * started yields to other actors, which may name w); hs_sched_offer_arch(arch, true)
 * names every worker of arch until the policy calls it with false. A worker
 * not named is passed over, so a policy that names every such worker runs as
 * it would without offers. */
void hs_sched_offer_mode(struct hs_runtime *s);
void hs_sched_offer(struct hs_runtime *s, int w, bool work);
void hs_sched_offer_arch(struct hs_runtime *s, enum hs_arch arch, bool work);

/* A static policy reports the makespan its plan predicts. */
void hs_sched_set_predicted_makespan(struct hs_runtime *s, double makespan);

/* A policy that plans a graph of clusters in place of the tasks (cluster)
 * reports its size: the run record's results.clusters and cluster_edges. */
void hs_sched_set_clusters(struct hs_runtime *s, int clusters, int edges);

#endif
