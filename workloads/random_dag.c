/* workloads/random_dag.c — the layered random DAG of the HEFT literature
 * (Topcuoglu et al. 2002's random graph generator, with the parameters of
 * Shetti 2014, §5.4.1 and §6.3.1; the details the papers leave out are ours
 * and documented in docs/workloads.md). Generator "G1 width-first" by
 * default, "G2 height-first" as an option:
 *
 *   levels  G1: W̄ = alpha·√v, hi = max(1, ⌊2W̄⌋ − 1); draw widths
 *               W ~ U{1..hi} (the last one cut to the tasks left) until v
 *               tasks are placed: about √v/alpha levels.
 *           G2: H ~ U{1..max(1, round(2√v/alpha) − 1)}, H = min(H, v); one
 *               task per level, the other v − H tasks on uniform levels.
 *           Tasks n1..nv are numbered level by level.
 *   edges   every task of level l draws d ~ U{outdeg_min..outdeg_max}, cut
 *           to the number of candidates, and takes d distinct children
 *           uniformly among the tasks of levels l+1 .. l+jump (jump = 1:
 *           the next level only); then every task of level l+1
 *           with no parent in level l gets one, uniform in level l. So the
 *           level of a task is its longest-path level.
 *   root    n0, zero cost everywhere, with a zero-byte edge to every task of
 *           the first level (`root=0` leaves it out).
 *   costs   w̄_i ~ U(0, 2·wdag), w_ip ~ U[w̄_i(1 − beta/2), w̄_i(1 + beta/2)]
 *           per processor, redrawn while below 1e-6·wdag (and w̄_i
 *           is redrawn while w̄_i(1 + beta/2) < 2e-6·wdag, so that this
 *           ends); seconds, as per-processor costs of p
 *           processors.
 *           A task's flops (informative: DOT output, GFlop/s) are its mean
 *           cost × speed, rounded to whole flops.
 *   comm    c ~ U[0, 2·ccr·wdag] per edge (comm=abs: U[0, 2·ccr]), written
 *           as c·bw bytes so that a transfer at bandwidth bw lasts c;
 *           ccr_normalize=1 rescales them so that mean(c) / mean(w) = ccr
 *           exactly; int_costs=1 rounds w and c to integers >= 1 (c stays
 *           0 when ccr = 0), after the normalisation.
 *
 * Three GSL streams of the seed (base/rng.h): 1 structure (levels,
 * edges), 2 computation costs, 3 communication costs — so that changing ccr
 * or beta keeps the graph, and changing ccr keeps the computation costs. */
#include "base/util.h"
#include "base/rng.h"
#include "workloads/foreign.h"
#include "workloads/workload.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param random_params[] = {
    {.name = "v", .type = HS_P_INT, .defval = "100", .range = "[1,10000000]",
     .help = "number of tasks (the root is extra)"},
    {.name = "alpha", .type = HS_P_DOUBLE, .defval = "1", .range = "(0,inf)",
     .help = "shape: mean level width alpha·√v, about √v/alpha levels"},
    {.name = "ccr", .type = HS_P_DOUBLE, .defval = "1", .range = "[0,inf)",
     .help = "communication-to-computation ratio: mean edge cost / mean task cost"},
    {.name = "beta", .type = HS_P_DOUBLE, .defval = "1.5", .range = "[0,2]",
     .help = "heterogeneity: w_ip ~ U[w̄_i(1-beta/2), w̄_i(1+beta/2)]"},
    {.name = "p", .type = HS_P_INT, .defval = "2", .range = "[1,4096]",
     .help = "processors given a cost (must equal the selected workers, e.g. flat:P)"},
    {.name = "wdag", .type = HS_P_DOUBLE, .defval = "100", .range = "(0,inf)",
     .help = "mean computation cost of a task, seconds"},
    {.name = "outdeg_min", .type = HS_P_INT, .defval = "0", .range = "[0,1000000]",
     .help = "smallest drawn out-degree"},
    {.name = "outdeg_max", .type = HS_P_INT, .defval = "5", .range = "[0,1000000]",
     .help = "largest drawn out-degree"},
    {.name = "gen", .type = HS_P_CHOICE, .defval = "G1", .choices = "G1|G2",
     .help = "G1 draws level widths, G2 draws the number of levels"},
    {.name = "jump", .type = HS_P_INT, .defval = "1", .range = "[1,inf)",
     .help = "levels an edge may span (1: next level only)"},
    {.name = "comm", .type = HS_P_CHOICE, .defval = "std", .choices = "std|abs",
     .help = "edge costs U[0,2·ccr·wdag] (std) or U[0,2·ccr] seconds (abs)"},
    {.name = "ccr_normalize", .type = HS_P_BOOL, .defval = "0",
     .help = "rescale edge costs so that the DAG's own ratio is exactly ccr"},
    {.name = "int_costs", .type = HS_P_BOOL, .defval = "0",
     .help = "round costs to integers >= 1"},
    {.name = "root", .type = HS_P_BOOL, .defval = "1",
     .help = "add the zero-cost root n0 before the first level"},
    {.name = "bw", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "bytes per second: an edge of cost c carries c·bw bytes"},
    {.name = "speed", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "flops per second: a task's flops are its mean cost · speed (informative)"},
    {.name = "seed", .type = HS_P_INT, .defval = "1", .range = "[0,inf)",
     .help = "seed of the generator's random streams"},
    {0},
};

