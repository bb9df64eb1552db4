/* workloads/daggen.c — random DAGs with the parameters of Suter and Hunold's
 * DAGGEN (github.com/frs69wq/daggen), the generator of many scheduling
 * studies; the meaning of each parameter follows DAGGEN (re-implemented, not
 * copied):
 *
 *   levels   perfect width ⌊n^fat⌋; each level gets max(1, ⌊perfect·(1+r)⌋)
 *            tasks, r ~ U[-(1-regularity), 1-regularity), until n tasks are
 *            placed (the last level takes what is left). fat → 0 gives a
 *            chain, fat = 1 one level of n independent tasks.
 *   edges    every task of level i >= 1 draws k = 1 + ⌊U·density·|L(i-1)|⌋
 *            parents (U ~ U[0,1), k <= |L(i-1)|); each parent comes from
 *            level max(0, i - j), j ~ U{1..jump}, uniformly among
 *            the tasks of that level that are not yet its parents, and is
 *            dropped when there are none (DAGGEN probes linearly from a
 *            uniform index instead, which favours some tasks). Every task
 *            below level 0 has a parent; no edge spans more than jump levels.
 *   data     a task handles a d×d matrix of doubles, d ~ U{mindata..maxdata}
 *            (DAGGEN also rounds d down to a multiple of 1024); each of its
 *            out-edges carries 8·d² bytes.
 *   flops    with N = d² elements and a ~ U[64, 512] per task:
 *            complexity=n: a·N, nlogn: a·N·log2 N, n1.5: N^1.5, mixed: one of
 *            the three uniformly per task (DAGGEN's --ccr 1, 2, 3, 0);
 *            range: U[mincomp, maxcomp], independent of d.
 *   ccr      native: DAGGEN's volumes; a number: every edge's bytes are scaled
 *            by one factor so that (mean bytes/bw per edge) / (mean
 *            flops/speed per task) = ccr exactly (DAGGEN's own --ccr is the
 *            complexity code, named `complexity` here).
 *
 * No ROOT/END tasks (DAGGEN's DOT output has none either); no Amdahl alpha
 * (hetsim has no moldable tasks). Tasks are labelled L<level>.<index>. Two
 * GSL streams of the seed (base/rng.h): 1 structure, 2 costs. */
#include "base/util.h"
#include "base/rng.h"
#include "workloads/foreign.h"
#include "workloads/workload.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param daggen_params[] = {
    {.name = "n", .type = HS_P_INT, .defval = "100", .range = "[1,10000000]",
     .help = "number of tasks"},
    {.name = "fat", .type = HS_P_DOUBLE, .defval = "0.5", .range = "(0,1]",
     .help = "width: about n^fat tasks per level (→0 chain, 1 all parallel)"},
    {.name = "regularity", .type = HS_P_DOUBLE, .defval = "0.9", .range = "[0,1]",
     .help = "level widths within ±(1-regularity) of n^fat"},
    {.name = "density", .type = HS_P_DOUBLE, .defval = "0.5", .range = "[0,1]",
     .help = "parents per task: 1 + U[0, density·width of the level above)"},
    {.name = "jump", .type = HS_P_INT, .defval = "1", .range = "[1,inf)",
     .help = "levels an edge may span (1: consecutive levels only)"},
    {.name = "mindata", .type = HS_P_INT, .defval = "2048", .range = "[2,inf)",
     .help = "smallest matrix order d of a task's data (8·d² bytes per out-edge)"},
    {.name = "maxdata", .type = HS_P_INT, .defval = "11264", .range = "[2,inf)",
     .help = "largest matrix order d"},
    {.name = "complexity", .type = HS_P_CHOICE, .defval = "mixed",
     .choices = "mixed|n|nlogn|n1.5|range",
     .help = "flops of N = d² elements: a·N, a·N·log2 N, N^1.5 (a ~ U[64,512]), or U[mincomp,maxcomp]"},
    {.name = "mincomp", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "smallest task flops (complexity=range)"},
    {.name = "maxcomp", .type = HS_P_SI, .defval = "10G", .range = "(0,inf)",
     .help = "largest task flops (complexity=range)"},
    {.name = "ccr", .type = HS_P_STRING, .defval = "native",
     .help = "communication-to-computation ratio (number >= 0) to scale the bytes to, or native"},
    {.name = "speed", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "flops per second assumed by ccr"},
    {.name = "bw", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "bytes per second assumed by ccr"},
    {.name = "seed", .type = HS_P_INT, .defval = "1", .range = "[0,inf)",
     .help = "seed of the generator's random streams"},
    {0},
};

