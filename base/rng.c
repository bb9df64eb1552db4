/* base/rng.c — seeded GSL streams and k-subset draws (see rng.h). */
#include "base/rng.h"

#include <stdlib.h>

gsl_rng *hs_rng(unsigned long seed, unsigned long stream)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    unsigned long long z = (unsigned long long)seed * HS_SPLITMIX_GAMMA + stream;
    gsl_rng_set(r, (unsigned long)hs_splitmix64_mix(z));
    return r;
}

long hs_rng_uniform_int(gsl_rng *r, long lo, long hi)
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
void hs_rng_choose(gsl_rng *r, int n, int k, int *out, int *mark, int stamp)
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
