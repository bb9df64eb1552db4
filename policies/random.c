/* policies/random.c — each ready task goes to a worker drawn uniformly among
 * those that can run it (from the policy's seeded stream); each worker runs
 * its own queue in FIFO order. */
#include "policies/registry.h"
#include "base/util.h"
#include "policies/taskq.h"

#include <stdlib.h>

struct random_policy {
    struct hs_taskq *q; /* per worker */
    int *eligible;
};

static int random_init(struct hs_runtime *s)
{
    int n = hs_sched_nworkers(s);
    struct random_policy *r = hs_xcalloc(1, sizeof *r);
    r->q = hs_xcalloc((size_t)n, sizeof *r->q);
    r->eligible = hs_xmalloc((size_t)n * sizeof(int));
    hs_sched_set_data(s, r);
    return 0;
}

static void random_push(struct hs_runtime *s, struct hs_task *t)
{
    struct random_policy *r = hs_sched_data(s);
    int n = 0;
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        if (hs_sched_can_run(s, t, w))
            r->eligible[n++] = w;
    int w = r->eligible[gsl_rng_uniform_int(hs_sched_rng(s), (unsigned long)n)];
    hs_taskq_push(&r->q[w], t, 0);
}

static struct hs_task *random_pop(struct hs_runtime *s, int w)
{
    struct random_policy *r = hs_sched_data(s);
    return r->q[w].len ? hs_taskq_take(&r->q[w], 0) : NULL;
}

static void random_fini(struct hs_runtime *s)
{
    struct random_policy *r = hs_sched_data(s);
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        hs_taskq_free(&r->q[w]);
    free(r->q);
    free(r->eligible);
    free(r);
}

const struct hs_policy hs_policy_random = {
    .name = "random",
    .summary = "each ready task goes to a uniformly drawn worker that can run it",
    .init = random_init,
    .push = random_push,
    .pop = random_pop,
    .fini = random_fini,
};
