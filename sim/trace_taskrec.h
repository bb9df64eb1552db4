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

/* A kernel's name as the tasks.rec writes it (to free): a backslash at the
 * end of one of its lines (a shell line continuation of a workflow's
 * command), which rec readers would join to the next line, removed with its
 * line break as the shell removes them; other names unchanged. */
char *hs_trace_taskrec_name(const char *kernel);

/* Write one warning line to out when kernels of the DAG are so joined,
 * naming the file, the first such task, its kernel before and after, and how
 * many other kernels are; returns how many kernels are joined. Called once,
 * before a run that writes a tasks.rec. */
int hs_trace_taskrec_warn(const struct hs_dag *dag, const char *path, FILE *out);

/* 0, or -1 with hs_fail if the file cannot be written (an error of the
 * stream). */
int hs_trace_write_taskrec(const struct hs_runtime *rt, FILE *out);

#endif
