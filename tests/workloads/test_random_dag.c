/* tests/workloads/test_random_dag.c — the `random` workload (layered random DAG of
 * Topcuoglu et al. 2002 with Shetti 2014's parameters): byte-identical output
 * for a seed, exact examples worked by hand, and statistics over many seeds against values derived
 * from the generator's definition (tolerances of 4 standard deviations, the
 * standard deviations themselves derived from the definition unless said), β
 * statistics of the costs' heterogeneity, options, bad input, and a run on flat:4. */
#include "analysis/dagstats.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NDAG 200 /* DAGs per statistical check */

static char *json_of(const char *fmt, int seed)
{
    struct hs_dag *dag = hs_test_build_seeded(fmt, seed);
    char *text = hs_test_dag_text(dag, false);
    hs_dag_free(dag);
    return text;
}

static void test_same_seed_same_bytes(void)
{
    const char *fmt = "random:v=300,alpha=0.7,ccr=2,p=3,seed=%d";
    char *a = json_of(fmt, 7), *b = json_of(fmt, 7), *c = json_of(fmt, 8);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_STRING_NOT_EQUAL(a, c);
    free(a);
    free(b);
    free(c);
    /* streams per purpose: another ccr keeps the graph and the task costs,
     * and scales every edge (same uniform draws, up to whole-byte rounding) */
    struct hs_dag *x = hs_test_build_seeded("random:v=300,ccr=1,seed=%d", 3), *y = hs_test_build_seeded("random:v=300,ccr=4,seed=%d", 3);
    CU_ASSERT_EQUAL_FATAL(x->nedges, y->nedges);
    for (int e = 0; e < x->nedges; e++) {
        CU_ASSERT_EQUAL(x->edges[e].src, y->edges[e].src);
        CU_ASSERT_EQUAL(x->edges[e].dst, y->edges[e].dst);
        /* data sizes are whole bytes: each side is rounded by at most 0.5 */
        CU_ASSERT_DOUBLE_EQUAL(y->edges[e].bytes, 4 * x->edges[e].bytes, 2.5);
    }
    for (int i = 0; i < x->ntasks; i++)
        CU_ASSERT_EQUAL(x->tasks[i].proc_cost[1], y->tasks[i].proc_cost[1]);
    hs_dag_free(x);
    hs_dag_free(y);
}

/* alpha = 0.1, v = 10 gives hi = max(1, ⌊2·0.1·√10⌋ - 1) = 1, so
 * ten levels of one task; step 2 gives each its parent (drawn or orphan fix);
 * step 3 the root: n0 -> n1 -> … -> n10, whatever the seed. */
static void test_chain(void)
{
    for (int seed = 1; seed <= 50; seed++) {
        struct hs_dag *dag = hs_test_build_seeded("random:v=10,alpha=0.1,seed=%d", seed);
        CU_ASSERT_EQUAL_FATAL(dag->ntasks, 11);
        CU_ASSERT_EQUAL(dag->nedges, 10);
        for (int i = 1; i <= 10; i++) {
            CU_ASSERT_EQUAL(dag->tasks[i].npred, 1);
            CU_ASSERT_EQUAL(dag->edges[dag->tasks[i].pred[0]].src, i - 1);
        }
        hs_dag_free(dag);
    }
}

/* alpha = 10, v = 10: hi = ⌊2·10·√10⌋ - 1 = 62, W ~ U{1..62};
 * the DAG is one level of ten independent tasks exactly when the first width
 * is >= 10, i.e. with probability 53/62 (a tempting reading of alpha says
 * always; see docs/workloads.md). Over N seeds the fraction is binomial: 4σ =
 * 4·sqrt(p(1-p)/N). A one-level DAG is the root plus 10 tasks it alone feeds. */
static void test_one_level(void)
{
    const int n = 2000;
    int single = 0;
    for (int seed = 1; seed <= n; seed++) {
        struct hs_dag *dag = hs_test_build_seeded("random:v=10,alpha=10,seed=%d", seed);
        struct hs_dagstats st;
        hs_dag_stats(dag, 1e9, 1e9, &st, NULL);
        if (st.depth == 2) {
            single++;
            CU_ASSERT_EQUAL(st.edges, 10);
            CU_ASSERT_EQUAL(st.max_width, 10);
            for (int e = 0; e < dag->nedges; e++)
                CU_ASSERT_EQUAL(dag->edges[e].src, 0);
        }
        hs_dag_free(dag);
    }
    double p = 53.0 / 62;
    CU_ASSERT_DOUBLE_EQUAL((double)single / n, p, 4 * sqrt(p * (1 - p) / n));
}

