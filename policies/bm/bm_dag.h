/* policies/bm/bm_dag.h — Beaumont and Marchal's problems as DAGs of the
 * runtime: recognising the outer product (n² tasks T(i,j) reading a_i, b_j)
 * and the matrix product (n³ tasks T(i,j,k) reading A_ik, B_kj, C_ij) that
 * workloads/products.c builds (or a DAG file with the same structure), and
 * the communication volume of a run in the paper's terms: blocks moved to
 * the workers and the lower bound of the paper's §3.1 (§4.1 for the matrix) for their
 * speeds. */
#ifndef HS_BM_DAG_H
#define HS_BM_DAG_H

#include "sim/sched.h"

struct hs_bm_shape {
    int dim;            /* 2 or 3 */
    int n;              /* blocks per dimension */
    double block_bytes; /* every block's size */
};

/* Is dag the problem of dimension dim (2 or 3; 0: either)? Its handles must
 * be the blocks of each family in turn (a_0…a_{n−1}, b_0…; or A_ik, B_kj,
 * C_ij in row-major order), all of one size, and task t = i·n + j
 * (= (i·n + j)·n + k) must read exactly its blocks, with no dependency. 0
 * and the shape, or -1 with hs_fail saying what differs. */
int hs_bm_dag_shape(const struct hs_dag *dag, int dim, struct hs_bm_shape *shape);

/* Each worker's speed in tasks per second, from the runtime's estimate of a
 * task on it (all tasks of these problems cost the same). */
void hs_bm_worker_speeds(const struct hs_runtime *s, double *speeds);

struct hs_bm_volume {
    double blocks;      /* bytes moved to the workers / block size */
    double lower_bound; /* 2n Σ √rs_k or 3n² Σ rs_k^{2/3} over the workers with a memory of their own */
    double ratio;       /* blocks / lower_bound */
};

/* The volume of a finished run of such a DAG, given the bytes that moved
 * into workers' memories. Workers that compute in host memory (CPU cores
 * next to it) receive nothing and are left out of the bound's sum, though
 * their speed counts in everyone's relative speed. */
void hs_bm_run_volume(const struct hs_runtime *s, const struct hs_bm_shape *shape, double bytes_moved,
                      struct hs_bm_volume *v);

#endif
