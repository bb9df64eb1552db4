/* policies/bm/bm_engine.h — the model engine's request-level form, for
 * Beaumont and Marchal's strategies (Beaumont and Marchal 2014): an engine
 * kind of sim/run.h (hs_engine_model_requests) that serves the workers'
 * requests in their own model (bm_model.h) instead of running the runtime.
 * On a free network (flat:P with bw=inf: communication is free and takes no
 * time) the runtime would only hand out tasks at the workers' requests, so
 * the model needs neither the DAG nor the runtime: 10⁶ tasks take a fraction
 * of a second. The record says "engine": "model" and holds the sections of a
 * runtime run's (workers, results with bytes = blocks × block size, GFlop/s,
 * SLR, …), with results.products: the blocks moved, the lower bound for the
 * workers' speeds and their ratio, β, the analysis' predicted ratio and the
 * share of tasks of Phase 1. */
#ifndef HS_BM_ENGINE_H
#define HS_BM_ENGINE_H

#include "base/params.h"
#include "sim/record.h"
#include "sim/run.h"

/* One run at the level of the requests (sim/run.h's hs_request_fn). */
struct hs_request_run {
    const struct hs_spec *policy;   /* one of their eight policies, its parameters checked */
    int dim, n;                     /* the product: 2 outer, 3 matrix; blocks per dimension */
    double block_bytes, task_flops; /* of a block, of a task */
    int p;                          /* processors (flat:P) */
    const double *speeds;           /* p, in flop/s */
    double drift;                   /* after each task a speed is multiplied by 1 + U(-drift, drift) */
    struct hs_record_inputs inputs; /* the record's: names, configuration (the seed), engine reason */
};

extern const struct hs_engine_kind hs_engine_model_requests;

#endif
