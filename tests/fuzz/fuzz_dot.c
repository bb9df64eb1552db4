/* tests/fuzz/fuzz_dot.c — the DOT DAG reader (workloads/dag_dot_read.c,
 * Graphviz cgraph), then the writers and the statistics on what it read. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_dag_file(data, size, "dot", ".dot");
    return 0;
}
