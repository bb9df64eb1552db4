/* tests/fuzz/fuzz_perf.c — timing tables (platforms/perfmodel.c): loading,
 * then looking durations up for every kernel it names at a few tile sizes. */
#include "platforms/perfmodel.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    struct hs_perfmodel pm;
    char err[1024];
    if (hs_perf_load(hs_fuzz_file(data, size, ".json"), &pm, err, sizeof err))
        return 0;
    static const char *const archs[] = {"cpu", "gpu"};
    static const int nbs[] = {0, 1, 64, 512, 100000};
    for (int i = 0; i < pm.n; i++)
        for (int a = 0; a < 2; a++)
            for (int k = 0; k < 5; k++) {
                hs_perf_time(&pm, pm.entries[i].kernel, archs[a], nbs[k], 1e9);
                hs_perf_estimate(&pm, pm.entries[i].kernel, archs[a], nbs[k], 1e9);
            }
    hs_perf_free(&pm);
    return 0;
}
