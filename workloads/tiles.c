/* workloads/tiles.c — tile handles, diagonal regions and kernel
 * architectures of the PLASMA LU and QR workloads (workloads/tiles.h). */
#include "workloads/tiles.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

void hs_tiles_init(struct hs_tiles *m, struct hs_dag *dag, int nt, bool regions, bool setarch)
{
    m->dag = dag;
    m->nt = nt;
    m->regions = regions;
    m->setarch = setarch;
    m->tile = hs_xmalloc((size_t)nt * nt * sizeof(int));
    m->lower = hs_xmalloc((size_t)nt * sizeof(int));
    for (int k = 0; k < nt; k++)
        m->lower[k] = -1;
}

void hs_tiles_add(struct hs_tiles *m, int i, int j, double b, int elem)
{
    char label[64];
    bool split = m->regions && i == j;
    snprintf(label, sizeof label, split ? "A(%d,%d).DU" : "A(%d,%d)", i, j);
    m->tile[i * m->nt + j] = hs_dag_add_handle(m->dag, label, (split ? b * (b + 1) / 2 : b * b) * elem);
    if (split) {
        snprintf(label, sizeof label, "A(%d,%d).L", i, j);
        m->lower[i] = hs_dag_add_handle(m->dag, label, b * (b - 1) / 2 * elem);
    }
}

void hs_tiles_free(struct hs_tiles *m)
{
    free(m->tile);
    free(m->lower);
}

void hs_tiles_access(const struct hs_tiles *m, int task, int i, int j, enum hs_mode mode)
{
    hs_dag_access(m->dag, task, m->tile[i * m->nt + j], mode);
    if (i == j && m->lower[i] >= 0)
        hs_dag_access(m->dag, task, m->lower[i], mode);
}

void hs_tiles_access_lower(const struct hs_tiles *m, int task, int k, enum hs_mode mode)
{
    hs_dag_access(m->dag, task, m->lower[k] >= 0 ? m->lower[k] : m->tile[k * m->nt + k], mode);
}

void hs_tiles_access_upper(const struct hs_tiles *m, int task, int k, enum hs_mode mode)
{
    hs_dag_access(m->dag, task, m->tile[k * m->nt + k], mode);
}

int hs_tiles_task(const struct hs_tiles *m, const char *kernel, const char *label, double flops, int nb,
                  bool update)
{
    int t = hs_dag_add_task(m->dag, kernel, label, flops, nb);
    if (!update)
        m->dag->tasks[t].arch_mask = HS_ARCH_BIT(HS_ARCH_CPU);
    else if (m->setarch)
        m->dag->tasks[t].arch_mask = HS_ARCH_BIT(HS_ARCH_GPU);
    return t;
}
