/* policies/bm/bm_model.c — Beaumont and Marchal's event-driven model of
 * demand-driven allocation (bm_model.h): a min-heap of workers' requests
 * keyed by (time they ask, random tag) (base/evheap.h). */
#include "policies/bm/bm_model.h"
#include "base/evheap.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t random_tag(gsl_rng *rng)
{
    return (uint64_t)gsl_rng_get(rng) << 32 | (uint64_t)gsl_rng_get(rng);
}

/* Seconds worker k takes for c tasks; with drift its speed changes after each. */
static double batch_time(double *speed, int c, double drift, gsl_rng *drift_rng)
{
    if (drift <= 0)
        return c / *speed;
    double t = 0;
    for (int m = 0; m < c; m++) {
        t += 1 / *speed;
        *speed *= 1 + drift * (2 * gsl_rng_uniform(drift_rng) - 1);
    }
    return t;
}

static int check(const struct hs_bm_model_config *c, gsl_rng *drift_rng)
{
    for (int k = 0; k < c->strategy.p; k++)
        if (!(c->speeds[k] > 0) || !isfinite(c->speeds[k]))
            return hs_fail("model: speed of worker %d (%g) is not positive and finite", k, c->speeds[k]);
    if (!(c->drift >= 0 && c->drift < 1))
        return hs_fail("model: drift %g is outside [0, 1)", c->drift);
    if (c->drift > 0 && !drift_rng)
        return hs_fail("model: a drift needs its random stream");
    return 0;
}

int hs_bm_model_run(const struct hs_bm_model_config *c, gsl_rng *rng, gsl_rng *drift_rng,
                    struct hs_bm_model_result *r)
{
    memset(r, 0, sizeof *r);
    if (check(c, drift_rng))
        return -1;
    struct hs_bm_strategy *s = hs_bm_new(&c->strategy, rng);
    if (!s)
        return -1;
    int p = c->strategy.p;
    r->tasks = hs_xcalloc((size_t)p, sizeof *r->tasks);
    r->blocks_of = hs_xcalloc((size_t)p, sizeof *r->blocks_of);
    r->busy = hs_xcalloc((size_t)p, sizeof *r->busy);
    r->switch_time = NAN;
    double *speed = hs_xmalloc((size_t)p * sizeof *speed);
    memcpy(speed, c->speeds, (size_t)p * sizeof *speed);
    struct hs_evheap h = {0};
    for (int k = 0; k < p; k++)
        hs_evheap_push(&h, (struct hs_event){0, random_tag(rng), k});
    while (hs_bm_left(s) > 0) {
        struct hs_event q = hs_evheap_pop(&h);
        int worker = (int)q.id;
        bool phase2 = c->strategy.kind == HS_BM_TWOPHASE && hs_bm_left(s) <= c->strategy.threshold;
        if (phase2 && isnan(r->switch_time))
            r->switch_time = q.time;
        const uint32_t *tasks;
        int got = hs_bm_request(s, worker, &tasks);
        r->requests++;
        double t = batch_time(&speed[worker], got, c->drift, drift_rng);
        r->tasks[worker] += got;
        r->busy[worker] += t;
        r->makespan = fmax(r->makespan, q.time + t);
        hs_evheap_push(&h, (struct hs_event){q.time + t, random_tag(rng), worker});
    }
    r->blocks = hs_bm_blocks(s);
    r->phase1_tasks = hs_bm_phase1_tasks(s);
    for (int k = 0; k < p; k++)
        r->blocks_of[k] = hs_bm_worker_blocks(s, k);
    hs_evheap_free(&h);
    free(speed);
    hs_bm_free(s);
    return 0;
}

void hs_bm_model_result_free(struct hs_bm_model_result *r)
{
    free(r->tasks), free(r->blocks_of), free(r->busy);
    memset(r, 0, sizeof *r);
}
