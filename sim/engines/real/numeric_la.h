/* sim/engines/real/numeric_la.h — inside the real engine's numerics: what numeric.c
 * shares with the LU (numeric_lu.c) and QR (numeric_qr.c) families and the
 * GPU kernels (numeric_gpu.c): the
 * kernels by operation, the initial values, and where the final tiles are. */
#ifndef HS_REAL_NUMERIC_LA_H
#define HS_REAL_NUMERIC_LA_H

#include "sim/engines/real/numeric.h"

enum hs_op {
    HS_OP_NONE,
    HS_OP_POTRF, HS_OP_TRSM, HS_OP_SYRK, HS_OP_GEMM,    /* Cholesky, GEMM */
    HS_OP_GETRF, HS_OP_GESSM, HS_OP_TSTRF, HS_OP_SSSSM, /* LU */
    HS_OP_GEQRT, HS_OP_ORMQR, HS_OP_TSQRT, HS_OP_TSMQR, /* QR */
};

/* Task t's operation (HS_OP_NONE: no real kernel in this family). */
enum hs_op hs_numeric_op(const struct hs_numeric *num, const struct hs_dag *dag, int t);
/* A uniform number in [0, 1) from a hash of (matrix, r, c). */
double hs_numeric_hashed(unsigned matrix, long r, long c);
/* Initial value of element (r, c) of matrix `matrix` (HS_TILE_A, ...). */
double hs_numeric_initial(const struct hs_numeric *num, int matrix, long r, long c);
/* Handle of the final version of tile (kind, i, j), -1 if none:
 * idx[(kind * nt + i) * nt + j]; free it. */
int *hs_numeric_tile_index(const struct hs_numeric *num, const struct hs_dag *dag);
/* The residual of a factorisation into transformations and an upper
 * triangle (LU, QR): y = A x, then for k = 0..nt-1, diag(k, y_k) and for
 * m > k pair(k, m, y_k, y_m) replay the transformations on y's blocks; the
 * result is compared with U x, U the block upper triangle of the final A
 * tiles (each diagonal tile's upper triangle and the tiles right of it):
 * max |y - U x| / (anorm ||x|| n eps). tile(kind, i, j) gives a final tile. */
struct hs_replay {
    const struct hs_numeric *num;
    void **host;
    const int *idx;
};
void *hs_replay_tile(const struct hs_replay *r, int kind, int i, int j);
typedef void (*hs_replay_diag)(const struct hs_replay *r, int k, void *yk);
typedef void (*hs_replay_pair)(const struct hs_replay *r, int k, int m, void *yk, void *ym);
double hs_numeric_replay_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host,
                                  hs_replay_diag diag, hs_replay_pair pair);

/* Buffers in the task's access order (see workloads/lu.c and qr.c). Each
 * returns false if the operation is not one of its family. */
bool hs_lu_cpu(const struct hs_numeric *num, enum hs_op op, void **b);
double hs_lu_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host);

bool hs_qr_cpu(const struct hs_numeric *num, enum hs_op op, void **b);
double hs_qr_residual(const struct hs_numeric *num, const struct hs_dag *dag, void **host);

#endif
