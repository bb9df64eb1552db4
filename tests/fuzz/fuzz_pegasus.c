/* tests/fuzz/fuzz_pegasus.c — the Pegasus 5 workflow reader (workloads/
 * pegasus_yaml.c: YAML through libyaml's document API), then the writers and
 * the statistics on what it read. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_dag_file(data, size, "pegasus", ".yml");
    return 0;
}
