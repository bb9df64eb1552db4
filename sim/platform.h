/* sim/platform.h — the runtime's view of a machine: memory nodes (host memory,
 * one per GPU, one per processor of a flat platform), workers (a CPU core on
 * host memory, a GPU with its driving core, a flat processor with its own
 * memory) and, per pair of memory nodes, the latency and bottleneck bandwidth
 * of the route that transfers and estimates use (asked on first use:
 * sim/routes.h). It is built from an inventory of hosts (read from a SimGrid
 * platform by platform_simgrid.c) and the user's worker selection (--gpus,
 * --cpus, --gpu-order). */
#ifndef HS_PLATFORM_H
#define HS_PLATFORM_H

#include "sim/dag.h"
#include "sim/routes.h"
#include <stdbool.h>

/* ---- inventory: what the platform file declares -------------------------- */

/* IGNORED: a host hetsim does not model (StarPU's disks and main-thread
 * host, OpenCL views of CUDA devices), kept to be listed. */
enum hs_host_kind { HS_HOST_CPU, HS_HOST_GPU, HS_HOST_RAM, HS_HOST_PROC, HS_HOST_IGNORED };

struct hs_inv_host {
    char *name;
    enum hs_host_kind kind;
    double speed;   /* flop/s */
    double memsize; /* GPU memory in bytes, 0 if unknown */
    int sw;         /* PCIe switch of a GPU, -1 if unknown */
    int socket;     /* socket of a core, IOH of a GPU, NUMA node of a RAM; -1 */
    int copy_engines; /* DMA engines of a GPU: 2 (one each way, default) or 1 */
    int cores;        /* a CPU host's cores (SimGrid's core="N"): one CPU worker each; 1 otherwise */
    bool by_default;  /* a CPU host because nothing (map, kind property, name) said otherwise */
};

struct hs_inventory {
    int n;
    struct hs_inv_host *hosts;
};

void hs_inventory_free(struct hs_inventory *inv);

/* A host's property by key, or NULL (inventory.c reads hosts through it). */
typedef const char *(*hs_prop_fn)(const void *host, const char *key);
struct hs_hostmap; /* sim/hostmap.h */
/* What telling a platform's hosts apart needs besides each host: the
 * platform's name (for messages), the property getter, the host map (NULL:
 * none, it decides first) and what the names of all the hosts say about
 * StarPU's conventions (hs_inv_ctx_note each name first). */
struct hs_inv_ctx {
    const char *pfname;
    hs_prop_fn prop;
    const struct hs_hostmap *map;
    bool has_ram;  /* a host RAM*: StarPU's MAIN is then its main thread, not memory */
    bool has_cuda; /* hosts CUDA* or GPU*: OpenCL* hosts are the same devices again */
};
void hs_inv_ctx_note(struct hs_inv_ctx *c, const char *name);
/* Fill h (its name copied) from a host's name, speed and properties: its
 * kind, then the properties checked; -1 with hs_fail naming the host, the
 * property and the value (h->name is set either way: free it). */
int hs_inv_host_read(struct hs_inv_host *h, const struct hs_inv_ctx *c, const char *name,
                     double speed, const void *host);
/* Why a host of kind IGNORED is ignored, for `hetsim platform`. */
const char *hs_inv_ignored_why(const char *name);
/* Hosts by kind, then natural name ("GPU2" before "GPU10"). */
void hs_inventory_sort(struct hs_inventory *inv);
/* The host whose SimGrid host is host memory's endpoint (node 0, the end of
 * every host<->GPU transfer): the RAM host of NUMA node 0, else the first RAM
 * host, else, in a platform without one, the first CPU host of the (sorted)
 * inventory, which keeps computing; -1 when there is neither. */
int hs_inventory_endpoint(const struct hs_inventory *inv);

/* ---- selection ------------------------------------------------------------ */

/* first: GPU0, GPU1, …; spread: one GPU per PCIe switch first; script: the
 * GPU sets of the 2013 Idgraf script of the DADA paper (plasma-kaapi's
 * timing script; the paper does not say which GPUs it used), which depend on
 * how many GPUs are selected (8-GPU platforms). */
