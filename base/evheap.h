/* base/evheap.h — a binary min-heap of events keyed by (time, tag), for the
 * event loops that are not SimGrid's: the free-network model engine
 * (sim/engines/model) and Beaumont and Marchal's request-level model. The tag
 * breaks ties between simultaneous events: a sequence number gives them in
 * the order they were posted, a random one in random order. GSL has no
 * priority queue and igraph's heaps hold bare numbers, hence these few lines
 * (listsched.c keeps its own heap of list positions). */
#ifndef HS_EVHEAP_H
#define HS_EVHEAP_H

#include <stddef.h>
#include <stdint.h>

struct hs_event {
    double time;
    uint64_t tag;
    long id; /* what the event is about (a worker, a slot of pending callbacks...) */
};

struct hs_evheap {
    struct hs_event *ev;
    size_t n, cap;
};

void hs_evheap_push(struct hs_evheap *h, struct hs_event e);
/* The earliest event (the smallest tag among simultaneous ones); h->n > 0. */
struct hs_event hs_evheap_pop(struct hs_evheap *h);
void hs_evheap_free(struct hs_evheap *h);

#endif
