/* sim/engines/real/topology.c — the machine's topology through hwloc (see
 * topology.h): one topology per process, loaded on first use with the PCI
 * devices hwloc deems important (GPUs among them), and only read after.
 * Of hwloc's plugins only the PCI one is of use here: unless the user
 * chose (HWLOC_PLUGINS_BLACKLIST set), the OpenGL, OpenCL and libxml2 ones
 * are not loaded. Each would dlopen libraries with thread-local storage of
 * their own for nothing (the OpenGL one opens the X display), and with all
 * four, LeakSanitizer's scan of a measured run's exit crashed on a stale
 * dynamic-TLS block (gcc 12's libsanitizer: "Tracer caught signal 11"). */
#include "sim/engines/real/topology.h"
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static hwloc_topology_t topology; /* NULL when hwloc could not read the machine */
static char load_error[128];

static void load(void)
{
    hwloc_topology_t t;
    setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_gl,hwloc_opencl,hwloc_xml_libxml", 0);
    if (hwloc_topology_init(&t)) {
        snprintf(load_error, sizeof load_error, "%s", strerror(errno));
        return;
    }
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(t)) {
        snprintf(load_error, sizeof load_error, "%s", strerror(errno));
        hwloc_topology_destroy(t);
        return;
    }
    topology = t;
}

static hwloc_topology_t loaded(void)
{
    pthread_once(&once, load);
    return topology;
}

hwloc_topology_t hs_topology_hwloc(void)
{
    if (!loaded())
        hs_fail("hwloc cannot read this machine's topology: %s", load_error);
    return topology;
}

static hwloc_bitmap_t bitmap(hwloc_bitmap_t b)
{
    if (!b)
        hs_die(1, "out of memory (an hwloc bitmap)");
    return b;
}

/* The PUs the calling thread may use: those hwloc allows this process that
 * its affinity holds (all that hwloc allows if it cannot be read); NULL if
 * none. */
static hwloc_bitmap_t usable(hwloc_topology_t topo)
{
    hwloc_bitmap_t set = bitmap(hwloc_bitmap_alloc()), bound = bitmap(hwloc_bitmap_alloc());
    hwloc_bitmap_and(set, hwloc_topology_get_allowed_cpuset(topo), hwloc_topology_get_topology_cpuset(topo));
    if (hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_THREAD) == 0 && !hwloc_bitmap_iszero(bound))
        hwloc_bitmap_and(set, set, bound);
    hwloc_bitmap_free(bound);
    if (hwloc_bitmap_iszero(set)) {
        hwloc_bitmap_free(set);
        return NULL;
    }
    return set;
}

/* Objects of a type that hold a PU of set. */
static int count(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_bitmap_t set)
{
    int n = 0;
    for (hwloc_obj_t o = NULL; (o = hwloc_get_next_obj_by_type(topo, type, o));)
        n += o->cpuset && hwloc_bitmap_intersects(o->cpuset, set);
    return n;
}

int hs_topology_cores(hwloc_bitmap_t **sets)
{
    *sets = NULL;
    hwloc_topology_t topo = loaded();
    hwloc_bitmap_t use = topo ? usable(topo) : NULL;
    if (!use)
        return 0;
    hwloc_obj_type_t type = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    int n = 0, total = hwloc_get_nbobjs_by_type(topo, type);
    hwloc_bitmap_t *out = hs_xcalloc((size_t)(total > 0 ? total : 1), sizeof *out);
    for (hwloc_obj_t o = NULL; n < total && (o = hwloc_get_next_obj_by_type(topo, type, o));)
        if (o->cpuset && hwloc_bitmap_intersects(o->cpuset, use)) {
            out[n] = bitmap(hwloc_bitmap_alloc());
            hwloc_bitmap_and(out[n++], o->cpuset, use);
        }
    hwloc_bitmap_free(use);
    if (n == 0) {
        free(out);
        return 0;
    }
    *sets = out;
    return n;
}

