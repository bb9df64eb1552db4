/* sim/routes.c — the routes between memory nodes, kept as they are asked.
 *
 * A run asks for the route between two memory nodes when a transfer or a
 * policy's estimate first needs it (hs_platform_link_time); the answer is
 * kept in an open-addressed hash table keyed by the pair (src * nnodes + dst,
 * plus one so that 0 marks an empty slot), probed linearly and doubled when
 * half full. A platform of 65,536 processors thus holds the routes its run
 * used, where a table of every pair would hold 4.3 billion. The table is
 * written here because none of the libraries sim/ links (GSL, igraph,
 * cJSON, librec) gives a map keyed by integers, and libxml2's xmlHashTable
 * (linked by the SimGrid engine, not by sim/) keys by strings: it would hash
 * two host names at every estimate of the policies' inner loops, where this
 * one multiplies once. No slot is held across the query or the growth: the
 * route is copied out by value. */
#include "sim/routes.h"
#include "base/util.h"

#include <stdlib.h>

/* Fibonacci hashing: the top bits of key times 2^64 / golden ratio. */
static size_t slot_of(uint64_t key, size_t cap)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t probe(const struct hs_routes *r, uint64_t key)
{
    size_t i = slot_of(key, r->cap);
    while (r->keys[i] && r->keys[i] != key)
        i = (i + 1) & (r->cap - 1);
    return i;
}

static void grow(struct hs_routes *r)
{
    size_t old = r->cap;
    uint64_t *keys = r->keys;
    struct hs_route *vals = r->vals;
    r->cap = old ? 2 * old : 64;
    r->keys = hs_xcalloc(r->cap, sizeof *r->keys);
    r->vals = hs_xmalloc(r->cap * sizeof *r->vals);
    for (size_t i = 0; i < old; i++)
        if (keys[i]) {
            size_t j = probe(r, keys[i]);
            r->keys[j] = keys[i];
            r->vals[j] = vals[i];
        }
    free(keys);
    free(vals);
}

struct hs_route hs_routes_get(struct hs_routes *r, int nnodes, int src, int dst, const char *src_host,
                              const char *dst_host)
{
    uint64_t key = (uint64_t)src * (uint64_t)nnodes + (uint64_t)dst + 1;
    if (r->cap) {
        size_t i = probe(r, key);
        if (r->keys[i])
            return r->vals[i];
    }
    struct hs_route route = {0, 0};
    if (r->ask) {
        r->asked++;
        if (!r->ask(r->ctx, src_host, dst_host, &route.lat, &route.bw) || !(route.bw > 0))
            route = (struct hs_route){0, 0};
    }
    if (2 * (r->used + 1) > r->cap)
        grow(r);
    size_t i = probe(r, key);
    r->keys[i] = key;
    r->vals[i] = route;
    r->used++;
    return route;
}

void hs_routes_free(struct hs_routes *r)
{
    free(r->keys);
    free(r->vals);
    *r = (struct hs_routes){0};
}
