/* tests/fuzz/fuzz_daggen_text.c — the reader of DAGGEN's text output
 * (workloads/daggen_text.c), then the writers and the statistics on what it
 * read. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_dag_file(data, size, "daggen-text", ".txt");
    return 0;
}
