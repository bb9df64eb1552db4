/* sim/engines/real/machine.h — the description of a real machine that `hetsim
 * calibrate` writes beside the SimGrid platform it makes (NAME.machine.json
 * next to NAME.xml): cores, GPUs (none on a machine calibrated without one)
 * with their memory and measured host links, and what the real engine adds
 * to each task. A real run builds its runtime platform from it, so that
 * policies see the same estimates as in the simulation of that machine.
 *
 *   { "name": "h100", "gpu_model": "...", "cores": 16, "core_speed": f,
 *     "gpus": [ { "memsize": b, "speed": f,
 *                 "h2d": {"bandwidth": B/s, "latency": s},
 *                 "d2h": {"bandwidth": B/s, "latency": s},
 *                 "pci_bus_id": "0000:65:00.0", "numa_node": 0 } ],
 *                                           (both optional; hwloc's, topology.h)
 *     "task_overhead": {"cpu": s, "gpu": s},      (optional; measured)
 *     "topology": {"packages": 1, "numa_nodes": 1, "cores": 16, "pus": 32,
 *                  "largest_cache_bytes": b, "cpu_model": "..."},
 *                                           (optional; hwloc's, topology.h)
 *     "blas": "OpenBLAS 0.3.21 ... Haswell ..." }
 *                                           (optional; blas_core.h)
 *
 * "cores" is how many CPU hosts the platform has; the topology's "cores"
 * is how many physical cores the calibrating process could use. A measured
 * run refuses a file whose topology is not this machine's
 * (hs_machine_check_topology). */
#ifndef HS_REAL_MACHINE_H
#define HS_REAL_MACHINE_H

#include "sim/engines/real/topology.h"
#include "sim/platform.h"

#include <cjson/cJSON.h>

struct hs_link_fit {
    double bandwidth, latency;
};

struct hs_machine_gpu {
    double memsize, speed;
    struct hs_link_fit h2d, d2h;
};

/* Where a GPU sits: its PCI bus id, "" when not recorded; then its NUMA
 * node (OS index), -1 when hwloc does not know it (read only beside a PCI
 * bus id). */
struct hs_machine_place {
    char pci_bus_id[32];
    int numa_node;
};

struct hs_machine {
    char *name, *gpu_model;
    int cores, ngpus;
    double core_speed;
    struct hs_machine_gpu *gpus;
    struct hs_machine_place *places; /* per GPU; NULL: none recorded */
    /* What the real engine and the runtime add to each task on a core and
     * on a GPU (measured by calibrate; included in the timing table's
     * entries); NAN when not measured. */
    double task_overhead[HS_NARCH];
    /* The machine calibrate ran on (topology.h); cores == 0: not recorded
     * (a file written before it was, or a description made by hand). */
    struct hs_topology topology;
    /* The OpenBLAS the kernels were timed with (blas_core.h); "": not
     * recorded. */
    char blas[256];
    char *file; /* the file hs_machine_load read it from (NULL otherwise) */
};

int hs_machine_load(const char *path, struct hs_machine *m);
int hs_machine_save(const char *path, const struct hs_machine *m);
void hs_machine_free(struct hs_machine *m);

/* A measured run's check that m describes this machine: -1 with hs_fail
 * (one line naming m's file, the field and both values) when its topology
 * declares more physical cores than this process may use here, or another
 * processor model; 0 when it matches, or when m records no topology or
 * hwloc cannot read this machine's. */
int hs_machine_check_topology(const struct hs_machine *m);

/* The machine's hosts (CPU0.., GPU0.., RAM0) and a route function over its
 * links, for hs_platform_build. */
void hs_machine_inventory(const struct hs_machine *m, struct hs_inventory *inv);
bool hs_machine_route(void *machine, const char *src, const char *dst, double *lat, double *bw);

/* The SimGrid platform that simulates this machine (CM02, one link per GPU
 * and direction with the measured figures; no runtime costs (runtime/task_cpu
 * and the like, sim/costs.h), as its comment says: what the engine adds per
 * task is in the timing table). */
int hs_machine_write_platform(const struct hs_machine *m, const char *path);

/* Write root (then deleted) to path, as calibrate writes its JSON files:
 * -1 with hs_fail if it cannot. */
int hs_machine_write_json(const char *path, cJSON *root);

/* NAME.xml -> NAME.machine.json (caller frees). */
char *hs_machine_path(const char *platform_file);

#endif
