/* sim/cli/scenario.h — one run described by names, as on the command line
 * (platform, workload, policy and options), carried out in this process and
 * returned as its run record. `hetsim run` prints and writes it; sweeps fork
 * a child per scenario (SimGrid allows one simulation per process). */
#ifndef HS_SCENARIO_H
#define HS_SCENARIO_H

#include "sim/run.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

struct hs_scenario {
    const char *engine;        /* "simgrid" (default) or "real" */
    const char *platform, *workload, *policy;
    const char *perf;          /* timing table overriding the shipped one, or NULL */
    const char *costs;         /* the runtime's costs: "platform" (default), "off", KEY=DURATION/... */
    struct hs_run_config cfg;  /* selection, runtime options, paje_file, verbose */
    const char *trace;         /* per-task CSV trace to write, or NULL */
    const char *chrome_trace;  /* Chrome trace-event JSON to write, or NULL */
    const char *tasks_rec;     /* StarPU tasks.rec to write, or NULL */
    bool events;               /* per-task and per-transfer events in the record */
};

#define HS_DEFAULT_PLATFORM "idgraf"
#define HS_DEFAULT_WORKLOAD "cholesky:n=8192,nb=512"
#define HS_DEFAULT_POLICY "dmda"

void hs_scenario_defaults(struct hs_scenario *sc);

/* Run the scenario. Returns 0 with the run record in *record (the caller
 * deletes it; its "timing" section holds wall-clock figures, not
 * reproducible, that callers drop unless asked for), 2 for bad input, 1 if
 * the run failed; the message is in hs_last_error(). */
int hs_scenario_run(const struct hs_scenario *sc, cJSON **record);

#endif
