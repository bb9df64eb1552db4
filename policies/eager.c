/* policies/eager.c — one central FIFO (StarPU's "eager"): a worker that asks
 * for work gets the oldest ready task it can run. Tasks are kept in one queue
 * per set of architectures that can run them, so the oldest compatible task is
 * found without scanning past tasks the worker cannot run. */
#include "policies/registry.h"
#include "base/util.h"
#include "policies/taskq.h"

#include <stdlib.h>

/* queue index = bitmask of the architectures that can run the task (1..3) */
struct eager {
    struct hs_taskq q[1u << HS_NARCH];
    unsigned long seq;
};

static int eager_init(struct hs_runtime *s)
{
    struct eager *e = hs_xcalloc(1, sizeof *e);
    for (unsigned i = 0; i < (1u << HS_NARCH); i++)
        hs_taskq_init(&e->q[i]);
    hs_sched_set_data(s, e);
    return 0;
}

static unsigned runnable_archs(const struct hs_runtime *s, const struct hs_task *t)
{
    unsigned mask = 0;
    for (int w = 0; w < hs_sched_nworkers(s); w++)
        if (hs_sched_can_run(s, t, w))
            mask |= HS_ARCH_BIT(hs_sched_worker(s, w)->arch);
    return mask;
}

static void eager_push(struct hs_runtime *s, struct hs_task *t)
{
    struct eager *e = hs_sched_data(s);
    hs_taskq_push(&e->q[runnable_archs(s, t)], t, e->seq++);
}

static struct hs_task *eager_pop(struct hs_runtime *s, int w)
{
    struct eager *e = hs_sched_data(s);
    unsigned bit = HS_ARCH_BIT(hs_sched_worker(s, w)->arch);
    struct hs_taskq *best = NULL;
    int best_i = -1;
    for (unsigned m = 1; m < (1u << HS_NARCH); m++) {
        if (!(m & bit))
            continue;
        struct hs_taskq *q = &e->q[m];
        /* usually the head; a task with explicit costs may exclude this very worker */
        for (int i = 0; i < q->len; i++) {
            if (best && hs_taskq_seq_at(q, i) > hs_taskq_seq_at(best, best_i))
                break;
            if (hs_sched_can_run(s, hs_taskq_at(q, i), w)) {
                best = q;
                best_i = i;
                break;
            }
        }
    }
    return best ? hs_taskq_take(best, best_i) : NULL;
}

static void eager_fini(struct hs_runtime *s)
{
    struct eager *e = hs_sched_data(s);
    for (unsigned i = 0; i < (1u << HS_NARCH); i++)
        hs_taskq_free(&e->q[i]);
    free(e);
}

const struct hs_policy hs_policy_eager = {
    .name = "eager",
    .summary = "one central FIFO; an idle worker takes the oldest ready task it can run",
    .init = eager_init,
    .push = eager_push,
    .pop = eager_pop,
    .fini = eager_fini,
};
