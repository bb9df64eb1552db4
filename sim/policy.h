/* sim/policy.h — the scheduling policy interface, modelled on StarPU's
 * policies: a struct of callbacks, one file per policy. A policy sees the
 * runtime only through the read-only view of sim/sched.h (estimates, data
 * location, worker availability, the clock, a seeded random stream); it never
 * calls SimGrid or CUDA, so the same policy drives every engine.
 *
 *   init  — before time 0; static policies plan the whole DAG here and call
 *           hs_sched_set_predicted_makespan. Return non-zero to abort the run
 *           (after hs_fail).
 *   push  — task t became ready (all its predecessors completed).
 *   pop   — worker w can take one more task: return one it can run, or NULL.
 *   done  — t completed on w (its successors are pushed right after).
 *   fini  — after the run; free private state. */
#ifndef HS_POLICY_H
#define HS_POLICY_H

#include "base/params.h"
#include "sim/sched.h"

struct hs_policy {
    const char *name;
    const char *summary;
    const struct hs_param *params; /* NULL-name-terminated; may be NULL */
    int (*init)(struct hs_runtime *s);
    void (*push)(struct hs_runtime *s, struct hs_task *t);
    struct hs_task *(*pop)(struct hs_runtime *s, int worker);
    void (*done)(struct hs_runtime *s, struct hs_task *t, int worker);
    void (*fini)(struct hs_runtime *s);
};

/* Version of this interface (struct hs_policy and sim/sched.h). A policy
 * plugin built out of tree exports it as `const int hs_policy_abi =
 * HS_POLICY_ABI;` beside `const struct hs_policy hs_policy_plugin`, so that
 * a hetsim of another version refuses it instead of misreading it. */
#define HS_POLICY_ABI 1

#endif
