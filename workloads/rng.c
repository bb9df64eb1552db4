/* workloads/rng.c — seeded GSL streams and k-subset draws for the DAG
 * generators (see rng.h). */
#include "workloads/rng.h"

#include <stdlib.h>

gsl_rng *hs_wl_rng(unsigned long seed, unsigned long stream)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    unsigned long long z = (unsigned long long)seed * 0x9E3779B97F4A7C15ULL + stream;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    gsl_rng_set(r, (unsigned long)(z ^ (z >> 31)));
    return r;
}

long hs_wl_uniform_int(gsl_rng *r, long lo, long hi)
{
    unsigned long n = (unsigned long)(hi - lo) + 1;
    if (n <= gsl_rng_max(r) - gsl_rng_min(r)) /* what gsl_rng_uniform_int accepts */
        return lo + (long)gsl_rng_uniform_int(r, n);
    /* wider than the generator's 32 bits: a scaled double (53 bits) */
    long k = (long)(gsl_rng_uniform(r) * (double)n);
    return lo + (k < (long)(n - 1) ? k : (long)(n - 1));
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Floyd: for j = n-k .. n-1, take t uniform in [0, j]; if t is already taken,
 * take j instead. Every k-subset comes out with probability 1 / C(n, k). */
void hs_wl_choose(gsl_rng *r, int n, int k, int *out, int *mark, int stamp)
{
    for (int i = 0, j = n - k; j < n; i++, j++) {
        int t = (int)gsl_rng_uniform_int(r, (unsigned long)j + 1);
        if (mark[t] == stamp)
            t = j;
        mark[t] = stamp;
        out[i] = t;
    }
    qsort(out, (size_t)k, sizeof *out, cmp_int);
}