/* hwloc's "CPUModel" of the first package holding a PU of set (or of the
 * machine, where hwloc puts it on some processors), without the blanks
 * around it, in out; out unchanged if there is none. */
static void cpu_model(hwloc_topology_t topo, hwloc_const_bitmap_t set, char *out, size_t size)
{
    const char *model = NULL;
    for (hwloc_obj_t p = NULL; !model && (p = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_PACKAGE, p));)
        if (p->cpuset && hwloc_bitmap_intersects(p->cpuset, set))
            model = hwloc_obj_get_info_by_name(p, "CPUModel");
    if (!model)
        model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "CPUModel");
    while (model && isspace((unsigned char)*model))
        model++;
    size_t len = model ? strlen(model) : 0;
    while (len > 0 && isspace((unsigned char)model[len - 1]))
        len--;
    if (len > 0)
        snprintf(out, size, "%.*s", (int)len, model);
}

int hs_topology_describe(struct hs_topology *t)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int cpus = online > 0 ? (int)online : 1;
    *t = (struct hs_topology){.packages = 1, .numa_nodes = 1, .cores = cpus, .pus = cpus};
    snprintf(t->cpu_model, sizeof t->cpu_model, "%s", HS_TOPOLOGY_PLAIN_MODEL);
    hwloc_topology_t topo = hs_topology_hwloc();
    if (!topo)
        return -1;
    hwloc_bitmap_t use = usable(topo);
    if (!use)
        return hs_fail("hwloc sees no processing unit that this thread may use");
    hwloc_bitmap_t *cores;
    t->cores = hs_topology_cores(&cores);
    for (int i = 0; i < t->cores; i++)
        hwloc_bitmap_free(cores[i]);
    free(cores);
    t->pus = hwloc_bitmap_weight(use);
    int packages = count(topo, HWLOC_OBJ_PACKAGE, use), nodes = count(topo, HWLOC_OBJ_NUMANODE, use);
    t->packages = packages > 0 ? packages : 1;
    t->numa_nodes = nodes > 0 ? nodes : 1;
    for (int type = HWLOC_OBJ_TYPE_MIN; type < HWLOC_OBJ_TYPE_MAX; type++) {
        if (!hwloc_obj_type_is_cache((hwloc_obj_type_t)type))
            continue;
        for (hwloc_obj_t o = NULL; (o = hwloc_get_next_obj_by_type(topo, (hwloc_obj_type_t)type, o));)
            if (o->cpuset && hwloc_bitmap_intersects(o->cpuset, use) && o->attr->cache.size > t->largest_cache_bytes)
                t->largest_cache_bytes = (size_t)o->attr->cache.size;
    }
    cpu_model(topo, use, t->cpu_model, sizeof t->cpu_model);
    hwloc_bitmap_free(use);
    return 0;
}

int hs_topology_gpu_numa_node(const char *pci_bus_id)
{
    hwloc_topology_t topo = loaded();
    hwloc_obj_t dev = topo && pci_bus_id ? hwloc_get_pcidev_by_busidstring(topo, pci_bus_id) : NULL;
    hwloc_obj_t near = dev ? hwloc_get_non_io_ancestor_obj(topo, dev) : NULL;
    if (!near || !near->nodeset || hwloc_bitmap_weight(near->nodeset) != 1)
        return -1;
    return hwloc_bitmap_first(near->nodeset);
}

hwloc_bitmap_t hs_topology_numa_cpuset(int numa_node)
{
    hwloc_topology_t topo = loaded();
    hwloc_obj_t node = topo && numa_node >= 0 ? hwloc_get_numanode_obj_by_os_index(topo, (unsigned)numa_node) : NULL;
    hwloc_bitmap_t set = node && node->cpuset ? usable(topo) : NULL;
    if (!set)
        return NULL;
    hwloc_bitmap_and(set, set, node->cpuset);
    if (hwloc_bitmap_iszero(set)) {
        hwloc_bitmap_free(set);
        return NULL;
    }
    return set;
}
