/* tests/policies/test_heftnc.c — HEFT-NC / HEFT-NCe (policies/heftnc.c) against
 * Shetti 2014 (Chapters 5 and 6): the 32 ranks of the thesis' Table 5.1 on
 * the DAG its ranks imply (the thesis prints the costs, not the edges), the
 * worked decision of its example (Figs. 5.2, 5.3), full schedules of that
 * DAG, HEFT-NCe on Topcuoglu's example, properties on random DAGs, and the
 * parameters.
 *
 * Provenance of the expected values: [E] printed in the thesis, [D] derived
 * by hand from thesis numbers, [X] Topcuoglu et al. 2002, [P] an independent
 * prototype written from the thesis, not in this repository (regression
 * values of the procedure of policies/heftnc.c, not thesis numbers). */
#include "base/util.h"
#include "policies/heftnc.h"
#include "policies/registry.h"
#include "tests/support/testing.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- the DAG of Table 5.1 --------------------------------------------------
 * Costs of Table 5.1 [E]; edges inferred from its ranks [D], all of cost 1,
 * plus the pseudo-root 0 (zero costs) with 0-cost edges to the entry tasks 1,
 * 2, 3, 4, 13. Task i is id i; P1, P2 are workers 0, 1. */
static const double table51_w[17][2] = {{0, 0},     {40, 260},  {286, 352}, {132, 247},
                                        {256, 298}, {97, 299},  {131, 304}, {136, 104},
                                        {165, 308}, {315, 370}, {292, 213}, {172, 136},
                                        {323, 343}, {316, 153}, {14, 45},   {266, 105},
                                        {215, 347}};
static const int table51_e[17][2] = {{2, 6},   {6, 9},   {1, 9},   {1, 5},   {9, 10},  {5, 7},
                                     {5, 8},   {7, 10},  {4, 10},  {10, 12}, {3, 11},  {8, 11},
                                     {11, 15}, {12, 15}, {15, 16}, {13, 14}, {14, 16}};
static const int table51_roots[5] = {1, 2, 3, 4, 13};

static struct hs_dag *table51(void)
{
    struct hs_dag *dag = hs_dag_new("shetti2014-table5.1");
    char label[8];
    for (int i = 0; i <= 16; i++) {
        snprintf(label, sizeof label, "n%d", i);
        hs_dag_set_proc_costs(dag, hs_dag_add_task(dag, "k", label, 0, 0), table51_w[i], 2);
    }
    for (int i = 0; i < 5; i++)
        hs_dag_add_edge(dag, 0, table51_roots[i], 0);
    for (int e = 0; e < 17; e++) /* on flat:P,bw=1 a byte takes one time unit */
        hs_dag_add_edge(dag, table51_e[e][0], table51_e[e][1], 1);
    hs_dag_finalize(dag);
    return dag;
}

static double number(const cJSON *r, const char *key)
{
    return cJSON_GetObjectItem(r, key)->valuedouble;
}

static double field(const cJSON *r, int task, const char *key)
{
    return cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "tasks"), task), key)
        ->valuedouble;
}

