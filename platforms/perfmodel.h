/* platforms/perfmodel.h — timing tables: the duration of a kernel on an
 * architecture for a footprint (tile size nb), read from a JSON file where
 * every value carries its provenance. Between listed tile sizes the rate
 * (flop/s) is interpolated linearly in nb; outside them the nearest rate is
 * used; an entry given in seconds is turned into a rate assuming the kernel's
 * flops scale as nb^3. A per-architecture launch overhead is added to
 * durations computed from rates.
 *
 * A table may also hold a "calibrated" list (same fields, in seconds, plus
 * "gpus", for kernels the "kernels" list times on that architecture): the
 * durations a calibration run recorded, which is what policies are told
 * (hs_perf_estimate) while the engine still executes the table's durations
 * (hs_perf_time). XKaapi timed GPU tasks from the host, so their
 * recorded times include the input transfers the run did not overlap, which
 * grow with the GPUs sharing the PCIe links during calibration
 * (Beniamine 2013, §3.2.3; `hetsim calibrate-sim`
 * writes such lists).
 *
 * And a "corun" list (same fields, in seconds, plus "busy" and optionally
 * "copies"): what a kernel takes while `busy` workers of its architecture
 * (itself included) run kernels at once, and, with "copies": true, while
 * host-GPU copies stream too, as `hetsim calibrate` measures it. A core
 * shares its caches, memory bandwidth and clock with its neighbours, so a
 * kernel slows as more of them work; the table's "kernels" entry is one
 * point of that curve (calibrate times it with the run's CPU workers busy),
 * which policies are told; the engine executes the curve's value for the
 * number busy when the task starts (hs_perf_corun_time).
 *
 * `--perf` also takes StarPU's own perfmodels, a codelet file
 * (sampling/codelets/45/SYMBOL.HOST) or a folder of them, which
 * platforms/perf_starpu.c turns into "kernels" entries in seconds (one per
 * history line) and regressions (below). */
#ifndef HS_PERFMODEL_H
#define HS_PERFMODEL_H

#include <stddef.h>

struct hs_perf_entry {
    char *kernel;
    char *arch;     /* "cpu" or "gpu" */
    int nb;         /* footprint; 0 matches any */
    double seconds; /* > 0 if given as a duration */
    double gflops;  /* > 0 if given as a rate */
    char *source;   /* provenance: paper and section, measurement, or "assumption" */
    int busy;       /* "corun" entries: workers of the arch running kernels, >= 1 (else 0) */
    int copies;     /* "corun" entries: 1 if measured while host-GPU copies stream */
};

/* A StarPU regression (platforms/perf_starpu.c): kernel on arch at tile
 * size nb takes (a·size^b + c) µs, size = bytes_per_nb2·nb² the bytes the
 * task touches; StarPU trusts it for sizes within [0.9·minx, 1.1·maxx]. */
struct hs_perf_regression {
    char *kernel, *arch, *source;
    double a, b, c, minx, maxx, bytes_per_nb2;
};

struct hs_perfmodel {
    char *file;
    char *description;
    int n;
    struct hs_perf_entry *entries;
    int ncalibrated;
    struct hs_perf_entry *calibrated; /* recorded by a calibration run (seconds) */
    int ncorun;
    struct hs_perf_entry *corun;      /* durations by the number of workers busy (seconds) */
    double overhead_cpu, overhead_gpu; /* seconds added to rate-based durations */
    int nreg;
    struct hs_perf_regression *reg;   /* StarPU's regressions, for sizes without history */
    int nnotes;
    char **notes;                     /* what reading a StarPU perfmodel left out or assumed */
    int starpu;                       /* 1: read from StarPU's perfmodels */
    int starpu_nopiv;                 /* StarPU perfmodels: GETRF timed by StarPU's LU example, which
                                         does not pivot (lunopiv's kernel, not lu's) */
    int starpu_gpus;                  /* StarPU perfmodels: highest CUDA device id used + 1 */
    char *starpu_gpu_at;              /* "FILE:LINE" naming that device (NULL: none) */
    int nstarpu_empty;
    struct hs_perf_entry *starpu_empty; /* StarPU perfmodels: history lines with no sample, left out of
                                           entries (kernel, arch, nb; source "FILE line L (ARCH)") */
};

/* Load a timing table. Returns 0, or -1 with a one-line message in err. */
int hs_perf_load(const char *path, struct hs_perfmodel *pm, char *err, size_t errlen);
/* The same for a run on platform_file (or NULL): a folder of StarPU codelet
 * files of several hosts gives those of the host StarPU named the platform
 * file after (HOST.platform.v4.xml). */
int hs_perf_load_for(const char *path, const char *platform_file, struct hs_perfmodel *pm, char *err,
                     size_t errlen);
void hs_perf_free(struct hs_perfmodel *pm);
/* Append a note (printf format) to pm's notes. */
void hs_perf_note(struct hs_perfmodel *pm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Duration in seconds of `kernel` on `arch` for tile size nb and the given
 * flops; NAN when the table has no entry for (kernel, arch) or cannot derive
 * one (no exact nb and flops unknown). */
double hs_perf_time(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb,
                    double flops);

/* What policies are told: the calibrated duration of (kernel, arch, nb)
 * when the table has one for exactly that tile size, else hs_perf_time. */
double hs_perf_estimate(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb,
                        double flops);

/* What (kernel, arch, nb) takes while `busy` workers of arch run kernels
 * (itself included) and, if copies, host-GPU copies stream: linear in busy
 * between the "corun" entries of exactly that tile size, the nearest entry
 * outside them; the curve measured without copies when the table has none
 * with them. NAN when the table has no such curve. */
double hs_perf_corun_time(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb,
                          int busy, int copies);

/* The StarPU regression hs_perf_time uses for (kernel, arch, nb) where the
 * table has no entry of exactly that tile size; NULL if none applies. */
const struct hs_perf_regression *hs_perf_regression_for(const struct hs_perfmodel *pm, const char *kernel,
                                                        const char *arch, int nb);

/* Has the table an entry of exactly tile size nb for (kernel, arch)? */
int hs_perf_has_nb(const struct hs_perfmodel *pm, const char *kernel, const char *arch, int nb);

/* Does the table know kernel on arch at all? */
int hs_perf_has(const struct hs_perfmodel *pm, const char *kernel, const char *arch);

#endif
