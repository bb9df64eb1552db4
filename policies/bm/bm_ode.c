/* policies/bm/bm_ode.c — the ODEs behind Beaumont and Marchal's analysis,
 * integrated with GSL odeiv2 (rk8pd), as a numerical check of the closed
 * forms (Beaumont and Marchal 2014, Lemmas 1–2 and 7–8): for a processor of relative speed rs,
 * α = (1 − rs)/rs, and x the fraction of indices it knows,
 *
 *   u1' = −d x^{d−1} α u1 / (1 − x^d)     u1 = g_k, tasks left outside its square/cube
 *   u2' =  d x^{d−1} u1                    u2 = t_k s_k / n^d, its own allocations
 *   u3' =  d x^{d−1} (1 − u1)              u3 = h_k / n^d, others' inside its square/cube
 *
 * from u(0) = (1, 0, 0). The switch happens when t_k Σ s / n^d = u2 / rs reaches
 * 1 − e^{−β}, i.e. when e^{−β} n^d tasks are left. */
#include "policies/bm/bm_analysis.h"
#include "base/util.h"

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
    double xd_1 = p->dim == 2 ? x : x * x; /* x^{d−1}, without pow: the hot loop */
    double xd1 = p->dim * xd_1, rest = 1 - xd_1 * x;
    du[0] = rest > 0 ? -xd1 * p->alpha * u[0] / rest : 0;
    du[1] = xd1 * u[0];
    du[2] = xd1 * (1 - u[0]);
    return GSL_SUCCESS;
}

/* One processor's ODE and a GSL driver for it (rk8pd, tolerances 1e-12). */
struct ode {
    struct ode_params p;
    gsl_odeiv2_system sys;
    gsl_odeiv2_driver *d;
};

static void ode_open(struct ode *o, int dim, double rs)
{
    o->p = (struct ode_params){dim, (1 - rs) / rs};
    o->sys = (gsl_odeiv2_system){rhs, NULL, 3, &o->p};
    o->d = gsl_odeiv2_driver_alloc_y_new(&o->sys, gsl_odeiv2_step_rk8pd, 1e-6, 1e-12, 1e-12);
}

/* Advance u from x0 to x1, trying the whole interval as the first step. */
static int advance(struct ode *o, double x0, double x1, double u[3])
{
    if (!(x1 > x0))
        return 0;
    gsl_odeiv2_driver_reset_hstart(o->d, x1 - x0);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_odeiv2_driver_apply(o->d, &x0, x1, u);
    gsl_set_error_handler(old);
    return rc == GSL_SUCCESS ? 0 : hs_fail("ODE integration failed at x = %g: %s", x0, gsl_strerror(rc));
}

int hs_bm_ode_solve(int dim, double rs, double x, double u[3])
{
    u[0] = 1, u[1] = 0, u[2] = 0;
    if (!(x >= 0 && x < 1))
        return hs_fail("ODE: x = %g is outside [0, 1)", x);
    struct ode o;
    ode_open(&o, dim, rs);
    int rc = advance(&o, 0, x, u);
    gsl_odeiv2_driver_free(o.d);
    return rc;
}

/* Farthest x the switch search integrates to (the ODE is singular at 1). */
#define X_CAP (1 - 1e-9)

double hs_bm_ode_switch(int dim, double rs, double beta)
{
    struct ode o;
    ode_open(&o, dim, rs);
    double target = -expm1(-beta), u[3] = {1, 0, 0}, lo = 0, hi = X_CAP, x = NAN;
    /* march to the first grid point past the target, keeping the state below it */
    for (double g = 1.0 / 64; g < 1; g += 1.0 / 64) {
        double v[3] = {u[0], u[1], u[2]}, to = fmin(g, X_CAP);
        if (advance(&o, lo, to, v))
            goto done;
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
        if (advance(&o, lo, mid, v))
            goto done;
        if (v[1] / rs < target) {
            lo = mid;
            u[0] = v[0], u[1] = v[1], u[2] = v[2];
        } else {
            hi = mid;
        }
    }
    x = 0.5 * (lo + hi);
done:
    gsl_odeiv2_driver_free(o.d);
    return x;
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
    double near = hs_bm_beta_star(a, true);
    if (isnan(near))
        return NAN;
    /* located on the integrated function itself: the best of a 0.05 grid
     * within 0.3 of the closed form's minimum (offset so as not to start on
     * it), then Brent around it. Near a minimum F changes by ~F''δ²/2, so
     * the location is good to about 1e-7, not to the 1e-13 of the values. */
    double best = NAN, fbest = INFINITY;
    for (double b = fmax(near - 0.275, 0.05); b <= near + 0.3; b += 0.05) {
        double f = ode_form(b, (void *)a);
        if (f < fbest)
            best = b, fbest = f;
    }
    return hs_bm_brent(ode_form, (void *)a, fmax(best - 0.05, 1e-3), best, best + 0.05);
}
