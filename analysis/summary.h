/* analysis/summary.h — the summary of a sweep's results: per group (values
 * of the --by columns) and metric, n, failed runs, mean, standard deviation
 * and 95% confidence half-width; and the pairwise better/equal/worse counts
 * of the groups, instance by instance, on one metric. */
#ifndef HS_SUMMARY_H
#define HS_SUMMARY_H

#include "analysis/csv.h"
#include "analysis/table.h"

#include <stdbool.h>

struct hs_summary_opts {
    char *const *by;
    int nby;
    char *const *metrics;
    int nmetrics;
    const char *pairwise; /* metric of the pairwise table; NULL: the first metric; "": none */
    int digits;           /* significant digits of the numbers */
    bool units;           /* bytes and seconds in a unit chosen from the data ("bytes_total (GiB)",
                             as the plots show them); false: raw bytes and seconds (CSV files) */
};

/* Fill `stats` (header: by..., metric, n, failed, mean, sd, ci95) and, when
 * asked and possible, `pairs` (header: metric, group, versus, instances,
 * better, equal, worse); *note explains a missing pairwise table. -1 with
 * hs_fail for unknown columns or values that are not numbers. */
int hs_summary_make(const struct hs_csv *csv, const char *file, const struct hs_summary_opts *o,
                    struct hs_table *stats, struct hs_table *pairs, char *note, size_t note_size);

/* Did the repetitions of a sweep differ? Runs that differ only by their
 * repetition (the columns key, instance, rep and seed) are compared on every
 * column after "status". Returns the number of runs that have repetitions
 * (0: none has), with *alike the number whose repetitions all gave the same
 * results; -1 with hs_fail when the file is not a sweep's. */
long hs_reps_alike(const struct hs_csv *csv, const char *file, long *alike);

/* The warning for a sweep whose repetitions were all alike (nothing printed
 * when some differed or none had repetitions). */
void hs_reps_warn(const struct hs_csv *csv, const char *file);

#endif
