/* sim/engines/simgrid/memory_link.c — the memory bandwidth shared by the
 * cores of a socket, declared by the platform file (memory_link.h): read
 * and checked once the platform is loaded, and the bytes a kernel moves. */
#include "sim/engines/simgrid/memory_link.h"
#include "base/util.h"
#include "sim/engines/simgrid/platform_simgrid.h"

#include <math.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dynar.h>

#define PROP "memory_link"

/* The link of that name (SimGrid's by-name lookup aborts on an unknown one). */
static sg_link_t link_named(const char *name)
{
    size_t n = sg_link_count();
    sg_link_t *links = n ? sg_link_list() : NULL, found = NULL;
    for (size_t i = 0; i < n && !found; i++)
        if (strcmp(sg_link_get_name(links[i]), name) == 0)
            found = links[i];
    free(links);
    return found;
}

static bool route_crosses(sg_host_t s, sg_host_t d, sg_link_t link)
{
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_get_route(s, d, links);
    bool found = false;
    for (unsigned long i = 0; i < xbt_dynar_length(links) && !found; i++)
        found = xbt_dynar_get_as(links, i, sg_link_t) == link;
    xbt_dynar_free(&links);
    return found;
}

/* -1 with hs_fail if the host of a memory node (not a core) names a link. */
static int check_nodes(const char *pfname, const struct hs_platform *pf)
{
    for (int n = 0; n < pf->nnodes; n++) {
        sg_host_t h = sg_host_by_name(pf->nodes[n].host);
        const char *v = h ? sg_host_get_property_value(h, PROP) : NULL;
        if (v)
            return hs_fail("platform %s: host %s: property %s='%s' on the host of memory node %s: it belongs on the "
                           "CPU hosts whose kernels cross it (docs/platforms.md#shared-memory-bandwidth)",
                           pfname, pf->nodes[n].host, PROP, v, pf->nodes[n].name);
    }
    return 0;
}

/* The host at the end of worker w's memory route through the link its host
 * names (NULL: none named); -1 with hs_fail if malformed. */
static int worker_link(const char *pfname, const struct hs_platform *pf, void *route_ctx, int w, sg_host_t *dst)
{
    const struct hs_worker *wk = &pf->workers[w];
    *dst = NULL;
    sg_host_t h = sg_host_by_name(wk->host);
    const char *v = h ? sg_host_get_property_value(h, PROP) : NULL;
    if (!v)
        return 0;
    if (wk->arch != HS_ARCH_CPU)
        return hs_fail("platform %s: host %s: property %s='%s' on a %s: only the kernels of CPU hosts move their "
                       "bytes through a memory link (docs/platforms.md#shared-memory-bandwidth)",
                       pfname, wk->host, PROP, v, hs_arch_name(wk->arch));
    sg_link_t link = link_named(v);
    if (!link)
        return hs_fail("platform %s: host %s: property %s='%s' names no link of the file", pfname, wk->host, PROP, v);
    double bw = sg_link_get_bandwidth(link);
    if (!(bw > 0) || !isfinite(bw))
        return hs_fail("platform %s: link %s (memory_link of host %s): bandwidth %g B/s (it must be positive and "
                       "finite)", pfname, v, wk->host, bw);
    const char *mem = pf->nodes[wk->node].host;
    sg_host_t d = sg_host_by_name(mem);
    if (d == h)
        return hs_fail("platform %s: host %s: property %s='%s', but the host is also its memory node's: the "
                       "bytes cross the route from the core's host to host memory's, so give the cores hosts of "
                       "their own", pfname, wk->host, PROP, v);
    double lat, rbw;
    if (!hs_sg_route(route_ctx, wk->host, mem, &lat, &rbw) || !route_crosses(h, d, link))
        return hs_fail("platform %s: host %s: property %s='%s', but the route from %s to %s (its memory node) does "
                       "not cross link %s: add <route src=\"%s\" dst=\"%s\"><link_ctn id=\"%s\"/></route>",
                       pfname, wk->host, PROP, v, wk->host, mem, v, wk->host, mem, v);
    *dst = d;
    return 0;
}

int hs_sg_memory_links(const char *platform_name, const struct hs_platform *pf, void *route_ctx, sg_host_t **out)
{
    *out = NULL;
    if (check_nodes(platform_name, pf))
        return -1;
    sg_host_t *dst = hs_xcalloc((size_t)pf->nworkers + 1, sizeof *dst);
    bool any = false;
    for (int w = 0; w < pf->nworkers; w++) {
        if (worker_link(platform_name, pf, route_ctx, w, &dst[w])) {
            free(dst);
            return -1;
        }
        any |= dst[w] != NULL;
    }
    if (!any) {
        free(dst);
        return 0;
    }
    *out = dst;
    return 0;
}

double hs_sg_kernel_bytes(const struct hs_dag *dag, const struct hs_task *t)
{
    double bytes = 0;
    for (int a = 0; a < t->naccess; a++)
        bytes += dag->handles[t->access[a].handle].bytes * (t->access[a].mode == HS_MODE_RW ? 2 : 1);
    return bytes;
}
