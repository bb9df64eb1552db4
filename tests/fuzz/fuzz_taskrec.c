/* tests/fuzz/fuzz_taskrec.c — the reader of StarPU's tasks.rec
 * (workloads/taskrec_records.c, taskrec_read.c: a StarPU run replayed), then
 * the writers and the statistics on what it read. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_dag_file(data, size, "taskrec", ".rec");
    return 0;
}
