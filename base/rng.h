/* base/rng.h — hetsim's random streams: GSL Mersenne Twisters
 * (gsl_rng_mt19937) seeded from a run's or a workload's `seed`, one
 * independent stream per purpose (the runtime's policy and noise streams, the
 * DAG generators', flat:P's drawn speeds, Beaumont and Marchal's draws), the
 * splitmix64 mix they are seeded with (also the real engine's hash of a
 * tile's initial values), and a uniform draw of a k-subset that costs O(k)
 * whatever the population. */
#ifndef HS_BASE_RNG_H
#define HS_BASE_RNG_H

#include <gsl/gsl_rng.h>

/* splitmix64's increment (2^64 divided by the golden ratio) */
#define HS_SPLITMIX_GAMMA 0x9E3779B97F4A7C15ULL

/* splitmix64's finaliser: a bijection of 64 bits whose every output bit
 * depends on every input bit (Steele, Lea and Flood 2014). */
static inline unsigned long long hs_splitmix64_mix(unsigned long long z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Stream `stream` of `seed`: mt19937 seeded with the splitmix64 finaliser of
 * seed * HS_SPLITMIX_GAMMA + stream, so that streams of one seed, and seeds,
 * are decorrelated. The caller frees it with gsl_rng_free. */
gsl_rng *hs_rng(unsigned long seed, unsigned long stream);

/* Uniform integer in [lo, hi] (gsl_rng_uniform_int, no modulo bias; ranges
 * wider than 2^32 scale a uniform double). */
long hs_rng_uniform_int(gsl_rng *r, long lo, long hi);

/* Draw a uniformly random k-subset of {0, …, n-1} (k <= n) into out[0..k-1],
 * in increasing order (Floyd's algorithm: O(k) draws, O(k log k) to sort).
 * mark is scratch of n ints, all different from `stamp` on entry; the chosen
 * indices are left marked with `stamp`, so a fresh stamp per call needs no
 * clearing. */
void hs_rng_choose(gsl_rng *r, int n, int k, int *out, int *mark, int stamp);

#endif