struct rgen {
    int v, p, nlev;
    long jump;
    int *lev;       /* level l holds tasks lev[l] .. lev[l+1]-1 (ids 1..v) */
    struct hs_edges e; /* between real tasks */
    double *w;      /* (v+1)·p costs, row 0 the root */
    double *c;      /* cost of each edge, seconds */
    gsl_rng *rs, *rw, *rc;
};

/* Level offsets from level sizes (task ids start at 1). */
static void set_levels(struct rgen *g, const int *size, int nlev)
{
    g->nlev = nlev;
    g->lev = hs_xmalloc((size_t)(nlev + 1) * sizeof(int));
    g->lev[0] = 1;
    for (int l = 0; l < nlev; l++)
        g->lev[l + 1] = g->lev[l] + size[l];
}

/* Upper bound of a uniform draw: at least 1; past 1e18 (alpha far out of any
 * use) every draw exceeds v anyway. */
static long clamp_hi(double h)
{
    return h < 1 ? 1 : h > 1e18 ? (long)1e18 : (long)h;
}

static void levels_g1(struct rgen *g, double alpha)
{
    double wbar = alpha * sqrt((double)g->v);
    long hi = clamp_hi(floor(2 * wbar) - 1);
    int *size = hs_xmalloc((size_t)g->v * sizeof(int)), n = 0;
    for (int left = g->v; left > 0; left -= size[n++]) {
        long w = hs_rng_uniform_int(g->rs, 1, hi);
        size[n] = (int)(w < left ? w : left);
    }
    set_levels(g, size, n);
    free(size);
}

static void levels_g2(struct rgen *g, double alpha)
{
    long hi = clamp_hi(round(2 * sqrt((double)g->v) / alpha) - 1);
    long nl = hs_rng_uniform_int(g->rs, 1, hi);
    int H = (int)(nl < g->v ? nl : g->v);
    int *size = hs_xmalloc((size_t)H * sizeof(int));
    for (int l = 0; l < H; l++)
        size[l] = 1;
    for (int i = H; i < g->v; i++)
        size[gsl_rng_uniform_int(g->rs, (unsigned long)H)]++;
    set_levels(g, size, H);
    free(size);
}

/* Children of level l, then parents for the orphans of l+1. */
static void edges_of_level(struct rgen *g, int l, long dmin, long dmax, int *mark, int *pick,
                           char *has_parent)
{
    long last = g->jump < g->nlev - 1 - l ? l + g->jump : g->nlev - 1;
    int lo = g->lev[l + 1], n = g->lev[last + 1] - lo;
    for (int t = g->lev[l]; t < g->lev[l + 1]; t++) {
        long d = hs_rng_uniform_int(g->rs, dmin, dmax);
        int k = (int)(d < n ? d : n);
        hs_rng_choose(g->rs, n, k, pick, mark, t);
        for (int i = 0; i < k; i++) {
            hs_edges_add(&g->e, t, lo + pick[i], 0);
            if (lo + pick[i] < g->lev[l + 2])
                has_parent[lo + pick[i]] = 1;
        }
    }
    int width = g->lev[l + 1] - g->lev[l];
    for (int t = g->lev[l + 1]; t < g->lev[l + 2]; t++)
        if (!has_parent[t])
            hs_edges_add(&g->e, g->lev[l] + (int)gsl_rng_uniform_int(g->rs, (unsigned long)width), t, 0);
}

static void draw_edges(struct rgen *g, long dmin, long dmax)
{
    int *mark = hs_xmalloc((size_t)g->v * sizeof(int));
    int *pick = hs_xmalloc((size_t)g->v * sizeof(int));
    char *has_parent = hs_xcalloc((size_t)g->v + 1, 1);
    for (int i = 0; i < g->v; i++)
        mark[i] = -1;
    for (int l = 0; l + 1 < g->nlev; l++)
        edges_of_level(g, l, dmin, dmax, mark, pick, has_parent);
    free(mark);
    free(pick);
    free(has_parent);
}

static double round_cost(double x)
{
    double r = round(x);
    return r < 1 ? 1 : r;
}

/* Per-processor costs of n1..nv (row 0, the root, stays 0). */
static void draw_costs(struct rgen *g, double wdag, double beta, int int_costs)
{
    g->w = hs_xcalloc((size_t)(g->v + 1) * (size_t)g->p, sizeof(double));
    for (int i = 1; i <= g->v; i++) {
        double wbar;
        do /* an interval reaching above the floor below (P(redraw) < 1e-6) */
            wbar = 2 * wdag * gsl_rng_uniform_pos(g->rw);
        while (wbar * (1 + beta / 2) < 2e-6 * wdag);
        double *row = g->w + (size_t)i * (size_t)g->p;
        for (int q = 0; q < g->p; q++) {
            do
                row[q] = gsl_ran_flat(g->rw, wbar * (1 - beta / 2), wbar * (1 + beta / 2));
            while (row[q] < 1e-6 * wdag);
            if (int_costs)
                row[q] = round_cost(row[q]);
        }
    }
}

