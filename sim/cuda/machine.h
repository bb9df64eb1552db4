/* sim/cuda/machine.h — the description of a real GPU machine that
 * `hetsim calibrate` writes beside the SimGrid platform it makes
 * (NAME.machine.json next to NAME.xml): cores, GPUs with their memory and
 * measured host links. A real run builds its runtime platform from it, so
 * that policies see the same estimates as in the simulation of that machine.
 *
 *   { "name": "h100", "gpu_model": "...", "cores": 16, "core_speed": f,
 *     "gpus": [ { "memsize": b, "speed": f,
 *                 "h2d": {"bandwidth": B/s, "latency": s},
 *                 "d2h": {"bandwidth": B/s, "latency": s} } ] } */
#ifndef HS_CUDA_MACHINE_H
#define HS_CUDA_MACHINE_H

#include "sim/platform.h"

struct hs_link_fit {
    double bandwidth, latency;
};

struct hs_machine_gpu {
    double memsize, speed;
    struct hs_link_fit h2d, d2h;
};

struct hs_machine {
    char *name, *gpu_model;
    int cores, ngpus;
    double core_speed;
    struct hs_machine_gpu *gpus;
};

int hs_machine_load(const char *path, struct hs_machine *m);
int hs_machine_save(const char *path, const struct hs_machine *m);
void hs_machine_free(struct hs_machine *m);

/* The machine's hosts (CPU0.., GPU0.., RAM0) and a route function over its
 * links, for hs_platform_build. */
void hs_machine_inventory(const struct hs_machine *m, struct hs_inventory *inv);
bool hs_machine_route(void *machine, const char *src, const char *dst, double *lat, double *bw);

/* The SimGrid platform that simulates this machine (CM02, one link per GPU
 * and direction with the measured figures). */
int hs_machine_write_platform(const struct hs_machine *m, const char *path);

/* NAME.xml -> NAME.machine.json (caller frees). */
char *hs_machine_path(const char *platform_file);

#endif
