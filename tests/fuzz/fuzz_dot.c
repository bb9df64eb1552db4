/* tests/fuzz/fuzz_dot.c — the DOT DAG reader (workloads/dag_dot_read.c,
 * Graphviz cgraph), then the writers and the statistics on what it read. */
#include "tests/fuzz/fuzz.h"
#include "workloads/workload.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    char spec[512];
    snprintf(spec, sizeof spec, "dot:file=%s", hs_fuzz_file(data, size, ".dot"));
    struct hs_dag *dag = hs_workload_build(spec);
    if (dag)
        hs_fuzz_use_dag(dag);
    return 0;
}
