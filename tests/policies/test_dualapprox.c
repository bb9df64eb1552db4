/* tests/policies/test_dualapprox.c — DADA's dual approximation on batches of
 * independent tasks (policies/dualapprox.c; Bleuse et al. 2014,
 * §3.2, Algorithm 2), with no runtime: hand-computed allocations, and random
 * small instances checked against brute force:
 *   - the first upper bound always fits; the kept allocation fits into
 *     (ρ+α)λ of the final guess λ;
 *   - λ is within ε of the smallest accepted guess (a fine scan of guesses);
 *   - with α = 0 and idle workers, the 2-dual property: a guess at least the
 *     optimal makespan (found by enumerating every allocation) is accepted,
 *     so λ ≤ OPT + ε and the allocation's makespan is at most 2(OPT + ε);
 *   - α = 0 ignores the affinities; with α > 0 a single task goes to its
 *     affinity GPU. */
#include "policies/dualapprox.h"
#include "tests/support/testing.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#define MAXT 7
#define MAXW 4

struct instance {
    int n, P;
    bool is_gpu[MAXW];
    double cost[MAXT * MAXW], ready[MAXW], score[MAXT];
    int aff[MAXT];
    struct hs_da_problem p;
};

static void set_problem(struct instance *in, double alpha)
{
    in->p = (struct hs_da_problem){
        .ntasks = in->n, .nworkers = in->P, .is_gpu = in->is_gpu, .cost = in->cost,
        .ready = in->ready, .aff_worker = in->aff, .aff_score = in->score,
        .alpha = alpha, .rho = 2, .eps_rel = 1e-3, .eps_abs = 1e-9,
    };
}

/* k GPUs (workers 0..k-1) and m cores; every task's class costs. */
static void hand_instance(struct instance *in, int k, int m, int n, const double *cpu, const double *gpu)
{
    memset(in, 0, sizeof *in);
    in->n = n;
    in->P = k + m;
    for (int w = 0; w < in->P; w++)
        in->is_gpu[w] = w < k;
    for (int i = 0; i < n; i++) {
        in->aff[i] = HS_DA_NO_AFFINITY;
        for (int w = 0; w < in->P; w++)
            in->cost[i * in->P + w] = w < k ? gpu[i] : cpu[i];
    }
    set_problem(in, 0);
}

static double solve(const struct instance *in, struct hs_da_schedule *s)
{
    struct hs_dualapprox *da = hs_da_new(&in->p);
    hs_da_schedule_init(s, in->n, in->P);
    double lambda = hs_da_solve(da, s, NULL);
    hs_da_free(da);
    return lambda;
}

static bool accepts(const struct instance *in, double lambda)
{
    struct hs_dualapprox *da = hs_da_new(&in->p);
    struct hs_da_schedule s;
    hs_da_schedule_init(&s, in->n, in->P);
    bool fits = hs_da_assign(da, lambda, &s);
    hs_da_schedule_free(&s);
    hs_da_free(da);
    return fits;
}

/* ---- hand-computed ---------------------------------------------------------- */

/* 2 GPUs, 1 core, six tasks of 1 s on a GPU and 2 s on the core, λ = 2: the
 * GPUs fill in turn (earliest finish, lowest id) up to 2 each, then stop;
 * the last two go to the core (load 4 = ρλ: fits). Below λ = 2 every task
 * fits only on the GPUs (2 s on the core > λ): three each, which fits into
 * 2λ down to λ = 1.5. */
static void test_gpu_filling_stops_at_lambda(void)
{
    double cpu[6] = {2, 2, 2, 2, 2, 2}, gpu[6] = {1, 1, 1, 1, 1, 1};
    struct instance in;
    hand_instance(&in, 2, 1, 6, cpu, gpu);
    struct hs_dualapprox *da = hs_da_new(&in.p);
    struct hs_da_schedule s;
    hs_da_schedule_init(&s, in.n, in.P);
    CU_ASSERT_TRUE(hs_da_assign(da, 2, &s));
    int expect[6] = {0, 1, 0, 1, 2, 2};
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_EQUAL(s.worker[i], expect[i]);
        CU_ASSERT_EQUAL(s.rank[i], i);
    }
    CU_ASSERT_DOUBLE_EQUAL(s.load[0], 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.load[1], 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.load[2], 4, 1e-12);
    CU_ASSERT_TRUE(hs_da_assign(da, 1.9, &s));
    CU_ASSERT_DOUBLE_EQUAL(s.load[0], 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.load[1], 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.load[2], 0, 1e-12);
    CU_ASSERT_TRUE(hs_da_assign(da, 1.5, &s));
    CU_ASSERT_FALSE(hs_da_assign(da, 1.49, &s));
    hs_da_schedule_free(&s);
    hs_da_free(da);
}

