/* tests/policies/test_victims.c — the victims of a work-stealing thief
 * (policies/victims.c, issue 55 item 3): the law of the draw that makes
 * every attempt (uniform draws among all P workers, `attempts` of them, then
 * a visit in turn from the thief's right), computed by hand, against
 * 20,000 steals from a seeded stream (chi-square at the 0.1% level, with the
 * stream fixed so that the test is the same at every run); an attempt is
 * made only on a worker with work, never the thief, each at most once per
 * steal; with no other worker with work nothing is drawn. */
#include "policies/victims.h"
#include "tests/support/testing.h"

#include <gsl/gsl_cdf.h>
#include <stdlib.h>
#include <string.h>

#define NSTEALS 20000
#define REFUSE_ALL (-2)

/* What the thief's attempts saw: the workers tried, and how many failed
 * draws or visits came before the accepted one. */
struct log {
    const struct hs_victims *v;
    enum hs_arch arch;
    int self, refuse; /* refuse: a member whose tasks this thief cannot run (-1: none) */
    int tried[64], ntried;
    long missed; /* summed over the calls of one steal */
    bool stranger; /* an attempt on the thief or on a worker without work */
};

static bool try_steal(int victim, long missed, void *ctx)
{
    struct log *g = ctx;
    if (victim == g->self || !hs_victims_has(g->v, g->arch, victim))
        g->stranger = true;
    for (int i = 0; i < g->ntried; i++)
        if (g->tried[i] == victim)
            g->stranger = true; /* twice in one steal */
    g->tried[g->ntried++] = victim;
    g->missed += missed;
    return victim != g->refuse && g->refuse != REFUSE_ALL;
}

static int steal(struct hs_victims *v, int self, long attempts, gsl_rng *r, struct log *g, int refuse)
{
    memset(g, 0, sizeof *g);
    g->v = v;
    g->arch = HS_ARCH_CPU;
    g->self = self;
    g->refuse = refuse;
    return hs_victims_steal(v, HS_ARCH_CPU, self, attempts, r, try_steal, g);
}

/* Pearson's statistic of counts against probabilities, below the 0.1% critical value. */
static void assert_law(const long *count, const double *prob, int n, const char *what)
{
    double x2 = 0;
    int df = -1;
    for (int i = 0; i < n; i++) {
        if (prob[i] == 0) {
            CU_ASSERT_EQUAL(count[i], 0);
            continue;
        }
        double e = prob[i] * NSTEALS;
        x2 += (count[i] - e) * (count[i] - e) / e;
        df++;
    }
    double crit = gsl_cdf_chisq_Qinv(0.001, df);
    if (!(x2 < crit))
        fprintf(stderr, "\n%s: chi-square %.1f >= %.1f (%d degrees of freedom)\n", what, x2, crit, df);
    CU_ASSERT(x2 < crit);
}

static void members(struct hs_victims *v, int P, const int *w, int n)
{
    hs_victims_init(v, P);
    for (int i = 0; i < n; i++)
        hs_victims_set(v, HS_ARCH_CPU, w[i], true);
}

/* 16 workers, thief 4, work on 1, 4, 5, 9, 15, draws never capped: the victim
 * uniform over 1, 5, 9, 15 (the thief's own work is not stolen), the failed
 * draws before it geometric: P(F = f) = (3/4)^f / 4. */
static void test_uniform_over_workers_with_work(void)
{
    struct hs_victims v;
    members(&v, 16, (const int[]){1, 4, 5, 9, 15}, 5);
    CU_ASSERT_EQUAL(hs_victims_others(&v, HS_ARCH_CPU, 4), 4);
    CU_ASSERT_EQUAL(hs_victims_others(&v, HS_ARCH_CPU, 3), 5);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 55);
    long by_worker[16] = {0}, by_missed[6] = {0};
    bool stranger = false;
    for (int i = 0; i < NSTEALS; i++) {
        struct log g;
        int w = steal(&v, 4, 100000, r, &g, -1);
        CU_ASSERT_FATAL(w >= 0 && w < 16 && g.ntried == 1 && g.tried[0] == w);
        stranger |= g.stranger;
        by_worker[w]++;
        by_missed[g.missed < 5 ? g.missed : 5]++;
    }
    CU_ASSERT(!stranger);
    double pw[16] = {0};
    pw[1] = pw[5] = pw[9] = pw[15] = 0.25;
    assert_law(by_worker, pw, 16, "victims");
    double pm[6], tail = 1;
    for (int f = 0; f < 5; f++) {
        pm[f] = 0.25 * tail;
        tail *= 0.75;
    }
    pm[5] = tail;
    assert_law(by_missed, pm, 6, "failed draws");
    gsl_rng_free(r);
    hs_victims_free(&v);
}

