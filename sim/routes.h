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

/* The route from memory node src to dst (their hosts src_host, dst_host)
 * among nnodes: the kept one, else asked now and kept. */
struct hs_route hs_routes_get(struct hs_routes *r, int nnodes, int src, int dst, const char *src_host,
                              const char *dst_host);
void hs_routes_free(struct hs_routes *r);

#endif
