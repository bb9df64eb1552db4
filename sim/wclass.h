/* sim/wclass.h — classes of identical workers (issue 55): workers of the same
 * architecture, speed, window and memory capacity whose memory nodes are
 * reached alike from every other memory node (the same route latency,
 * bandwidth and direct-or-staged rule), so that a task's estimates (its
 * execution, its transfers) are the same on every member whose memory holds
 * none of its inputs and has none on its way. A class is either the workers
 * of one memory node (the cores on host memory) or workers with a memory node
 * each (the GPUs behind one switch, the processors of flat:P).
 *
 * A cost-model policy that places a task on the worker minimising
 * fit(avail(w), transfer(w), exec(w)), avail(w) = max(now, ready_at(w)) +
 * queued[w] (dmda, online HEFT), asks hs_wclass_best: per class, the member
 * minimising avail is found in a tree of the members' availability (a branch
 * and bound on lower bounds, best first through base/evheap), and the
 * members whose memory holds or awaits an input are weighed one by one: the
 * choice, ties to the lowest worker id included, is the scan's over every
 * worker, for O(classes x log P + copies) per task instead of O(P).
 * HETSIM_WORKER_SCAN=1 in the environment leaves every worker alone in its
 * class, so that the choices are made by a scan of every worker, as before
 * the classes (the tests compare both). */
#ifndef HS_WCLASS_H
#define HS_WCLASS_H

#include "sim/dag.h"
#include "sim/sched.h"

#include <stdbool.h>

struct hs_runtime;
struct hs_wclasses;

/* Classes of rt's workers (every worker alone where the platform's routes
 * are too many to compare: more than HS_WCLASS_COMPARE route asks and not
 * uniform), made once. */
struct hs_wclasses *hs_wclasses_new(const struct hs_runtime *rt);
void hs_wclasses_free(struct hs_wclasses *wc);
int hs_wclasses_count(const struct hs_wclasses *wc);
int hs_wclasses_of(const struct hs_wclasses *wc, int w);
/* The members of class c, by increasing id; returns how many. */
int hs_wclasses_members(const struct hs_wclasses *wc, int c, const int **members);

/* Worker w's availability changed (its running task, its held tasks' estimates,
 * its queued[w]): the tree reads it again before the next choice. */
void hs_wclasses_touch(struct hs_wclasses *wc, int w);

/* fit (sim/sched.h's hs_fit_fn: ctx, w, avail, transfer, exec): the policy's
 * figure of merit of t on w, lowest best; non-decreasing in avail, and the
 * same for every member of a class given the same arguments. */

/* The worker with the lowest fit for t (ties: the lowest id), -1 if none is
 * finite; *fitness its fit. queued: per worker, the policy's queued time
 * (kept with hs_wclasses_touch); slow: as hs_sched_transfer_estimate_shared. */
int hs_wclasses_best(struct hs_runtime *rt, const struct hs_task *t, const double *queued,
                     const double *slow, hs_fit_fn fit, void *ctx, double *fitness);

#endif