/* Level widths (counted on longest-path levels, which are the generator's
 * levels: every task of level l+1 has a parent in level l). */
static int level_widths(const struct hs_dag *dag, int *width)
{
    int *level = hs_xmalloc((size_t)dag->ntasks * sizeof(int));
    struct hs_dagstats st;
    hs_dag_stats(dag, 1e9, 1e9, &st, level);
    memset(width, 0, (size_t)st.depth * sizeof(int));
    for (int i = 0; i < dag->ntasks; i++)
        width[level[i]]++;
    free(level);
    return st.depth;
}

/* Exact mean and variance of the number of G1 levels for v tasks: N(r) = 1 +
 * N(r - W), W ~ U{1..hi}, N(r <= 0) = 0, by dynamic programming. */
static void g1_levels_moments(int v, int hi, double *mean, double *var)
{
    double *f = hs_xcalloc((size_t)v + 1, sizeof(double)), *g = hs_xcalloc((size_t)v + 1, sizeof(double));
    for (int r = 1; r <= v; r++) {
        double sf = 0, sg = 0;
        for (int w = 1; w <= hi; w++) {
            int left = r - w > 0 ? r - w : 0;
            sf += f[left];
            sg += g[left];
        }
        f[r] = 1 + sf / hi;
        g[r] = 1 + 2 * sf / hi + sg / hi;
    }
    *mean = f[v];
    *var = g[v] - f[v] * f[v];
    free(f);
    free(g);
}

static void check_g1_depth(int v, double alpha, double rel_topcuoglu)
{
    int hi = (int)fmax(1, floor(2 * alpha * sqrt(v)) - 1);
    double mean, var, sum = 0;
    g1_levels_moments(v, hi, &mean, &var);
    int *width = hs_xmalloc((size_t)v * sizeof(int));
    char fmt[128];
    snprintf(fmt, sizeof fmt, "random:v=%d,alpha=%g,root=0,seed=%%d", v, alpha);
    for (int seed = 1; seed <= NDAG; seed++) {
        struct hs_dag *dag = hs_test_build_seeded(fmt, seed);
        int depth = level_widths(dag, width);
        for (int l = 0; l < depth; l++)
            CU_ASSERT(width[l] >= 1 && width[l] <= hi);
        sum += depth;
        hs_dag_free(dag);
    }
    CU_ASSERT_DOUBLE_EQUAL(sum / NDAG, mean, 4 * sqrt(var / NDAG));
    /* Topcuoglu's mean height √v/alpha ("about"): the exact mean
     * exceeds v/E[W] by the overshoot of the last level */
    HS_ASSERT_NEAR_REL(sum / NDAG, sqrt(v) / alpha, rel_topcuoglu);
    free(width);
}

static void test_g1_depth(void)
{
    check_g1_depth(400, 1, 0.05);   /* hi 39, ≈ 20 levels */
    check_g1_depth(100, 0.5, 0.05); /* hi 9, ≈ 20 levels */
    /* widths U{1..446}: about 2-3 levels for √v/alpha = 2.24 */
    check_g1_depth(500, 10, 0.35);
}

/* G2: H ~ U{1..max(1, round(2√v/alpha) - 1)}, cut to v; every level holds a
 * task, so the depth is H: mean and variance of the discrete uniform. */
static void test_g2_depth(void)
{
    int v = 400, hi = (int)lround(2 * sqrt(400) / 0.5) - 1; /* 79 */
    double sum = 0, mean = (1 + hi) / 2.0, var = ((double)hi * hi - 1) / 12;
    int *width = hs_xmalloc((size_t)v * sizeof(int));
    for (int seed = 1; seed <= NDAG; seed++) {
        struct hs_dag *dag = hs_test_build_seeded("random:v=400,alpha=0.5,gen=G2,root=0,seed=%d", seed);
        CU_ASSERT_EQUAL(dag->ntasks, v);
        sum += level_widths(dag, width);
        hs_dag_free(dag);
    }
    CU_ASSERT_DOUBLE_EQUAL(sum / NDAG, mean, 4 * sqrt(var / NDAG));
    free(width);
}

/* Out-degree. Given the level widths, a task of level l draws d ~ U{0..5} cut
 * to W' = |level l+1|: E[min(d, W')], Var[min(d, W')]; a task of level l+1
 * misses each parent's draw with probability q = 1 - E[min(d, W')]/W', so it
 * is an orphan (one more edge) with probability q^W (W = |level l|). Draws
 * are independent; orphan indicators of one level are negatively associated,
 * so their variance is at most Σ p(1-p). Bound: σ <= σ_draws + σ_orphans. */
