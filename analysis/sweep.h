/* analysis/sweep.h — parameter sweeps: a grid of independent runs, each run
 * in its own process (SimGrid allows one simulation per process), one CSV
 * row per run written as soon as it finishes.
 *
 * Every run has a key, a hash of everything that defines it (its
 * description, its repetition and the base seed), and an instance, the same
 * without the policy: runs that differ only by their policy share their
 * instance and therefore their seed, so that every policy meets the same
 * random DAG and the same noise (common random numbers), and the summary can
 * compare policies instance by instance. The seed depends on the base seed
 * and the instance only, never on a run's position, rank or shard, so serial,
 * -j N, MPI and sharded sweeps give the same rows.
 *
 * The engine does not know what a run is: the caller describes run i (the
 * values of its parameter columns, the texts to hash) and runs it in the
 * child (returning its run record). The columns of a row are
 *   key, instance, rep, seed, sweep, inputs, <parameter columns>, status, error,
 *   <metrics from the record> (hs_sweep_metric_names), <wall-clock columns>
 * status: ok, error (the run failed or its input was refused), crash (the
 * process died or exited without a result), timeout (killed after --timeout).
 *
 * inputs is a fingerprint of the content of the files the run reads (its
 * platform file, host map, timing table or perfmodel files, DAG file), which
 * the key leaves out: the key names a run (and keeps its seed whatever the
 * files hold), the fingerprint says what it was made of. A resumed sweep
 * reuses a row only where both agree; a row of the sweep's key whose
 * fingerprint differs (a platform file or timing table edited since) is
 * removed from the file and its run run again. */
#ifndef HS_SWEEP_H
#define HS_SWEEP_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- the grid ------------------------------------------------------------ */

struct hs_sweep_axis {
    char *name;
    int n;
    char **values;
};

/* Cartesian product of the axes (the last axis varies fastest), every point
 * repeated reps times (repetitions innermost). */
struct hs_grid {
    int naxes;
    const struct hs_sweep_axis *axes;
    int reps;
};

/* Number of runs, or -1 with hs_fail when the grid is empty or too large. */
long hs_grid_size(const struct hs_grid *g);
/* The axis values (choice[a] indexes axes[a].values) and repetition of run i. */
void hs_grid_point(const struct hs_grid *g, long index, int *choice, int *rep);

/* Parse "a,b,c" (or "a;b;c" when a value holds commas) and integer ranges
 * "1..8" into values. Returns the count, or -1 with hs_fail. */
int hs_sweep_split_values(const char *text, char ***values);
void hs_sweep_axis_free(struct hs_sweep_axis *axis);

/* ---- keys and seeds ------------------------------------------------------ */

struct hs_sweep_id {
    uint64_t key, instance;
    unsigned long seed; /* in [1, 2^32 - 1] */
};

void hs_sweep_ident(const char *canon, const char *instance, int rep, unsigned long base_seed,
                    struct hs_sweep_id *id);

/* ---- the engine ---------------------------------------------------------- */

struct hs_sweep_job {
    long index;          /* position in the whole grid */
    int rep;
    struct hs_sweep_id id;
    char **params;       /* values of the parameter columns (owned) */
    uint64_t inputs;     /* fingerprint of its input files' content (set by describe; 0: none) */
    void *owner;         /* who queued it, where one pool runs several sweeps (the ledger) */
};

void hs_sweep_job_free(struct hs_sweep_job *job, int nparams);

