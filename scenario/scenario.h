/* scenario/scenario.h — one run described by names, as on the command line
 * (platform, workload, policy, engine and options), carried out in this
 * process and returned as its run record. `hetsim run` prints and writes it;
 * sweeps fork a child per scenario (SimGrid allows one simulation per
 * process).
 *
 * The path of one run: hs_scenario_run reads the names once into a plan
 * (struct hs_scenario_plan: the engine and why, the checked policy, the
 * platform's kind), resolves the platform (platforms/resolve.c),
 * builds the DAG (workloads/), and hands both with the policy (policies/) to
 * the engine kind (sim/run.h: simgrid, model or real under sim/engines/),
 * which builds the runtime (sim/runtime.c) and executes it; the run becomes
 * its record (sim/record.c) with the metrics of analysis/metrics.c. */
#ifndef HS_SCENARIO_H
#define HS_SCENARIO_H

#include "platforms/resolve.h"
#include "sim/run.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

/* Exit codes: 0 success, 1 a run failed, 2 usage error or bad input. */
enum { HS_EXIT_OK = 0, HS_EXIT_FAIL = 1, HS_EXIT_USAGE = 2 };

struct hs_scenario {
    const char *engine;        /* "auto" (default), "simgrid", "model" or "real" */
    const char *platform, *workload, *policy;
    const char *perf;          /* timing table overriding the shipped one, or NULL */
    const char *costs;         /* the runtime's costs: "platform" (default), "off", KEY=DURATION/... */
    struct hs_run_config cfg;  /* selection, runtime options, paje_file, verbose */
    const char *trace;         /* per-task CSV trace to write, or NULL */
    const char *chrome_trace;  /* Chrome trace-event JSON to write, or NULL */
    const char *tasks_rec;     /* StarPU tasks.rec to write, or NULL */
    bool events;               /* per-task and per-transfer events in the record */
    /* per scenario parameter (hs_scenario_names' order): the option that set
     * it on the command line, 0 if none (a second one is refused) */
    int given[16];
};

#define HS_DEFAULT_PLATFORM "idgraf"
#define HS_DEFAULT_WORKLOAD "cholesky:n=8192,nb=512"
#define HS_DEFAULT_POLICY "dmda"

void hs_scenario_defaults(struct hs_scenario *sc);

/* The engine names --engine takes ("cuda" is another name for "real"): the
 * canonical name, or NULL if text is none of them. */
const char *hs_engine_name(const char *text);

/* A scenario's names read and checked once: what everything downstream
 * reads instead of the texts. */
struct hs_scenario_plan {
    const struct hs_engine_kind *engine; /* with requests: the model engine's request-level form */
    char engine_reason[256];             /* why that engine (the record's engine_reason) */
    bool bm_policy;                      /* one of Beaumont and Marchal's strategies */
    int bm_dim;                          /* its product: 2 outer, 3 matrix */
    bool flat, free_network;             /* flat:P; with bw=inf */
    struct hs_spec flat_spec;            /* checked, when flat */
    /* runs through the runtime (engine->requests == NULL): */
    struct hs_platform_ref platform;     /* resolved: its file, timing table, host map, scales */
    struct hs_dag *dag;                  /* built and finalized */
    const struct hs_policy *policy;      /* with its checked parameters: */
    struct hs_spec policy_spec;
    struct hs_run_config cfg;            /* the scenario's, with the platform's files and scales */
};

/* Read the scenario's names into p: 0, or 2 with hs_fail (bad input);
 * hs_scenario_plan_free in either case. */
int hs_scenario_plan(const struct hs_scenario *sc, struct hs_scenario_plan *p);
void hs_scenario_plan_free(struct hs_scenario_plan *p);

/* Run the scenario. Returns 0 with the run record in *record (the caller
 * deletes it; its "timing" section holds wall-clock figures, not
 * reproducible, that callers drop unless asked for), 2 for bad input, 1 if
 * the run failed; the message is in hs_last_error(). */
int hs_scenario_run(const struct hs_scenario *sc, cJSON **record);

/* Can the platform named by text give this worker selection? Counted without
 * loading it here (platform_counts.c, cached per text): 0, or -1 with
 * hs_fail ("platform idgraf has 8 GPUs; --gpus 99 asks for more"). */
struct hs_select;
int hs_platform_select_check(const char *text, const struct hs_select *sel);

/* Set a scenario parameter by name: platform, workload, policy, gpus, cpus,
 * gpu_order, window, cache_fraction, p2p, flush, noise, perf, seed. The
 * value is kept by pointer. -1 with hs_fail ("'x' is not an integer in
 * [0, 1048576]") for a bad value. */
int hs_scenario_set(struct hs_scenario *sc, const char *name, const char *value);
/* Every name hs_scenario_set knows, NULL-terminated. */
const char *const *hs_scenario_names(void);

#endif