static void expected_edges(const int *w, int depth, double *mean, double *var_d, double *var_o)
{
    for (int l = 0; l + 1 < depth; l++) {
        double m = 0, m2 = 0;
        for (int d = 0; d <= 5; d++) {
            int k = d < w[l + 1] ? d : w[l + 1];
            m += k / 6.0;
            m2 += (double)k * k / 6.0;
        }
        double p = pow(1 - m / w[l + 1], w[l]);
        *mean += w[l] * m + w[l + 1] * p;
        *var_d += w[l] * (m2 - m * m);
        *var_o += w[l + 1] * p * (1 - p);
    }
}

static void test_out_degree(void)
{
    double obs = 0, mean = 0, var_d = 0, var_o = 0, nonlast = 0;
    int *width = hs_xmalloc(400 * sizeof(int));
    for (int seed = 1; seed <= NDAG; seed++) {
        struct hs_dag *dag = hs_test_build_seeded("random:v=400,alpha=1,root=0,seed=%d", seed);
        int depth = level_widths(dag, width);
        expected_edges(width, depth, &mean, &var_d, &var_o);
        obs += dag->nedges;
        nonlast += dag->ntasks - width[depth - 1];
        hs_dag_free(dag);
    }
    CU_ASSERT_DOUBLE_EQUAL(obs, mean, 4 * (sqrt(var_d) + sqrt(var_o)));
    /* with ~20-wide levels the mean out-degree of non-exit levels is the
     * requested (0+5)/2 = 2.5 plus the orphan fixes (a few tenths) */
    CU_ASSERT(obs / nonlast > 2.5 && obs / nonlast < 3.0);
    free(width);
}

/* Realised CCR pooled over DAGs: mean edge cost / mean task cost. Edge costs
 * c ~ U[0, 2·ccr·wdag]: mean ccr·wdag, relative variance 1/3 per edge. A
 * task's mean cost m = w̄(1 + b·ū), w̄ ~ U(0, 2wdag), b = beta/2, ū the mean of
 * p U[-1,1]: E m = wdag, Var m = wdag²((4/3)(1 + b²/(3p)) - 1). Delta method:
 * relative variance of the ratio = Var m / (wdag² n_tasks) + 1 / (3 n_edges). */
static void check_ccr(const char *fmt, double ccr, double beta, int p)
{
    double comm = 0, work = 0, ne = 0, nt = 0;
    for (int seed = 1; seed <= NDAG; seed++) {
        struct hs_dag *dag = hs_test_build_seeded(fmt, seed);
        struct hs_dagstats st;
        hs_dag_stats(dag, 1e9, 1e9, &st, NULL);
        comm += st.total_comm;
        work += st.total_work;
        ne += st.edges;
        nt += st.tasks;
        hs_dag_free(dag);
    }
    double b = beta / 2, var_m = 4.0 / 3 * (1 + b * b / (3 * p)) - 1;
    double rel_sd = sqrt(var_m / nt + 1 / (3 * ne));
    HS_ASSERT_NEAR_REL((comm / ne) / (work / nt), ccr, 4 * rel_sd);
}

static void test_ccr(void)
{
    check_ccr("random:v=100,ccr=5,root=0,seed=%d", 5, 1.5, 2);
    check_ccr("random:v=100,ccr=0.1,alpha=5,p=4,beta=0.5,root=0,seed=%d", 0.1, 0.5, 4);
    /* comm=abs: c ~ U[0, 2·ccr] seconds, so the ratio is ccr / wdag */
    check_ccr("random:v=100,ccr=10,comm=abs,wdag=50,root=0,seed=%d", 10.0 / 50, 1.5, 2);
    /* (root=0 above: the root, a task and edges of cost 0, would lower the
     * ratio by a factor (1 + 1/v) / (1 + root edges / edges).)
     * ccr_normalize: exact per DAG */
    for (int seed = 1; seed <= 20; seed++) {
        struct hs_dag *dag = hs_test_build_seeded("random:v=100,ccr=3,ccr_normalize=1,root=0,seed=%d", seed);
        struct hs_dagstats st;
        hs_dag_stats(dag, 1e9, 1e9, &st, NULL);
        HS_ASSERT_NEAR_REL(st.ccr, 3, 1e-12);
        hs_dag_free(dag);
    }
}

