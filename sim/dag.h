/* sim/dag.h — the data-flow DAG model: data handles, tasks that access them in
 * R/W/RW mode, and the dependencies inferred from the accesses in submission
 * order (RAW, WAR, WAW; a write-only access renames the handle). Explicit edges
 * are turned into a private handle written by the source and read by the
 * target, so every DAG is data-flow. Workloads build a DAG with this API;
 * the runtime and the policies read it. */
#ifndef HS_DAG_H
#define HS_DAG_H

#include <stdbool.h>

enum hs_mode { HS_MODE_R = 1, HS_MODE_W = 2, HS_MODE_RW = 3 };
#define HS_MODE_READS(m) ((m) & HS_MODE_R)
#define HS_MODE_WRITES(m) ((m) & HS_MODE_W)

enum hs_arch { HS_ARCH_CPU = 0, HS_ARCH_GPU = 1, HS_NARCH = 2 };
#define HS_ARCH_BIT(a) (1u << (a))
#define HS_ARCHMASK_ALL (HS_ARCH_BIT(HS_ARCH_CPU) | HS_ARCH_BIT(HS_ARCH_GPU))

const char *hs_arch_name(enum hs_arch arch);

struct hs_access {
    int handle;
    enum hs_mode mode;
};

/* Fields ordered so that it takes 32 bytes, not 40 (one per datum and per
 * explicit edge: millions in a large DAG). */
struct hs_handle {
    char *name;     /* "A(3,2)"; renamed versions get "#k" appended */
    double bytes;
    int id;
    int origin;     /* id of the first version of this datum */
    int version;    /* 0 for the original */
    bool temporary; /* private handle of an explicit edge: never flushed */
    bool latest;    /* no later version exists (the one flushed to host) */
};

/* Dependency src -> dst; bytes is the data dst reads that src wrote (0 for WAR). */
struct hs_edge {
    int src, dst;
    double bytes;
};

struct hs_task {
    int id;
    char *label;                /* "gemm(3,2,1)" */
    int kernel;                 /* index into dag->kernels */
    int footprint;              /* tile size used by timing tables, 0 if none */
    double flops;
    double arch_cost[HS_NARCH]; /* explicit seconds per architecture, NAN if absent */
    double *proc_cost;          /* explicit seconds per processor, or NULL */
    unsigned arch_mask;         /* architectures this task may run on (SetArch) */
    int naccess;
    struct hs_access *access;
    /* Filled by hs_dag_finalize. */
    int npred, nsucc;
    const int *pred; /* edge indices (dag->edges) whose dst is this task */
    const int *succ; /* edge indices whose src is this task */
    /* Attributes of a DAG file that hetsim does not use (DAGGEN's "alpha"),
     * as key, value, key, value, …, NULL (or NULL if none), kept so that the
     * DOT and JSON writers reproduce them. Freed by hs_dag_free. */
    char **extra;
};

struct hs_dag {
    char *name;
    int ntasks, nhandles, nedges, nkernels;
    struct hs_task *tasks;
    struct hs_handle *handles;
    struct hs_edge *edges;
    char **kernels;
    int nproc_costs;   /* length of every task's proc_cost array (0 if unused) */
    double total_flops; /* LAWN-41 flops of the whole operation (0: sum of tasks) */
    int processors;     /* the processors the file says it was made for (STG's second
                           header field); 0: it says none */
    double runtime_speed; /* > 0: the file gave runtimes, not flops, and a task's flops
                             are its runtime times this (flop/s, the reader's speed=) */
    int *topo;         /* a topological order of task ids */
    bool finalized;
    /* private */
    int *edge_ids;
    int *pred_ids;
    int cap_tasks, cap_handles, cap_kernels;
    struct hs_dag_pool *pool; /* blocks holding labels, names and per-processor costs */
    int *kernel_slots;        /* kernel indices by name hash (-1: free), once there are many */
    int nkernel_slots;        /* a power of two, 0 until then */
};

struct hs_dag *hs_dag_new(const char *name);
void hs_dag_free(struct hs_dag *dag);

/* The index of a kernel name, added if new. */
int hs_dag_kernel(struct hs_dag *dag, const char *kernel_name);
/* The index of a kernel name, or -1 if no task has it. */
int hs_dag_find_kernel(const struct hs_dag *dag, const char *kernel_name);
/* Sizes are whole bytes (SimGrid moves whole bytes): bytes is rounded. */
int hs_dag_add_handle(struct hs_dag *dag, const char *name, double bytes);
int hs_dag_add_task(struct hs_dag *dag, const char *kernel, const char *label, double flops,
                    int footprint);
void hs_dag_access(struct hs_dag *dag, int task, int handle, enum hs_mode mode);
/* Explicit dependency with a data volume: a private handle of `bytes`. */
void hs_dag_add_edge(struct hs_dag *dag, int src, int dst, double bytes);
void hs_dag_set_proc_costs(struct hs_dag *dag, int task, const double *costs, int n);

/* Infer dependencies, rename write-only accesses, check for cycles, compute a
 * topological order. Returns 0, or -1 with hs_fail (a cycle, an empty DAG). */
int hs_dag_finalize(struct hs_dag *dag);

double hs_dag_flops(const struct hs_dag *dag); /* total_flops, or the sum of task flops */
double hs_dag_data_bytes(const struct hs_dag *dag); /* the sum of the handles' sizes */

#endif
