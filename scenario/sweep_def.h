/* scenario/sweep_def.h — a sweep described by names, as on the command line
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
 * applied), gpus, cpus ("default" when not set), gpu_order, window,
 * cache_fraction, p2p, flush, noise, perf, then one column per axis over a
 * workload, policy or platform parameter (named like the axis). A row holds
 * all it takes to run it again: `hetsim run` with these and --seed SEED. */
#ifndef HS_SWEEP_DEF_H
#define HS_SWEEP_DEF_H

#include "analysis/study.h"
#include "analysis/sweep.h"
#include "scenario/scenario.h"

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
void hs_sweep_def_free(struct hs_sweep_def *d);

/* After resolve: with --reps above 1, a workload of the sweep whose DAG comes
 * from its own seed= (random, daggen) when no axis varies that seed, so every
 * repetition meets the same DAG; else NULL. */
const char *hs_sweep_def_same_dag(const struct hs_sweep_def *d);
/* hs_fail with the last error prefixed by the definition's `where`. */
int hs_sweep_def_fail(const struct hs_sweep_def *d);
/* How many of the parameter columns are scenario parameters (the first ones). */
int hs_sweep_def_fixed_columns(void);

#endif