/* Predicted and simulated makespans of a policy on a DAG. */
static void check_makespan(const struct hs_run_config *cfg, const struct hs_dag *dag,
                           const char *policy, double expect)
{
    cJSON *r = hs_test_simulate_named(cfg, dag, policy);
    CU_ASSERT_DOUBLE_EQUAL(number(r, "predicted"), expect, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(number(r, "makespan"), expect, 1e-9);
    cJSON_Delete(r);
}

/* ---- ranks and decisions, through a wrapper policy that logs the plan ----- */

static char *dump_file;

static int dump_init(struct hs_runtime *s)
{
    struct hs_nc_options o;
    hs_nc_options_from(hs_sched_params(s), &o);
    struct hs_listsched *ls = hs_ls_new(s);
    double *rank = hs_xcalloc((size_t)ls->ntasks, sizeof(double));
    struct hs_nc_decision *log = hs_xcalloc((size_t)ls->ntasks, sizeof *log);
    hs_nc_plan(ls, &o, rank, log);
    FILE *f = fopen(dump_file, "w");
    for (int t = 0; t < ls->ntasks; t++) {
        const struct hs_nc_decision *d = &log[t];
        fprintf(f, "%.17g %d %d %d %d %d %.17g %.17g %.17g %.17g %.17g %.17g\n", rank[t], d->seq,
                d->gop, d->lop, d->chosen, d->compared, d->weight, d->weight_abstract, d->ratio,
                d->eft_gop, d->eft_lop, d->start);
    }
    fclose(f);
    free(rank);
    free(log);
    hs_ls_commit(ls);
    return 0;
}

/* Plan dag under the heftnc spec; fill rank[] and log[] (ntasks each). */
static void plan_logged(const struct hs_run_config *cfg, const struct hs_dag *dag,
                        const char *spec, double *rank, struct hs_nc_decision *log)
{
    struct hs_policy dump = hs_policy_heftnc;
    dump.init = dump_init;
    dump_file = hs_test_tmp(".txt");
    cJSON *r = hs_test_simulate(cfg, dag, &dump, spec);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "error"));
    cJSON_Delete(r);
    char *text = hs_test_read_file(dump_file), *save = NULL, *line = strtok_r(text, "\n", &save);
    for (int t = 0; t < dag->ntasks; t++, line = strtok_r(NULL, "\n", &save)) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        struct hs_nc_decision *d = &log[t];
        int compared;
        int n = sscanf(line, "%lf %d %d %d %d %d %lf %lf %lf %lf %lf %lf", &rank[t], &d->seq,
                       &d->gop, &d->lop, &d->chosen, &compared, &d->weight, &d->weight_abstract,
                       &d->ratio, &d->eft_gop, &d->eft_lop, &d->start);
        CU_ASSERT_EQUAL_FATAL(n, 12);
        d->compared = compared;
    }
    free(text);
    unlink(dump_file);
    free(dump_file);
}

static double round_half_up(double x)
{
    return floor(x + 0.5);
}

/* Table 5.1 [E]: both rank columns, rounded half-up, and the unrounded values
 * derived from the inferred edges ([D], proposed ranks to 3
 * decimals); sorted by decreasing rank they give the thesis' priority lists
 * (the proposed one with its typo "…,11,3,12,…" read as 13). */
