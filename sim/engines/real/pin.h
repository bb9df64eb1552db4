/* sim/engines/real/pin.h — pinning threads to cores, so that a CPU worker of a
 * measured run (or of a calibration) is one core, as in the model, and a
 * run does not depend on where the operating system moves its threads.
 *
 * A core is a physical core (topology.h): on a machine with hyperthreads
 * (SMT), index i is the i-th physical core the process may use, and a
 * thread pinned there runs on that core's first usable PU, so that two
 * indices never put two threads on hyperthreads of one core. */
#ifndef HS_REAL_PIN_H
#define HS_REAL_PIN_H

#include <pthread.h>

struct hs_cores;

/* The physical cores the calling thread may use now (hwloc's allowed
 * cpuset and its affinity), in hwloc's order; NULL if they cannot be read
 * (then the pinning calls below do nothing). */
struct hs_cores *hs_cores_get(void);
/* Pin th to the index-th of those cores (modulo their number). */
void hs_cores_pin(const struct hs_cores *cores, pthread_t th, int index);
/* Pin th to the first of those cores on NUMA node numa_node (its OS index,
 * as hs_topology_gpu_numa_node gives for a GPU), and make that core index 0,
 * the others following in their order, so that threads then pinned to 1, 2,
 * … never share it. Without such a core (numa_node < 0: not known, or none
 * of the cores is on that node), th goes to index 0 as hs_cores_pin puts it. */
void hs_cores_pin_near(struct hs_cores *cores, pthread_t th, int numa_node);
/* Give th every one of those cores back. */
void hs_cores_unpin(const struct hs_cores *cores, pthread_t th);
void hs_cores_free(struct hs_cores *cores);

#endif
