/* workloads/products.c — the independent-task sets of Beaumont and Marchal's
 * outer and matrix products (Beaumont and Marchal 2014, §3.1 and §4.1):
 *
 *   outer   n² tasks T(i,j), each reading blocks a_i and b_j (l elements)
 *   matmul  n³ tasks T(i,j,k), each reading A_ik, B_kj and C_ij (l×l)
 *
 * All data starts in host memory. The paper counts only the blocks the
 * master sends, so outer tasks write nothing, and C_ij is read by every
 * matmul task: each worker then brings each C block once, which is the
 * paper's accounting ("C blocks are sent back at the end … does not change
 * the analysis"), while keeping the tasks independent; the transfer happens
 * at the block's first use instead of at the end. Task flops: l² (outer),
 * 2l³ (matmul). Both ship in one file: they are the same model in 2 and 3
 * dimensions. */
#include "workloads/workload.h"
#include "base/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param outer_params[] = {
    {.name = "n", .type = HS_P_INT, .defval = "100", .range = "[1,100000]",
     .help = "blocks per vector (n² tasks)"},
    {.name = "l", .type = HS_P_INT, .defval = "1024", .range = "[1,inf)",
     .help = "elements per block"},
    {.name = "precision", .type = HS_P_CHOICE, .defval = "d", .choices = "d|s",
     .help = "double or single precision"},
    {0},
};

static const struct hs_param matmul_params[] = {
    {.name = "n", .type = HS_P_INT, .defval = "40", .range = "[1,10000]",
     .help = "blocks per dimension (n³ tasks)"},
    {.name = "l", .type = HS_P_INT, .defval = "256", .range = "[1,inf)",
     .help = "block order (l×l elements)"},
    {.name = "precision", .type = HS_P_CHOICE, .defval = "d", .choices = "d|s",
     .help = "double or single precision"},
    {0},
};

static int *blocks(struct hs_dag *dag, char name, int count, double bytes)
{
    int *ids = hs_xmalloc((size_t)count * sizeof(int));
    char label[32];
    for (int i = 0; i < count; i++) {
        snprintf(label, sizeof label, "%c%d", name, i);
        ids[i] = hs_dag_add_handle(dag, label, bytes);
    }
    return ids;
}

/* Block size and task flops of a checked outer (dim 2) or matmul (dim 3) spec. */
static void shape_of(const struct hs_spec *spec, int dim, struct hs_product_shape *out)
{
    double l = (double)hs_spec_int(spec, "l");
    out->dim = dim;
    out->n = (int)hs_spec_int(spec, "n");
    out->block_bytes = (dim == 2 ? l : l * l) * hs_element_bytes(spec);
    out->task_flops = dim == 2 ? l * l : 2 * l * l * l;
}

static int build_outer(const struct hs_spec *spec, struct hs_dag *dag)
{
    struct hs_product_shape sh;
    shape_of(spec, 2, &sh);
    int n = sh.n;
    int *a = blocks(dag, 'a', n, sh.block_bytes), *b = blocks(dag, 'b', n, sh.block_bytes);
    char label[48];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            snprintf(label, sizeof label, "outer(%d,%d)", i, j);
            int t = hs_dag_add_task(dag, "outer", label, sh.task_flops, (int)hs_spec_int(spec, "l"));
            hs_dag_access(dag, t, a[i], HS_MODE_R);
            hs_dag_access(dag, t, b[j], HS_MODE_R);
        }
    free(a);
    free(b);
    dag->total_flops = (double)n * n * sh.task_flops;
    return 0;
}

static int build_matmul(const struct hs_spec *spec, struct hs_dag *dag)
{
    struct hs_product_shape sh;
    shape_of(spec, 3, &sh);
    int n = sh.n;
    int *A = blocks(dag, 'A', n * n, sh.block_bytes), *B = blocks(dag, 'B', n * n, sh.block_bytes);
    int *C = blocks(dag, 'C', n * n, sh.block_bytes);
    char label[48];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                snprintf(label, sizeof label, "matmul(%d,%d,%d)", i, j, k);
                int t = hs_dag_add_task(dag, "matmul", label, sh.task_flops, (int)hs_spec_int(spec, "l"));
                hs_dag_access(dag, t, A[i * n + k], HS_MODE_R);
                hs_dag_access(dag, t, B[k * n + j], HS_MODE_R);
                hs_dag_access(dag, t, C[i * n + j], HS_MODE_R);
            }
    free(A), free(B), free(C);
    dag->total_flops = (double)n * n * n * sh.task_flops;
    return 0;
}

int hs_product_describe(const char *text, struct hs_product_shape *out)
{
    struct hs_spec spec;
    memset(out, 0, sizeof *out);
    if (hs_spec_parse(text, &spec))
        return -1;
    bool outer = strcmp(spec.name, "outer") == 0, matmul = strcmp(spec.name, "matmul") == 0;
    int rc = 1;
    if (outer || matmul) {
        rc = hs_spec_check(&spec, outer ? outer_params : matmul_params,
                           outer ? "workload outer" : "workload matmul");
        if (rc == 0) {
            shape_of(&spec, outer ? 2 : 3, out);
            out->canonical = hs_spec_text(&spec);
        }
    }
    hs_spec_free(&spec);
    return rc;
}

const struct hs_workload hs_workload_outer = {
    .name = "outer",
    .summary = "outer product a·bᵀ in n² independent block tasks (Beaumont and Marchal)",
    .params = outer_params,
    .build = build_outer,
};

const struct hs_workload hs_workload_matmul = {
    .name = "matmul",
    .summary = "matrix product in n³ independent block tasks (Beaumont and Marchal)",
    .params = matmul_params,
    .build = build_matmul,
};
