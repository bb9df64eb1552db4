/* cli/cmd_beta.c — `hetsim beta outer|matmul --p P --n N`: the
 * threshold of Beaumont and Marchal's two-phase strategies from their
 * analysis (policies/bm/bm_analysis.h): β*, the predicted volume over the lower
 * bound and the bound itself from the closed forms, cross-checked by
 * integrating the ODEs with GSL odeiv2 and minimising with GSL's Brent
 * minimiser. With drawn speeds (a scenario) and --draws K, the spread of β*
 * over K draws against β for equal speeds; --grid, the paper's §3.6 study of
 * that estimation over p in [10, 1000] and n in [max(10, √p), 1000]. */
#include "policies/bm/bm_analysis.h"
#include "policies/bm/bm_grid.h"
#include "base/buf.h"
#include "analysis/table.h"
#include "cli/cli.h"
#include "platforms/flat_speeds.h"
#include "base/util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct beta_args {
    int dim, p, n, draws;
    const char *speeds;
    unsigned long seed;
    double beta;   /* also evaluate F here (NAN: no) */
    bool grid;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: hetsim beta outer|matmul --p P --n N [--speeds S] [--draws K] [--seed S] [--beta B]\n"
            "       hetsim beta outer|matmul --grid [--draws K] [--seed S]\n"
            "The threshold of Beaumont and Marchal's two-phase strategies (dynamic-outer-2phases,\n"
            "dynamic-matrix-2phases): beta*, the first interior minimum of their analysis' volume\n"
            "over the lower bound F(beta) (Phase 2 takes the last e^-beta n^d tasks), the predicted\n"
            "volume and the lower bound, from the closed forms; checked by integrating the ODEs\n"
            "(GSL odeiv2) and minimising with GSL's Brent minimiser.\n\n"
            "  --p P         processors\n"
            "  --n N         blocks per vector (outer) or matrix dimension (matmul)\n"
            "  --speeds S    hom (equal, default), a list s1:s2:...:sP, or a scenario drawn from\n"
            "                --seed: u10-100, unif.1, unif.2, set.3, set.5 (see `hetsim platform`)\n"
            "  --draws K     with a scenario: K draws (seeds S, S+1, ...): spread of beta* and the\n"
            "                error of using beta for equal speeds instead (the paper's section 3.6)\n"
            "  --seed S      seed of the draws (default 1)\n"
            "  --beta B      also evaluate the analysis at beta = B\n"
            "  --grid        the paper's study of that estimation: p in {10..1000}, n in\n"
            "                {10..1000}, n >= max(10, sqrt p), K draws of U[10,100] (default 100)\n");
}