/* 10 workers, work on 0, 5, 6, 2 draws then the visit in turn. Thief 3: a
 * draw hits with p = 3/10; victim and failed attempts (v, missed):
 * (any, 0) 0.3/3 each, (any, 1) 0.7·0.3/3 each; both draws fail with 0.49,
 * then 4 (no work) and 5 are visited: (5, 3). Thief 7: the visit goes 8, 9, 0:
 * (0, 4) with 0.49. */
static void test_the_law_with_the_visit_in_turn(void)
{
    struct hs_victims v;
    members(&v, 10, (const int[]){0, 5, 6}, 3);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 56);
    const int thieves[] = {3, 7}, visited[] = {5, 0};
    const long visit_missed[] = {3, 4};
    for (int k = 0; k < 2; k++) {
        long count[10 * 5] = {0}; /* victim * 5 + missed (0..4) */
        bool stranger = false;
        for (int i = 0; i < NSTEALS; i++) {
            struct log g;
            int w = steal(&v, thieves[k], 2, r, &g, -1);
            CU_ASSERT_FATAL(w >= 0 && g.missed <= 4);
            stranger |= g.stranger;
            count[w * 5 + g.missed]++;
        }
        CU_ASSERT(!stranger);
        double p[10 * 5] = {0};
        for (int w = 0; w < 10; w++)
            if (w == 0 || w == 5 || w == 6) {
                p[w * 5] = 0.1;
                p[w * 5 + 1] = 0.07;
            }
        p[visited[k] * 5 + visit_missed[k]] += 0.49;
        assert_law(count, p, 50, thieves[k] == 3 ? "thief 3" : "thief 7 (the visit wraps round)");
    }
    gsl_rng_free(r);
    hs_victims_free(&v);
}

/* A member whose tasks this thief cannot run is tried at most once, and
 * another is found; when every member refuses, each is tried exactly once,
 * in the draws or in the visit, and the steal fails. */
static void test_a_refusing_victim(void)
{
    struct hs_victims v;
    members(&v, 12, (const int[]){2, 3, 8, 11}, 4);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 57);
    for (int i = 0; i < 2000; i++) {
        struct log g;
        int w = steal(&v, 3, i % 4, r, &g, 8); /* attempts 0: straight to the visit in turn */
        CU_ASSERT(w == 2 || w == 11);
        CU_ASSERT(!g.stranger);
        CU_ASSERT(g.ntried <= 2);
    }
    for (int i = 0; i < 2000; i++) {
        struct log g;
        CU_ASSERT_EQUAL(steal(&v, 3, i % 6, r, &g, REFUSE_ALL), -1);
        CU_ASSERT(!g.stranger);
        CU_ASSERT_EQUAL(g.ntried, 3); /* 2, 8 and 11, each once (3 is the thief) */
    }
    CU_ASSERT_EQUAL(hs_victims_others(&v, HS_ARCH_CPU, 3), 3); /* the set is the same */
    gsl_rng_free(r);
    hs_victims_free(&v);
}

/* No other worker with work (none at all, or the thief's own): no attempt,
 * no draw from the stream; a worker that leaves is no longer a victim. */
static void test_no_work_no_draw(void)
{
    struct hs_victims v;
    members(&v, 70, (const int[]){65}, 1);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937), *twin;
    gsl_rng_set(r, 58);
    twin = gsl_rng_clone(r);
    struct log g;
    CU_ASSERT_EQUAL(steal(&v, 65, 0, r, &g, -1), -1);
    CU_ASSERT_EQUAL(g.ntried, 0);
    hs_victims_set(&v, HS_ARCH_CPU, 65, false);
    CU_ASSERT_EQUAL(steal(&v, 0, 0, r, &g, -1), -1);
    CU_ASSERT_EQUAL(g.ntried, 0);
    CU_ASSERT_EQUAL(gsl_rng_get(r), gsl_rng_get(twin)); /* nothing drawn */
    hs_victims_set(&v, HS_ARCH_GPU, 65, true); /* work for GPUs only: not a CPU's victim */
    CU_ASSERT_EQUAL(steal(&v, 0, 0, r, &g, -1), -1);
    hs_victims_set(&v, HS_ARCH_CPU, 65, true);
    hs_victims_set(&v, HS_ARCH_CPU, 2, true);
    hs_victims_set(&v, HS_ARCH_CPU, 65, false);
    CU_ASSERT_EQUAL(steal(&v, 0, 200, r, &g, -1), 2);
    CU_ASSERT_EQUAL(steal(&v, 69, 0, r, &g, -1), 2); /* the visit wraps past 69 to 2: 0 and 1 missed */
    CU_ASSERT_EQUAL(g.missed, 2);
    gsl_rng_free(r);
    gsl_rng_free(twin);
    hs_victims_free(&v);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"the victim is uniform over the other workers with work", test_uniform_over_workers_with_work},
        {"the law of every draw made, with the visit in turn", test_the_law_with_the_visit_in_turn},
        {"a victim with nothing for the thief is tried once", test_a_refusing_victim},
        {"no other worker with work: nothing drawn", test_no_work_no_draw},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("victims", tests);
}
