/* workloads/cholesky.c — tiled Cholesky factorisation A = L·Lᵀ (lower,
 * right-looking, the loop order of XKaapi's and PLASMA's tile algorithms):
 *
 *   for k:  POTRF(A(k,k):RW)
 *           for m > k:  TRSM(A(k,k):R, A(m,k):RW)
 *           for m > k:  SYRK(A(m,k):R, A(m,m):RW)
 *                       for k < n < m:  GEMM(A(m,k):R, A(n,k):R, A(m,n):RW)
 *
 * NT = n/nb tiles per dimension gives NT POTRF, NT(NT-1)/2 TRSM and SYRK and
 * NT(NT-1)(NT-2)/6 GEMM tasks. Kernel flops and the whole-factorisation count
 * (n³/3 + n²/2 + n/6) follow LAWN 41 as in PLASMA's flops.h. Kernels are named
 * dpotrf, dtrsm, … in double precision and spotrf, … in single. setarch=1
 * adds the hints of the thesis' Kaapi++ code (Lima 2014, Fig. B.2): POTRF on
 * cores only, the other kernels on GPUs only. pardiag=S is the thesis'
 * parallel diagonal (Lima 2014, §5.6.6, Table 5.3): each diagonal tile is cut into S×S
 * views (handles of their own) factorised by a tiled Cholesky on the cores,
 * between a zero-cost "split" task (reads A(k,k), writes the views) and a
 * "merge" task (reads the views, writes A(k,k)), both in host memory.
 *
 * xkcholesky is the same DAG as XKaapi's static task list builds it, with a
 * move task per tile feeding its first user (workloads/moves.c):
 * NT(NT+1)(NT+5)/6 tasks, 352 for NT = 11 (Beniamine 2013,
 * §3.2.2). */
#include "workloads/label.h"
#include "workloads/workload.h"
#include "base/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param cholesky_params[] = {
    {.name = "n", .type = HS_P_INT, .defval = "8192", .range = "[1,inf)",
     .help = "matrix order"},
    {.name = "nb", .type = HS_P_INT, .defval = "512", .range = "[1,inf)",
     .help = "tile size (must divide n)"},
    {.name = "precision", .type = HS_P_CHOICE, .defval = "d", .choices = "d|s",
     .help = "double or single precision"},
    {.name = "setarch", .type = HS_P_BOOL, .defval = "0",
     .help = "XKaapi's SetArch hints: POTRF on cores only, TRSM, SYRK, GEMM on GPUs only"},
    {.name = "pardiag", .type = HS_P_INT, .defval = "0", .range = "[0,inf)",
     .help = "parallel diagonal: factorise each diagonal tile as pardiag-sized sub-tiles on the cores (0: one POTRF)"},
    {0},
};

static double flops_potrf(double b)
{
    return b * b * b / 3 + b * b / 2 + b / 6;
}

struct chol_kernels {
    char potrf[8], trsm[8], syrk[8], gemm[8];
    int elem; /* bytes per element */
};

static int add_task(struct hs_dag *dag, const char *kernel, const char *label, double flops, double b,
                    bool cpu_only)
{
    int t = hs_dag_add_task(dag, kernel, label, flops, (int)b);
    if (cpu_only)
        dag->tasks[t].arch_mask = HS_ARCH_BIT(HS_ARCH_CPU);
    return t;
}

/* A zero-cost task on a core: the views of the diagonal tile are taken and
 * given back in host memory (no kernel, no flops). */
static int add_view_task(struct hs_dag *dag, const char *label)
{
    int t = add_task(dag, "view", label, 0, 0, true);
    dag->tasks[t].arch_cost[HS_ARCH_CPU] = 0;
    return t;
}

static void add_cholesky(struct hs_dag *dag, const struct chol_kernels *kn, const int *A, int nt, double b,
                         const char *prefix, int sub);

/* Step k's factorisation of the diagonal tile: one POTRF, or (sub > 0, the
 * thesis' parallel diagonal, Lima 2014 §5.6.6) the tile cut into sub×sub
 * views factorised by a tiled Cholesky of their own on the cores, between a
 * task that takes the views and one that gives them back. */
static void add_diagonal(struct hs_dag *dag, const struct chol_kernels *kn, int akk, int k, double b, int sub)
{
    char label[64];
    if (sub <= 0) {
        hs_label(label, sizeof label, NULL, "potrf", 1, k, 0, 0);
        hs_dag_access(dag, add_task(dag, kn->potrf, label, flops_potrf(b), b, false), akk, HS_MODE_RW);
        return;
    }
    int ns = (int)b / sub;
    double s = sub;
    int *D = hs_xmalloc((size_t)ns * ns * sizeof(int));
    for (int j = 0; j < ns; j++)
        for (int i = j; i < ns; i++) {
            snprintf(label, sizeof label, "A(%d,%d)[%d,%d]", k, k, i, j);
            D[i * ns + j] = hs_dag_add_handle(dag, label, s * s * kn->elem);
        }
    hs_label(label, sizeof label, NULL, "split", 1, k, 0, 0);
    int t = add_view_task(dag, label);
    hs_dag_access(dag, t, akk, HS_MODE_R);
    for (int j = 0; j < ns; j++)
        for (int i = j; i < ns; i++)
            hs_dag_access(dag, t, D[i * ns + j], HS_MODE_W);
    snprintf(label, sizeof label, "d%d:", k);
    add_cholesky(dag, kn, D, ns, s, label, 0);
    hs_label(label, sizeof label, NULL, "merge", 1, k, 0, 0);
    t = add_view_task(dag, label);
    for (int j = 0; j < ns; j++)
        for (int i = j; i < ns; i++)
            hs_dag_access(dag, t, D[i * ns + j], HS_MODE_R);
    hs_dag_access(dag, t, akk, HS_MODE_RW);
    free(D);
}

