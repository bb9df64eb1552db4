/* tests/policies/bm/test_bm_analysis.c — Beaumont and Marchal's analysis against
 * the paper's printed values (β = 4.1705 for the outer product with 20 equal
 * processors and n = 100; 2.92 for the matrix product with 100 processors and
 * n = 40), values derived by hand from the corrected closed forms
 * (docs/policies.md) over a grid of p and n (first-interior-minimum rule,
 * including where there is none), lower bounds by hand, the derivative
 * against finite differences, the GSL ODE integration against the closed
 * forms of Lemmas 1/2/7/8, the exact-switch variant's reference values, and
 * the runtime estimation of the paper's §3.6 (β_hom within 5% of the mean heterogeneous β,
 * volume error at most 0.1%). */
#include "policies/bm/bm_analysis.h"
#include "tests/support/testing.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

static double beta_hom(int dim, int p, int n, bool exact, double *f)
{
    struct hs_bm_analysis a;
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, dim, n, p, NULL), 0);
    double b = hs_bm_beta_star(&a, exact);
    if (f)
        *f = isnan(b) ? NAN : exact ? hs_bm_ratio_exact(&a, b) : hs_bm_ratio(&a, b);
    hs_bm_analysis_free(&a);
    return b;
}

/* The paper: "(4.1705)", "(2.92 on this example)". */
static void test_paper_values(void)
{
    CU_ASSERT_DOUBLE_EQUAL(beta_hom(HS_BM_OUTER, 20, 100, false, NULL), 4.1705, 5e-5);
    CU_ASSERT_DOUBLE_EQUAL(beta_hom(HS_BM_MATRIX, 100, 40, false, NULL), 2.92, 5e-3);
    /* "98.5% of the tasks being processed in the first phase" (β = 4.17) */
    CU_ASSERT_DOUBLE_EQUAL(100 * (1 - exp(-4.17)), 98.5, 0.05);
}

/* Homogeneous β* and F(β*), computed from the corrected closed forms
 * independently of hetsim (the paper prints 4.1705 and 2.92). */
static void test_reference_table(void)
{
    static const struct {
        int dim, p, n;
        double beta, f;
    } ref[] = {
        {2, 20, 100, 4.170547, 2.123366},  {2, 10, 100, 4.401739, 1.997591},
        {2, 50, 100, 3.794305, 2.141471},  {2, 100, 100, 3.470559, 2.099840},
        {2, 200, 100, 3.118889, 2.032703}, {2, 20, 1000, 6.573213, 2.486494},
        {2, 100, 1000, 5.985006, 2.599885}, {3, 100, 40, 2.915811, 2.403994},
        {3, 50, 40, 3.219312, 2.404263},   {3, 200, 40, 2.643126, 2.345784},
        {3, 20, 40, 3.888192, 2.192493},   {3, 100, 100, 3.934722, 2.766773},
        {3, 50, 100, 4.249888, 2.713089},  {3, 200, 100, 3.665904, 2.740943},
    };
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        double f, b = beta_hom(ref[i].dim, ref[i].p, ref[i].n, false, &f);
        CU_ASSERT_DOUBLE_EQUAL(b, ref[i].beta, 1e-5);
        CU_ASSERT_DOUBLE_EQUAL(f, ref[i].f, 1e-5);
    }
}

/* A grid of outer β*_hom (3 decimals) computed the same way, including
 * points without an interior minimum ("none"). */
static void test_reference_grid(void)
{
    static const struct {
        int p, n;
        double beta;
    } ref[] = {
        {10, 10, 1.937},  {10, 1000, 6.683}, {20, 32, 2.933},  {50, 10, 0.969},
        {50, 500, 5.533}, {100, 10, NAN},    {100, 20, 1.521}, {200, 20, 1.013},
        {500, 32, 1.056}, {500, 1000, 5.232}, {1000, 32, NAN}, {1000, 50, 1.238},
        {1000, 1000, 4.878},
    };
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        double b = beta_hom(HS_BM_OUTER, ref[i].p, ref[i].n, false, NULL);
        if (isnan(ref[i].beta)) {
            CU_ASSERT_TRUE(isnan(b));
        } else {
            CU_ASSERT_DOUBLE_EQUAL(b, ref[i].beta, 5e-4);
        }
    }
    /* matrix, n = 40: an interior minimum from p = 15 on (β = 4.842 there) */
    CU_ASSERT_TRUE(isnan(beta_hom(HS_BM_MATRIX, 14, 40, false, NULL)));
    CU_ASSERT_DOUBLE_EQUAL(beta_hom(HS_BM_MATRIX, 15, 40, false, NULL), 4.842, 5e-4);
    CU_ASSERT_TRUE(isnan(beta_hom(HS_BM_MATRIX, 17, 100, false, NULL)));
    CU_ASSERT_FALSE(isnan(beta_hom(HS_BM_MATRIX, 18, 100, false, NULL)));
}

