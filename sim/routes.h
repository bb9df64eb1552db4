/* sim/routes.h — the routes between memory nodes, asked on first use: the
 * latency and bottleneck bandwidth of the route between two memory nodes
 * are asked of the platform (SimGrid, or the real engine's machine) the
 * first time a transfer or a policy's estimate needs them, and kept. A
 * platform of n processors asks for the routes its run uses, not n². */
#ifndef HS_ROUTES_H
#define HS_ROUTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Route query: fills latency (s) and bandwidth (B/s) of the route between
 * two hosts; returns false if there is none. */
typedef bool (*hs_route_fn)(void *ctx, const char *src, const char *dst, double *lat, double *bw);

struct hs_route {
    double lat, bw; /* bw 0: no direct route */
};

struct hs_routes {
    hs_route_fn ask; /* NULL: every route not kept is missing */
    void *ctx;
    uint64_t *keys;  /* src * nnodes + dst + 1 of each slot; 0: empty */
    struct hs_route *vals;
    size_t cap, used; /* slots (a power of two) and slots taken */
    long asked;       /* queries made through ask */
};

/* The slot holding key (src * nnodes + dst + 1), or the empty slot where it
 * would go: Fibonacci hashing (the top bits of key times 2^64 / golden ratio),
 * then linear probing. Inline, as policies ask for routes in their inner loops. */
static inline size_t hs_routes_probe(const struct hs_routes *r, uint64_t key)
{
    size_t i = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (r->cap - 1);
    while (r->keys[i] && r->keys[i] != key)
        i = (i + 1) & (r->cap - 1);
    return i;
}

/* Ask for the route of key (not kept yet) and keep it. */
struct hs_route hs_routes_ask(struct hs_routes *r, uint64_t key, const char *src_host, const char *dst_host);

/* The route from memory node src to dst (their hosts src_host, dst_host)
 * among nnodes: the kept one, else asked now and kept. */
static inline struct hs_route hs_routes_get(struct hs_routes *r, int nnodes, int src, int dst,
                                            const char *src_host, const char *dst_host)
{
    uint64_t key = (uint64_t)src * (uint64_t)nnodes + (uint64_t)dst + 1;
    if (r->cap) {
        size_t i = hs_routes_probe(r, key);
        if (r->keys[i])
            return r->vals[i];
    }
    return hs_routes_ask(r, key, src_host, dst_host);
}
void hs_routes_free(struct hs_routes *r);

#endif
