/* sim/run.h — one run: its configuration, what it leaves (platform, timing
 * table, runtime with its results), and the engines that carry it out.
 *
 * An engine kind (struct hs_engine_kind) takes a run from its configuration
 * to its end: it loads what it needs (the platform, the timing table), builds
 * the runtime with the policy, and executes the runtime's activities through
 * the activity interface of sim/engine.h. The runtime, the policies and the
 * record are the same whichever engine ran. Three kinds, one folder each:
 *   - simgrid (sim/engines/simgrid): simulated time, transfers sharing the
 *     platform's links in SimGrid;
 *   - model (sim/engines/model): simulated time on a free network (transfers
 *     take no time), an event loop of its own;
 *   - real (sim/engines/real): this machine's cores and GPUs, measured (only
 *     in hetsim-real, built with OpenBLAS and LAPACKE).
 * The model engine has a request-level form besides, for Beaumont and
 * Marchal's strategies on a free network: a kind of its own whose `requests`
 * serves the workers' requests without the DAG or the runtime. It lives with
 * their strategies (policies/bm/bm_engine.c), so that sim/ includes nothing
 * of policies/.
 * SimGrid keeps global state, so a simulated run happens once per process
 * (tests and sweeps fork). */
#ifndef HS_RUN_H
#define HS_RUN_H

#include "platforms/flat.h"
#include "platforms/perfmodel.h"
#include "sim/runtime.h"

#include <stdbool.h>

struct hs_run_config {
    const char *platform_file; /* SimGrid XML to load (NULL with flat) */
    const struct hs_flat *flat; /* flat:P, built through SimGrid's API with no file, or NULL */
    const char *platform_name; /* as the user named it */
    const char *perf_file;     /* timing table, or NULL */
    struct hs_select select;
    struct hs_runtime_opts opts; /* with opts.machine, the machine's parameters whole: the engine
                                    applies those that change the loaded platform (run_simgrid.c's
                                    hs_platform_open), the runtime those of kernel times */
    const char *paje_file;     /* NULL: no Paje trace */
    bool verbose;              /* let SimGrid log */
    bool notes;                /* say on stderr how the platform's hosts were read (not under -q) */
    bool energy;               /* count the energy (SimGrid's host energy plugin; --energy): it
                                  loads each busy host with an execution once the run has
                                  ended, about 30% more CPU per run, so only when asked */
};

void hs_run_config_defaults(struct hs_run_config *cfg);

/* A run's energy (SimGrid's host energy plugin): the hosts that declare
 * wattage_per_state and their joules; n 0 for a platform without energy
 * properties (or an engine that cannot tell). */
struct hs_energy {
    int n;
    char **hosts;
    double *joules;
    double total;
};

struct hs_run {
    const char *engine; /* the engine kind's name */
    struct hs_platform pf;
    struct hs_perfmodel perf;
    bool has_perf;
    struct hs_runtime *rt;
    double wall;     /* wall-clock seconds of the simulation itself */
    double residual; /* measured runs: scaled residual of the result (NAN: none) */
    double *core_time; /* measured runs: each CPU task's CPU time (NAN for others); else NULL */
    double load[2];    /* measured runs: the 1-minute load average before and after (NAN: unknown) */
    struct hs_energy energy;
};

/* Carry out one run: returns 0 on success, 2 for bad input (message in
 * hs_last_error), 1 if the run itself failed (message in run->rt->error).
 * run is filled in either way and freed with hs_run_free. */
typedef int hs_run_fn(const struct hs_run_config *cfg, const struct hs_dag *dag,
                      const struct hs_policy *policy, const struct hs_spec *policy_spec,
                      struct hs_run *run);

/* A run at the level of the workers' requests: described by the struct
 * hs_request_run of the engine kind that has this form (defined beside it:
 * policies/bm/bm_engine.h), carried out without the DAG or the runtime, and
 * recorded by the engine itself in *record. 0, or 2 for bad input (message
 * in hs_last_error). */
struct hs_request_run;
struct cJSON;
typedef int hs_request_fn(const struct hs_request_run *req, struct cJSON **record);

struct hs_engine_kind {
    const char *name;     /* as --engine names it and the record says */
    const char *summary;  /* one line for the command's help */
    bool measured;        /* real time on this machine, not simulated time */
    hs_run_fn *run;       /* NULL for a kind that only serves requests */
    hs_request_fn *requests; /* its request-level form, or NULL: runs go through the runtime */
};

extern const struct hs_engine_kind hs_engine_simgrid; /* sim/engines/simgrid */
extern const struct hs_engine_kind hs_engine_model;   /* sim/engines/model */
extern const struct hs_engine_kind hs_engine_real;    /* sim/engines/real (hetsim_real) */

hs_run_fn hs_run_simgrid, hs_run_model;
void hs_run_free(struct hs_run *run);

/* What the simulated engines share before they execute anything: load and
 * check the platform file (SimGrid's parser), the timing table and the
 * platform's runtime costs, and create the runtime in run->rt. Same return
 * codes as hs_run_fn. */
int hs_run_prepare_simulated(const struct hs_run_config *cfg, const struct hs_dag *dag,
                             const struct hs_policy *policy, const struct hs_spec *policy_spec,
                             struct hs_run *run);

/* Load the platform (checked) and build the runtime platform without running
 * anything: for `hetsim platform`. Same return codes. */
int hs_platform_open(const struct hs_run_config *cfg, struct hs_platform *pf,
                     struct hs_inventory *inv);

/* What the code above the engines asks of a platform, answered by the
 * SimGrid engine (sim/engines/simgrid/, whose headers nothing outside its
 * folder includes). */

/* How many cores (CPU workers), GPUs and flat processors the platform file
 * (hosts told apart with the host map map_file, or NULL) has, without loading
 * it in this process (the check's child, or checked.json); -1 each where its
 * hosts could not be told apart. 0, or -1 with hs_fail naming the file. */
int hs_platform_count(const char *file, const char *map_file, int *cores, int *gpus, int *procs);
/* After hs_platform_open: the names of the links of the route between two
 * hosts, comma separated, in buf; the runtime's costs the platform declares
 * (sim/costs.h, hs_sg_costs: 0, or -1 with hs_fail). */
void hs_platform_route_links(const char *src, const char *dst, char *buf, int size);
int hs_platform_costs(const char *platform_name, struct hs_costs *c);
/* Check every platform file of dir and write dir/HS_PLATFORM_CHECKED_NAME
 * (checked.json: runs of those files, unchanged, skip the check). 0, or -1
 * with hs_fail. */
#define HS_PLATFORM_CHECKED_NAME "checked.json"
int hs_platform_checked_write(const char *dir);

#endif
