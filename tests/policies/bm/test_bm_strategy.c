/* tests/policies/bm/test_bm_strategy.c — Beaumont and Marchal's strategies and
 * their event-driven model on cases checked by hand: one processor receives
 * every block exactly once (2n, 3n²) whatever the strategy; two processors
 * of speeds 3 and 1 under sorted-outer with n = 2 receive 6 blocks whatever
 * the order at time 0; two equal processors with n = 2 receive 6 or 8 blocks
 * depending on the random order of their simultaneous requests at time 1,
 * and both happen (random tie-breaking); a dynamic step's blocks and tasks
 * (2 and 2y+1, 3(2y+1) and 3y²+3y+1); the two-phase limits (β = 0 is random
 * allocation, β = ∞ is dynamic); every task allocated once; and the
 * realised-share lower bound (a worker that computed T tasks received at
 * least 2√T, 3T^{2/3} blocks) never beaten. */
#include "policies/bm/bm_model.h"
#include "policies/bm/bm_strategy.h"
#include "tests/support/testing.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static gsl_rng *rng_seeded(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    return r;
}

static struct hs_bm_config config(int dim, int n, int p, enum hs_bm_kind kind, double threshold)
{
    return (struct hs_bm_config){dim, n, p, kind, threshold, {0, 1, 2}};
}

static int run_model(struct hs_bm_config c, const double *speeds, unsigned long seed,
                     struct hs_bm_model_result *r)
{
    gsl_rng *rng = rng_seeded(seed);
    struct hs_bm_model_config mc = {c, speeds, 0};
    int rc = hs_bm_model_run(&mc, rng, NULL, r);
    gsl_rng_free(rng);
    return rc;
}

static const enum hs_bm_kind kinds[] = {HS_BM_RANDOM, HS_BM_SORTED, HS_BM_DYNAMIC, HS_BM_TWOPHASE};

static void test_single_processor(void)
{
    double one = 5;
    for (int dim = 2; dim <= 3; dim++)
        for (int i = 0; i < 4; i++) {
            int n = dim == 2 ? 7 : 4;
            struct hs_bm_model_result r;
            CU_ASSERT_EQUAL_FATAL(run_model(config(dim, n, 1, kinds[i], 3), &one, 3, &r), 0);
            CU_ASSERT_EQUAL(r.blocks, dim == 2 ? 2 * n : 3 * n * n);
            CU_ASSERT_EQUAL(r.tasks[0], dim == 2 ? n * n : n * n * n);
            CU_ASSERT_DOUBLE_EQUAL(r.makespan, r.tasks[0] / one, 1e-12);
            hs_bm_model_result_free(&r);
        }
}

/* Speeds 3 and 1, n = 2, sorted (0,0) (0,1) (1,0) (1,1). If the fast one F
 * asks first at 0: F (0,0) a0 b0, S (0,1) a0 b1, F at 1/3 (1,0) a1, F at 2/3
 * (1,1) b1: 2+2+1+1. If S asks first: S (0,0) a0 b0, F (0,1) a0 b1, F at 1/3
 * (1,0) a1 b0, F at 2/3 (1,1) nothing new: 2+2+2+0. Six either way. */
static void test_sorted_two_speeds(void)
{
    double s[] = {3, 1};
    for (unsigned long seed = 1; seed <= 20; seed++) {
        struct hs_bm_model_result r;
        CU_ASSERT_EQUAL_FATAL(run_model(config(2, 2, 2, HS_BM_SORTED, 0), s, seed, &r), 0);
        CU_ASSERT_EQUAL(r.blocks, 6);
        CU_ASSERT_EQUAL(r.tasks[0], 3);
        CU_ASSERT_EQUAL(r.tasks[1], 1);
        CU_ASSERT_DOUBLE_EQUAL(r.makespan, 1, 1e-12);
        hs_bm_model_result_free(&r);
    }
}

/* Equal speeds, n = 2: A (0,0) a0 b0 and B (0,1) a0 b1 at time 0; at time 1
 * the first to ask gets (1,0), the other (1,1). A first: a1 + a1 = 6 in all;
 * B first: a1 b0 + a1 b1 = 8. Random tie-breaking makes both happen. */
static void test_sorted_two_equal(void)
{
    double s[] = {1, 1};
    int six = 0, eight = 0;
    for (unsigned long seed = 1; seed <= 200; seed++) {
        struct hs_bm_model_result r;
        CU_ASSERT_EQUAL_FATAL(run_model(config(2, 2, 2, HS_BM_SORTED, 0), s, seed, &r), 0);
        six += r.blocks == 6;
        eight += r.blocks == 8;
        CU_ASSERT_EQUAL(r.tasks[0], 2);
        hs_bm_model_result_free(&r);
    }
    CU_ASSERT_EQUAL(six + eight, 200);
    CU_ASSERT_TRUE(six > 70 && eight > 70); /* each about half */
}

