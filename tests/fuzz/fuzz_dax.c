/* tests/fuzz/fuzz_dax.c — the Pegasus DAX reader (workloads/dax.c: DAX 2.1
 * and 3.x through libxml2's reader), then the writers and the statistics on
 * what it read. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_dag_file(data, size, "dax", ".dax");
    return 0;
}