static void parse_args(int argc, char **argv, struct beta_args *a)
{
    enum { O_P = 256, O_N, O_SPEEDS, O_DRAWS, O_SEED, O_BETA, O_GRID };
    static const struct option opts[] = {
        {"p", required_argument, 0, O_P},         {"n", required_argument, 0, O_N},
        {"speeds", required_argument, 0, O_SPEEDS}, {"draws", required_argument, 0, O_DRAWS},
        {"seed", required_argument, 0, O_SEED},   {"beta", required_argument, 0, O_BETA},
        {"grid", no_argument, 0, O_GRID},         {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    *a = (struct beta_args){.speeds = "hom", .seed = 1, .beta = NAN};
    int c;
    optind = 1;
    while ((c = hs_getopt("beta", argc, argv, "h", opts)) != -1) {
        switch (c) {
        case O_P: a->p = (int)hs_opt_long("--p", optarg, 1, 100000); break;
        case O_N: a->n = (int)hs_opt_long("--n", optarg, 1, 100000); break;
        case O_SPEEDS: a->speeds = optarg; break;
        case O_DRAWS: a->draws = (int)hs_opt_long("--draws", optarg, 1, 100000); break;
        case O_SEED: a->seed = (unsigned long)hs_opt_long("--seed", optarg, 0, 4294967295L); break;
        case O_BETA: a->beta = hs_opt_double("--beta", optarg, 0, HS_BM_BETA_MAX); break;
        case O_GRID: a->grid = true; break;
        case 'h': usage(stdout); exit(HS_EXIT_OK);
        }
    }
    if (optind == argc)
        hs_die(HS_EXIT_USAGE, "beta: give the problem, outer or matmul (see `hetsim beta --help`)");
    if (optind < argc - 1)
        hs_die(HS_EXIT_USAGE, "beta: unexpected argument '%s' after the problem (see `hetsim beta --help`)",
               argv[optind + 1]);
    if (strcmp(argv[optind], "outer") && strcmp(argv[optind], "matmul"))
        hs_die(HS_EXIT_USAGE, "beta: give the problem, outer or matmul: '%s' is neither", argv[optind]);
    a->dim = strcmp(argv[optind], "outer") == 0 ? HS_BM_OUTER : HS_BM_MATRIX;
    if (!a->grid && (!a->p || !a->n))
        hs_die(HS_EXIT_USAGE, "beta: --p and --n are required (or --grid)");
    if (!a->grid && a->draws > 1 && (strcmp(a->speeds, "hom") == 0 || strchr(a->speeds, ':')))
        hs_die(HS_EXIT_USAGE, "beta: --draws needs drawn speeds (--speeds u10-100, unif.1, unif.2, set.3 "
                              "or set.5)");
}

/* ---- speeds ------------------------------------------------------------------ */

static bool is_list(const char *s)
{
    return strchr(s, ':') != NULL;
}

/* The speeds of draw d: NULL for hom; a list; or a scenario's draw. Exits 2 on bad input. */
static double *speeds_of(const struct beta_args *a, int d)
{
    if (strcmp(a->speeds, "hom") == 0)
        return NULL;
    struct hs_buf text = {0};
    hs_buf_printf(&text, "flat:%d,%s=%s", a->p, is_list(a->speeds) ? "speeds" : "scenario", a->speeds);
    struct hs_spec spec;
    struct hs_flat_speeds fs;
    if (hs_spec_parse(hs_buf_str(&text), &spec) || hs_spec_check(&spec, hs_flat_params(), "--speeds") ||
        hs_flat_speeds(&spec, a->seed + (unsigned long)d, &fs))
        hs_die(HS_EXIT_USAGE, "option --speeds: %s", hs_last_error());
    hs_spec_free(&spec);
    hs_buf_free(&text);
    return fs.speeds;
}

/* ---- one case ---------------------------------------------------------------- */

static const char *problem(int dim)
{
    return dim == HS_BM_OUTER ? "outer product" : "matrix product";
}

/* The paper's own values for its two examples. */
static void paper_note(const struct beta_args *a)
{
    if (a->dim == HS_BM_OUTER && a->p == 20 && a->n == 100)
        printf("  the paper            4.1705 for equal speeds, 4.1679 and 4.17 for its (unknown) draws\n");
    if (a->dim == HS_BM_MATRIX && a->p == 100 && a->n == 40)
        printf("  the paper            2.92 for equal speeds, 2.95 for its (unknown) draw\n");
}

static void print_closed_form(const struct beta_args *a, const struct hs_bm_analysis *an, double b)
{
    double tasks = pow(a->n, a->dim);
    printf("closed form (first order; the paper's %s corrected: docs/policies.md):\n",
           a->dim == HS_BM_OUTER ? "Theorem 6" : "section 4.2");
    if (isnan(b)) {
        printf("  beta*                none: F(beta) has no interior minimum on (0, %g]\n", HS_BM_BETA_MAX);
        return;
    }
    double v1, v2;
    hs_bm_phase_volumes(an, b, &v1, &v2);
    printf("  beta*                %.6f\n", b);
    paper_note(a);
    printf("  Phase 1 share        %.4f %%   (1 - e^-beta)\n", -100 * expm1(-b));
    printf("  Phase 2 threshold    %.2f tasks   (e^-beta n^%d)\n", exp(-b) * tasks, a->dim);
    printf("  predicted ratio      %.6f   (F(beta*): volume / lower bound)\n", hs_bm_ratio(an, b));
    printf("  predicted volume     %.1f blocks   (Phase 1 %.1f, Phase 2 %.1f)\n", v1 + v2, v1, v2);
}

static void print_ode_check(const struct hs_bm_analysis *an)
{
    double bx = hs_bm_beta_star(an, true), bo = hs_bm_beta_star_ode(an);
    printf("exact switching point x_k^d = 1 - e^(-beta rs_k) (no first-order expansion):\n");
    if (isnan(bx)) {
        printf("  beta*                none\n");
        return;
    }
    double fx = hs_bm_ratio_exact(an, bx), fo = hs_bm_ratio_ode(an, bo);
    printf("  beta*                %.6f   (closed form of the ODE solution)\n", bx);
    printf("  predicted ratio      %.6f\n", fx);
    printf("ODE check (GSL odeiv2 rk8pd, switching points integrated; GSL Brent minimiser):\n");
    printf("  beta*                %.6f   (differs by %.1e)\n", bo, fabs(bo - bx));
    printf("  predicted ratio      %.6f   (differs by %.1e)\n", fo, fabs(fo - fx));
}

static void print_case(const struct beta_args *a)
{
    double *speeds = speeds_of(a, 0);
    struct hs_bm_analysis an;
    if (hs_bm_analysis_init(&an, a->dim, a->n, a->p, speeds))
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    printf("hetsim beta: %s, p = %d, n = %d, speeds %s%s\n", problem(a->dim), a->p, a->n, a->speeds,
           speeds && !is_list(a->speeds) ? " (drawn)" : "");
    printf("  lower bound          %.2f blocks   (%s)\n", hs_bm_lower_bound(&an),
           a->dim == HS_BM_OUTER ? "2n sum rs_k^1/2" : "3n^2 sum rs_k^2/3");
    const char *how;
    double b = hs_bm_beta_star(&an, false), used = hs_bm_beta_auto(&an, &how);
    print_closed_form(a, &an, b);
    if (isnan(b))
        printf("  beta=auto uses       %.6f (%s)\n", used, how);
    print_ode_check(&an);
    if (!isnan(a->beta))
        printf("at beta = %g: F = %.6f, F exact = %.6f, Phase 1 share %.4f %%\n", a->beta,
               hs_bm_ratio(&an, a->beta), hs_bm_ratio_exact(&an, a->beta), -100 * expm1(-a->beta));
    hs_bm_analysis_free(&an);
    free(speeds);
}

/* ---- draws: β for equal speeds standing for drawn ones (the paper's §3.6) --- */

static void draw_scenario(void *ctx, int d, double *speeds)
{
    const struct beta_args *a = ctx;
    double *s = speeds_of(a, d);
    memcpy(speeds, s, (size_t)a->p * sizeof *speeds);
    free(s);
}

static void print_draws(const struct beta_args *a)
{
    struct hs_bm_estimate e;
    hs_bm_estimate(a->dim, a->p, a->n, a->draws, draw_scenario, (void *)a, &e);
    printf("hetsim beta: %s, p = %d, n = %d, %d draws of %s (seeds %lu..%lu)\n", problem(a->dim), a->p,
           a->n, a->draws, a->speeds, a->seed, a->seed + (unsigned long)a->draws - 1);
    printf("  beta* over draws     mean %.6f, sd %.6f, range [%.6f, %.6f] (%d of %d with a minimum)\n",
           e.mean, e.sd, e.min, e.max, e.draws, a->draws);
    printf("  beta* equal speeds   %.6f: %.2f %% from the mean; predicted volume at most %.3f %% off\n",
           e.beta_hom, 100 * e.rel_diff, 100 * e.volume_error);
    paper_note(a);
}

/* ---- the grid of the paper's §3.6 ----------------------------------------------- */

struct grid_extremes {
    double lo, hi, sd, range, rel, vol; /* over the points */
};

static void extremes_add(struct grid_extremes *x, const struct hs_bm_estimate *e)
{
    x->lo = fmin(x->lo, e->min);
    x->hi = fmax(x->hi, e->max);
    x->sd = fmax(x->sd, e->sd);
    x->range = fmax(x->range, e->max - e->min);
    x->rel = fmax(x->rel, e->rel_diff);
    x->vol = fmax(x->vol, e->volume_error);
}

static void print_grid_summary(const struct grid_extremes *all, const struct grid_extremes *corner)
{
    printf("\nover the grid (and without its corner p = 10, n = 1000), beside the paper's section 3.6:\n");
    printf("  beta* from %.3f to %.3f (%.3f to %.3f)          paper: from 1 to 6.2\n", all->lo, all->hi,
           corner->lo, corner->hi);
    printf("  largest sd of beta* %.4f (%.4f), range %.4f (%.4f)   paper: deviations at most 0.045\n",
           all->sd, corner->sd, all->range, corner->range);
    printf("  beta_hom vs mean     at most %.2f %% (%.2f %%)            paper: always below 5%%\n",
           100 * all->rel, 100 * corner->rel);
    printf("  volume error         at most %.3f %% (%.3f %%)          paper: at most 0.1%%\n",
           100 * all->vol, 100 * corner->vol);
}

struct grid_print {
    struct hs_table t;
    struct grid_extremes all, corner;
};

static void grid_row(void *ctx, const struct hs_bm_grid_point *pt)
{
    struct grid_print *g = ctx;
    const struct hs_bm_estimate *e = &pt->e;
    hs_table_addf(&g->t, "%d", pt->p);
    hs_table_addf(&g->t, "%d", pt->n);
    double v[] = {e->beta_hom, e->mean, e->sd, e->min, e->max, 100 * e->rel_diff, 100 * e->volume_error};
    for (int k = 0; k < 7; k++)
        hs_table_num(&g->t, v[k], 4);
    hs_table_addf(&g->t, "%d", e->draws);
    if (e->draws == 0)
        return;
    extremes_add(&g->all, e);
    if (!(pt->p == 10 && pt->n == 1000))
        extremes_add(&g->corner, e);
}

static void print_grid(const struct beta_args *a)
{
    struct grid_print g = {.all = {INFINITY, 0, 0, 0, 0, 0}};
    g.corner = g.all;
    hs_table_init(&g.t, 10);
    const char *h[] = {"p", "n", "beta_hom", "mean", "sd", "min", "max", "rel_diff_%", "volume_err_%", "draws"};
    for (int i = 0; i < 10; i++)
        hs_table_add(&g.t, h[i]);
    hs_bm_grid(a->dim, a->draws, a->seed, grid_row, &g);
    printf("hetsim beta --grid: %s, speeds U[10,100], %d draws per point (20 at p = 1000); "
           "points without an interior minimum are left empty\n\n", problem(a->dim), a->draws ? a->draws : 100);
    hs_table_print(&g.t, stdout, "");
    hs_table_free(&g.t);
    print_grid_summary(&g.all, &g.corner);
}

int hs_cmd_beta(int argc, char **argv)
{
    struct beta_args a;
    parse_args(argc, argv, &a);
    if (a.grid)
        print_grid(&a);
    else if (a.draws > 1)
        print_draws(&a);
    else
        print_case(&a);
    return HS_EXIT_OK;
}
