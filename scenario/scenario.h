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
 * its record (sim/record.c) with the metrics of analysis/metrics.c.
 *
 * This is scenario/'s one public header: the command (cli/) and the tests
 * include it; the folder's other headers are its own. Below the scenario:
 * a sweep described by names (sweep_def.c, sweep_runs.c), a study run into a
 * folder (study_run.c) and the runs the ledger needs (ledger_need.c). */
#ifndef HS_SCENARIO_H
#define HS_SCENARIO_H

#include "analysis/ledger.h"
#include "analysis/study.h"
#include "analysis/sweep.h"
#include "platforms/resolve.h"
#include "sim/run.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* ---- a sweep (sweep_def.c, sweep_runs.c) ---- */

/* A sweep described by names, as on the command line
 * or in a study file: base settings (scenario parameters: platform,
 * workload, policy, gpus, … seed), axes (--vary KEY=V1,V2,…) and
 * repetitions. Resolving it maps every axis key to what it varies: a
 * scenario parameter, or a parameter of the workload, the policy or a flat
 * platform (qualified keys workload.K, policy.K, platform.K are accepted;
 * unknown or ambiguous keys are refused with the valid ones). It then gives
 * the sweep engine its callbacks: describe run i (its parameter columns and
 * the canonical texts its key and instance hash) and run it.
 *
 * Parameter columns: platform, workload, policy (as given, with the axes
 * applied; a plugin's policy by its own name), gpus, cpus ("default" when not set), gpu_order, window,
 * cache_fraction, p2p, flush, noise, perf, then one column per axis over a
 * workload, policy or platform parameter (named like the axis). A row holds
 * all it takes to run it again: `hetsim run` with these and --seed SEED. */

enum hs_axis_kind { HS_AXIS_SCENARIO, HS_AXIS_WORKLOAD, HS_AXIS_POLICY, HS_AXIS_PLATFORM };

struct hs_sweep_def {
    char *where;                  /* prefix of messages ("" or "FILE: ") */
    struct hs_study_kv *base;
    int nbase;
    struct hs_sweep_axis *axes;
    int naxes, reps;
    /* after hs_sweep_def_resolve */
    struct hs_scenario sc;        /* the base scenario */
    enum hs_axis_kind *kind;      /* per axis */
    char **param;                 /* per axis: the parameter it sets */
    char **columns;
    int ncolumns;
    struct hs_grid grid;
    long nruns;
    uint64_t id;                  /* FNV-1a 64 of the definition: the "sweep" column */
};

void hs_sweep_def_init(struct hs_sweep_def *d, const char *where);
/* Set a base setting (a later one replaces an earlier one of the same key). */
void hs_sweep_def_set(struct hs_sweep_def *d, const char *key, const char *value);
/* Add an axis from "KEY=V1,V2,…" (replacing one of the same key); -1 with hs_fail. */
int hs_sweep_def_vary(struct hs_sweep_def *d, const char *text);
/* Take the base settings, axes and repetitions of a study. */
void hs_sweep_def_study(struct hs_sweep_def *d, const struct hs_study *st);
/* Check the base settings and resolve the axes; -1 with hs_fail. */
int hs_sweep_def_resolve(struct hs_sweep_def *d);
/* The engine's callbacks (describe, run) over a resolved definition. */
void hs_sweep_def_ops(struct hs_sweep_def *d, struct hs_sweep_ops *ops);
/* The fingerprint of the content of the files a run of these texts reads
 * (input_fingerprint.c): its platform file, host map and timing table (perf
 * overriding it; a StarPU perfmodel folder: each file in it), its DAG file;
 * FNV-1a 64 over each one's role, size and bytes, 0 when it reads no file. A
 * sweep row's inputs column: a row is reused only while it holds. Each text
 * is read once per process. */
uint64_t hs_inputs_fingerprint(const char *platform, const char *perf, const char *workload);
void hs_sweep_def_free(struct hs_sweep_def *d);

/* After resolve: with --reps above 1, a workload of the sweep whose DAG comes
 * from its own seed= (random, daggen) when no axis varies that seed, so every
 * repetition meets the same DAG; else NULL. */
const char *hs_sweep_def_same_dag(const struct hs_sweep_def *d);
/* hs_fail with the last error prefixed by the definition's `where`. */
int hs_sweep_def_fail(const struct hs_sweep_def *d);
/* How many of the parameter columns are scenario parameters (the first ones). */
int hs_sweep_def_fixed_columns(void);

/* ---- a study run into a folder (study_run.c) ---- */

/* Running a study's sweep into a folder (what
 * `reproduce STUDY` and the ledger share): the folder is made if needed and
 * the rows go to FOLDER/results.csv, resumed if there. */