/* LB by hand: speeds 1 and 3 give rs 1/4, 3/4. */
static void test_lower_bound(void)
{
    struct hs_bm_analysis a;
    double s[] = {1, 3};
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_OUTER, 10, 2, s), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_lower_bound(&a), 2 * 10 * (0.5 + sqrt(0.75)), 1e-12);
    hs_bm_analysis_free(&a);
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_MATRIX, 10, 2, s), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_lower_bound(&a), 3 * 100 * (pow(0.25, 2.0 / 3) + pow(0.75, 2.0 / 3)), 1e-9);
    hs_bm_analysis_free(&a);
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_OUTER, 100, 16, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_lower_bound(&a), 2 * 100 * 4, 1e-9); /* 2n√p */
    hs_bm_analysis_free(&a);
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_MATRIX, 40, 8, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_lower_bound(&a), 3 * 1600 * 2, 1e-9); /* 3n²p^{1/3} */
    hs_bm_analysis_free(&a);
    double bad[] = {1, 0};
    CU_ASSERT_EQUAL(hs_bm_analysis_init(&a, HS_BM_OUTER, 10, 2, bad), -1);
}

/* F' against central differences; the phase volumes add up to F·LB; the
 * homogeneous closed forms, derived by hand. */
static void test_derivative_and_volumes(void)
{
    double s[] = {10, 35, 60, 100, 42, 77};
    for (int dim = 2; dim <= 3; dim++) {
        struct hs_bm_analysis a;
        CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, dim, 50, 6, s), 0);
        for (double b = 0.5; b < 8; b += 0.75) {
            double h = 1e-6, fd = (hs_bm_ratio(&a, b + h) - hs_bm_ratio(&a, b - h)) / (2 * h);
            CU_ASSERT_DOUBLE_EQUAL(hs_bm_ratio_deriv(&a, b), fd, 1e-6 * (1 + fabs(fd)));
            double v1, v2;
            hs_bm_phase_volumes(&a, b, &v1, &v2);
            HS_ASSERT_NEAR_REL(v1 + v2, hs_bm_ratio(&a, b) * hs_bm_lower_bound(&a), 1e-12);
        }
        hs_bm_analysis_free(&a);
    }
    struct hs_bm_analysis a;
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_OUTER, 100, 20, NULL), 0);
    double b = 3, p = 20, n = 100;
    double hom = sqrt(b) - pow(b, 1.5) / (4 * p) + exp(-b) * n / sqrt(p) * (1 - sqrt(b / p));
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_ratio(&a, b), hom, 1e-12);
    hs_bm_analysis_free(&a);
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_MATRIX, 40, 100, NULL), 0);
    p = 100, n = 40;
    hom = pow(b, 2.0 / 3) - pow(b, 5.0 / 3) / p + exp(-b) * n * pow(p, -1.0 / 3) * (1 - pow(b, 2.0 / 3) * pow(p, -2.0 / 3));
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_ratio(&a, b), hom, 1e-12);
    hs_bm_analysis_free(&a);
}

/* GSL odeiv2 against Lemma 1/7 (g = (1 − x^d)^α) and Lemma 2/8
 * (t Σs / n^d = 1 − (1 − x^d)^{α+1}, i.e. u2 = rs (1 − (1 − x^d)^{1/rs})),
 * and x^d = u2 + u3, on [0, 0.99]. */
static void test_ode_lemmas(void)
{
    double rss[] = {1, 0.5, 0.05, 0.3};
    for (int dim = 2; dim <= 3; dim++)
        for (int r = 0; r < 4; r++)
            for (double x = 0; x <= 0.99; x += 0.11) {
                double rs = rss[r], alpha = (1 - rs) / rs, u[3];
                CU_ASSERT_EQUAL_FATAL(hs_bm_ode_solve(dim, rs, x, u), 0);
                double rest = 1 - pow(x, dim);
                CU_ASSERT_DOUBLE_EQUAL(u[0], pow(rest, alpha), 1e-8);
                CU_ASSERT_DOUBLE_EQUAL(u[1] / rs, 1 - pow(rest, alpha + 1), 1e-8);
                CU_ASSERT_DOUBLE_EQUAL(u[1] + u[2], pow(x, dim), 1e-8);
            }
    double u[3];
    CU_ASSERT_EQUAL(hs_bm_ode_solve(2, 0.5, 1.0, u), -1);
}

