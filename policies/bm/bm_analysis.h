/* policies/bm/bm_analysis.h — Beaumont and Marchal's ODE analysis of their
 * two-phase strategies for the outer product (d = 2) and the matrix product
 * (d = 3) (Beaumont and Marchal 2014, §3.3, §4.2):
 *
 *   lower bound    LB = 2n Σ rs_k^{1/2} (outer), 3n² Σ rs_k^{2/3} (matrix) blocks,
 *                  rs_k = s_k / Σ s_i the relative speeds
 *   F(β)           the predicted volume / LB when Phase 2 starts with e^{-β} n^d
 *                  tasks left: the closed forms of §0 (the paper's Theorem 6
 *                  and §4.2 with their typos corrected), first order in rs_k
 *   F^X(β)         the same from the exact switching point of the ODE,
 *                  x_k^d = 1 − e^{−β rs_k} (no expansion in rs_k; not in the
 *                  paper: ours)
 *   β*             the first interior local minimum of F on (0, 20] (F → −∞
 *                  as β → ∞, where the expansion stops being valid), found on
 *                  a 0.01 grid and refined with GSL's Brent minimiser; NAN
 *                  when F has none (small p for the matrix, n close to √p for
 *                  the outer product)
 *
 * bm_ode.c integrates the ODEs of Lemmas 1/2 (outer) and 7/8 (matrix) with
 * GSL odeiv2 and rebuilds F^X from the integrated switching points, as a
 * numerical check of the closed forms; bm_estimate.c measures how well β
 * computed for equal speeds stands for heterogeneous ones (the paper's §3.6). */
#ifndef HS_BM_ANALYSIS_H
#define HS_BM_ANALYSIS_H

#include <stdbool.h>

enum { HS_BM_OUTER = 2, HS_BM_MATRIX = 3 }; /* the dimension d of the problem */

/* Largest β the analysis considers (our bound). */
#define HS_BM_BETA_MAX 20.0

struct hs_bm_analysis {
    int dim;        /* 2 or 3 */
    double n;       /* blocks per dimension */
    int p;
    double *rs;     /* relative speeds, p of them */
    double s_lo, s_hi; /* S_{1/2}, S_{3/2} (outer) or S_{2/3}, S_{5/3} (matrix): S_a = Σ rs_k^a */
};

/* speeds: p positive speeds (any unit), or NULL for equal speeds. -1 with
 * hs_fail for d not 2 or 3, n < 1, p < 1 or a speed that is not positive. */
int hs_bm_analysis_init(struct hs_bm_analysis *a, int dim, int n, int p, const double *speeds);
void hs_bm_analysis_free(struct hs_bm_analysis *a);

double hs_bm_lower_bound(const struct hs_bm_analysis *a);

/* The closed form F(β), its derivative, and the exact-switch variant F^X(β). */
double hs_bm_ratio(const struct hs_bm_analysis *a, double beta);
double hs_bm_ratio_deriv(const struct hs_bm_analysis *a, double beta);
double hs_bm_ratio_exact(const struct hs_bm_analysis *a, double beta);
/* F^X from given switching points x[k] (the closed form's, or the ODE's). */
double hs_bm_ratio_at(const struct hs_bm_analysis *a, double beta, const double *x);

/* Blocks sent in Phase 1 and in Phase 2, first order (their sum is F·LB). */
void hs_bm_phase_volumes(const struct hs_bm_analysis *a, double beta, double *v1, double *v2);

/* First interior local minimum of F (exact = false) or F^X (exact = true) on
 * (0, HS_BM_BETA_MAX]; NAN if there is none. */
double hs_bm_beta_star(const struct hs_bm_analysis *a, bool exact);

/* The β a two-phase strategy uses when told to follow the analysis: β* if F
 * has an interior minimum; else the minimum of F^X (our fallback);
 * else 0, where F^X grows from β = 0 (all tasks in Phase 2: LB then already
 * costs what random allocation does). *how says which: "closed form",
 * "exact-ODE fallback (...)" or "no interior minimum: beta = 0 (...)"
 * (scenario/bm_scenario.c tells the two fallbacks by these beginnings). */
double hs_bm_beta_auto(const struct hs_bm_analysis *a, const char **how);

/* First interior local minimum of f on the grid 0.01, 0.02, … hi, refined
 * with GSL's Brent minimiser; NAN if none. */
double hs_bm_first_minimum(double (*f)(double beta, void *ctx), void *ctx, double hi);
/* GSL's Brent minimiser on [lo, hi] from guess, which must lie below f(lo)
 * and f(hi) (else guess is returned), to an interval of 1e-10. */
double hs_bm_brent(double (*f)(double beta, void *ctx), void *ctx, double lo, double guess, double hi);

/* ---- bm_ode.c: GSL odeiv2 --------------------------------------------------- */

/* Integrate the ODE of processor k (relative speed rs) from x = 0 to x:
 * u[0] = g_k(x), the fraction of not yet allocated tasks outside its known
 * square/cube; u[1] = t_k(x) s_k / n^d; u[2] = h_k(x) / n^d, the tasks in it
 * that others allocated. rk8pd with absolute and relative tolerance 1e-12;
 * x < 1 (the ODE is singular at 1). -1 with hs_fail if GSL fails. */
int hs_bm_ode_solve(int dim, double rs, double x, double u[3]);

/* x_k at the switch, from the integrated ODE: the x where t_k(x) Σ s / n^d
 * reaches 1 − e^{−β} (bisection on the integrated trajectory). */
double hs_bm_ode_switch(int dim, double rs, double beta);

/* F^X(β) rebuilt from the integrated switching points, and its minimum
 * found by GSL's Brent minimiser around hs_bm_beta_star(a, true). NAN if
 * the closed form has no minimum to start from. */
double hs_bm_ratio_ode(const struct hs_bm_analysis *a, double beta);
double hs_bm_beta_star_ode(const struct hs_bm_analysis *a);

/* ---- bm_estimate.c: the runtime estimation of β (the paper's §3.6) ----------- */

/* β*_hom against the β* of `draws` speed vectors, draw(ctx, d, speeds)
 * filling the p speeds of draw d, for the outer (dim 2) or matrix (dim 3)
 * product. */
struct hs_bm_estimate {
    double beta_hom;          /* NAN: no interior minimum with equal speeds */
    int draws;                /* draws with an interior minimum (the others are skipped) */
    double mean, sd, min, max; /* of their β* (sd: population) */
    double rel_diff;          /* |β_hom − mean| / mean */
    double volume_error;      /* max over draws of |F(β_hom) − F(β*)| / F(β*), their speeds */
};
void hs_bm_estimate(int dim, int p, int n, int draws, void (*draw)(void *ctx, int d, double *speeds),
                    void *ctx, struct hs_bm_estimate *e);

#endif
