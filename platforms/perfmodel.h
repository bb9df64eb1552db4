/* platforms/perfmodel.h — timing tables: the duration of a kernel on an
 * architecture for a footprint (tile size nb), read from a JSON file where
 * every value carries its provenance. Between listed tile sizes the rate
 * (flop/s) is interpolated linearly in nb; outside them the nearest rate is
 * used; an entry given in seconds is turned into a rate assuming the kernel's
 * flops scale as nb^3. A per-architecture launch overhead is added to
 * durations computed from rates. */
#ifndef HS_PERFMODEL_H
#define HS_PERFMODEL_H

#include <stddef.h>

struct hs_perf_entry {
    char *kernel;
    char *arch;     /* "cpu" or "gpu" */
    int nb;         /* footprint; 0 matches any */
    double seconds; /* > 0 if given as a duration */
    double gflops;  /* > 0 if given as a rate */
    char *source;   /* provenance: spec section, measurement, or "assumption" */
};

struct hs_perfmodel {
    char *file;
    char *description;
    int n;
    struct hs_perf_entry *entries;
    double overhead_cpu, overhead_gpu; /* seconds added to rate-based durations */
};

/* Load a timing table. Returns 0, or -1 with a one-line message in err. */
int hs_perf_load(const char *path, struct hs_perfmodel *pm, char *err, size_t errlen);
void hs_perf_free(struct hs_perfmodel *pm);

/* Duration in seconds of `kernel` on `arch` for tile size nb and the given
 * flops; NAN when the table has no entry for (kernel, arch) or cannot derive
 * one (no exact nb and flops unknown). */
double hs_perf_time(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb,
                    double flops);

/* Does the table know kernel on arch at all? */
int hs_perf_has(const struct hs_perfmodel *pm, const char *kernel, const char *arch);

#endif