static void test_table51_ranks(void)
{
    static const double heft_col[16] = {1550, 1937, 813, 1333, 1375, 1617, 1176, 860,
                                        1399, 1055, 623,  802, 547,  312,  468,  281};
    static const double nc_col[16] = {355, 403, 238, 262, 320, 348, 250, 253,
                                      273, 225, 176, 166, 172, 92,  146, 82};
    static const double heft_exact[16] = {1549.5, 1937, 813, 1333, 1375, 1617,  1176,  860,
                                          1398.5, 1055, 622.5, 801.5, 547, 311.5, 467.5, 281};
    static const double nc_exact[16] = {354.790, 402.799, 238.262, 261.880, 319.943, 348.174,
                                        250.270, 253.412, 272.624, 224.800, 175.804, 166.173,
                                        172.352, 92.431,  146.339, 81.787};
    static const int heft_order[16] = {2, 6, 1, 9, 5, 4, 7, 10, 8, 3, 12, 11, 13, 15, 14, 16};
    static const int nc_order[16] = {2, 1, 6, 5, 9, 4, 8, 7, 3, 10, 11, 13, 12, 15, 14, 16};
    struct hs_dag *dag = table51();
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    double heft[17], nc[17];
    struct hs_nc_decision log[17];
    plan_logged(&cfg, dag, "heftnc:rank=mean", heft, log);
    plan_logged(&cfg, dag, "heftnc", nc, log);
    for (int i = 1; i <= 16; i++) {
        CU_ASSERT_DOUBLE_EQUAL(heft[i], heft_exact[i - 1], 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(nc[i], nc_exact[i - 1], 5.1e-4);
        CU_ASSERT_EQUAL(round_half_up(heft[i]), heft_col[i - 1]);
        CU_ASSERT_EQUAL(round_half_up(nc[i]), nc_col[i - 1]);
    }
    for (int k = 0; k + 1 < 16; k++) {
        CU_ASSERT(heft[heft_order[k]] > heft[heft_order[k + 1]]);
        CU_ASSERT(nc[nc_order[k]] > nc[nc_order[k + 1]]);
    }
    hs_dag_free(dag);
}

/* The worked example (Figs. 5.2, 5.3) [E/D]: both algorithms put task 2 first on P1 [0,286]. HEFT-NC then
 * takes task 1 (rank 355 > task 6's 348): EFT (326 on P1, 260 on P2), j = P2,
 * k = P1, Weight = 220/(260/40) = 33.846, Weight_abstract = 66·326/260 =
 * 82.754 (literal) or 66·260/326 = 52.638 (semantic), R = 0.409 / 0.643 >
 * 0.3: no cross-over, task 1 on P1 [286,326]. HEFT maps 2 and 6 on P1 and 1
 * on P2 [0,260] [E]. */
static void test_worked_decision(void)
{
    static const char *specs[2] = {"heftnc", "heftnc:abstract=semantic"};
    static const double abstract[2] = {82.754, 52.638}, ratio[2] = {0.409, 0.643};
    struct hs_dag *dag = table51();
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    double rank[17];
    struct hs_nc_decision log[17];
    for (int m = 0; m < 2; m++) {
        plan_logged(&cfg, dag, specs[m], rank, log);
        CU_ASSERT_EQUAL(log[0].seq, 0); /* the pseudo-root, then 2, then 1 */
        CU_ASSERT_EQUAL(log[2].seq, 1);
        CU_ASSERT_EQUAL(log[1].seq, 2);
        CU_ASSERT_EQUAL(log[2].chosen, 0);
        CU_ASSERT_FALSE(log[2].compared);
        CU_ASSERT_DOUBLE_EQUAL(log[2].start, 0, 1e-9);
        const struct hs_nc_decision *d = &log[1];
        CU_ASSERT_EQUAL(d->gop, 1);
        CU_ASSERT_EQUAL(d->lop, 0);
        CU_ASSERT_TRUE(d->compared);
        CU_ASSERT_DOUBLE_EQUAL(d->eft_gop, 260, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(d->eft_lop, 326, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(d->weight, 33.846, 5e-4);
        CU_ASSERT_DOUBLE_EQUAL(d->weight_abstract, abstract[m], 5e-4);
        CU_ASSERT_DOUBLE_EQUAL(d->ratio, ratio[m], 5e-4);
        CU_ASSERT_EQUAL(d->chosen, 0);
        CU_ASSERT_DOUBLE_EQUAL(d->start, 286, 1e-9);
    }
    cJSON *r = hs_test_simulate_named(&cfg, dag, "heft");
    static const double heft_first[3][4] = {{2, 0, 0, 286}, {6, 0, 286, 417}, {1, 1, 0, 260}};
    for (int i = 0; i < 3; i++) {
        int t = (int)heft_first[i][0];
        CU_ASSERT_EQUAL(field(r, t, "worker"), heft_first[i][1]);
        CU_ASSERT_DOUBLE_EQUAL(field(r, t, "start"), heft_first[i][2], 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(field(r, t, "end"), heft_first[i][3], 1e-9);
    }
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* The whole schedules of Table 5.1's DAG, regression values of the
 * independent prototype [P] (not thesis numbers): insertion HEFT 1899,
 * HEFT-NC 1729 (literal or semantic); append HEFT 1899, HEFT-NC 1765 (literal)
 * and 1811 (semantic). Simulated = predicted (no contention). */
static void test_table51_schedules(void)
{
    struct hs_dag *dag = table51();
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    check_makespan(&cfg, dag, "heft", 1899);
    check_makespan(&cfg, dag, "heftnc", 1729);
    check_makespan(&cfg, dag, "heftnc:abstract=semantic", 1729);
    check_makespan(&cfg, dag, "heft:insertion=0", 1899);
    check_makespan(&cfg, dag, "heftnc:insertion=0", 1765);
    check_makespan(&cfg, dag, "heftnc:insertion=0,abstract=semantic", 1811);
    hs_dag_free(dag);
}

/* HEFT-NCe (composite weight, T = 0.3) on Topcuoglu's example:
 * composite ranks 68.969, 42.572, 53.032, 50.116, 37.774, 37.818, 25.400,
 * 18.881, 22.467, 4.667 (by hand: e.g. n10 (21−7)·7/21 = 4.667, n8
 * (14−5)·5/14 + 11 + 4.667 = 18.881) and makespans 76 (literal) / 80
 * (semantic) [P]. */
static void test_topcuoglu_nce(void)
{
    static const double expect[10] = {68.969, 42.572, 53.032, 50.116, 37.774,
                                      37.818, 25.400, 18.881, 22.467, 4.667};
    struct hs_dag *dag = hs_test_topcuoglu();
    struct hs_run_config cfg = hs_test_flat_config(3, NULL);
    double rank[10];
    struct hs_nc_decision log[10];
    plan_logged(&cfg, dag, "heftnc", rank, log);
    for (int i = 0; i < 10; i++)
        CU_ASSERT_DOUBLE_EQUAL(rank[i], expect[i], 5.1e-4);
    check_makespan(&cfg, dag, "heftnc", 76);
    check_makespan(&cfg, dag, "heftnc:abstract=semantic", 80);
    hs_dag_free(dag);
}

/* ---- properties on random DAGs --------------------------------------------- */

/* Same worker, start and end for every task. */
static void check_same_schedule(const struct hs_run_config *cfg, const struct hs_dag *dag,
                                const char *a, const char *b)
{
    cJSON *ra = hs_test_simulate_named(cfg, dag, a), *rb = hs_test_simulate_named(cfg, dag, b);
    int differ = 0;
    for (int t = 0; t < dag->ntasks; t++)
        differ += field(ra, t, "worker") != field(rb, t, "worker") ||
                  fabs(field(ra, t, "start") - field(rb, t, "start")) > 1e-9;
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT_DOUBLE_EQUAL(number(ra, "makespan"), number(rb, "makespan"), 1e-9);
    cJSON_Delete(ra);
    cJSON_Delete(rb);
}

/* T = inf is HEFT's processor selection: with rank=mean it is HEFT, with the
 * default composite rank it is HEFT with the Approach-3 rank (§5.3.1), and so
 * are the as-printed branches with T = 0 (R > 0 always with positive costs
 * → the EFT worker). The default differs from HEFT on some DAG. */
static void test_reductions_to_heft(void)
{
    int nc_differs = 0;
    for (unsigned long seed = 1; seed <= 6; seed++) {
        int p = 2 + (int)seed % 3;
        struct hs_dag *dag = hs_test_random_costs_dag(seed, 40, p);
        struct hs_run_config cfg = hs_test_flat_config(p, NULL);
        check_same_schedule(&cfg, dag, "heft", "heftnc:threshold=inf,rank=mean");
        check_same_schedule(&cfg, dag, "heft:insertion=0",
                            "heftnc:threshold=inf,rank=mean,insertion=0");
        check_same_schedule(&cfg, dag, "heft:rank=composite", "heftnc:threshold=inf");
        check_same_schedule(&cfg, dag, "heft:rank=composite",
                            "heftnc:threshold=0,branches=as-printed");
        cJSON *h = hs_test_simulate_named(&cfg, dag, "heft:rank=composite");
        cJSON *n = hs_test_simulate_named(&cfg, dag, "heftnc");
        for (int t = 0; t < dag->ntasks; t++)
            nc_differs += field(h, t, "worker") != field(n, t, "worker");
        cJSON_Delete(h);
        cJSON_Delete(n);
        hs_dag_free(dag);
    }
    CU_ASSERT(nc_differs > 0);
}

/* T = 0 never crosses: every task runs on a minimum-cost processor. */
static void test_threshold_zero(void)
{
    const char *specs[] = {"heftnc:threshold=0", "heftnc:threshold=0,insertion=0",
                           "heftnc:threshold=0,rank=mean,abstract=semantic,nce_weight=literal"};
    for (unsigned long seed = 11; seed <= 16; seed++) {
        int p = 2 + (int)seed % 3;
        struct hs_dag *dag = hs_test_random_costs_dag(seed, 40, p);
        struct hs_run_config cfg = hs_test_flat_config(p, NULL);
        for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
            cJSON *r = hs_test_simulate_named(&cfg, dag, specs[i]);
            int off_min = 0;
            for (int t = 0; t < dag->ntasks; t++) {
                const double *c = dag->tasks[t].proc_cost;
                double wmin = INFINITY;
                for (int q = 0; q < p; q++)
                    wmin = fmin(wmin, c[q]);
                off_min += c[(int)field(r, t, "worker")] != wmin;
            }
            CU_ASSERT_EQUAL(off_min, 0);
            cJSON_Delete(r);
        }
        hs_dag_free(dag);
    }
}

/* HEFT-NCe at P = 2 is Algorithm 1: the `if` branch exactly when the EFT
 * worker is the cheaper one; otherwise k is the other worker, Weight_Ltask is
 * the task's Eq. 5.1 weight (ws − wf)·wf/ws, Weight_abstract the literal line
 * 17 on the two EFTs, and R ≤ 0.3 crosses to j. Both outcomes occur. */
static void test_two_processors_is_algorithm1(void)
{
    int crossed = 0, kept = 0;
    for (unsigned long seed = 21; seed <= 26; seed++) {
        struct hs_dag *dag = hs_test_random_costs_dag(seed, 60, 2);
        struct hs_run_config cfg = hs_test_flat_config(2, NULL);
        double rank[60];
        struct hs_nc_decision log[60];
        plan_logged(&cfg, dag, "heftnc", rank, log);
        for (int t = 0; t < dag->ntasks; t++) {
            const struct hs_nc_decision *d = &log[t];
            const double *c = dag->tasks[t].proc_cost;
            int j = d->gop, k = 1 - j;
            CU_ASSERT_EQUAL(d->compared, c[j] > c[k]);
            if (!d->compared) {
                CU_ASSERT_EQUAL(d->chosen, j);
                continue;
            }
            double ws = fmax(c[0], c[1]), wf = fmin(c[0], c[1]);
            CU_ASSERT_EQUAL(d->lop, k);
            HS_ASSERT_NEAR_REL(d->weight, (ws - wf) * wf / ws, 1e-12);
            HS_ASSERT_NEAR_REL(d->weight_abstract,
                               (d->eft_lop - d->eft_gop) * d->eft_lop / d->eft_gop, 1e-12);
            CU_ASSERT_EQUAL(d->chosen, d->weight / d->weight_abstract <= 0.3 ? j : k);
            crossed += d->chosen == j;
            kept += d->chosen == k;
        }
        hs_dag_free(dag);
    }
    CU_ASSERT(crossed > 0);
    CU_ASSERT(kept > 0);
}

/* ---- hand-made edge cases --------------------------------------------------- */

/* Independent tasks with the given costs on p processors (at most 3). */
static struct hs_dag *independent(int n, const double (*w)[3], int p)
{
    struct hs_dag *dag = hs_dag_new("independent");
    for (int i = 0; i < n; i++)
        hs_dag_set_proc_costs(dag, hs_dag_add_task(dag, "k", NULL, 0, 0), w[i], p);
    hs_dag_finalize(dag);
    return dag;
}

/* Equal finish times (our reading: to the fastest): B (100, 5) goes first (weight 4.75 > 2.5) to
 * P2 [0,5]; A (10, 5) then finishes at 10 on both, j = P1 (lowest id), k =
 * P2, Weight_abstract = 0, R = inf: A goes to the fastest P2 [5,10] unless
 * T = inf (HEFT's choice, P1 [0,10]); the as-printed branches send R > T to j. */
static void test_equal_finish_times(void)
{
    static const double w[2][3] = {{10, 5}, {100, 5}};
    static const struct {
        const char *spec;
        int worker;
        double start;
    } cases[] = {{"heftnc", 1, 5}, {"heftnc:threshold=inf", 0, 0},
                 {"heftnc:branches=as-printed", 0, 0}};
    struct hs_dag *dag = independent(2, w, 2);
    struct hs_run_config cfg = hs_test_flat_config(2, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double rank[2];
        struct hs_nc_decision log[2];
        plan_logged(&cfg, dag, cases[i].spec, rank, log);
        CU_ASSERT_EQUAL(log[1].seq, 0);
        CU_ASSERT_EQUAL(log[0].gop, 0);
        CU_ASSERT_EQUAL(log[0].lop, 1);
        CU_ASSERT_DOUBLE_EQUAL(log[0].weight_abstract, 0, 0);
        CU_ASSERT_TRUE(isinf(log[0].ratio));
        CU_ASSERT_EQUAL(log[0].chosen, cases[i].worker);
        CU_ASSERT_DOUBLE_EQUAL(log[0].start, cases[i].start, 1e-9);
    }
    hs_dag_free(dag);
}

/* Two identical fastest workers (our tie rule): X (1000, 30, 30) takes P2
 * [0,30] (EFT tie, lowest id), Z (1000, 20, 20) P3 [0,20]; Y (15, 10, 10):
 * EFT 15, 40, 30, so j = P1 and k = P3, the minimum-cost worker that finishes
 * first. Weight = 5·10/15 = 10/3, Weight_abstract = (30 − 15)·30/15 = 30,
 * R = 1/9 ≤ 0.3: Y crosses to P1 [0,15]; with T = 0 it goes to P3 [20,30]. */
static void test_identical_fastest_workers(void)
{
    static const double w[3][3] = {{1000, 30, 30}, {15, 10, 10}, {1000, 20, 20}};
    struct hs_dag *dag = independent(3, w, 3);
    struct hs_run_config cfg = hs_test_flat_config(3, NULL);
    double rank[3];
    struct hs_nc_decision log[3];
    plan_logged(&cfg, dag, "heftnc", rank, log);
    CU_ASSERT_EQUAL(log[0].chosen, 1);
    CU_ASSERT_EQUAL(log[2].chosen, 2);
    const struct hs_nc_decision *y = &log[1];
    CU_ASSERT_EQUAL(y->seq, 2);
    CU_ASSERT_EQUAL(y->gop, 0);
    CU_ASSERT_EQUAL(y->lop, 2);
    CU_ASSERT_DOUBLE_EQUAL(y->weight, 10.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(y->weight_abstract, 30, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(y->ratio, 1.0 / 9, 1e-12);
    CU_ASSERT_EQUAL(y->chosen, 0);
    cJSON *r = hs_test_simulate_named(&cfg, dag, "heftnc:threshold=0");
    CU_ASSERT_EQUAL(field(r, 1, "worker"), 2);
    CU_ASSERT_DOUBLE_EQUAL(field(r, 1, "start"), 20, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(number(r, "makespan"), 30, 1e-9);
    cJSON_Delete(r);
    hs_dag_free(dag);
}

/* ---- parameters ------------------------------------------------------------ */

static void test_params(void)
{
    struct hs_spec s;
    CU_ASSERT_PTR_EQUAL(hs_policy_parse("heftnc", &s), &hs_policy_heftnc);
    char *text = hs_spec_text(&s);
    CU_ASSERT_STRING_EQUAL(text, "heftnc:threshold=0.3,rank=composite,nce_weight=composite,"
                                 "abstract=literal,branches=thesis,insertion=1");
    free(text);
    struct hs_nc_options o;
    hs_nc_options_from(&s, &o);
    CU_ASSERT_DOUBLE_EQUAL(o.threshold, 0.3, 0);
    CU_ASSERT_STRING_EQUAL(o.rank, "composite");
    CU_ASSERT_FALSE(o.nce_literal || o.semantic || o.as_printed);
    CU_ASSERT_TRUE(o.insertion);
    hs_spec_free(&s);
    CU_ASSERT_PTR_NOT_NULL(hs_policy_parse("heftnc:threshold=inf,branches=as-printed", &s));
    hs_nc_options_from(&s, &o);
    CU_ASSERT_TRUE(isinf(o.threshold) && o.as_printed);
    hs_spec_free(&s);
    CU_ASSERT_PTR_NULL(hs_policy_parse("heftnc:threshold=-0.1", &s));
    CU_ASSERT_STRING_EQUAL(hs_last_error(), "policy heftnc: parameter threshold: -0.1 is outside "
                                            "the allowed range [0,inf]");
    CU_ASSERT_PTR_NULL(hs_policy_parse("heftnc:abstract=both", &s));
}

/* nce_weight=literal ranks with Eq. 6.4 as printed, (ws/wf)/(ws − wf):
 * Topcuoglu's n10 (21, 7, 16) weighs 3/14, n9 (18, 12, 20) 20/12/8 plus
 * c(9,10) = 13 and n10's rank. */
static void test_nce_literal_weight(void)
{
    struct hs_dag *dag = hs_test_topcuoglu();
    struct hs_run_config cfg = hs_test_flat_config(3, NULL);
    double rank[10];
    struct hs_nc_decision log[10];
    plan_logged(&cfg, dag, "heftnc:nce_weight=literal", rank, log);
    CU_ASSERT_DOUBLE_EQUAL(rank[9], 3.0 / 14, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(rank[8], 20.0 / 12 / 8 + 13 + 3.0 / 14, 1e-12);
    hs_dag_free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"Table 5.1: 32 ranks and priority lists", test_table51_ranks},
        {"Table 5.1: the worked decision on task 1", test_worked_decision},
        {"Table 5.1: full schedules [P]", test_table51_schedules},
        {"Topcuoglu example: HEFT-NCe ranks, makespans 76/80 [P]", test_topcuoglu_nce},
        {"T = inf (or as-printed T = 0) is HEFT's selection", test_reductions_to_heft},
        {"T = 0 keeps every task on a minimum-cost processor", test_threshold_zero},
        {"P = 2: HEFT-NCe is Algorithm 1", test_two_processors_is_algorithm1},
        {"equal finish times: R = inf", test_equal_finish_times},
        {"identical fastest workers: LOP by earliest finish", test_identical_fastest_workers},
        {"parameters, defaults and ranges", test_params},
        {"nce_weight=literal: Eq. 6.4 as printed", test_nce_literal_weight},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("heftnc", tests);
}