/* A dynamic step on its own: y-th step of a lone worker sends 2 (3(2y+1))
 * blocks and takes 2y+1 (3y²+3y+1) tasks. */
static void test_dynamic_steps(void)
{
    gsl_rng *rng = rng_seeded(5);
    for (int dim = 2; dim <= 3; dim++) {
        int n = 6;
        struct hs_bm_config c = config(dim, n, 1, HS_BM_DYNAMIC, 0);
        struct hs_bm_strategy *s = hs_bm_new(&c, rng);
        long before = 0, total = 0;
        for (int y = 0; y < n; y++) {
            const uint32_t *tasks;
            int got = hs_bm_request(s, 0, &tasks);
            CU_ASSERT_EQUAL(got, dim == 2 ? 2 * y + 1 : 3 * y * y + 3 * y + 1);
            CU_ASSERT_EQUAL(hs_bm_blocks(s) - before, dim == 2 ? 2 : 3 * (2 * y + 1));
            for (int t = 0; t < got; t++) /* every block of every task is there */
                for (int f = 0; f < dim; f++)
                    CU_ASSERT_TRUE(hs_bm_holds(s, 0, f, hs_bm_task_block(dim, n, tasks[t], f)));
            before = hs_bm_blocks(s);
            total += got;
        }
        CU_ASSERT_EQUAL(total, dim == 2 ? n * n : n * n * n);
        CU_ASSERT_EQUAL(hs_bm_left(s), 0);
        hs_bm_free(s);
    }
    gsl_rng_free(rng);
}

/* Task ids and blocks: T(i,j) = i n + j reads a_i, b_j; T(i,j,k) reads
 * A_ik = i n + k, B_kj = k n + j, C_ij = i n + j. */
static void test_task_blocks(void)
{
    CU_ASSERT_EQUAL(hs_bm_task_id(2, 10, (int[]){3, 7}), 37);
    CU_ASSERT_EQUAL(hs_bm_task_block(2, 10, 37, 0), 3);
    CU_ASSERT_EQUAL(hs_bm_task_block(2, 10, 37, 1), 7);
    uint32_t t = hs_bm_task_id(3, 10, (int[]){1, 2, 3});
    CU_ASSERT_EQUAL(t, 123);
    CU_ASSERT_EQUAL(hs_bm_task_block(3, 10, t, 0), 13);
    CU_ASSERT_EQUAL(hs_bm_task_block(3, 10, t, 1), 32);
    CU_ASSERT_EQUAL(hs_bm_task_block(3, 10, t, 2), 12);
}

/* Sorted order option: k slowest, then i, then j. */
static void test_sorted_order(void)
{
    gsl_rng *rng = rng_seeded(1);
    struct hs_bm_config c = {3, 3, 1, HS_BM_SORTED, 0, {2, 0, 1}};
    struct hs_bm_strategy *s = hs_bm_new(&c, rng);
    const uint32_t *tasks;
    uint32_t expect[] = {0, 3, 6, 9, 12}; /* (0,0,0) (0,1,0) (0,2,0) (1,0,0) (1,1,0) */
    for (int m = 0; m < 5; m++) {
        CU_ASSERT_EQUAL(hs_bm_request(s, 0, &tasks), 1);
        CU_ASSERT_EQUAL(tasks[0], expect[m]);
    }
    hs_bm_free(s);
    gsl_rng_free(rng);
}

/* β = 0 (threshold ≥ every task) is random allocation, draw for draw; β = ∞
 * (threshold 0) is dynamic allocation. */
static void test_twophase_limits(void)
{
    double s[] = {10, 35, 60, 100, 42};
    for (int dim = 2; dim <= 3; dim++) {
        int n = dim == 2 ? 30 : 9;
        long all = dim == 2 ? n * n : n * n * n;
        struct hs_bm_model_result a, b;
        CU_ASSERT_EQUAL_FATAL(run_model(config(dim, n, 5, HS_BM_TWOPHASE, (double)all), s, 9, &a), 0);
        CU_ASSERT_EQUAL_FATAL(run_model(config(dim, n, 5, HS_BM_RANDOM, 0), s, 9, &b), 0);
        CU_ASSERT_EQUAL(a.blocks, b.blocks);
        CU_ASSERT_EQUAL(a.phase1_tasks, 0);
        CU_ASSERT_DOUBLE_EQUAL(a.switch_time, 0, 0);
        hs_bm_model_result_free(&a), hs_bm_model_result_free(&b);
        CU_ASSERT_EQUAL_FATAL(run_model(config(dim, n, 5, HS_BM_TWOPHASE, 0), s, 9, &a), 0);
        CU_ASSERT_EQUAL_FATAL(run_model(config(dim, n, 5, HS_BM_DYNAMIC, 0), s, 9, &b), 0);
        CU_ASSERT_EQUAL(a.blocks, b.blocks);
        CU_ASSERT_EQUAL(a.phase1_tasks, all);
        CU_ASSERT_TRUE(isnan(a.switch_time));
        hs_bm_model_result_free(&a), hs_bm_model_result_free(&b);
    }
}