/* The right-looking tiled Cholesky of the nt×nt lower tiles A (handles) of
 * size b. prefix is empty for the matrix; the sub-factorisations of the
 * parallel diagonal (prefix "dK:") run on cores only. */
static void add_cholesky(struct hs_dag *dag, const struct chol_kernels *kn, const int *A, int nt, double b,
                         const char *prefix, int sub)
{
    bool cpu = *prefix != 0;
    char label[64];
    for (int k = 0; k < nt; k++) {
        if (cpu) {
            hs_label(label, sizeof label, prefix, "potrf", 1, k, 0, 0);
            hs_dag_access(dag, add_task(dag, kn->potrf, label, flops_potrf(b), b, true), A[k * nt + k],
                          HS_MODE_RW);
        } else
            add_diagonal(dag, kn, A[k * nt + k], k, b, sub);
        for (int m = k + 1; m < nt; m++) {
            hs_label(label, sizeof label, prefix, "trsm", 2, m, k, 0);
            int t = add_task(dag, kn->trsm, label, b * b * (b + 1), b, cpu);
            hs_dag_access(dag, t, A[k * nt + k], HS_MODE_R);
            hs_dag_access(dag, t, A[m * nt + k], HS_MODE_RW);
        }
        for (int m = k + 1; m < nt; m++) {
            hs_label(label, sizeof label, prefix, "syrk", 2, m, k, 0);
            int t = add_task(dag, kn->syrk, label, b * b * (b + 1), b, cpu);
            hs_dag_access(dag, t, A[m * nt + k], HS_MODE_R);
            hs_dag_access(dag, t, A[m * nt + m], HS_MODE_RW);
            for (int j = k + 1; j < m; j++) {
                hs_label(label, sizeof label, prefix, "gemm", 3, m, j, k);
                t = add_task(dag, kn->gemm, label, 2 * b * b * b, b, cpu);
                hs_dag_access(dag, t, A[m * nt + k], HS_MODE_R);
                hs_dag_access(dag, t, A[j * nt + k], HS_MODE_R);
                hs_dag_access(dag, t, A[m * nt + j], HS_MODE_RW);
            }
        }
    }
}

static int build(const struct hs_spec *spec, struct hs_dag *dag, bool moves)
{
    int nt = hs_tiles("cholesky", spec, "n");
    if (nt < 0)
        return -1;
    long nb = hs_spec_int(spec, "nb"), sub = hs_spec_int(spec, "pardiag");
    if (sub > 0 && (sub > nb || nb % sub))
        return hs_fail("workload cholesky: pardiag=%ld does not divide nb=%ld", sub, nb);
    double b = (double)nb, n = (double)hs_spec_int(spec, "n");
    struct chol_kernels kn = {.elem = hs_element_bytes(spec)};
    char p = kn.elem == 4 ? 's' : 'd', label[64];
    snprintf(kn.potrf, sizeof kn.potrf, "%cpotrf", p);
    snprintf(kn.trsm, sizeof kn.trsm, "%ctrsm", p);
    snprintf(kn.syrk, sizeof kn.syrk, "%csyrk", p);
    snprintf(kn.gemm, sizeof kn.gemm, "%cgemm", p);
    int *A = hs_xmalloc((size_t)nt * nt * sizeof(int)); /* lower triangle handles */
    for (int j = 0; j < nt; j++)
        for (int i = j; i < nt; i++) {
            hs_label(label, sizeof label, NULL, "A", 2, i, j, 0);
            A[i * nt + j] = hs_dag_add_handle(dag, label, b * b * kn.elem);
        }
    if (moves)
        hs_add_move_tasks(dag);
    add_cholesky(dag, &kn, A, nt, b, "", (int)sub);
    free(A);
    dag->total_flops = flops_potrf(n);
    if (hs_spec_bool(spec, "setarch")) /* the tasks of a parallel diagonal already stay on cores */
        for (int i = 0; i < dag->ntasks; i++)
            if (dag->tasks[i].arch_mask == HS_ARCHMASK_ALL && strcmp(dag->kernels[dag->tasks[i].kernel], "move") != 0)
                dag->tasks[i].arch_mask = HS_ARCH_BIT(strcmp(dag->kernels[dag->tasks[i].kernel] + 1, "potrf") == 0
                                                          ? HS_ARCH_CPU : HS_ARCH_GPU);
    return 0;
}

static int build_cholesky(const struct hs_spec *spec, struct hs_dag *dag)
{
    return build(spec, dag, false);
}

static int build_xkcholesky(const struct hs_spec *spec, struct hs_dag *dag)
{
    return build(spec, dag, true);
}

const struct hs_workload hs_workload_xkcholesky = {
    .name = "xkcholesky",
    .summary = "tiled Cholesky with XKaapi's move task per tile (Beniamine 2013's DAGs)",
    .params = cholesky_params,
    .build = build_xkcholesky,
};

const struct hs_workload hs_workload_cholesky = {
    .name = "cholesky",
    .summary = "tiled Cholesky factorisation (POTRF, TRSM, SYRK, GEMM)",
    .params = cholesky_params,
    .build = build_cholesky,
};
