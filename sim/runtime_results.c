/* sim/runtime_results.c — what a run left, for the engines that carried it
 * out and for the run's callers (sim/runtime.h), read from the runtime's
 * state (sim/runtime_internal.h) that only sim/ sees; and the one way an
 * engine stops a run. */
#include "sim/runtime_internal.h"

void hs_runtime_fail(struct hs_runtime *rt, const char *msg)
{
    hs_rt_fail(rt, "%s", msg);
}

const char *hs_runtime_error(const struct hs_runtime *rt)
{
    return rt->error;
}

const struct hs_dag *hs_runtime_dag(const struct hs_runtime *rt)
{
    return rt->dag;
}

bool hs_runtime_refused(const struct hs_runtime *rt)
{
    return rt->refused;
}

int hs_runtime_tasks_done(const struct hs_runtime *rt)
{
    return rt->ndone;
}

double hs_runtime_makespan(const struct hs_runtime *rt)
{
    return rt->makespan;
}

double hs_runtime_policy_seconds(const struct hs_runtime *rt)
{
    return rt->policy_wall;
}

double hs_runtime_bytes(const struct hs_runtime *rt, enum hs_dir d)
{
    return rt->bytes[d];
}

const struct hs_task_event *hs_runtime_task_event(const struct hs_runtime *rt, int task)
{
    return &rt->ts[task].ev;
}
