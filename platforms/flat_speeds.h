/* platforms/flat_speeds.h — the speeds of the processors of flat:P: one speed
 * for all, a list (speeds=), or drawn for each run from its seed: uniformly
 * in [speed − spread, speed + spread], uniformly among `choices`, or one of
 * Beaumont and Marchal's speed scenarios (scenario=):
 *
 *   u10-100  U[10, 100] Gflop/s (their default)    set.3   {80, 100, 150} Gflop/s
 *   unif.1   U[80, 120] Gflop/s                     set.5   {40, 80, 100, 150, 200} Gflop/s
 *   unif.2   U[50, 150] Gflop/s                     dyn.5   unif.1, then drift 5% per task
 *                                                   dyn.20  unif.1, then drift 20% per task
 *
 * drift=δ multiplies a processor's speed by 1 + U(−δ, δ) after each task;
 * only the paper's model (bw=inf with a Beaumont-Marchal policy) has it.
 * The draws come from stream 3 of the run's seed (the runtime's streams are 1,
 * the policy, and 2, the noise), so the policies of one instance of a sweep
 * meet the same speeds. */
#ifndef HS_FLAT_SPEEDS_H
#define HS_FLAT_SPEEDS_H

#include "base/params.h"

struct hs_flat_speeds {
    int p;
    double *speeds; /* p, in flop/s */
    double drift;
    double bw, lat;
};

/* From a flat spec checked against hs_flat_params(). -1 with hs_fail for
 * inconsistent speeds (a scenario beside explicit speeds, spread > speed, a
 * bad list). The caller frees with hs_flat_speeds_free. */
int hs_flat_speeds(const struct hs_spec *flat, unsigned long seed, struct hs_flat_speeds *out);
void hs_flat_speeds_free(struct hs_flat_speeds *fs);

#endif
