/* examples/policy-lcf/lcf.c — a complete scheduling policy written out of
 * tree: largest cost first. One central list of ready tasks (like StarPU's
 * "eager"), but a worker that asks for work gets the ready task with the
 * largest estimated cost among those it can run (ties: the oldest), so long
 * tasks start early and short ones fill the gaps at the end.
 *
 * Build it as a plugin against an installed hetsim (docs/writing-a-policy.md):
 *   cmake -S . -B build -DCMAKE_PREFIX_PATH=<hetsim prefix> && cmake --build build
 * and run it:
 *   hetsim run -s ./build/liblcf.so:cost=mean -w cholesky:n=4096,nb=512 */
#include "sim/policy.h" /* struct hs_policy, HS_POLICY_ABI */
#include "base/util.h"  /* hs_xmalloc & co., hs_fail */
#include "sim/sched.h"  /* the runtime's read-only view */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The parameters, as `-s ./liblcf.so:cost=here` gives them; hetsim checks the
 * values against this table and fills in the defaults before init. */
static const struct hs_param lcf_params[] = {
    {.name = "cost", .type = HS_P_CHOICE, .defval = "mean", .choices = "mean|here",
     .help = "a task's cost: its mean estimated time over the workers that can run it, "
             "or its estimated time on the worker that asks (here)"},
    {0},
};

/* The policy's private state: the ready tasks, in the order they became ready. */
struct lcf {
    struct hs_task **ready;
    double *cost; /* cost[i]: mean cost of ready[i] (cost=mean) */
    int n, cap;
    bool here;
};

static double mean_cost(const struct hs_runtime *s, const struct hs_task *t)
{
    double sum = 0;
    int n = 0;
    for (int w = 0; w < hs_sched_nworkers(s); w++) {
        double e = hs_sched_exec_estimate(s, t, w); /* INFINITY where w cannot run t */
        if (isfinite(e))
            sum += e, n++;
    }
    return n ? sum / n : 0;
}

static int lcf_init(struct hs_runtime *s)
{
    struct lcf *l = hs_xcalloc(1, sizeof *l);
    l->here = strcmp(hs_spec_get(hs_sched_params(s), "cost"), "here") == 0;
    hs_sched_set_data(s, l);
    return 0;
}

/* t became ready: keep it with its cost. */
static void lcf_push(struct hs_runtime *s, struct hs_task *t)
{
    struct lcf *l = hs_sched_data(s);
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->ready = hs_xrealloc(l->ready, (size_t)l->cap * sizeof *l->ready);
        l->cost = hs_xrealloc(l->cost, (size_t)l->cap * sizeof *l->cost);
    }
    l->ready[l->n] = t;
    l->cost[l->n++] = l->here ? 0 : mean_cost(s, t);
}

/* Worker w can take a task: the costliest one it can run, or NULL. */
static struct hs_task *lcf_pop(struct hs_runtime *s, int w)
{
    struct lcf *l = hs_sched_data(s);
    int best = -1;
    double best_cost = -1;
    for (int i = 0; i < l->n; i++) {
        if (!hs_sched_can_run(s, l->ready[i], w))
            continue;
        double c = l->here ? hs_sched_exec_estimate(s, l->ready[i], w) : l->cost[i];
        if (c > best_cost)
            best = i, best_cost = c;
    }
    if (best < 0)
        return NULL;
    struct hs_task *t = l->ready[best];
    /* keep the others in the order they became ready (ties go to the oldest) */
    memmove(&l->ready[best], &l->ready[best + 1], (size_t)(l->n - best - 1) * sizeof *l->ready);
    memmove(&l->cost[best], &l->cost[best + 1], (size_t)(l->n - best - 1) * sizeof *l->cost);
    l->n--;
    return t;
}

static void lcf_fini(struct hs_runtime *s)
{
    struct lcf *l = hs_sched_data(s);
    free(l->ready);
    free(l->cost);
    free(l);
}

/* What hetsim looks for in the library: the policy and the interface version
 * it was built against. */
const int hs_policy_abi = HS_POLICY_ABI;
const struct hs_policy hs_policy_plugin = {
    .name = "lcf",
    .summary = "largest cost first: a central list; a worker takes the costliest ready task it can run",
    .params = lcf_params,
    .init = lcf_init,
    .push = lcf_push,
    .pop = lcf_pop,
    .fini = lcf_fini,
};
