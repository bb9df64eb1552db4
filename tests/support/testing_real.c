/* tests/support/testing_real.c — what the real engine's tests share
 * (linked into tests/sim/engines/real/'s tests only, with hetsim_real): a
 * machine description with one GPU and its files, and the check of the
 * sample DAG a --timing calibration names. */
#include "tests/support/testing_real.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct hs_machine_gpu test_gpu = {8e10, 5e13, {2.5e10, 8e-6}, {2.6e10, 9e-6}};

struct hs_machine hs_test_gpu_machine(void)
{
    return (struct hs_machine){.name = "box", .gpu_model = "Test GPU", .cores = 6, .ngpus = 1,
                               .core_speed = 4e10, .gpus = &test_gpu, .task_overhead = {NAN, NAN}};
}

void hs_test_write_machine(const struct hs_machine *m, const char *base)
{
    char path[1024];
    snprintf(path, sizeof path, "%s.machine.json", base);
    CU_ASSERT_EQUAL_FATAL(hs_machine_save(path, m), 0);
    snprintf(path, sizeof path, "%s.xml", base);
    CU_ASSERT_EQUAL_FATAL(hs_machine_write_platform(m, path), 0);
}

/* A --timing run entry names its sample DAG and the data it holds: twice
 * the largest cache or more, counted on the DAG's tiles (Cholesky's lower
 * triangle), unless the sample reached its cap of 64 tiles per side. */
void hs_test_check_sample_size(const char *source)
{
    const char *sample = strstr(source, "sample DAG cholesky:n=");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sample);
    int n = 0, nb = 0;
    double mib = 0, cache = 0;
    int copies = 0;
    CU_ASSERT_EQUAL(sscanf(sample, "sample DAG cholesky:n=%d,nb=%d", &n, &nb), 2);
    const char *sizes = strstr(sample, ": ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sizes);
    CU_ASSERT_EQUAL(sscanf(sizes, ": %lf MiB of data, the largest cache %lf MiB, %d cop", &mib, &cache, &copies), 3);
    CU_ASSERT_FATAL(copies >= 1);
    cache /= copies; /* the copies timed at once share the cache */
    int tiles = nb > 0 ? n / nb : 0;
    /* the lower triangle of tiles×tiles double tiles of nb×nb, by hand */
    double want_mib = tiles * (tiles + 1) / 2.0 * nb * nb * 8 / 1048576.0;
    CU_ASSERT(fabs(mib - want_mib) <= 0.5);
    CU_ASSERT(tiles == 64 || mib >= 2 * cache - 0.5);
    /* and the fewest tiles that do: one fewer would not have been enough */
    double fewer = (tiles - 1) * tiles / 2.0 * nb * nb * 8 / 1048576.0;
    CU_ASSERT(tiles == 3 || fewer < 2 * cache + 0.5);
}