/* Mean |w1 - w2| / (w1 + w2) over tasks (p = 2) is 0.267
 * for beta = 1.5, 0.171 for 1.0, 0.084 for 0.5 (Monte-Carlo values computed independently
 * of hetsim, given to 3 decimals). It does not depend on w̄, so each task is one
 * independent sample: 4 standard errors (SD estimated from the samples) plus
 * that rounding. Also E[w_ip] = wdag (Var as in check_ccr, p = 1). */
static void check_beta(double beta, double expected)
{
    char fmt[128];
    snprintf(fmt, sizeof fmt, "random:v=100,beta=%g,root=0,seed=%%d", beta);
    double s = 0, s2 = 0, sw = 0, n = 0;
    for (int seed = 1; seed <= NDAG; seed++) {
        struct hs_dag *dag = hs_test_build_seeded(fmt, seed);
        for (int i = 0; i < dag->ntasks; i++) {
            const double *w = dag->tasks[i].proc_cost;
            double x = fabs(w[0] - w[1]) / (w[0] + w[1]);
            s += x;
            s2 += x * x;
            sw += w[0];
            n++;
        }
        hs_dag_free(dag);
    }
    double mean = s / n, sd = sqrt((s2 - n * mean * mean) / (n - 1));
    CU_ASSERT_DOUBLE_EQUAL(mean, expected, 4 * sd / sqrt(n) + 0.0005);
    double b = beta / 2, var_w = 4.0 / 3 * (1 + b * b / 3) - 1;
    HS_ASSERT_NEAR_REL(sw / n, 100, 4 * sqrt(var_w / n));
}

static void test_beta(void)
{
    check_beta(1.5, 0.267);
    check_beta(1.0, 0.171);
    check_beta(0.5, 0.084);
    struct hs_dag *dag = hs_test_build_seeded("random:v=50,beta=0,p=3,seed=%d", 1);
    for (int i = 0; i < dag->ntasks; i++) {
        CU_ASSERT_EQUAL(dag->tasks[i].proc_cost[0], dag->tasks[i].proc_cost[1]);
        CU_ASSERT_EQUAL(dag->tasks[i].proc_cost[0], dag->tasks[i].proc_cost[2]);
    }
    hs_dag_free(dag);
}

/* Root, labels, processors, integer costs, out-degree bounds, jump. */
static void test_options(void)
{
    struct hs_dag *dag = hs_test_build_seeded("random:v=30,p=5,seed=%d", 2);
    CU_ASSERT_EQUAL(dag->ntasks, 31);
    CU_ASSERT_EQUAL(dag->nproc_costs, 5);
    CU_ASSERT_STRING_EQUAL(dag->tasks[0].label, "n0");
    CU_ASSERT_STRING_EQUAL(dag->tasks[30].label, "n30");
    CU_ASSERT_EQUAL(dag->tasks[0].npred, 0);
    for (int q = 0; q < 5; q++)
        CU_ASSERT_EQUAL(dag->tasks[0].proc_cost[q], 0);
    for (int k = 0; k < dag->tasks[0].nsucc; k++)
        CU_ASSERT_EQUAL(dag->edges[dag->tasks[0].succ[k]].bytes, 0);
    for (int i = 1; i < dag->ntasks; i++) /* the root or the level above feeds each */
        CU_ASSERT(dag->tasks[i].npred >= 1);
    hs_dag_free(dag);

    dag = hs_test_build_seeded("random:v=200,int_costs=1,ccr=0.5,bw=1,seed=%d", 4);
    for (int i = 1; i < dag->ntasks; i++)
        for (int q = 0; q < 2; q++) {
            double w = dag->tasks[i].proc_cost[q];
            CU_ASSERT(w >= 1 && w == round(w));
        }
    for (int e = 0; e < dag->nedges; e++)
        if (dag->edges[e].src != 0) /* bw = 1: bytes = seconds */
            CU_ASSERT(dag->edges[e].bytes >= 1 && dag->edges[e].bytes == round(dag->edges[e].bytes));
    hs_dag_free(dag);

    /* outdeg_min = outdeg_max = 3: every task above the last level draws 3
     * children, or all of the next level when it is narrower; orphan fixes
     * may add more */
    int width[400], level[400];
    struct hs_dagstats st;
    dag = hs_test_build_seeded("random:v=400,alpha=2,outdeg_min=3,outdeg_max=3,root=0,seed=%d", 5);
    hs_dag_stats(dag, 1e9, 1e9, &st, level);
    level_widths(dag, width);
    for (int i = 0; i < dag->ntasks; i++)
        if (level[i] + 1 < st.depth)
            CU_ASSERT(dag->tasks[i].nsucc >= (width[level[i] + 1] < 3 ? width[level[i] + 1] : 3));
    hs_dag_free(dag);
}

