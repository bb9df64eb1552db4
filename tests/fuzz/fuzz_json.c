/* tests/fuzz/fuzz_json.c — hetsim's JSON DAG reader (workloads/dag_json_read.c;
 * a WfFormat instance in it goes on to wfformat.c), then the writers and the
 * statistics on what it read. */
#include "tests/fuzz/fuzz.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    char spec[512];
    snprintf(spec, sizeof spec, "json:file=%s", hs_fuzz_file(data, size, ".json"));
    struct hs_dag *dag = hs_workload_build(spec);
    if (dag)
        hs_fuzz_use_dag(dag);
    return 0;
}
