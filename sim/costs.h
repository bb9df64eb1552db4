/* sim/costs.h — the runtime system's own costs, in simulated time: what a
 * real runtime (XKaapi, StarPU) spends around the kernels and copies it
 * manages. They are part of a machine's model (zone properties of its
 * platform file, each with its source written beside it; zero on flat:P
 * platforms, which are the literature's cost-free model) and can be
 * overridden per run. Deterministic: a model, never the wall-clock time of
 * hetsim's own code.
 *
 *   task[arch]      per task on a worker of that architecture: activation,
 *                   pop, launch and completion; its worker spends it just
 *                   before the kernel, and the policies' estimates include it
 *                   (a runtime's history-based model measures it with the
 *                   kernel)
 *   transfer_issue  per copy a task's prologue issues (fetches, staging,
 *                   write-backs of its evictions), spent by its worker with
 *                   the task's own overhead
 *   decide_push     per ready task, the policy's push (every policy)
 *   decide_worker   per worker a policy examines to place one ready task
 *                   (policies that evaluate every worker: online HEFT, dmda,
 *                   DADA, DDA; an offline plan is a look-up)
 *
 * A completed task's successors are decided one after the other by the core
 * of the worker that completed it (the master core for the sources): the
 * k-th is released k decisions later, and a deciding CPU worker starts its
 * own next kernel only after its decisions. A GPU's driving core decides
 * while the GPU's streams run on. */
#ifndef HS_COSTS_H
#define HS_COSTS_H

#include "sim/dag.h"

#include <stdbool.h>

struct hs_costs {
    double task[HS_NARCH];
    double transfer_issue;
    double decide_push;
    double decide_worker;
    double scale; /* the platform's costs times this (costs=scale=F, a sensitivity
                     study of these assumed values); 0, as a zeroed struct has it,
                     leaves them as the platform gives them */
};

/* How a policy places a ready task: a look-up (O(1): a queue, a plan) or by
 * examining every worker. */
enum hs_decision_kind { HS_DECIDE_LOOKUP, HS_DECIDE_WORKERS };

/* Any cost at all? */
bool hs_costs_any(const struct hs_costs *c);

/* The zone properties of a platform file that set them (seconds, or with a
 * unit: "5us", "0.2us", "1e-6"), in the order of struct hs_costs:
 * runtime/task_cpu, runtime/task_gpu, runtime/transfer_issue,
 * runtime/decide_push, runtime/decide_worker. NULL-terminated. */
extern const char *const hs_costs_props[];

/* Parse a duration ("5us", "2e-6", "0.1ms", "0"); -1 if it is not one. */
int hs_costs_parse_time(const char *text, double *seconds);

/* A run's choice of costs: "platform" (the platform's, the default), "off"
 * (none) or KEY=DURATION pairs separated by '/' (task_cpu=1us/decide_worker=50us;
 * "task" sets task_cpu and task_gpu), the others the platform's; and
 * scale=F, a number > 0, multiplies the costs left to the platform by F
 * ("scale=2": every cost the platform file declares, doubled; costs it does
 * not declare stay none). Entries left to the platform stay NAN. -1 with
 * hs_fail naming the bad part. */
int hs_costs_parse_spec(const char *spec, struct hs_costs *c);

/* Set the cost named by hs_costs_props[i]. */
void hs_costs_set(struct hs_costs *c, int i, double seconds);
double hs_costs_get(const struct hs_costs *c, int i);

#endif
