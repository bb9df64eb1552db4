/* policies/taskq.c — ring-buffer task FIFO. */
#include "policies/taskq.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void hs_taskq_init(struct hs_taskq *q)
{
    memset(q, 0, sizeof *q);
}

void hs_taskq_free(struct hs_taskq *q)
{
    free(q->items);
    free(q->seq);
    memset(q, 0, sizeof *q);
}

static void grow(struct hs_taskq *q)
{
    int cap = q->cap ? q->cap * 2 : 16;
    struct hs_task **items = hs_xmalloc((size_t)cap * sizeof *items);
    unsigned long *seq = hs_xmalloc((size_t)cap * sizeof *seq);
    for (int i = 0; i < q->len; i++) {
        items[i] = q->items[(q->head + i) % q->cap];
        seq[i] = q->seq[(q->head + i) % q->cap];
    }
    free(q->items);
    free(q->seq);
    q->items = items;
    q->seq = seq;
    q->head = 0;
    q->cap = cap;
}

void hs_taskq_push(struct hs_taskq *q, struct hs_task *t, unsigned long seq)
{
    if (q->len == q->cap)
        grow(q);
    int slot = (q->head + q->len) % q->cap;
    q->items[slot] = t;
    q->seq[slot] = seq;
    q->len++;
}

struct hs_task *hs_taskq_at(const struct hs_taskq *q, int i)
{
    return i < q->len ? q->items[(q->head + i) % q->cap] : NULL;
}

unsigned long hs_taskq_seq_at(const struct hs_taskq *q, int i)
{
    return q->seq[(q->head + i) % q->cap];
}

struct hs_task *hs_taskq_take(struct hs_taskq *q, int i)
{
    struct hs_task *t = q->items[(q->head + i) % q->cap];
    /* shift the entries before i one step towards the tail (i is usually 0) */
    for (int j = i; j > 0; j--) {
        q->items[(q->head + j) % q->cap] = q->items[(q->head + j - 1) % q->cap];
        q->seq[(q->head + j) % q->cap] = q->seq[(q->head + j - 1) % q->cap];
    }
    q->head = (q->head + 1) % q->cap;
    q->len--;
    return t;
}