/* Edge costs, optional normalisation, optional rounding. */
static void draw_comm(struct rgen *g, const struct hs_spec *spec)
{
    double ccr = hs_spec_double(spec, "ccr");
    bool abs_units = strcmp(hs_spec_get(spec, "comm"), "abs") == 0;
    double hi = 2 * ccr * (abs_units ? 1 : hs_spec_double(spec, "wdag"));
    double sum_c = 0, sum_w = 0;
    g->c = hs_xmalloc((g->e.n ? g->e.n : 1) * sizeof(double));
    for (size_t e = 0; e < g->e.n; e++)
        sum_c += g->c[e] = gsl_ran_flat(g->rc, 0, hi);
    for (size_t i = (size_t)g->p; i < (size_t)(g->v + 1) * (size_t)g->p; i++)
        sum_w += g->w[i];
    if (hs_spec_bool(spec, "ccr_normalize") && sum_c > 0) {
        /* mean(c) = sum_c / nedge, mean(w) = sum_w / (v p) */
        double f = ccr * (sum_w / ((double)g->v * g->p)) / (sum_c / (double)g->e.n);
        for (size_t e = 0; e < g->e.n; e++)
            g->c[e] *= f;
    }
    if (hs_spec_bool(spec, "int_costs") && ccr > 0)
        for (size_t e = 0; e < g->e.n; e++)
            g->c[e] = round_cost(g->c[e]);
}

static void fill_dag(const struct rgen *g, const struct hs_spec *spec, struct hs_dag *dag)
{
    double bw = hs_spec_double(spec, "bw"), speed = hs_spec_double(spec, "speed");
    bool root = hs_spec_bool(spec, "root");
    char label[32];
    for (int i = root ? 0 : 1; i <= g->v; i++) {
        const double *row = g->w + (size_t)i * (size_t)g->p;
        double mean = 0;
        for (int q = 0; q < g->p; q++)
            mean += row[q] / g->p;
        snprintf(label, sizeof label, "n%d", i);
        int t = hs_dag_add_task(dag, "random", label, round(mean * speed), 0);
        hs_dag_set_proc_costs(dag, t, row, g->p);
    }
    int off = root ? 0 : -1; /* n_i is task i, or i-1 without the root */
    if (root)
        for (int t = g->lev[0]; t < g->lev[1]; t++)
            hs_dag_add_edge(dag, 0, t, 0);
    for (size_t e = 0; e < g->e.n; e++)
        hs_dag_add_edge(dag, g->e.src[e] + off, g->e.dst[e] + off, g->c[e] * bw);
}

static int check_random(const struct hs_spec *spec)
{
    if (hs_spec_int(spec, "outdeg_min") > hs_spec_int(spec, "outdeg_max"))
        return hs_fail("workload random: outdeg_min=%ld is larger than outdeg_max=%ld",
                       hs_spec_int(spec, "outdeg_min"), hs_spec_int(spec, "outdeg_max"));
    if (hs_spec_bool(spec, "ccr_normalize") && strcmp(hs_spec_get(spec, "comm"), "abs") == 0)
        return hs_fail("workload random: ccr_normalize=1 rescales costs to ccr·mean task cost, "
                       "which contradicts comm=abs");
    return 0;
}

static int build_random(const struct hs_spec *spec, struct hs_dag *dag)
{
    if (check_random(spec))
        return -1;
    unsigned long seed = (unsigned long)hs_spec_int(spec, "seed");
    struct rgen g = {.v = (int)hs_spec_int(spec, "v"), .p = (int)hs_spec_int(spec, "p"),
                     .jump = hs_spec_int(spec, "jump"), .rs = hs_rng(seed, 1),
                     .rw = hs_rng(seed, 2), .rc = hs_rng(seed, 3)};
    double alpha = hs_spec_double(spec, "alpha");
    if (strcmp(hs_spec_get(spec, "gen"), "G2") == 0)
        levels_g2(&g, alpha);
    else
        levels_g1(&g, alpha);
    draw_edges(&g, hs_spec_int(spec, "outdeg_min"), hs_spec_int(spec, "outdeg_max"));
    draw_costs(&g, hs_spec_double(spec, "wdag"), hs_spec_double(spec, "beta"),
               hs_spec_bool(spec, "int_costs"));
    draw_comm(&g, spec);
    fill_dag(&g, spec, dag);
    gsl_rng_free(g.rs);
    gsl_rng_free(g.rw);
    gsl_rng_free(g.rc);
    free(g.lev);
    hs_edges_free(&g.e);
    free(g.w);
    free(g.c);
    return 0;
}

const struct hs_workload hs_workload_random = {
    .name = "random",
    .summary = "layered random DAG of the HEFT literature, per-processor costs (Topcuoglu et al. "
               "2002; the parameters of Shetti 2014, Section 5.4.1)",
    .params = random_params,
    .build = build_random,
};
