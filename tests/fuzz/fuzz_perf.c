/* tests/fuzz/fuzz_perf.c — timing tables (platforms/perfmodel.c): loading,
 * then looking durations up for every kernel it names at a few tile sizes;
 * the same bytes then as a StarPU codelet file (platforms/perf_starpu.c),
 * named chol_model_22.fuzz (a symbol the reader maps) through a link to the
 * input's file. */
#include "platforms/perfmodel.h"
#include "tests/fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void lookups(const struct hs_perfmodel *pm)
{
    static const char *const archs[] = {"cpu", "gpu"};
    static const int nbs[] = {0, 1, 64, 512, 100000};
    for (int i = 0; i < pm->n; i++)
        for (int a = 0; a < 2; a++)
            for (int k = 0; k < 5; k++) {
                hs_perf_time(pm, pm->entries[i].kernel, archs[a], nbs[k], 1e9);
                hs_perf_estimate(pm, pm->entries[i].kernel, archs[a], nbs[k], 1e9);
            }
}

static char link_dir[64], link_path[128];

static void remove_link(void)
{
    unlink(link_path);
    rmdir(link_dir);
}

/* The path of the StarPU-named link to the input's file, made once (and
 * removed at exit). */
static const char *starpu_name(const char *target)
{
    if (!link_path[0]) {
        snprintf(link_dir, sizeof link_dir, "/tmp/hetsim-fuzz-starpu-XXXXXX");
        if (!mkdtemp(link_dir))
            abort();
        snprintf(link_path, sizeof link_path, "%s/chol_model_22.fuzz", link_dir);
        if (symlink(target, link_path) != 0)
            abort();
        atexit(remove_link);
    }
    return link_path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    struct hs_perfmodel pm;
    char err[1024];
    if (hs_perf_load(hs_fuzz_file(data, size, ".json"), &pm, err, sizeof err) == 0) {
        lookups(&pm);
        hs_perf_free(&pm);
    }
    if (hs_perf_load(starpu_name(hs_fuzz_file(data, size, ".starpu")), &pm, err, sizeof err) == 0) {
        lookups(&pm);
        hs_perf_free(&pm);
    }
    return 0;
}
