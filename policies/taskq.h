/* policies/taskq.h — a FIFO of tasks for policies' queues (ring buffer), with
 * removal in the middle for pops that skip tasks a worker cannot run. Each
 * entry keeps the sequence number of its push, so a policy can take the
 * oldest task across several queues. */
#ifndef HS_TASKQ_H
#define HS_TASKQ_H

#include "sim/sched.h" /* struct hs_task, as a policy sees it */

struct hs_taskq {
    struct hs_task **items;
    unsigned long *seq;
    int head, len, cap;
};

void hs_taskq_init(struct hs_taskq *q);
void hs_taskq_free(struct hs_taskq *q);
void hs_taskq_push(struct hs_taskq *q, struct hs_task *t, unsigned long seq);
/* i-th task from the head (0 = oldest); NULL past the end. */
struct hs_task *hs_taskq_at(const struct hs_taskq *q, int i);
unsigned long hs_taskq_seq_at(const struct hs_taskq *q, int i);
/* Remove and return the i-th task from the head. */
struct hs_task *hs_taskq_take(struct hs_taskq *q, int i);

#endif