/* Make a folder and its parents; -1 with hs_fail. */
int hs_make_dirs(const char *path);
/* "dir/file" (caller frees). */
char *hs_path_join(const char *dir, const char *file);

/* The study's sweep, its base settings replaced or added to by `set`, resolved
 * into def (freed by the caller with hs_sweep_def_free, even on failure):
 * 0, or -1 with hs_fail. */
int hs_study_sweep_def(const struct hs_study *st, struct hs_sweep_def *def, const struct hs_study_kv *set,
                       int nset);

/* Run the study's sweep into dir/results.csv, with `set` (nset settings)
 * replacing or adding to the study's base settings; a study with an
 * analysis writes its rows there instead (set does not apply). so->csv is set here;
 * so->timeout defaults to the study's. Returns the sweep's exit code
 * (0 all ok, 1 some runs failed, 2 bad input with hs_fail). */
int hs_study_execute(const struct hs_study *st, const char *dir, struct hs_sweep_opts *so,
                     const struct hs_study_kv *set, int nset);

/* The title of one of the study's plots (caller frees): the study file's;
 * in the --quick version, which runs other sizes than the title names,
 * "NAME, quick version: KEY VALUE, ..." from the settings it ran with
 * instead, so that no figure says N = 16384 of a run of 8192. */
char *hs_study_plot_title(const struct hs_study *st, const struct hs_study_plot *sp);

/* ---- the runs the ledger needs (ledger_need.c) ---- */

/* The runs of a study the ledger needs: the points its
 * counted values read, and at each point only the repetitions their
 * statistics need (sequential stopping; docs/performance.md).
 *
 * The study runs in rounds: first `floor` repetitions of every point read
 * (5, or the study's repetitions if fewer), then 10, 20, ... up to the
 * study's. After each round a point is settled when, for every metric a
 * counted value reads there, the 95% confidence interval's half-width of
 * its mean is at most a quarter of the tolerance of the narrowest value
 * reading it (5% for a bound without one: the ledger's margin), relative
 * to the mean; a point whose runs all agree is settled at once. A settled
 * point runs no more repetitions.
 *
 * A shard of the ledger (--shard I/N) keeps only its points, every
 * repetition of a point in one shard: a point's rounds depend on its own rows
 * alone, so the shards run together what one process runs. */

struct hs_ledger_need {
    const struct hs_study *st;
    const struct hs_ledger *l;
    int cap; /* this round's repetitions */
    int shard, nshards; /* only the points of shard `shard` of nshards (nshards <= 1: all) */
    struct hs_ledger_settled {
        char *key; /* a point (its parameter values, joined) settled ... */
        int at;    /* ... with this many repetitions */
    } *settled;
    int nsettled;
    size_t cap_settled;
};

void hs_ledger_need_init(struct hs_ledger_need *need, const struct hs_study *st, const struct hs_ledger *l);
void hs_ledger_need_free(struct hs_ledger_need *need);

/* hs_sweep_opts.keep (ctx: the need): a point a counted value reads, in a
 * repetition below its cap. */
bool hs_ledger_need_keep(void *ctx, const char *const *names, char *const *values, int n, int rep);

/* After a round, from the study's results.csv (csv, from file): settle the
 * points whose statistics are known well enough, and say whether another
 * round is needed (next cap in need->cap). 0, or -1 with hs_fail. */
int hs_ledger_need_next(struct hs_ledger_need *need, const char *file, bool *more);

/* ---- the ledger's runs of every study in one pool (ledger_pool.c) ---- */

/* One study of the ledger (a sweep, not an analysis) and its folder. */
struct hs_ledger_study {
    const struct hs_study *st;
    const char *dir;
};

struct hs_ledger_pool_opts {
    const struct hs_study_kv *set; /* --set KEY=VALUE, nset of them */
    int nset;
    int shard, nshards;            /* --shard I/N (nshards 0: every point) */
    const char *const *earlier;    /* folders whose STUDY/results.csv rows (ok, of this
                                      hetsim's columns) are copied for their keys instead of
                                      run again: the ledger's earlier invocations, nearlier */
    int nearlier;
};

/* Run the studies' rounds (ledger_need.c) into DIR/results.csv of each,
 * so->jobs processes fed with the runs of every study; a run that several
 * studies hold is computed once, and a run an earlier invocation wrote for
 * another study (o->earlier) is not run again (*copied: the rows copied,
 * *earlier of them from the earlier files). Returns 0, 1 when some runs
 * failed, 2 for bad input (hs_fail), 128+signal when interrupted (finished
 * rows are kept). */
int hs_ledger_pool_run(const struct hs_ledger_study *studies, int n, const struct hs_ledger *l,
                       const struct hs_ledger_pool_opts *o, const struct hs_sweep_opts *so, long *copied,
                       long *earlier);

#endif
