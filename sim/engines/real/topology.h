/* sim/engines/real/topology.h — the machine's topology, read through hwloc:
 * the packages, NUMA nodes, physical cores and processing units (PUs,
 * hyperthreads) this process may use, the largest cache, the processor's
 * model name, and where a GPU sits (the NUMA node of its PCI device). What
 * `hetsim calibrate` records of the machine (NAME.machine.json's
 * "topology", machine.h), what a measured run compares with the machine it
 * runs on, and what pinning (pin.c) places threads on.
 *
 * "May use": hwloc's allowed cpuset (the cgroup's cpuset) and the calling
 * thread's affinity (taskset; a thread inherits its creator's), so that a
 * process confined to some cores sees only those. hwloc reads the machine
 * once per process (with its PCI devices: tens of milliseconds); every call
 * after the first only looks at what it read. */
#ifndef HS_REAL_TOPOLOGY_H
#define HS_REAL_TOPOLOGY_H

#include <hwloc.h>
#include <stddef.h>

/* The processor's model name when hwloc has none (and the package-less
 * machine's, e.g. some virtual machines). */
#define HS_TOPOLOGY_PLAIN_MODEL "this machine's cores"

struct hs_topology {
    int packages, numa_nodes; /* those holding a usable PU */
    int cores, pus;           /* physical cores holding a usable PU; usable PUs */
    size_t largest_cache_bytes; /* the largest cache over the usable PUs; 0 if none is described */
    char cpu_model[128];      /* hwloc's "CPUModel" of the first usable package, else the plain word */
};

/* This machine's topology as this process may use it. Returns 0 when hwloc
 * read it; -1 with hs_fail when hwloc cannot, t then holding what the
 * operating system says without it (the online processors as cores and
 * PUs, one package and NUMA node, no cache, the plain model word). */
int hs_topology_describe(struct hs_topology *t);

/* The NUMA node (its OS index, as Linux numbers it) of the GPU whose PCI bus
 * id is pci_bus_id ("DDDD:BB:DD.F" or "DDDDDDDD:BB:DD.F", as CUDA's
 * cudaDeviceGetPCIBusId writes it): the single node of the nearest object
 * with memory above its PCI device. -1 when it is not known: no such PCI
 * device, a machine whose hwloc does not see PCI, or a device attached above
 * several nodes. */
int hs_topology_gpu_numa_node(const char *pci_bus_id);

/* The PUs of NUMA node numa_node (OS index) that the calling thread may use
 * (caller frees with hwloc_bitmap_free); NULL if there is no such node or
 * none of its PUs is usable. */
hwloc_bitmap_t hs_topology_numa_cpuset(int numa_node);

/* For the pinning (pin.c): the process's hwloc topology (loaded once, then
 * only read: safe from any thread), NULL with hs_fail if hwloc cannot load
 * it; and the physical cores the calling thread may use, in hwloc's order
 * (a package's cores together), each as the set of its usable PUs (a
 * machine whose hwloc shows no cores: each PU a core). Returns how many
 * cores, with *sets an array of them (caller frees each with
 * hwloc_bitmap_free, then the array); 0 and NULL if there is none or hwloc
 * cannot read the machine. */
hwloc_topology_t hs_topology_hwloc(void);
int hs_topology_cores(hwloc_bitmap_t **sets);

#endif
