/* sim/routes.c — the routes between memory nodes, kept as they are asked.
 *
 * A run asks for the route between two memory nodes when a transfer or a
 * policy's estimate first needs it (hs_platform_link_time); the answer is
 * kept in an open-addressed hash table keyed by the pair (src * nnodes + dst,
 * plus one so that 0 marks an empty slot), probed linearly (in sim/routes.h,
 * inline for the look-ups that find the route) and doubled when half full. A
 * platform of 65,536 processors thus holds the routes its run used, where a
 * table of every pair would hold 4.3 billion. The table is
 * written here because none of the libraries sim/ links (GSL, igraph,
 * cJSON, librec) gives a map keyed by integers, and libxml2's xmlHashTable
 * (linked by the SimGrid engine, not by sim/) keys by strings: it would hash
 * two host names at every estimate of the policies' inner loops, where this
 * one multiplies once. No slot is held across the query or the growth: the
 * route is copied out by value. */
#include "sim/routes.h"
#include "base/util.h"

#include <stdlib.h>

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
            size_t j = hs_routes_probe(r, keys[i]);
            r->keys[j] = keys[i];
            r->vals[j] = vals[i];
        }
    free(keys);
    free(vals);
}

struct hs_route hs_routes_ask(struct hs_routes *r, uint64_t key, const char *src_host, const char *dst_host)
{
    struct hs_route route = {0, 0};
    if (r->ask) {
        r->asked++;
        if (!r->ask(r->ctx, src_host, dst_host, &route.lat, &route.bw) || !(route.bw > 0))
            route = (struct hs_route){0, 0};
    }
    if (2 * (r->used + 1) > r->cap)
        grow(r);
    size_t i = hs_routes_probe(r, key);
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
