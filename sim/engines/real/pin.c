/* sim/engines/real/pin.c — pinning threads to cores (see pin.h), with hwloc:
 * the cores are topology.c's, each kept as the set of its usable PUs. */
#include "sim/engines/real/pin.h"
#include "base/util.h"
#include "sim/engines/real/topology.h"

#include <stdlib.h>

struct hs_cores {
    hwloc_topology_t topo;
    int n;
    hwloc_bitmap_t *core; /* per core, in pinning order: its usable PUs */
    hwloc_bitmap_t all;   /* all of them: what unpinning gives back */
};

struct hs_cores *hs_cores_get(void)
{
    hwloc_bitmap_t *sets = NULL;
    int n = hs_topology_cores(&sets); /* 0 if hwloc cannot read the machine */
    hwloc_bitmap_t all = n ? hwloc_bitmap_alloc() : NULL;
    if (!all) {
        for (int i = 0; i < n; i++)
            hwloc_bitmap_free(sets[i]);
        free(sets);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        hwloc_bitmap_or(all, all, sets[i]);
    struct hs_cores *c = hs_xmalloc(sizeof *c);
    *c = (struct hs_cores){hs_topology_hwloc(), n, sets, all};
    return c;
}

void hs_cores_pin(const struct hs_cores *cores, pthread_t th, int index)
{
    if (!cores)
        return;
    index %= cores->n;
    hwloc_bitmap_t one = hwloc_bitmap_alloc();
    if (!one)
        return;
    hwloc_bitmap_only(one, (unsigned)hwloc_bitmap_first(cores->core[index < 0 ? index + cores->n : index]));
    hwloc_set_thread_cpubind(cores->topo, th, one, 0);
    hwloc_bitmap_free(one);
}

void hs_cores_pin_near(struct hs_cores *cores, pthread_t th, int numa_node)
{
    if (!cores)
        return;
    hwloc_bitmap_t near = hs_topology_numa_cpuset(numa_node);
    for (int i = 0; near && i < cores->n; i++)
        if (hwloc_bitmap_intersects(cores->core[i], near)) {
            hwloc_bitmap_t lead = cores->core[i];
            for (int j = i; j > 0; j--)
                cores->core[j] = cores->core[j - 1];
            cores->core[0] = lead;
            break;
        }
    hwloc_bitmap_free(near);
    hs_cores_pin(cores, th, 0);
}

void hs_cores_unpin(const struct hs_cores *cores, pthread_t th)
{
    if (cores)
        hwloc_set_thread_cpubind(cores->topo, th, cores->all, 0);
}

void hs_cores_free(struct hs_cores *cores)
{
    if (!cores)
        return;
    for (int i = 0; i < cores->n; i++)
        hwloc_bitmap_free(cores->core[i]);
    free(cores->core);
    hwloc_bitmap_free(cores->all);
    free(cores);
}
