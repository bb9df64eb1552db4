/* sim/run.h — one run: its configuration, and what it leaves (platform,
 * timing table, runtime with its results). hs_run_simgrid (run_simgrid.c)
 * checks and loads a SimGrid platform, builds the runtime platform, loads the
 * timing table and runs the runtime on the SimGrid engine; SimGrid keeps
 * global state, so that is done once per process (tests and sweeps fork). */
#ifndef HS_RUN_H
#define HS_RUN_H

#include "platforms/perfmodel.h"
#include "sim/runtime.h"

#include <stdbool.h>

struct hs_run_config {
    const char *platform_file; /* SimGrid XML to load */
    const char *platform_name; /* as the user named it */
    const char *host_map;      /* host map side file (sim/hostmap.h), or NULL */
    const char *perf_file;     /* timing table, or NULL */
    struct hs_select select;
    struct hs_runtime_opts opts;
    double bw_scale;           /* every link's bandwidth is multiplied by it (1: as the file says) */
    const char *paje_file;     /* NULL: no Paje trace */
    bool verbose;              /* let SimGrid log */
};

void hs_run_config_defaults(struct hs_run_config *cfg);

struct hs_run {
    const char *engine; /* "simgrid" or "real" */
    struct hs_platform pf;
    struct hs_perfmodel perf;
    bool has_perf;
    struct hs_sched *rt;
    double wall;     /* wall-clock seconds of the simulation itself */
    double residual; /* measured runs: scaled residual of the result (NAN: none) */
    double *core_time; /* measured runs: each CPU task's CPU time (NAN for others); else NULL */
};

/* Returns 0 on success, 2 for bad input (message in hs_last_error), 1 if the
 * run itself failed (message in run->rt->error). */
int hs_run_simgrid(const struct hs_run_config *cfg, const struct hs_dag *dag,
                   const struct hs_policy *policy, const struct hs_spec *policy_spec,
                   struct hs_run *run);
void hs_run_free(struct hs_run *run);

/* Load the platform (checked) and build the runtime platform without running
 * anything: for `hetsim platform`. Same return codes. */
int hs_platform_open(const struct hs_run_config *cfg, struct hs_platform *pf,
                     struct hs_inventory *inv);

#endif
