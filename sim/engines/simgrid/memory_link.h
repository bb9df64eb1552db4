/* sim/engines/simgrid/memory_link.h — a shared resource a platform file
 * declares: the memory bandwidth the cores of one socket (or NUMA node)
 * share. A CPU host names a SimGrid link in its property memory_link; the
 * route from that host to the host of its worker's memory node must cross
 * it. The SimGrid engine then runs each kernel on that host as its duration
 * and, started with it, a transfer of the bytes the kernel moves over that
 * route (hs_sg_kernel_bytes): the kernel ends when both have, so the cores
 * naming one link share its bandwidth under SimGrid's max-min sharing.
 * Platforms that name no link run as before (docs/platforms.md). */
#ifndef HS_MEMORY_LINK_H
#define HS_MEMORY_LINK_H

#include "sim/dag.h"
#include "sim/platform.h"

#include <simgrid/forward.h>

/* Per worker of pf, the host at the end of its memory route, or NULL where
 * its host names no memory_link; *out is NULL when no worker has one (the
 * caller frees it). -1 with hs_fail naming the host, link or route when a
 * declaration is malformed: a memory_link on a host that is not a CPU, a
 * link the file does not declare, a bandwidth not positive and finite, a
 * core on its memory node's own host, a route from the core to its memory
 * node's host that does not cross the link. The platform must be loaded;
 * routes are asked through hs_sg_route(route_ctx, …), so that after
 * hs_sg_route_run(route_ctx) a missing one is one line, not SimGrid's abort. */
int hs_sg_memory_links(const char *platform_name, const struct hs_platform *pf, void *route_ctx, sg_host_t **out);

/* The bytes task t moves through memory, its compulsory traffic: each
 * access of a handle moves the handle's bytes once (read or written), a
 * read-write access twice (read, then written back). A lower bound for a
 * tile kernel whose tiles fit its caches (each tile crosses once). */
double hs_sg_kernel_bytes(const struct hs_dag *dag, const struct hs_task *t);

#endif