/* A task longer than λ on both classes rejects the guess. */
static void test_reject_task_longer_than_lambda(void)
{
    double cpu[2] = {5, 1}, gpu[2] = {5, 1};
    struct instance in;
    hand_instance(&in, 1, 1, 2, cpu, gpu);
    CU_ASSERT_FALSE(accepts(&in, 4.99));
    CU_ASSERT_TRUE(accepts(&in, 5));
}

/* 1 GPU, 1 core, four tasks of 3 s on the core and 1 s on the GPU. Below
 * λ = 3 they all fit only on the GPU (3 > λ): load 4 fits into 2λ from λ = 2
 * on. So λ ends in [2, 2 + ε], ε = 1e-3 × upper (12), all on the GPU. */
static void test_search_on_hand_instance(void)
{
    double cpu[4] = {3, 3, 3, 3}, gpu[4] = {1, 1, 1, 1};
    struct instance in;
    hand_instance(&in, 1, 1, 4, cpu, gpu);
    struct hs_da_schedule s;
    double lambda = solve(&in, &s);
    CU_ASSERT(lambda >= 2 && lambda <= 2 + 12e-3);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(s.worker[i], 0);
    hs_da_schedule_free(&s);
}

/* Three tasks of 1 s on a GPU (10 s on the core), two GPUs and a core, all
 * with affinity for GPU 0. */
static void affine_instance(struct instance *in, double *cpu, double *gpu)
{
    hand_instance(in, 2, 1, 3, cpu, gpu);
    for (int i = 0; i < 3; i++) {
        in->aff[i] = 0;
        in->score[i] = 1;
    }
}

/* Affinity phase: three tasks of 1 s on a GPU (10 s on the core) with
 * affinity for GPU 0, α = 0.5, λ = 2: the first is placed (load 0 < αλ = 1),
 * which brings the load to 1, not below 1: the others go through the balance
 * phase, where they fit only on GPUs, each to the earliest finish: GPU 1,
 * then GPU 0 (GPU 0 and GPU 1 tie at 2: the lowest id). */
static void test_affinity_phase_overreach(void)
{
    double cpu[3] = {10, 10, 10}, gpu[3] = {1, 1, 1};
    struct instance in;
    affine_instance(&in, cpu, gpu);
    set_problem(&in, 0.5);
    struct hs_dualapprox *da = hs_da_new(&in.p);
    struct hs_da_schedule s;
    hs_da_schedule_init(&s, in.n, in.P);
    CU_ASSERT_TRUE(hs_da_assign(da, 2, &s));
    CU_ASSERT_EQUAL(s.worker[0], 0);
    CU_ASSERT_EQUAL(s.worker[1], 1);
    CU_ASSERT_EQUAL(s.worker[2], 0);
    hs_da_schedule_free(&s);
    hs_da_free(da);
}

/* Why DADA(0.25) and DADA(0.5) schedule Cholesky alike: the affinity phase
 * counts whole tasks. Same batch, λ = 2: GPU 0 takes affinity tasks while
 * its load is below αλ, so every α up to 0.5 (αλ <= 1 task) takes one and
 * the second task goes to GPU 1 in the balance phase; from just above 0.5 to
 * 1 (1 < αλ <= 2) it takes two. */
static void test_affinity_steps(void)
{
    double cpu[3] = {10, 10, 10}, gpu[3] = {1, 1, 1};
    struct instance in;
    affine_instance(&in, cpu, gpu);
    const double alphas[] = {0.05, 0.25, 0.5, 0.51, 0.75, 1};
    const int second[] = {1, 1, 1, 0, 0, 0}; /* the worker of the second task */
    for (int a = 0; a < 6; a++) {
        set_problem(&in, alphas[a]);
        struct hs_dualapprox *da = hs_da_new(&in.p);
        struct hs_da_schedule s;
        hs_da_schedule_init(&s, in.n, in.P);
        CU_ASSERT_TRUE(hs_da_assign(da, 2, &s));
        CU_ASSERT_EQUAL(s.worker[0], 0);
        CU_ASSERT_EQUAL(s.worker[1], second[a]);
        hs_da_schedule_free(&s);
        hs_da_free(da);
    }
}

