/* analysis/bm_ode.c — the ODEs behind Beaumont and Marchal's analysis,
 * integrated with GSL odeiv2 (rk8pd), as a numerical check of the closed
 * forms (spec §3.2, derived form): for a processor of relative speed rs,
 * α = (1 − rs)/rs, and x the fraction of indices it knows,
 *
 *   u1' = −d x^{d−1} α u1 / (1 − x^d)     u1 = g_k, tasks left outside its square/cube
 *   u2' =  d x^{d−1} u1                    u2 = t_k s_k / n^d, its own allocations
 *   u3' =  d x^{d−1} (1 − u1)              u3 = h_k / n^d, others' inside its square/cube
 *
 * from u(0) = (1, 0, 0). The switch happens when t_k Σ s / n^d = u2 / rs reaches
 * 1 − e^{−β}, i.e. when e^{−β} n^d tasks are left. */
#include "analysis/bm_analysis.h"
#include "sim/util.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>
#include <stdlib.h>

struct ode_params {
    int dim;
    double alpha;
};

static int rhs(double x, const double u[], double du[], void *params)
{
    const struct ode_params *p = params;
    double xd1 = p->dim * pow(x, p->dim - 1), rest = 1 - pow(x, p->dim);
    du[0] = rest > 0 ? -xd1 * p->alpha * u[0] / rest : 0;
    du[1] = xd1 * u[0];
    du[2] = xd1 * (1 - u[0]);
    return GSL_SUCCESS;
}

/* Advance u from x0 to x1 (a fresh driver: each call is independent). */
static int advance(struct ode_params *p, double x0, double x1, double u[3])
{
    gsl_odeiv2_system sys = {rhs, NULL, 3, p};
    gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd, 1e-6, 1e-12, 1e-12);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = x1 > x0 ? gsl_odeiv2_driver_apply(d, &x0, x1, u) : GSL_SUCCESS;
    gsl_set_error_handler(old);
    gsl_odeiv2_driver_free(d);
    return rc == GSL_SUCCESS ? 0 : hs_fail("ODE integration failed at x = %g: %s", x0, gsl_strerror(rc));
}

int hs_bm_ode_solve(int dim, double rs, double x, double u[3])
{
    struct ode_params p = {dim, (1 - rs) / rs};
    u[0] = 1, u[1] = 0, u[2] = 0;
    if (!(x >= 0 && x < 1))
        return hs_fail("ODE: x = %g is outside [0, 1)", x);
    return advance(&p, 0, x, u);
}

/* Farthest x the switch search integrates to (the ODE is singular at 1). */
#define X_CAP (1 - 1e-9)

double hs_bm_ode_switch(int dim, double rs, double beta)
{
    struct ode_params p = {dim, (1 - rs) / rs};
    double target = -expm1(-beta), u[3] = {1, 0, 0}, lo = 0, hi = X_CAP;
    /* march to the first grid point past the target, keeping the state below it */
    for (double x = 1.0 / 64; x < 1; x += 1.0 / 64) {
        double v[3] = {u[0], u[1], u[2]}, to = fmin(x, X_CAP);
        if (advance(&p, lo, to, v))
            return NAN;
        if (v[1] / rs >= target) {
            hi = to;
            break;
        }
        lo = to;
        u[0] = v[0], u[1] = v[1], u[2] = v[2];
    }
    /* bisect, integrating each time from the last point below the target */
    for (int it = 0; it < 60 && hi - lo > 1e-15; it++) {
        double mid = 0.5 * (lo + hi), v[3] = {u[0], u[1], u[2]};
        if (advance(&p, lo, mid, v))
            return NAN;
        if (v[1] / rs < target) {
            lo = mid;
            u[0] = v[0], u[1] = v[1], u[2] = v[2];
        } else {
            hi = mid;
        }
    }
    return 0.5 * (lo + hi);
}

double hs_bm_ratio_ode(const struct hs_bm_analysis *a, double beta)
{
    double *x = hs_xmalloc((size_t)a->p * sizeof *x);
    for (int k = 0; k < a->p; k++) /* equal speeds share one integration */
        x[k] = k > 0 && a->rs[k] == a->rs[k - 1] ? x[k - 1] : hs_bm_ode_switch(a->dim, a->rs[k], beta);
    double f = hs_bm_ratio_at(a, beta, x);
    free(x);
    return f;
}

static double ode_form(double beta, void *a)
{
    return hs_bm_ratio_ode(a, beta);
}

double hs_bm_beta_star_ode(const struct hs_bm_analysis *a)
{
    double guess = hs_bm_beta_star(a, true);
    if (isnan(guess))
        return NAN;
    /* the closed form's minimum brackets the integrated one: a local search suffices */
    double lo = fmax(guess - 0.05, 1e-3), hi = guess + 0.05;
    return hs_bm_brent(ode_form, (void *)a, lo, guess, hi);
}