/* The exact-switch variant (ours, docs/policies.md): its homogeneous values
 * computed independently of hetsim, and the same
 * function rebuilt from integrated switching points. */
static void test_exact_variant(void)
{
    double f;
    CU_ASSERT_DOUBLE_EQUAL(beta_hom(HS_BM_OUTER, 20, 100, true, &f), 4.366498, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(f, 2.177333, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(beta_hom(HS_BM_OUTER, 10, 100, true, NULL), 4.853469, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(beta_hom(HS_BM_MATRIX, 100, 40, true, &f), 2.880380, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(f, 2.456500, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(beta_hom(HS_BM_MATRIX, 10, 40, true, NULL), 3.882995, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(beta_hom(HS_BM_MATRIX, 20, 40, true, NULL), 3.508209, 1e-5);
    double s[] = {12, 99, 45, 70, 23};
    for (int dim = 2; dim <= 3; dim++) {
        struct hs_bm_analysis a;
        CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, dim, 60, 5, s), 0);
        for (double b = 1; b < 7; b += 1.5)
            CU_ASSERT_DOUBLE_EQUAL(hs_bm_ratio_ode(&a, b), hs_bm_ratio_exact(&a, b), 1e-8);
        CU_ASSERT_DOUBLE_EQUAL(hs_bm_beta_star_ode(&a), hs_bm_beta_star(&a, true), 1e-6);
        hs_bm_analysis_free(&a);
    }
}

/* The fallback where F has no interior minimum (ours, docs/policies.md). */
static void test_beta_auto(void)
{
    struct hs_bm_analysis a;
    const char *how;
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_OUTER, 100, 20, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_beta_auto(&a, &how), 4.170547, 1e-5);
    CU_ASSERT_STRING_EQUAL(how, "closed form");
    hs_bm_analysis_free(&a);
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_MATRIX, 40, 10, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_beta_auto(&a, &how), 3.882995, 1e-5); /* no closed-form minimum */
    hs_bm_analysis_free(&a);
    CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_OUTER, 10, 100, NULL), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_bm_beta_auto(&a, &how), 0, 0); /* n = √p: F^X grows from 0 */
    hs_bm_analysis_free(&a);
}

/* The paper's §3.6: over U[10,100] draws, β_hom is within 5% of the mean
 * heterogeneous β, and using it costs at most 0.1% of predicted volume
 * (computed independently: ≤ 0.05% except at p = 10, n = 1000); for p = 20,
 * n = 100 (the paper's Fig. 6 setting) the heterogeneous β* lie in about
 * [4.154, 4.172]. */
static void test_runtime_estimation(void)
{
    static const struct {
        int p, n;
    } pts[] = {{20, 100}, {50, 10}, {100, 100}, {10, 50}, {200, 500}};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 42);
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        int p = pts[i].p, n = pts[i].n, draws = 30;
        double hom = beta_hom(HS_BM_OUTER, p, n, false, NULL), sum = 0, worst = 0;
        double *s = malloc((size_t)p * sizeof *s);
        for (int d = 0; d < draws; d++) {
            for (int k = 0; k < p; k++)
                s[k] = 10 + 90 * gsl_rng_uniform(r);
            struct hs_bm_analysis a;
            CU_ASSERT_EQUAL_FATAL(hs_bm_analysis_init(&a, HS_BM_OUTER, n, p, s), 0);
            double het = hs_bm_beta_star(&a, false);
            sum += het;
            double err = fabs(hs_bm_ratio(&a, hom) - hs_bm_ratio(&a, het)) / hs_bm_ratio(&a, het);
            worst = fmax(worst, err);
            if (p == 20 && n == 100)
                CU_ASSERT_TRUE(het > 4.15 && het < 4.175);
            hs_bm_analysis_free(&a);
        }
        CU_ASSERT_TRUE(fabs(hom - sum / draws) / (sum / draws) < 0.05);
        CU_ASSERT_TRUE(worst <= 0.001);
        free(s);
    }
    gsl_rng_free(r);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"the paper's beta values (4.1705, 2.92)", test_paper_values},
        {"spec table 4.4: beta* and F(beta*)", test_reference_table},
        {"spec grid 4.4, with its points without a minimum", test_reference_grid},
        {"lower bounds by hand", test_lower_bound},
        {"F' by finite differences; phase volumes; homogeneous forms", test_derivative_and_volumes},
        {"GSL odeiv2 against Lemmas 1/2/7/8", test_ode_lemmas},
        {"exact-switch variant and its ODE rebuild", test_exact_variant},
        {"beta=auto and its fallbacks", test_beta_auto},
        {"runtime estimation of beta (paper section 3.6)", test_runtime_estimation},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("bm_analysis", tests);
}
