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

#include "sim/dag.h"
#include "sim/runtime.h"

#include <stdio.h>

/* 0 if every kernel name of the DAG can be written in a tasks.rec; else
 * -1 with hs_fail naming the first that cannot (a line of it ends with a
 * backslash, which rec readers join to the next line). Checked once per
 * kernel, before a run that writes a tasks.rec. */
int hs_trace_taskrec_check(const struct hs_dag *dag);

/* 0, or -1 with hs_fail if the file cannot be written (a kernel
 * hs_trace_taskrec_check refuses, or an error of the stream). */
int hs_trace_write_taskrec(const struct hs_runtime *rt, FILE *out);

#endif
