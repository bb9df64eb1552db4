/* base/evheap.c — the min-heap of events of evheap.h. */
#include "base/evheap.h"
#include "base/util.h"

#include <stdbool.h>
#include <stdlib.h>

static bool earlier(const struct hs_event *a, const struct hs_event *b)
{
    return a->time < b->time || (a->time == b->time && a->tag < b->tag);
}

void hs_evheap_push(struct hs_evheap *h, struct hs_event e)
{
    HS_GROW(h->ev, h->cap, h->n + 1);
    size_t i = h->n++;
    while (i > 0 && earlier(&e, &h->ev[(i - 1) / 2])) {
        h->ev[i] = h->ev[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->ev[i] = e;
}

struct hs_event hs_evheap_pop(struct hs_evheap *h)
{
    struct hs_event top = h->ev[0], last = h->ev[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && earlier(&h->ev[c + 1], &h->ev[c]))
            c++;
        if (!earlier(&h->ev[c], &last))
            break;
        h->ev[i] = h->ev[c];
        i = c;
    }
    h->ev[i] = last;
    return top;
}

void hs_evheap_free(struct hs_evheap *h)
{
    free(h->ev);
    h->ev = NULL;
    h->n = h->cap = 0;
}