static void check_spans(const char *fmt, int jump, int *longest)
{
    for (int seed = 1; seed <= 20; seed++) {
        struct hs_dag *dag = hs_test_build_seeded(fmt, seed);
        int *level = hs_xmalloc((size_t)dag->ntasks * sizeof(int));
        struct hs_dagstats st;
        hs_dag_stats(dag, 1e9, 1e9, &st, level);
        for (int e = 0; e < dag->nedges; e++) {
            int span = level[dag->edges[e].dst] - level[dag->edges[e].src];
            CU_ASSERT(span >= 1 && span <= jump);
            if (span > *longest)
                *longest = span;
        }
        free(level);
        hs_dag_free(dag);
    }
}

static void test_jump(void)
{
    int longest = 0;
    check_spans("random:v=200,alpha=0.5,root=0,seed=%d", 1, &longest);
    CU_ASSERT_EQUAL(longest, 1);
    longest = 0;
    check_spans("random:v=200,alpha=0.5,jump=3,root=0,seed=%d", 3, &longest);
    CU_ASSERT_EQUAL(longest, 3);
    /* jump past the number of levels: children anywhere below (jump=J) */
    longest = 0;
    check_spans("random:v=200,alpha=0.5,jump=1000,root=0,seed=%d", 1000, &longest);
    CU_ASSERT(longest > 10);
}

static void test_errors(void)
{
    hs_test_bad_workload("random:alpha=0", "parameter alpha: 0 is outside the allowed range (0,inf)");
    hs_test_bad_workload("random:alpha=-1", "parameter alpha");
    hs_test_bad_workload("random:v=0", "parameter v: 0 is outside");
    hs_test_bad_workload("random:ccr=-0.5", "parameter ccr: -0.5 is outside");
    hs_test_bad_workload("random:beta=2.5", "parameter beta: 2.5 is outside the allowed range [0,2]");
    hs_test_bad_workload("random:beta=-0.1", "parameter beta");
    hs_test_bad_workload("random:p=0", "parameter p");
    hs_test_bad_workload("random:wdag=0", "parameter wdag");
    hs_test_bad_workload("random:jump=0", "parameter jump");
    hs_test_bad_workload("random:bw=0", "parameter bw");
    hs_test_bad_workload("random:gen=G3", "parameter gen: 'G3' is not one of G1|G2");
    hs_test_bad_workload("random:outdeg_min=4,outdeg_max=2", "outdeg_min=4 is larger than outdeg_max=2");
    hs_test_bad_workload("random:comm=abs,ccr_normalize=1", "contradicts comm=abs");
    hs_test_bad_workload("random:v=ten", "parameter v: 'ten' is not an integer");
    hs_test_bad_workload("random:width=3", "unknown parameter 'width'");
}

/* End to end: per-processor costs for p = 4 on flat:4, under dmda. */
static void test_run_flat(void)
{
    char *rec = hs_test_tmp(".json"), args[512], *err;
    snprintf(args, sizeof args, "run -p flat:4 -w random:v=100,p=4 -s dmda -q -o %s", rec);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, &err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    free(err);
    char *text = hs_test_read_file(rec);
    cJSON *r = cJSON_Parse(text);
    const cJSON *res = cJSON_GetObjectItem(r, "results");
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(res, "tasks")->valueint, 101);
    CU_ASSERT(cJSON_GetObjectItem(res, "makespan")->valuedouble > 0);
    cJSON_Delete(r);
    free(text);
    /* p must match the workers: one line naming both counts, exit 2 */
    CU_ASSERT_EQUAL(hs_test_cli("run -p flat:4 -w random:v=10 -q", NULL, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "per-processor costs for 2 processors but 4 workers"));
    free(err);
    free(rec);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"same seed, same JSON bytes; streams per purpose", test_same_seed_same_bytes},
        {"alpha=0.1, v=10: a 10-task chain", test_chain},
        {"alpha=10, v=10: one level with probability 53/62", test_one_level},
        {"G1 number of levels (exact mean) and √v/alpha", test_g1_depth},
        {"G2 number of levels", test_g2_depth},
        {"out-degree given the level widths", test_out_degree},
        {"realised CCR, comm=abs, ccr_normalize", test_ccr},
        {"beta heterogeneity statistics", test_beta},
        {"root, labels, p, int_costs, out-degree bounds", test_options},
        {"jump: edge spans", test_jump},
        {"bad parameters: one line naming the parameter", test_errors},
        {"run on flat:4 under dmda", test_run_flat},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("random_dag", tests);
}
