/* policies/deque.c — ring-buffer double-ended task queue. */
#include "policies/deque.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void hs_deque_init(struct hs_deque *q)
{
    memset(q, 0, sizeof *q);
}

void hs_deque_free(struct hs_deque *q)
{
    free(q->items);
    memset(q, 0, sizeof *q);
}

static void grow(struct hs_deque *q)
{
    if (q->len < q->cap)
        return;
    int cap = q->cap ? 2 * q->cap : 16;
    struct hs_task **items = hs_xmalloc((size_t)cap * sizeof *items);
    for (int i = 0; i < q->len; i++)
        items[i] = q->items[(q->head + i) % q->cap];
    free(q->items);
    q->items = items;
    q->head = 0;
    q->cap = cap;
}

static void count(struct hs_deque *q, const struct hs_task *t, int delta)
{
    for (int a = 0; a < HS_NARCH; a++)
        if (t->arch_mask & HS_ARCH_BIT(a))
            q->narch[a] += delta;
}

bool hs_deque_admits(const struct hs_deque *q, enum hs_arch arch)
{
    return q->narch[arch] > 0;
}

void hs_deque_push_head(struct hs_deque *q, struct hs_task *t)
{
    grow(q);
    count(q, t, 1);
    q->head = (q->head + q->cap - 1) % q->cap;
    q->items[q->head] = t;
    q->len++;
}

void hs_deque_push_tail(struct hs_deque *q, struct hs_task *t)
{
    grow(q);
    count(q, t, 1);
    q->items[(q->head + q->len) % q->cap] = t;
    q->len++;
}

struct hs_task *hs_deque_at(const struct hs_deque *q, int i)
{
    return i >= 0 && i < q->len ? q->items[(q->head + i) % q->cap] : NULL;
}

/* Remove the i-th task, closing the gap towards the nearer end. */
static struct hs_task *take(struct hs_deque *q, int i)
{
    struct hs_task *t = q->items[(q->head + i) % q->cap];
    if (i < q->len / 2) {
        for (int j = i; j > 0; j--)
            q->items[(q->head + j) % q->cap] = q->items[(q->head + j - 1) % q->cap];
        q->head = (q->head + 1) % q->cap;
    } else {
        for (int j = i; j < q->len - 1; j++)
            q->items[(q->head + j) % q->cap] = q->items[(q->head + j + 1) % q->cap];
    }
    q->len--;
    count(q, t, -1);
    return t;
}

struct hs_task *hs_deque_pop_head(struct hs_deque *q, hs_task_pred ok, void *ctx)
{
    for (int i = 0; i < q->len; i++)
        if (!ok || ok(hs_deque_at(q, i), ctx))
            return take(q, i);
    return NULL;
}

struct hs_task *hs_deque_pop_tail(struct hs_deque *q, hs_task_pred ok, void *ctx)
{
    for (int i = q->len - 1; i >= 0; i--)
        if (!ok || ok(hs_deque_at(q, i), ctx))
            return take(q, i);
    return NULL;
}