struct dgen {
    int n, nlev;
    long jump;
    int *lev;           /* level l holds tasks lev[l] .. lev[l+1]-1 */
    struct hs_edges e;
    double *data;       /* d of each task */
    double *flops;
    gsl_rng *rs, *rc;
    int *mark, *pick, *off, stamp; /* scratch of n ints */
};

static void draw_levels(struct dgen *g, double fat, double regularity)
{
    double perfect = floor(pow((double)g->n, fat) + 1e-9); /* guard 9.999… → 9 */
    double lat = 1 - regularity;
    int *size = hs_xmalloc((size_t)g->n * sizeof(int)), nl = 0;
    for (int left = g->n; left > 0; left -= size[nl++]) {
        double w = floor(perfect * (1 + gsl_ran_flat(g->rs, -lat, lat)));
        size[nl] = w < 1 ? 1 : w < left ? (int)w : left;
    }
    g->nlev = nl;
    g->lev = hs_xmalloc((size_t)(nl + 1) * sizeof(int));
    g->lev[0] = 0;
    for (int l = 0; l < nl; l++)
        g->lev[l + 1] = g->lev[l] + size[l];
    free(size);
}

static int cmp_desc(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

/* Parents of task t of level i: k level draws, then per level a uniform set. */
static void parents_of(struct dgen *g, int i, int t, double density)
{
    int above = g->lev[i] - g->lev[i - 1];
    long k = 1 + (long)floor(gsl_rng_uniform(g->rs) * density * above);
    if (k > above)
        k = above;
    for (long j = 0; j < k; j++) {
        long l = i - hs_rng_uniform_int(g->rs, 1, g->jump);
        g->off[j] = l < 0 ? 0 : (int)l;
    }
    qsort(g->off, (size_t)k, sizeof(int), cmp_desc); /* nearest level first */
    for (long j = 0; j < k;) {
        int l = g->off[j], cnt = 0;
        for (; j < k && g->off[j] == l; j++)
            cnt++;
        int width = g->lev[l + 1] - g->lev[l];
        int m = cnt < width ? cnt : width;
        hs_rng_choose(g->rs, width, m, g->pick, g->mark, g->stamp++);
        for (int p = 0; p < m; p++)
            hs_edges_add(&g->e, g->lev[l] + g->pick[p], t, 0);
    }
}

static void draw_edges(struct dgen *g, double density)
{
    g->mark = hs_xmalloc((size_t)g->n * sizeof(int));
    g->pick = hs_xmalloc((size_t)g->n * sizeof(int));
    g->off = hs_xmalloc((size_t)g->n * sizeof(int));
    for (int i = 0; i < g->n; i++)
        g->mark[i] = -1;
    for (int i = 1; i < g->nlev; i++)
        for (int t = g->lev[i]; t < g->lev[i + 1]; t++)
            parents_of(g, i, t, density);
    free(g->mark);
    free(g->pick);
    free(g->off);
}

static double task_flops(struct dgen *g, const struct hs_spec *spec, const char *cx, double d)
{
    if (strcmp(cx, "range") == 0)
        return gsl_ran_flat(g->rc, hs_spec_double(spec, "mincomp"),
                            hs_spec_double(spec, "maxcomp"));
    int kind = strcmp(cx, "n") == 0 ? 1 : strcmp(cx, "nlogn") == 0 ? 2
             : strcmp(cx, "n1.5") == 0 ? 3 : (int)hs_rng_uniform_int(g->rc, 1, 3);
    double a = gsl_ran_flat(g->rc, 64, 512), N = d * d;
    return kind == 1 ? a * N : kind == 2 ? a * N * log2(N) : N * d;
}

static void draw_costs(struct dgen *g, const struct hs_spec *spec)
{
    const char *cx = hs_spec_get(spec, "complexity");
    long lo = hs_spec_int(spec, "mindata"), hi = hs_spec_int(spec, "maxdata");
    g->data = hs_xmalloc((size_t)g->n * sizeof(double));
    g->flops = hs_xmalloc((size_t)g->n * sizeof(double));
    for (int t = 0; t < g->n; t++) {
        g->data[t] = (double)hs_rng_uniform_int(g->rc, lo, hi);
        g->flops[t] = task_flops(g, spec, cx, g->data[t]);
    }
}

/* Factor on every edge's bytes: 1 for native volumes, else the one that gives
 * the requested CCR. */
static double comm_scale(const struct dgen *g, double ccr, double speed, double bw)
{
    double comp = 0, comm = 0;
    if (isnan(ccr) || g->e.n == 0)
        return 1;
    for (int t = 0; t < g->n; t++)
        comp += g->flops[t] / speed;
    for (size_t e = 0; e < g->e.n; e++)
        comm += 8 * g->data[g->e.src[e]] * g->data[g->e.src[e]] / bw;
    return ccr * (comp / g->n) / (comm / (double)g->e.n);
}

static void fill_dag(const struct dgen *g, double scale, struct hs_dag *dag)
{
    char label[48];
    for (int l = 0; l < g->nlev; l++)
        for (int t = g->lev[l]; t < g->lev[l + 1]; t++) {
            snprintf(label, sizeof label, "L%d.%d", l, t - g->lev[l]);
            hs_dag_add_task(dag, "daggen", label, g->flops[t], 0);
        }
    for (size_t e = 0; e < g->e.n; e++) {
        double d = g->data[g->e.src[e]];
        hs_dag_add_edge(dag, g->e.src[e], g->e.dst[e], 8 * d * d * scale);
    }
}

static int parse_ccr(const struct hs_spec *spec, double *ccr)
{
    const char *text = hs_spec_get(spec, "ccr");
    *ccr = NAN;
    if (strcmp(text, "native") == 0)
        return 0;
    if (hs_parse_double(text, ccr) || !(*ccr >= 0) || isinf(*ccr))
        return hs_fail("workload daggen: parameter ccr: '%s' is not a number >= 0 or native",
                       text);
    return 0;
}

static int check_daggen(const struct hs_spec *spec, double *ccr)
{
    if (hs_spec_int(spec, "mindata") > hs_spec_int(spec, "maxdata"))
        return hs_fail("workload daggen: mindata=%ld is larger than maxdata=%ld",
                       hs_spec_int(spec, "mindata"), hs_spec_int(spec, "maxdata"));
    if (hs_spec_double(spec, "mincomp") > hs_spec_double(spec, "maxcomp"))
        return hs_fail("workload daggen: mincomp=%s is larger than maxcomp=%s",
                       hs_spec_get(spec, "mincomp"), hs_spec_get(spec, "maxcomp"));
    return parse_ccr(spec, ccr);
}

static int build_daggen(const struct hs_spec *spec, struct hs_dag *dag)
{
    double ccr;
    if (check_daggen(spec, &ccr))
        return -1;
    unsigned long seed = (unsigned long)hs_spec_int(spec, "seed");
    struct dgen g = {.n = (int)hs_spec_int(spec, "n"), .jump = hs_spec_int(spec, "jump"),
                     .rs = hs_rng(seed, 1), .rc = hs_rng(seed, 2)};
    draw_levels(&g, hs_spec_double(spec, "fat"), hs_spec_double(spec, "regularity"));
    draw_edges(&g, hs_spec_double(spec, "density"));
    draw_costs(&g, spec);
    fill_dag(&g, comm_scale(&g, ccr, hs_spec_double(spec, "speed"), hs_spec_double(spec, "bw")),
             dag);
    gsl_rng_free(g.rs);
    gsl_rng_free(g.rc);
    free(g.lev);
    hs_edges_free(&g.e);
    free(g.data);
    free(g.flops);
    return 0;
}

const struct hs_workload hs_workload_daggen = {
    .name = "daggen",
    .summary = "random DAG with DAGGEN's parameters (n, fat, regularity, density, jump, "
               "data sizes, complexity, ccr)",
    .params = daggen_params,
    .build = build_daggen,
};
