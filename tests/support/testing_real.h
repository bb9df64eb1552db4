/* tests/support/testing_real.h — what the real engine's tests share
 * (testing_real.c; the library hetsim_testing_real, built with the real
 * engine). */

#ifndef HS_TESTING_REAL_H
#define HS_TESTING_REAL_H

#include "tests/support/testing.h"
#include "sim/engines/real/machine.h"

/* A machine of 6 cores at 40 Gflop/s and one "Test GPU" (its figures are
 * made up for the test). */
struct hs_machine hs_test_gpu_machine(void);
/* Write BASE.machine.json and BASE.xml, the machine's description and its
 * platform (fails the test if either cannot be written). */
void hs_test_write_machine(const struct hs_machine *m, const char *base);
/* Check the source text of a --timing entry: it names its sample DAG and the
 * data it holds, twice the largest cache or more (counted on Cholesky's
 * lower triangle of tiles, by hand) unless the sample reached its cap of 64
 * tiles per side, and the fewest tiles that do. */
void hs_test_check_sample_size(const char *source);

#endif
