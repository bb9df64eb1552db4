/* workloads/rng.h — random streams of the DAG generators (random, daggen):
 * GSL Mersenne Twisters (gsl_rng_mt19937) seeded from a workload's `seed`
 * parameter, one independent stream per purpose, and a uniform draw of a
 * k-subset that costs O(k) whatever the population. */
#ifndef HS_WL_RNG_H
#define HS_WL_RNG_H

#include <gsl/gsl_rng.h>

/* Stream `stream` of `seed`: mt19937 seeded with the splitmix64 finaliser of
 * seed * 0x9E3779B97F4A7C15 + stream (the mix sim/runtime.c uses for its own
 * streams), so that streams of one seed, and seeds, are decorrelated. The
 * caller frees it with gsl_rng_free. */
gsl_rng *hs_wl_rng(unsigned long seed, unsigned long stream);

/* Uniform integer in [lo, hi] (gsl_rng_uniform_int, no modulo bias; ranges
 * wider than 2^32 scale a uniform double). */
long hs_wl_uniform_int(gsl_rng *r, long lo, long hi);

/* Draw a uniformly random k-subset of {0, …, n-1} (k <= n) into out[0..k-1],
 * in increasing order (Floyd's algorithm: O(k) draws, O(k log k) to sort).
 * mark is scratch of n ints, all different from `stamp` on entry; the chosen
 * indices are left marked with `stamp`, so a fresh stamp per call needs no
 * clearing. */
void hs_wl_choose(gsl_rng *r, int n, int k, int *out, int *mark, int stamp);

#endif
