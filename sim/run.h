/* sim/run.h — one simulated run: check and load the platform, build the
 * runtime platform, load the timing table, run the runtime on the SimGrid
 * engine. SimGrid keeps global state, so this is done once per process
 * (hs_run_forked gives tests and sweeps a fresh process per run). */
#ifndef HS_RUN_H
#define HS_RUN_H

#include "platforms/perfmodel.h"
#include "sim/runtime.h"

#include <stdbool.h>

struct hs_run_config {
    const char *platform_file; /* SimGrid XML to load */
    const char *platform_name; /* as the user named it */
    const char *perf_file;     /* timing table, or NULL */
    struct hs_select select;
    struct hs_runtime_opts opts;
    const char *paje_file;     /* NULL: no Paje trace */
    bool verbose;              /* let SimGrid log */
};

void hs_run_config_defaults(struct hs_run_config *cfg);

struct hs_run {
    struct hs_platform pf;
    struct hs_perfmodel perf;
    bool has_perf;
    struct hs_sched *rt;
    double wall; /* wall-clock seconds of the simulation itself */
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