enum hs_gpu_order { HS_GPU_FIRST, HS_GPU_SPREAD, HS_GPU_SCRIPT };

const char *hs_gpu_order_name(enum hs_gpu_order order);
/* "first", "spread" or "script"; -1 with hs_fail naming the value. */
int hs_gpu_order_parse(const char *text, enum hs_gpu_order *order);

struct hs_select {
    int gpus;               /* number of GPU workers, -1: all */
    int cpus;               /* number of CPU workers, -1: cores left after GPUs */
    enum hs_gpu_order gpu_order;
    int window;             /* tasks in flight on a worker with its own memory */
    double cache_fraction;  /* part of GPU memory the data cache may use */
    bool p2p;               /* direct GPU-to-GPU copies where routes exist */
};

void hs_select_defaults(struct hs_select *sel);

/* Can a platform named name, with these hosts, give the selection? The
 * workers it gives in *gpus and *cpus; -1 with hs_fail ("platform idgraf has
 * 8 GPUs; --gpus 9 asks for more") if not. */
int hs_select_check(const char *name, const struct hs_select *sel, int ncores, int ngpus,
                    int nprocs, int *gpus, int *cpus);

/* ---- the runtime platform ------------------------------------------------- */

enum hs_node_kind { HS_NODE_HOST, HS_NODE_GPU, HS_NODE_PROC };

struct hs_memnode {
    int id;
    char *name;
    enum hs_node_kind kind;
    char *host;           /* endpoint of transfers (a SimGrid host name) */
    double capacity;      /* bytes usable by the data cache; INFINITY: unbounded */
    int copy_engines;     /* 0: transfers in parallel; 2: one inbound and one outbound
                             FIFO (a GPU); 1: one FIFO for both directions */
};

struct hs_worker {
    int id;
    char *name;
    enum hs_arch arch;
    int node;      /* memory node its tasks read and write */
    char *host;    /* host whose kernels it runs (core, GPU or processor) */
    char *driver;  /* core that drives a GPU, or NULL */
    double speed;  /* flop/s of host */
    int window;    /* tasks it may hold in flight (1 for cores on host memory) */
    int sw;        /* PCIe switch of a GPU, -1 if unknown or not a GPU */
};

struct hs_platform {
    char *name;
    int nnodes, nworkers;
    struct hs_memnode *nodes; /* node 0 is host memory */
    struct hs_worker *workers;
    struct hs_routes *routes; /* between memory nodes, asked on first use */
    int ncores, ngpus, nprocs;/* what the file offers */
    bool p2p;
    bool uniform; /* every route between two memory nodes is the same (flat:P): c̄ is one route's */
};

/* Build the platform. The routes to and from host memory (node 0), which
 * every transfer may take, are asked of route now: -1 with hs_fail naming
 * the pair if one is missing. The others (between GPUs, between processors)
 * are asked on first use, so route and ctx are kept: ctx must outlive pf,
 * or hs_platform_routes_all must be called before it ends. */
int hs_platform_build(struct hs_platform *pf, const char *name, const struct hs_inventory *inv,
                      const struct hs_select *sel, hs_route_fn route, void *ctx);
void hs_platform_free(struct hs_platform *pf);

/* Estimated time of moving bytes from node src to node dst over the direct
 * route (latency + bytes / bandwidth); INFINITY if there is none. */
double hs_platform_link_time(const struct hs_platform *pf, int src, int dst, double bytes);
bool hs_platform_has_route(const struct hs_platform *pf, int src, int dst);
/* The route from node src to dst (asked now if it was not before); bw 0: none. */
struct hs_route hs_platform_route(const struct hs_platform *pf, int src, int dst);
/* Ask every route not asked yet, then forget the route query (for one whose
 * context ends with the build: the real engine's machine). */
void hs_platform_routes_all(struct hs_platform *pf);
/* Route queries made so far (the build's, then the run's). */
long hs_platform_routes_asked(const struct hs_platform *pf);

const char *hs_node_kind_name(enum hs_node_kind kind);

#endif
