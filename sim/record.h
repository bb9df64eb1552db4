/* sim/record.h — the run record (JSON, through cJSON): the inputs of a run
 * (platform, workload, policy and their parameters, selection, seed,
 * version) and its results (makespan, predicted makespan, bytes and
 * transfers by direction, tasks per architecture, per-worker busy time and
 * utilisation, evictions, audit counters). Same inputs and seed give a
 * byte-identical record: wall-clock figures are added only on request. */
#ifndef HS_RECORD_H
#define HS_RECORD_H

#include "sim/run.h"

#include <cjson/cJSON.h>
#include <stdio.h>

struct hs_record_inputs {
    const char *platform;  /* as named by the user */
    const char *workload;  /* canonical spec */
    const char *policy;    /* canonical spec */
    const char *perf;      /* timing table as named, or NULL */
    const struct hs_run_config *cfg;
    const char *engine_reason; /* why this engine ran (the command's choice), or NULL */
};

cJSON *hs_record_new(const struct hs_record_inputs *in, const struct hs_run *run);

/* Its "inputs" section for gpus GPU and cpus CPU workers, and the version it
 * records: for runs that do not go through the runtime (Beaumont and
 * Marchal's own model, scenario/bm_scenario.c). */
cJSON *hs_record_inputs_json(const struct hs_record_inputs *in, int gpus, int cpus);
const char *hs_version(void);

/* Every task (worker, ready, popped: taken by its worker, inputs valid,
 * start, end) and transfer (datum, purpose, nodes, bytes, request, start,
 * end) under "events". */
void hs_record_add_events(cJSON *rec, const struct hs_runtime *rt);
/* A measured run's events get each CPU task's "core_time": the CPU time its
 * worker thread had during the kernel (its wall time less what other
 * processes took of the core). Nothing for a simulated run. */
void hs_record_add_core_times(cJSON *rec, const struct hs_run *run);

/* Per-task and per-transfer CSV trace:
 * kind,id,name,what,worker,src,dst,bytes,ready,inputs,start,end */
int hs_trace_write_csv(const struct hs_runtime *rt, FILE *out);

#endif
