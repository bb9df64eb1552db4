/* policies/dualapprox.h — the dual approximation at the heart of DADA
 * (Bleuse et al., Euro-Par 2014, §3.2, Algorithm 2),
 * on a batch of independent tasks and with no reference to the runtime: a
 * policy (or a test) describes the batch as a cost matrix, the time each
 * worker is free and each task's affinity worker, and gets an allocation.
 *
 * For a guess λ, ASSIGN (hs_da_assign) builds an allocation in two phases:
 *   - local affinity phase: tasks by decreasing affinity score go to their
 *     affinity worker while its batch load is below αλ (the task that
 *     crosses αλ is kept: "up to overreaching");
 *   - global balance phase, a basic 2-dual approximation of the rest: reject
 *     if a task exceeds λ on both classes; tasks longer than λ on CPUs go to
 *     GPUs, tasks longer than λ on GPUs to CPUs; the others fill the GPUs by
 *     decreasing CPU/GPU speedup up to overreaching λ (each task on the
 *     earliest finishing unfilled GPU), and the rest go to the CPUs by
 *     earliest finish time, longest first.
 * The allocation fits when every worker's batch load is at most (ρ+α)λ.
 * hs_da_solve runs the binary search of lines 1–18 (hs_da_bisect) and keeps
 * the allocation of the last fitting guess. */
#ifndef HS_DUALAPPROX_H
#define HS_DUALAPPROX_H

#include <stdbool.h>

#define HS_DA_NO_AFFINITY (-1)
#define HS_DA_ANY_CPU (-2) /* affinity with host memory: whichever core */

enum hs_da_fill {
    HS_DA_FILL_EACH, /* fill GPUs while some GPU's batch load is below λ (default) */
    HS_DA_FILL_AREA, /* fill while the GPUs' total batch load is below kλ */
};

enum hs_da_cpu_order {
    HS_DA_CPU_LONGEST,    /* decreasing CPU cost, then activation order (default) */
    HS_DA_CPU_ACTIVATION, /* activation order */
};

struct hs_da_problem {
    int ntasks, nworkers;
    const bool *is_gpu;       /* per worker: GPU class (else CPU class) */
    const double *cost;       /* [task * nworkers + w]: c_i(w), INFINITY where w cannot run it */
    const double *ready;      /* per worker: absolute time it is free, max(TS_w, now) */
    double now;
    const int *aff_worker;    /* per task: its affinity worker, HS_DA_NO_AFFINITY or
                                 HS_DA_ANY_CPU; NULL: none has one */
    const double *aff_score;  /* per task: the score of that affinity (bytes) */
    double alpha, rho;
    double eps_rel, eps_abs;  /* search precision: max(eps_rel * upper, eps_abs) */
    enum hs_da_fill fill;
    enum hs_da_cpu_order cpu_order;
    bool absolute;            /* λ counts the backlog ready - now (ref=absolute) */
};

/* An allocation of the batch. */
struct hs_da_schedule {
    int *worker;   /* per task */
    int *rank;     /* per task: when it was assigned (0 first): queue order */
    double *load;  /* per worker: batch load (plus the backlog with absolute) */
    bool feasible;
};

struct hs_dualapprox; /* a problem with its λ-independent orders precomputed */

/* The problem's arrays must outlive the returned object. */
struct hs_dualapprox *hs_da_new(const struct hs_da_problem *p);
void hs_da_free(struct hs_dualapprox *da);

void hs_da_schedule_init(struct hs_da_schedule *s, int ntasks, int nworkers);
void hs_da_schedule_free(struct hs_da_schedule *s);

/* Line 2: Σ max(c_i^CPU, c_i^GPU) over finite class costs (plus the largest
 * backlog with absolute): a guess that always fits. */
double hs_da_upper(const struct hs_dualapprox *da);

/* ASSIGN(R, λ): fills out and returns out->feasible. */
bool hs_da_assign(const struct hs_dualapprox *da, double lambda, struct hs_da_schedule *out);

/* The binary search: returns the final guess (the smallest fitting guess
 * found), with its allocation in out; *iterations (may be NULL) counts the
 * guesses tried after the initial upper bound. */
double hs_da_solve(const struct hs_dualapprox *da, struct hs_da_schedule *out, int *iterations);

/* What DDA (dda.c) shares with DADA about a batch: each task's class costs
 * (the cheapest worker of each class, INFINITY if none can run it), the
 * tasks by decreasing CPU/GPU speedup c^CPU/c^GPU (0 without a GPU version,
 * infinite without a CPU one) then activation order, and line 2's
 * Σ max(c^CPU, c^GPU) over the finite class costs. */
void hs_da_class_costs(int ntasks, int nworkers, const bool *is_gpu, const double *cost, double *cpu,
                       double *gpu);
void hs_da_speedup_order(int ntasks, const double *cpu, const double *gpu, int *order);
double hs_da_class_sum(int ntasks, const double *cpu, const double *gpu);

/* The bisection itself, for any allocation rule: try_guess(ctx, upper) first,
 * then guesses halving [lower, upper] while upper - lower > eps; a guess is
 * the new upper when try_guess accepts it (the callback keeps that
 * allocation), else the new lower. Returns the final upper. */
double hs_da_bisect(double upper, double eps, bool (*try_guess)(void *ctx, double lambda), void *ctx,
                    int *iterations);

#endif
