/* tests/fuzz/fuzz_wfformat.c — the WfFormat reader (workloads/wfformat.c:
 * schemas 1.2 to 1.5), then the writers and the statistics on what it read. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_dag_file(data, size, "wfformat", ".json");
    return 0;
}
