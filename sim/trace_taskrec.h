/* sim/trace_taskrec.h — a finished run as a StarPU tasks.rec (recutils
 * records, what starpu_fxt_tool writes and StarVZ, starpu_replay and
 * hetsim's taskrec workload read): one record per task, in submission order,
 * with JobId = task + 1, DependsOn, Handles/Modes/Sizes (a datum's handle is
 * the number of its first version, so that renamings replay as they ran),
 * WorkerId, MemoryNode (0 for CPU workers, StarPU's RAM; a GPU's own node),
 * StartTime/EndTime in milliseconds, a Footprint that tells tasks of equal
 * costs apart, GFlop, and hetsim's EdgeHandles: the data of explicit edges,
 * which a replay reads back as edges. */
#ifndef HS_TRACE_TASKREC_H
#define HS_TRACE_TASKREC_H

#include "sim/runtime.h"

#include <stdio.h>

/* 0, or -1 with hs_fail if the file cannot be written. */
int hs_trace_write_taskrec(const struct hs_runtime *rt, FILE *out);

#endif
