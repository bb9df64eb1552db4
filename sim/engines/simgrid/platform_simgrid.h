/* sim/engines/simgrid/platform_simgrid.h — reading a SimGrid platform file: checking it in a
 * child process first (SimGrid aborts with a backtrace on a malformed file;
 * we turn that into one clear line), initialising SimGrid quietly, and
 * listing its hosts and routes for hs_platform_build. */
#ifndef HS_PLATFORM_SIMGRID_H
#define HS_PLATFORM_SIMGRID_H

#include "sim/costs.h"
#include "sim/platform.h"

#include <stdbool.h>

/* SimGrid settings hetsim makes unless the platform file sets them: the TCP
 * artefacts (TCP-gamma, crosstraffic, weight-S) off. */
#define HS_SG_NCONFIG 3
/* Pairs of processors whose routes the check asks for, both ways. */
#define HS_SG_PROC_SAMPLE 32

/* What checking a platform file found out. */
struct hs_sg_check {
    unsigned file_sets;        /* a bit per hetsim setting the file's own <config> makes */
    int ncores, ngpus, nprocs; /* its hosts by kind (cores: CPU workers); -1 if they could not be told apart */
    int energy_hosts;          /* hosts that declare wattage_per_state (energy.h) */
    long routes_asked;         /* routes the child asked SimGrid for (0: checked.json answered) */
};

/* Load the file in a child process (a regular file only) and ask for the
 * routes a run cannot do without (hosts told apart with the host map
 * map_file, or NULL): between host memory's host and every other memory
 * node both ways, between every two GPUs, and between a sample of pairs of
 * processors (HS_SG_PROC_SAMPLE of them: each processor's route to and from
 * host memory is checked, the rest are asked during the run); returns 0, or
 * -1 with hs_fail naming the file and SimGrid's complaint. out may be NULL. */
int hs_sg_check_platform(const char *path, const char *map_file, struct hs_sg_check *out);

/* The same, always in the child: hs_sg_check_platform takes what
 * checked.json beside path says of an unchanged shipped file instead
 * (platform_checked.h). */
int hs_sg_check_platform_child(const char *path, const char *map_file, struct hs_sg_check *out);

/* Initialise SimGrid once per process: quiet unless verbose; Paje tracing to
 * paje_file if not NULL (without the topology's links, with a note, where
 * SimGrid cannot draw platform_file's: its <cluster> zones); hetsim's
 * settings except those in file_sets. -1 with hs_fail where SimGrid cannot
 * trace platform_file even without the topology (it crashes). */
int hs_sg_init(bool verbose, const char *paje_file, unsigned file_sets, const char *platform_file);

/* The most workers a Paje trace is written for (run_simgrid.c): SimGrid's
 * tracing grows with the square of the hosts (47 s at flat:16384). */
#define HS_SG_PAJE_MAX_HOSTS 16384

/* Load a checked platform file, sealed (routes complete) unless paje. With
 * paje (tracing on), a host or link id that a Paje line cannot hold is
 * refused: -1 with hs_fail. */
int hs_sg_load(const char *path, bool paje);

/* Multiply the bandwidth of every link of the loaded platform by bw_factor
 * and its latency by lat_factor. */
void hs_sg_scale_links(double bw_factor, double lat_factor);

/* Hosts of the loaded platform, sorted by kind then natural name. The kind
 * comes from the host property "kind" (cpu, gpu, ram, proc), else from the
 * name (CPU*, GPU*, RAM*, P<n>). Returns 0 or -1 with hs_fail. */
int hs_sg_inventory(const char *platform_name, struct hs_inventory *inv);
/* The same with a host map side file (sim/hostmap.h; NULL: none), which
 * decides first. StarPU's platform files are read as they are: CPUn, CUDAn
 * and RAM by name; DISKn, MAIN (beside RAM) and OpenCLn (beside CUDAn) are
 * kept as IGNORED hosts with their reason. */
int hs_sg_inventory_map(const char *platform_name, const char *map_file, struct hs_inventory *inv);

/* The runtime's costs the loaded platform's root zone declares
 * (sim/costs.h: runtime/task_cpu, ...): entries of c still NAN are set
 * from the zone's properties (times c->scale when it is > 0: costs=scale=F),
 * or to 0 where it has none. Returns 0, or -1
 * with hs_fail naming the platform, the property and its value. */
int hs_sg_costs(const char *platform_name, struct hs_costs *c);

/* What hs_sg_route keeps besides the loaded platform: the first link of
 * bandwidth 0 that a route it was asked crosses (link empty: none; a link
 * of 0 B/s no route of the run crosses is kept: StarPU 1.3 writes an unused
 * one on CPU-only machines), and, once the platform is built
 * (hs_sg_route_run), the platform's name for the messages of a run. */
struct hs_sg_zero_link {
    char link[128], src[128], dst[128];
    char platform[256];
    bool running;
};

/* hs_route_fn over the loaded platform; ctx is NULL or a zero-initialised
 * struct hs_sg_zero_link, which records the first route crossing a link of
 * bandwidth 0 (that route is then missing: no bandwidth). After
 * hs_sg_route_run(ctx), a route asked on first use during the run that
 * SimGrid cannot look up (it aborts on some missing routes) or that crosses
 * a link of 0 B/s ends the process with one line naming both hosts, exit 2,
 * without SimGrid's backtrace. */
bool hs_sg_route(void *ctx, const char *src, const char *dst, double *lat, double *bw);
/* The routes asked through ctx from now on are a run's (see hs_sg_route);
 * ctx must then live as long as the platform. */
void hs_sg_route_run(struct hs_sg_zero_link *ctx, const char *platform_name);

/* -1 with hs_fail naming the link and the route if zero records one, else 0. */
int hs_sg_zero_link_check(const char *platform_name, const struct hs_sg_zero_link *zero);

/* Names of the links of the route src -> dst, comma separated, in buf. */
void hs_sg_route_links(const char *src, const char *dst, char *buf, int size);

#endif