/* Invariants over many runs: every task once; Phase 1 sends exactly 2 (3(2y+1))
 * blocks per step; random/sorted never send a block twice (≤ 2np, 3n²p);
 * the realised-share bound Σ 2√T_k (Σ 3 T_k^{2/3}) is never beaten. */
static void test_invariants(void)
{
    double s[7];
    gsl_rng *sp = rng_seeded(77);
    for (int run = 0; run < 12; run++) {
        for (int k = 0; k < 7; k++)
            s[k] = 10 + 90 * gsl_rng_uniform(sp);
        for (int dim = 2; dim <= 3; dim++)
            for (int i = 0; i < 4; i++) {
                int n = dim == 2 ? 40 : 12, p = 7;
                long all = dim == 2 ? n * n : n * n * n;
                struct hs_bm_model_result r;
                double thr = exp(-3.0) * (double)all;
                CU_ASSERT_EQUAL_FATAL(run_model(config(dim, n, p, kinds[i], thr), s, 100 + run, &r), 0);
                long sum = 0, own = 0;
                double bound = 0;
                for (int k = 0; k < p; k++) {
                    sum += r.tasks[k];
                    own += r.blocks_of[k];
                    bound += dim == 2 ? 2 * sqrt((double)r.tasks[k]) : 3 * pow((double)r.tasks[k], 2.0 / 3);
                    if (kinds[i] <= HS_BM_SORTED)
                        CU_ASSERT_TRUE(r.blocks_of[k] <= (dim == 2 ? 2 * n : 3 * n * n));
                }
                CU_ASSERT_EQUAL(sum, all);
                CU_ASSERT_EQUAL(own, r.blocks);
                CU_ASSERT_TRUE(r.blocks >= bound - 1e-9);
                hs_bm_model_result_free(&r);
            }
    }
    gsl_rng_free(sp);
}

/* Phase 1 of a dynamic strategy sends 2 blocks per request (outer). */
static void test_phase1_volume(void)
{
    double s[] = {20, 50, 80};
    struct hs_bm_model_result r;
    CU_ASSERT_EQUAL_FATAL(run_model(config(2, 50, 3, HS_BM_DYNAMIC, 0), s, 4, &r), 0);
    CU_ASSERT_EQUAL(r.blocks, 2 * r.requests);
    hs_bm_model_result_free(&r);
}

/* dyn.5: speeds drift by up to 5% after each task; the run still allocates
 * everything, and a bad drift or speed is refused. */
static void test_drift(void)
{
    double s[] = {100, 90, 110};
    gsl_rng *rng = rng_seeded(2), *drift = rng_seeded(3);
    struct hs_bm_model_config mc = {config(2, 20, 3, HS_BM_RANDOM, 0), s, 0.05};
    struct hs_bm_model_result r;
    CU_ASSERT_EQUAL_FATAL(hs_bm_model_run(&mc, rng, drift, &r), 0);
    CU_ASSERT_EQUAL(r.tasks[0] + r.tasks[1] + r.tasks[2], 400);
    hs_bm_model_result_free(&r);
    mc.drift = 1.5;
    CU_ASSERT_EQUAL(hs_bm_model_run(&mc, rng, drift, &r), -1);
    double bad[] = {1, 0, 1};
    mc.drift = 0;
    mc.speeds = bad;
    CU_ASSERT_EQUAL(hs_bm_model_run(&mc, rng, drift, &r), -1);
    gsl_rng_free(rng), gsl_rng_free(drift);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"one processor receives every block once", test_single_processor},
        {"sorted-outer, speeds 3 and 1, n = 2: 6 blocks", test_sorted_two_speeds},
        {"sorted-outer, two equal speeds: 6 or 8 blocks by random order", test_sorted_two_equal},
        {"dynamic steps: blocks and tasks per step", test_dynamic_steps},
        {"task ids and their blocks", test_task_blocks},
        {"sorted order option", test_sorted_order},
        {"two-phase limits: beta 0 and infinity", test_twophase_limits},
        {"invariants and the realised-share lower bound", test_invariants},
        {"phase-1 volume: 2 blocks per request", test_phase1_volume},
        {"drifting speeds (dyn scenarios)", test_drift},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("bm_strategy", tests);
}
