/* policies/bm/bm_analysis.c — the closed forms of Beaumont and Marchal's
 * analysis (lower bound, F, F', F^X, phase volumes) and the search for β*
 * (Beaumont and Marchal 2014, §3.3–3.6, §4.2). The formulas are corrected as
 * docs/policies.md explains: the
 * outer product's Theorem 6 with a minus sign and n instead of N², the
 * matrix product's last denominator Σ rs^{2/3}; they reproduce the paper's
 * 4.1705 and 2.92. */
#include "policies/bm/bm_analysis.h"
#include "base/util.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <math.h>
#include <stdlib.h>

int hs_bm_analysis_init(struct hs_bm_analysis *a, int dim, int n, int p, const double *speeds)
{
    a->rs = NULL;
    if (dim != HS_BM_OUTER && dim != HS_BM_MATRIX)
        return hs_fail("analysis: dimension %d is neither 2 (outer) nor 3 (matrix)", dim);
    if (n < 1 || p < 1)
        return hs_fail("analysis: needs n >= 1 and p >= 1 (got n=%d, p=%d)", n, p);
    double total = 0;
    for (int k = 0; speeds && k < p; k++) {
        if (!(speeds[k] > 0) || !isfinite(speeds[k]))
            return hs_fail("analysis: speed %d (%g) is not positive and finite", k, speeds[k]);
        total += speeds[k];
    }
    a->dim = dim;
    a->n = n;
    a->p = p;
    a->rs = hs_xmalloc((size_t)p * sizeof *a->rs);
    double lo = dim == HS_BM_OUTER ? 0.5 : 2.0 / 3, hi = lo + 1;
    a->s_lo = a->s_hi = 0;
    for (int k = 0; k < p; k++) {
        a->rs[k] = speeds ? speeds[k] / total : 1.0 / p;
        a->s_lo += pow(a->rs[k], lo);
        a->s_hi += pow(a->rs[k], hi);
    }
    return 0;
}

void hs_bm_analysis_free(struct hs_bm_analysis *a)
{
    free(a->rs);
    a->rs = NULL;
}

double hs_bm_lower_bound(const struct hs_bm_analysis *a)
{
    return a->dim * pow(a->n, a->dim - 1) * a->s_lo;
}

/* β^{1/2} (outer) or β^{2/3} (matrix): the Phase-1 share of a worker's
 * blocks grows as (β rs)^{(d-1)/d}. */
static double phase1_power(const struct hs_bm_analysis *a, double beta)
{
    return a->dim == HS_BM_OUTER ? sqrt(beta) : cbrt(beta * beta);
}

double hs_bm_ratio(const struct hs_bm_analysis *a, double beta)
{
    double q = a->s_hi / a->s_lo, b = phase1_power(a, beta);
    double tail = exp(-beta) * a->n * (1 - b * a->s_hi) / a->s_lo;
    if (a->dim == HS_BM_OUTER)
        return b - beta * b * q / 4 + tail;
    return b - beta * b * q + tail;
}

double hs_bm_ratio_deriv(const struct hs_bm_analysis *a, double beta)
{
    double q = a->s_hi / a->s_lo, b = phase1_power(a, beta), e = exp(-beta) * a->n / a->s_lo;
    double db = a->dim == HS_BM_OUTER ? 0.5 / sqrt(beta) : 2.0 / (3 * cbrt(beta));
    double head = a->dim == HS_BM_OUTER ? db - 0.375 * b * q : db - 5.0 / 3 * b * q;
    return head - e * (1 - b * a->s_hi) - e * db * a->s_hi;
}

void hs_bm_phase_volumes(const struct hs_bm_analysis *a, double beta, double *v1, double *v2)
{
    double lb = hs_bm_lower_bound(a), b = phase1_power(a, beta);
    double head = b - beta * b * a->s_hi / a->s_lo / (a->dim == HS_BM_OUTER ? 4 : 1);
    *v1 = lb * head;
    *v2 = lb * (hs_bm_ratio(a, beta) - head);
}

/* Blocks a random task outside a known square (cube) of side x needs, on
 * average: d (1 − x^{d−1}(1−x)/(1−x^d)), i.e. 2/(1+x) and 3(1 − x²/(1+x+x²)). */
