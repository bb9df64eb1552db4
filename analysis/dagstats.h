/* analysis/dagstats.h — shape and cost figures of a DAG, without a platform
 * (`hetsim dag … --stats`, sweeps):
 *
 *   tasks          number of tasks (a generator's zero-cost root included)
 *   edges          number of dependencies (dag->edges: RAW edges, and the
 *                  zero-byte WAR/WAW edges of data-flow DAGs)
 *   depth          number of tasks on a longest path counted in tasks, i.e.
 *                  the number of levels when each task's level is the length
 *                  of the longest path from an entry task to it (entries: 0)
 *   max_width      the largest number of tasks on one such level (the level
 *                  assignment above, not the maximum antichain)
 *   total_work     sum over tasks of their mean cost
 *   critical_path  longest path when each task weighs its mean cost and each
 *                  edge its mean communication cost bytes / bw (the CPIC of
 *                  Shetti 2014, Eq. 5.2, Topcuoglu's rank_u of the
 *                  entry task)
 *   ccr            (total communication cost / edges) / (total_work / tasks):
 *                  0 when no edge costs anything, inf when only edges do
 *
 * A task's mean cost is, in this order: the mean of its explicit
 * per-processor costs (seconds; negative entries, "cannot run there", left
 * out); the mean of its explicit per-architecture costs (likewise); its flops
 * / speed. Timing tables are not consulted (they belong to a platform). The
 * levels and paths follow the DAG's topological order, which igraph computed
 * in hs_dag_finalize. */
#ifndef HS_DAGSTATS_H
#define HS_DAGSTATS_H

#include "sim/dag.h"

#include <stdio.h>

struct hs_dagstats {
    int tasks, edges, depth, max_width;
    int processors; /* the file's own processor count (0: none said) */
    double total_work;    /* seconds */
    double total_comm;    /* sum of the edges' bytes / bw, seconds */
    double critical_path; /* seconds */
    double ccr;
};

/* Mean cost of a task as defined above (speed in flops per second). */
double hs_task_mean_cost(const struct hs_dag *dag, const struct hs_task *t, double speed);

/* Figures of a finalized DAG. levels: NULL, or dag->ntasks ints that receive
 * each task's level (0 for entry tasks). */
void hs_dag_stats(const struct hs_dag *dag, double speed, double bw, struct hs_dagstats *st,
                  int *levels);

/* One "key: value" line per figure above (tasks … ccr), reals with 12
 * significant digits. */
void hs_dagstats_print(const struct hs_dagstats *st, FILE *out);

#endif
