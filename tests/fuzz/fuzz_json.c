/* tests/fuzz/fuzz_json.c — hetsim's JSON DAG reader (workloads/dag_json_read.c;
 * a WfFormat instance in it goes on to wfformat.c), then the writers and the
 * statistics on what it read. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_dag_file(data, size, "json", ".json");
    return 0;
}