static double phase2_blocks(int dim, double x)
{
    double geometric = dim == HS_BM_OUTER ? 1 + x : 1 + x + x * x; /* (1 − x^d)/(1 − x) */
    return dim * (1 - pow(x, dim - 1) / geometric);
}

double hs_bm_ratio_at(const struct hs_bm_analysis *a, double beta, const double *x)
{
    double v1 = 0, v2 = 0;
    for (int k = 0; k < a->p; k++) {
        v1 += pow(x[k], a->dim - 1);
        v2 += a->rs[k] * phase2_blocks(a->dim, x[k]);
    }
    double nd1 = pow(a->n, a->dim - 1);
    return (a->dim * nd1 * v1 + exp(-beta) * nd1 * a->n * v2) / hs_bm_lower_bound(a);
}

double hs_bm_ratio_exact(const struct hs_bm_analysis *a, double beta)
{
    double *x = hs_xmalloc((size_t)a->p * sizeof *x);
    for (int k = 0; k < a->p; k++)
        x[k] = pow(-expm1(-beta * a->rs[k]), 1.0 / a->dim); /* x^d = 1 − e^{−β rs_k} */
    double f = hs_bm_ratio_at(a, beta, x);
    free(x);
    return f;
}

/* ---- β* --------------------------------------------------------------------- */

#define GRID_STEP 0.01

struct gsl_fn_ctx {
    double (*f)(double, void *);
    void *ctx;
};

static double gsl_trampoline(double x, void *p)
{
    struct gsl_fn_ctx *c = p;
    return c->f(x, c->ctx);
}

double hs_bm_brent(double (*f)(double, void *), void *ctx, double lo, double guess, double hi)
{
    struct gsl_fn_ctx c = {f, ctx};
    gsl_function fn = {gsl_trampoline, &c};
    gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    double x = guess;
    if (gsl_min_fminimizer_set(m, &fn, guess, lo, hi) == GSL_SUCCESS) {
        for (int it = 0; it < 200; it++) {
            if (gsl_min_fminimizer_iterate(m) != GSL_SUCCESS)
                break;
            x = gsl_min_fminimizer_x_minimum(m);
            if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(m), gsl_min_fminimizer_x_upper(m),
                                      1e-10, 0) == GSL_SUCCESS)
                break;
        }
    }
    gsl_set_error_handler(old);
    gsl_min_fminimizer_free(m);
    return x;
}

double hs_bm_first_minimum(double (*f)(double, void *), void *ctx, double hi)
{
    int steps = (int)lround(hi / GRID_STEP);
    double prev = f(GRID_STEP, ctx), cur = f(2 * GRID_STEP, ctx);
    for (int j = 2; j < steps; j++) {
        double next = f((j + 1) * GRID_STEP, ctx);
        if (prev > cur && cur <= next) {
            if (cur == next) /* flat: Brent needs a strict bracket */
                return j * GRID_STEP;
            return hs_bm_brent(f, ctx, (j - 1) * GRID_STEP, j * GRID_STEP, (j + 1) * GRID_STEP);
        }
        prev = cur;
        cur = next;
    }
    return NAN;
}

static double closed_form(double beta, void *a)
{
    return hs_bm_ratio(a, beta);
}

static double exact_form(double beta, void *a)
{
    return hs_bm_ratio_exact(a, beta);
}

double hs_bm_beta_star(const struct hs_bm_analysis *a, bool exact)
{
    return hs_bm_first_minimum(exact ? exact_form : closed_form, (void *)a, HS_BM_BETA_MAX);
}

double hs_bm_beta_auto(const struct hs_bm_analysis *a, const char **how)
{
    double beta = hs_bm_beta_star(a, false);
    const char *why = "closed form";
    if (isnan(beta)) {
        beta = hs_bm_beta_star(a, true);
        why = "exact-ODE fallback (the closed form has no interior minimum)";
    }
    if (isnan(beta)) {
        beta = 0;
        why = "no interior minimum: beta = 0 (all tasks in Phase 2)";
    }
    if (how)
        *how = why;
    return beta;
}
