/* policies/cluster.h — what the cluster policy (cluster.c) shows of its plan
 * once it is initialised: the cluster of each task, for tests and tools. */
#ifndef HS_CLUSTER_H
#define HS_CLUSTER_H

#include "sim/sched.h"

/* Cluster of task t under the running cluster policy; -1 before its init. */
int hs_cluster_of(const struct hs_runtime *s, int t);

#endif
