/* tests/fuzz/fuzz_stg.c — the reader of Kasahara's Standard Task Graphs
 * (workloads/stg.c), then the writers and the statistics on what it read. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_dag_file(data, size, "stg", ".stg");
    return 0;
}
