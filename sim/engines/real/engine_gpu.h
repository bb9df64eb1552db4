/* sim/engines/real/engine_gpu.h — the GPUs of the real engine (engine_real.c),
 * built with CUDA only: for each GPU memory node of the platform, a device, three CUDA
 * streams (host-to-device copies, kernels, device-to-host copies) whose
 * operations are followed with CUDA events, cuBLAS/cuSOLVER handles, and a
 * device copy of every datum. Operations complete in each stream's FIFO
 * order; hs_real_gpus_drain hands them back to the calling thread. */
#ifndef HS_REAL_ENGINE_GPU_H
#define HS_REAL_ENGINE_GPU_H

#include "sim/engine.h"
#include "sim/platform.h"
#include "sim/engines/real/numeric.h"

#include <stdbool.h>

/* A completion to hand back: cb(ctx, id). */
struct hs_real_cb {
    hs_engine_cb cb;
    void *ctx;
    long id;
};

struct hs_real_gpus;

/* GPUs visible here (0 if CUDA sees none). */
int hs_real_gpus_visible(void);
/* GPU `device`'s PCI bus id ("0000:65:00.0") in id: 0, or -1 if CUDA cannot
 * tell (where it sits: topology.h). */
int hs_real_gpus_pci_bus_id(int device, char *id, int size);

/* Refuse data that do not fit on every GPU memory node of pf, with room for
 * the libraries' workspaces: -1 with hs_fail. */
int hs_real_gpus_check_memory(const struct hs_platform *pf, const struct hs_dag *dag);

/* Pinned host buffers of every datum, zeroed (NULL with hs_fail), and their
 * release. */
void **hs_real_gpus_host_alloc(const struct hs_dag *dag);
void hs_real_gpus_host_free(const struct hs_dag *dag, void **host);

/* Set up the GPU memory nodes of pf (devices 0, 1, … in node order), warm
 * their kernels up; NULL with hs_fail. host[h] is datum h's host buffer. */
struct hs_real_gpus *hs_real_gpus_new(const struct hs_platform *pf, const struct hs_dag *dag,
                                      const struct hs_numeric *num, void **host);
/* Task `task` on the GPU of memory node `node`: its real kernel, or a spin
 * of `seconds` for tasks without one. */
void hs_real_gpus_exec(struct hs_real_gpus *g, int node, int task, double seconds, struct hs_real_cb done);
/* A task without a real kernel on that GPU: a spin of `seconds` (what exec
 * runs for one; the calibration times an empty task with it). */
void hs_real_gpus_spin(struct hs_real_gpus *g, int node, double seconds, struct hs_real_cb done);
/* Datum `handle` from memory node src to dst (one of them a GPU). */
void hs_real_gpus_transfer(struct hs_real_gpus *g, int handle, int src, int dst, double bytes,
                           struct hs_real_cb done);
/* Call back every completed operation; *pending: some are still in flight.
 * Returns how many completed. */
int hs_real_gpus_drain(struct hs_real_gpus *g, bool *pending);
/* The first CUDA error met, or NULL. */
const char *hs_real_gpus_error(const struct hs_real_gpus *g);
void hs_real_gpus_free(struct hs_real_gpus *g);

#endif