/* One ready task with affinity for GPU 1, which is busy for 10 s while GPU 0
 * is idle: any α > 0 sends it to GPU 1 (load 0 < αλ), α = 0 to GPU 0. */
static void test_single_task_goes_to_affinity_gpu(void)
{
    double cpu[1] = {30}, gpu[1] = {1};
    struct instance in;
    hand_instance(&in, 2, 1, 1, cpu, gpu);
    in.ready[1] = 10;
    in.aff[0] = 1;
    in.score[0] = 2097152;
    double alphas[] = {0, 0.01, 0.5, 1};
    for (int a = 0; a < 4; a++) {
        set_problem(&in, alphas[a]);
        struct hs_da_schedule s;
        solve(&in, &s);
        CU_ASSERT_EQUAL(s.worker[0], alphas[a] > 0 ? 1 : 0);
        hs_da_schedule_free(&s);
    }
}

/* ---- random small instances against brute force ------------------------------ */

static void random_instance(gsl_rng *r, struct instance *in, double alpha, bool idle)
{
    memset(in, 0, sizeof *in);
    int k = 1 + (int)gsl_rng_uniform_int(r, 2), m = 1 + (int)gsl_rng_uniform_int(r, 2);
    in->n = 1 + (int)gsl_rng_uniform_int(r, MAXT);
    in->P = k + m;
    for (int w = 0; w < in->P; w++) {
        in->is_gpu[w] = w < k;
        in->ready[w] = idle ? 0 : 5 * gsl_rng_uniform(r);
    }
    for (int i = 0; i < in->n; i++) {
        double u = gsl_rng_uniform(r), cpu = 1 + 9 * gsl_rng_uniform(r);
        double gpu = cpu / (0.5 + 30 * gsl_rng_uniform(r));
        if (u < 0.2)
            gpu = INFINITY; /* no GPU version */
        else if (u < 0.3)
            cpu = INFINITY; /* no CPU version */
        for (int w = 0; w < in->P; w++)
            in->cost[i * in->P + w] = w < k ? gpu : cpu;
        bool has_aff = isfinite(gpu) && gsl_rng_uniform(r) < 0.5;
        in->aff[i] = has_aff ? (int)gsl_rng_uniform_int(r, (unsigned long)k) : HS_DA_NO_AFFINITY;
        in->score[i] = has_aff ? 1 + gsl_rng_uniform_int(r, 4) : 0;
    }
    set_problem(in, alpha);
}

/* The optimal makespan of the batch on idle workers: every allocation. */
static double brute_force_opt(const struct instance *in)
{
    int code[MAXT] = {0};
    double best = INFINITY;
    for (;;) {
        double load[MAXW] = {0}, span = 0;
        for (int i = 0; i < in->n; i++)
            load[code[i]] += in->cost[i * in->P + code[i]];
        for (int w = 0; w < in->P; w++)
            span = fmax(span, load[w]);
        best = fmin(best, span);
        int i = 0;
        while (i < in->n && ++code[i] == in->P)
            code[i++] = 0;
        if (i == in->n)
            return best;
    }
}

static double eps_of(const struct instance *in)
{
    struct hs_dualapprox *da = hs_da_new(&in->p);
    double upper = hs_da_upper(da);
    hs_da_free(da);
    return fmax(in->p.eps_rel * upper, in->p.eps_abs);
}

/* Every task on a worker that can run it, every load within (ρ+α)λ. */
static void check_fits(const struct instance *in, const struct hs_da_schedule *s, double lambda)
{
    double load[MAXW] = {0};
    for (int i = 0; i < in->n; i++) {
        CU_ASSERT_FATAL(s->worker[i] >= 0 && s->worker[i] < in->P);
        double c = in->cost[i * in->P + s->worker[i]];
        CU_ASSERT(isfinite(c));
        load[s->worker[i]] += c;
    }
    CU_ASSERT_TRUE(s->feasible);
    for (int w = 0; w < in->P; w++) {
        CU_ASSERT_DOUBLE_EQUAL(s->load[w], load[w], 1e-9);
        CU_ASSERT(load[w] <= (in->p.rho + in->p.alpha) * lambda * (1 + 1e-12));
    }
}

