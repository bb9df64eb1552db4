/* policies/deque.h — a double-ended task queue with XKaapi's four operations:
 * the owner pushes its own activated tasks at the head and pops from the
 * head; other workers push at the tail (remote push into a mailbox) and
 * steal from the tail. Pops and steals take the first task, from their end,
 * that a predicate accepts (a task the worker's architecture can run). */
#ifndef HS_DEQUE_H
#define HS_DEQUE_H

#include "sim/sched.h" /* struct hs_task, as a policy sees it */

#include <stdbool.h>

struct hs_deque {
    struct hs_task **items;
    int head, len, cap;
    int narch[HS_NARCH]; /* tasks whose arch_mask admits each architecture */
};

typedef bool (*hs_task_pred)(const struct hs_task *t, void *ctx);

void hs_deque_init(struct hs_deque *q);
void hs_deque_free(struct hs_deque *q);
void hs_deque_push_head(struct hs_deque *q, struct hs_task *t);
void hs_deque_push_tail(struct hs_deque *q, struct hs_task *t);
/* First accepted task from the head (pop) or from the tail (steal); NULL if none. */
struct hs_task *hs_deque_pop_head(struct hs_deque *q, hs_task_pred ok, void *ctx);
struct hs_task *hs_deque_pop_tail(struct hs_deque *q, hs_task_pred ok, void *ctx);
/* Whether some task may run on arch (a scan for it could succeed): lets idle
 * workers skip, in O(1), queues full of tasks SetArch keeps from them. */
bool hs_deque_admits(const struct hs_deque *q, enum hs_arch arch);
/* i-th task from the head, NULL past the end. */
struct hs_task *hs_deque_at(const struct hs_deque *q, int i);

#endif
