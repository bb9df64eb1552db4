/* workloads/workload.h — DAG generators behind one interface, reachable as
 * "name:key=value,…" from `hetsim run -w` and `hetsim dag`. Adding a workload
 * is one file plus one line in workload_registry.c. */
#ifndef HS_WORKLOAD_H
#define HS_WORKLOAD_H

#include "sim/dag.h"
#include "base/params.h"

struct hs_workload {
    const char *name;
    const char *summary;
    const struct hs_param *params;
    /* Add the tasks and handles to an empty DAG; -1 with hs_fail on bad values. */
    int (*build)(const struct hs_spec *spec, struct hs_dag *dag);
};

extern const struct hs_workload hs_workload_cholesky;
extern const struct hs_workload hs_workload_xkcholesky;
extern const struct hs_workload hs_workload_gemm;
extern const struct hs_workload hs_workload_lu;
extern const struct hs_workload hs_workload_lunopiv;
extern const struct hs_workload hs_workload_multistep;
extern const struct hs_workload hs_workload_qr;
extern const struct hs_workload hs_workload_outer;
extern const struct hs_workload hs_workload_matmul;
/* DAG files (dag_json_read.c, dag_dot_read.c, wfformat.c) */
extern const struct hs_workload hs_workload_json;
extern const struct hs_workload hs_workload_dot;
extern const struct hs_workload hs_workload_wfformat;
/* Other tools' DAG files (dax.c, pegasus_yaml.c, stg.c, daggen_text.c, taskrec_read.c) */
extern const struct hs_workload hs_workload_dax;
extern const struct hs_workload hs_workload_pegasus;
extern const struct hs_workload hs_workload_stg;
extern const struct hs_workload hs_workload_daggen_text;
extern const struct hs_workload hs_workload_taskrec;
extern const struct hs_workload hs_workload_random;
extern const struct hs_workload hs_workload_daggen;

const struct hs_workload *const *hs_workloads(void);

/* Parse, validate, build and finalize. Returns the DAG (named after the
 * canonical spec, or the name its file gives), or NULL with hs_fail. A text
 * that is the path of a .json, .dot, .gv, .dax, .xml, .yml, .yaml, .stg or .rec file (one
 * with no ':', or an existing file) is read by the workload of that kind. */
struct hs_dag *hs_workload_build(const char *text);

/* Memory that building the workload's DAG needs, estimated from its checked
 * parameters (estimate.c), and its task count in *tasks; 0 when unknown. */
double hs_workload_estimate(const char *name, const struct hs_spec *spec, double *tasks);
/* Refuse (-1 with hs_fail saying how much it needs) a workload whose DAG
 * would not fit in hs_memory_limit() (base/util.h). */
int hs_workload_check_size(const char *name, const struct hs_spec *spec, const char *canonical);
/* The name:key=value form of a workload text (the path of a DAG file becomes
 * json:file=PATH or dot:file=PATH, as hs_workload_build reads it); -1 with hs_fail. */
int hs_workload_spec_parse(const char *text, struct hs_spec *spec);

/* Shared by the dense linear-algebra workloads: tile count of n / nb after
 * checking both are positive and nb divides n; -1 with hs_fail otherwise. */
int hs_tiles(const char *workload, const struct hs_spec *spec, const char *nkey);

/* Inner blocking ib (1 <= ib <= nb) of the LU and QR workloads; -1 with hs_fail. */
int hs_inner_blocking(const char *workload, const struct hs_spec *spec);

/* "d" or "s" -> element size in bytes. */
int hs_element_bytes(const struct hs_spec *spec);

/* XKaapi's move tasks (moves.c): one zero-cost task reading each handle the
 * DAG has so far, added before the tasks that use them. */
void hs_add_move_tasks(struct hs_dag *dag);
/* Beaumont and Marchal's products (products.c) described without building
 * their DAG, for their own model (sim/engines/model/bm_model.h): dimension (2 outer,
 * 3 matmul), blocks per dimension, bytes of a block, flops of a task and the
 * canonical spec (caller frees). 0; 1 if text is not an outer or matmul
 * workload; -1 with hs_fail for bad parameters. */
struct hs_product_shape {
    int dim, n;
    double block_bytes, task_flops;
    char *canonical;
};
int hs_product_describe(const char *text, struct hs_product_shape *out);

#endif