/* The smallest guess accepted, by a scan of 20,000 guesses up to upper. */
static double smallest_accepted(const struct instance *in, double *step)
{
    struct hs_dualapprox *da = hs_da_new(&in->p);
    struct hs_da_schedule s;
    hs_da_schedule_init(&s, in->n, in->P);
    double upper = hs_da_upper(da), found = upper;
    *step = upper / 20000;
    for (int j = 0; j <= 20000; j++)
        if (hs_da_assign(da, j * *step, &s)) {
            found = j * *step;
            break;
        }
    hs_da_schedule_free(&s);
    hs_da_free(da);
    return found;
}

static void test_search_against_scan(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2014);
    double alphas[] = {0, 0.25, 0.5, 1};
    for (int trial = 0; trial < 200; trial++) {
        struct instance in;
        random_instance(r, &in, alphas[trial % 4], trial % 2 == 0);
        struct hs_da_schedule s;
        double lambda = solve(&in, &s), step;
        check_fits(&in, &s, lambda);
        struct hs_dualapprox *da = hs_da_new(&in.p);
        CU_ASSERT_TRUE(accepts(&in, hs_da_upper(da))); /* the first upper bound always fits */
        hs_da_free(da);
        double lo = smallest_accepted(&in, &step);
        CU_ASSERT(lambda >= lo - step);
        CU_ASSERT(lambda <= lo + eps_of(&in) + step);
        hs_da_schedule_free(&s);
    }
    gsl_rng_free(r);
}

static void test_two_dual_property(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 1987); /* Hochbaum and Shmoys */
    for (int trial = 0; trial < 300; trial++) {
        struct instance in;
        random_instance(r, &in, 0, true);
        double opt = brute_force_opt(&in);
        CU_ASSERT_TRUE(accepts(&in, opt * (1 + 1e-12)));
        struct hs_da_schedule s;
        double lambda = solve(&in, &s), span = 0;
        CU_ASSERT(lambda <= opt + eps_of(&in));
        for (int w = 0; w < in.P; w++)
            span = fmax(span, s.load[w]);
        CU_ASSERT(span <= 2 * lambda * (1 + 1e-12));
        CU_ASSERT(span >= opt * (1 - 1e-12));
        hs_da_schedule_free(&s);
    }
    gsl_rng_free(r);
}

/* α = 0: the allocation does not depend on the affinities at all. */
static void test_alpha_zero_ignores_affinity(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    for (int trial = 0; trial < 100; trial++) {
        struct instance in;
        random_instance(r, &in, 0, trial % 2 == 0);
        struct hs_da_schedule with, without;
        double l1 = solve(&in, &with);
        in.p.aff_worker = NULL;
        in.p.aff_score = NULL;
        double l2 = solve(&in, &without);
        CU_ASSERT_EQUAL(l1, l2);
        CU_ASSERT_EQUAL(memcmp(with.worker, without.worker, (size_t)in.n * sizeof(int)), 0);
        CU_ASSERT_EQUAL(memcmp(with.rank, without.rank, (size_t)in.n * sizeof(int)), 0);
        hs_da_schedule_free(&with);
        hs_da_schedule_free(&without);
    }
    gsl_rng_free(r);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"GPU filling stops when every GPU reaches lambda", test_gpu_filling_stops_at_lambda},
        {"a task longer than lambda on both classes rejects", test_reject_task_longer_than_lambda},
        {"binary search on a hand-computed batch", test_search_on_hand_instance},
        {"affinity phase keeps the task that crosses alpha*lambda", test_affinity_phase_overreach},
        {"affinity phase counts whole tasks: alpha in steps of a task over lambda", test_affinity_steps},
        {"a single task goes to its affinity GPU when alpha > 0", test_single_task_goes_to_affinity_gpu},
        {"lambda within eps of the smallest accepted guess; fits (rho+alpha)lambda", test_search_against_scan},
        {"alpha = 0 is a 2-dual approximation (brute-force optimum)", test_two_dual_property},
        {"alpha = 0 ignores affinities", test_alpha_zero_ignores_affinity},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("dualapprox", tests);
}