struct hs_sweep_ops {
    int nparams;
    const char *const *param_names;
    long nruns;
    unsigned long base_seed;
    uint64_t sweep;      /* identity of the sweep (its "sweep" column): shards and
                            resumptions of one sweep share it, merge checks it */
    int shard, nshards;  /* a shard's rows say which (the sweep column HASH:I/N, set by
                            hs_sweep_execute from --shard), so that merge names a missing
                            shard; nshards 0: not a shard */
    /* Describe run `index`: set job->rep, job->params (nparams malloc'd
     * strings), job->inputs, *canon and *instance (malloc'd texts to hash).
     * -1 with hs_fail for bad input. Called in the parent. */
    int (*describe)(void *ctx, long index, struct hs_sweep_job *job, char **canon,
                    char **instance);
    /* Run it (in a child process): 0 and the record, or nonzero with the
     * message in hs_last_error(). The seed to use is job->id.seed. */
    int (*run)(void *ctx, const struct hs_sweep_job *job, cJSON **record);
    void *ctx;
};

struct hs_sweep_opts {
    const char *csv;     /* output file (created, or resumed) */
    int jobs;            /* processes at once; 0: every core (one per rank under MPI) */
    double timeout;      /* seconds per run; 0: none */
    int shard, nshards;  /* only runs whose index % nshards == shard (nshards 0: all) */
    bool quiet;          /* no progress */
    bool retry_failed;   /* drop rows that are not ok from the CSV and run them again */
    /* only the runs whose parameter columns and repetition keep accepts
     * (NULL: every run); the others are not run, counted as "not needed"
     * (the ledger runs only the points its claims read, and only the
     * repetitions their statistics need) */
    bool (*keep)(void *ctx, const char *const *names, char *const *values, int n, int rep);
    void *keep_ctx;
};

/* Run the sweep. Returns 0 when every run is ok, 1 when some failed (their
 * rows say why), 2 for bad input (message in hs_last_error()), 128+signal if
 * interrupted (finished rows are kept; the rest runs on the next call). */
int hs_sweep_execute(const struct hs_sweep_opts *opts, const struct hs_sweep_ops *ops);

/* This process's rank when started by mpirun or srun (0 otherwise): only
 * rank 0 reports bad input, once. */
int hs_sweep_launcher_rank(void);

struct hs_csv;

/* ---- rows ---------------------------------------------------------------- */

enum hs_run_status { HS_RUN_OK, HS_RUN_ERROR, HS_RUN_CRASH, HS_RUN_TIMEOUT };
const char *hs_run_status_name(enum hs_run_status s);

/* The metric columns taken from a run record, NULL-terminated, and whether a
 * lower value is better (for pairwise comparisons). */
const char *const *hs_sweep_metric_names(void);
bool hs_metric_lower_is_better(const char *metric);
/* The header line (with its line break); caller frees. */
char *hs_sweep_header(const struct hs_sweep_ops *ops);
/* One row (with its line break): record NULL for a failed run. */
/* Describe every run (bad input shows now) and refuse two runs that are the
 * same run (a repeated value): 0, or -1 with hs_fail. A sweep does it before
 * running anything; --dry-run too. */
int hs_sweep_check(const struct hs_sweep_ops *ops);

char *hs_sweep_row(const struct hs_sweep_ops *ops, const struct hs_sweep_job *job,
                   enum hs_run_status status, const char *error, const cJSON *record,
                   double run_seconds);
/* The row's first columns, up to its parameters (identity, sweep, inputs,
 * parameter columns; no line break): what follows, from status on, is the run's own and
 * the same in any sweep that holds a run of that key. Caller frees. */
char *hs_sweep_row_head(const struct hs_sweep_ops *ops, const struct hs_sweep_job *job);
/* Wall-clock columns: not reproducible, ignored when comparing sweeps. */
bool hs_sweep_is_wallclock_column(const char *name);
/* A row read back to be reused (a resumed sweep's, a ledger's copy of
 * another study's run): row r of csv, if its status is ok, must hold in
 * every column after status and error (the metrics, the wall-clock columns)
 * nothing or a finite number >= 0, as hs_sweep_row writes them. 0, or -1 with
 * hs_fail("FILE: row R (key K): column C: 'V' is not ..."). A plausible edit
 * (a number changed into another) passes: rows carry no checksum. */
int hs_sweep_row_check(const struct hs_csv *csv, long r, const char *file);

#endif
