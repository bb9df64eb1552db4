/* policies/batchq.h — what the online policies that decide on batches of
 * ready tasks share (XKaapi's activate; DADA, DDA): the batch of tasks made
 * ready since the last decision, and one FIFO queue per worker with the time
 * its tasks are predicted to take (XKaapi's per-worker time-stamps).
 *
 * The runtime pushes the successors a completion released, then asks for
 * work: the policy's pop takes the batch, decides, assigns each task with
 * the cost it charges its worker, and pops from the worker's queue. */
#ifndef HS_BATCHQ_H
#define HS_BATCHQ_H

#include "policies/taskq.h"
#include "sim/sched.h"

struct hs_batchq {
    struct hs_taskq batch; /* ready tasks not decided yet, in activation order */
    struct hs_taskq *q;    /* per worker */
    double *queued;        /* per worker: the charges of the tasks in its queue */
    double *charge;        /* per task: what it added to its worker's queue */
    int nworkers;
};

void hs_batchq_init(struct hs_batchq *b, const struct hs_runtime *s);
void hs_batchq_free(struct hs_batchq *b);

/* t became ready: it joins the batch. */
void hs_batchq_add(struct hs_batchq *b, struct hs_task *t);

/* Move the batch into a new array (caller frees); returns its length. */
int hs_batchq_take(struct hs_batchq *b, struct hs_task ***tasks);

/* When w is predicted to be free: max(now, what it holds) + its queue. */
double hs_batchq_ready(const struct hs_batchq *b, const struct hs_runtime *s, int w);

/* Append t to w's queue; the queue's predicted time grows by charge. */
void hs_batchq_assign(struct hs_batchq *b, struct hs_task *t, int w, double charge);

/* The head of w's queue, or NULL. */
struct hs_task *hs_batchq_pop(struct hs_batchq *b, int w);

/* The oldest task w can run in the queue of a victim drawn uniformly among
 * the other workers holding one, or NULL (dada:steal=1, an option of ours). */
struct hs_task *hs_batchq_steal(struct hs_batchq *b, struct hs_runtime *s, int w);

#endif
