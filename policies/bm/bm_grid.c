/* policies/bm/bm_grid.c — the grid of Beaumont and Marchal's §3.6 (see
 * bm_grid.h): speed draws from a GSL stream, one CSV row per point. */
#include "policies/bm/bm_grid.h"
#include "base/buf.h"
#include "base/util.h"
#include "sim/outfile.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct uniform_draw {
    gsl_rng *rng;
    int p;
};

/* Speeds from U[10, 100], the paper's draw. */
static void draw_uniform(void *ctx, int d, double *speeds)
{
    (void)d;
    struct uniform_draw *u = ctx;
    for (int k = 0; k < u->p; k++)
        speeds[k] = 10 + 90 * gsl_rng_uniform(u->rng);
}

void hs_bm_grid(int dim, int draws, unsigned long seed,
                void (*point)(void *ctx, const struct hs_bm_grid_point *pt), void *ctx)
{
    static const int ps[] = {10, 20, 50, 100, 200, 500, 1000}, ns[] = {10, 20, 32, 50, 100, 200, 500, 1000};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
            struct hs_bm_grid_point pt = {.p = ps[i], .n = ns[j]};
            if (pt.n < fmax(10, sqrt(pt.p)))
                continue;
            struct uniform_draw u = {rng, pt.p};
            hs_bm_estimate(dim, pt.p, pt.n, draws ? draws : pt.p == 1000 ? 20 : 100, draw_uniform, &u, &pt.e);
            point(ctx, &pt);
        }
    gsl_rng_free(rng);
}

struct csv_rows {
    struct hs_buf b;
    const char *problem;
};

static void csv_row(void *ctx, const struct hs_bm_grid_point *pt)
{
    struct csv_rows *c = ctx;
    const struct hs_bm_estimate *e = &pt->e;
    hs_buf_printf(&c->b, "%s,%d,%d", c->problem, pt->p, pt->n);
    double v[] = {e->beta_hom, e->mean, e->sd, e->min, e->max, 100 * e->rel_diff, 100 * e->volume_error};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        if (e->draws > 0 && !isnan(v[k]))
            hs_buf_printf(&c->b, ",%.17g", v[k]);
        else
            hs_buf_add(&c->b, ",");
    hs_buf_printf(&c->b, ",%d,%s\n", e->draws, e->draws > 0 ? "ok" : "no minimum");
}

int hs_bm_grid_write_csv(int dim, int draws, unsigned long seed, const char *path)
{
    struct csv_rows c = {.problem = dim == HS_BM_OUTER ? "outer" : "matmul"};
    hs_buf_add(&c.b, "problem,p,n,beta_hom,beta_mean,beta_sd,beta_min,beta_max,rel_diff_pct,volume_error_pct,"
                     "draws,status\n");
    hs_bm_grid(dim, draws, seed, csv_row, &c);
    int rc = hs_outfile_write(path, hs_buf_str(&c.b), c.b.len);
    hs_buf_free(&c.b);
    return rc;
}
