/* workloads/moves.c — XKaapi's "move" tasks (Beniamine 2013,
 * §3.1.2, §3.1.3): XKaapi's static task list gives every data tile
 * one extra source task that feeds the first task using it, which is how the
 * thesis counts its DAGs (23 nodes and 30 edges for a 3×3-tile LU, 352 nodes
 * for an 11×11-tile Cholesky). Here a move reads its tile at no cost: on a
 * GPU it brings the tile in (a prefetch), on a core it does nothing; its
 * edge to the first user is the write-after-read dependency (0 bytes). */
#include "workloads/workload.h"

#include <stdio.h>

void hs_add_move_tasks(struct hs_dag *dag)
{
    int nhandles = dag->nhandles;
    char label[96];
    for (int h = 0; h < nhandles; h++) {
        snprintf(label, sizeof label, "move(%.80s)", dag->handles[h].name);
        int t = hs_dag_add_task(dag, "move", label, 0, 0);
        dag->tasks[t].arch_cost[HS_ARCH_CPU] = 0;
        dag->tasks[t].arch_cost[HS_ARCH_GPU] = 0;
        hs_dag_access(dag, t, h, HS_MODE_R);
    }
}
