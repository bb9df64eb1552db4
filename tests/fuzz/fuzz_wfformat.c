/* tests/fuzz/fuzz_wfformat.c — the WfFormat reader (workloads/wfformat.c:
 * schemas 1.2 to 1.5), then the writers and the statistics on what it read. */
#include "tests/fuzz/fuzz.h"
#include "workloads/workload.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    char spec[512];
    snprintf(spec, sizeof spec, "wfformat:file=%s", hs_fuzz_file(data, size, ".json"));
    struct hs_dag *dag = hs_workload_build(spec);
    if (dag)
        hs_fuzz_use_dag(dag);
    return 0;
}
