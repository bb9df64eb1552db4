/* tests/fuzz/fuzz_csv.c — sweep results (analysis/csv.c), then what
 * `summarize` does with them: per group statistics of a metric and the
 * pairwise comparison, grouped by the first column, over the last. */
#include "analysis/csv.h"
#include "analysis/summary.h"
#include "analysis/table.h"
#include "tests/fuzz/fuzz.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    struct hs_csv csv;
    if (hs_csv_parse((const char *)data, size, "fuzz.csv", &csv))
        return 0;
    if (csv.ncols >= 2) {
        char *by[] = {csv.header[0]}, *metric[] = {csv.header[csv.ncols - 1]};
        struct hs_summary_opts o = {.by = by, .nby = 1, .metrics = metric, .nmetrics = 1, .digits = 6};
        struct hs_table stats, pairs;
        char note[512];
        hs_summary_make(&csv, "fuzz.csv", &o, &stats, &pairs, note, sizeof note);
        hs_table_free(&stats); /* made (if partly) either way */
        hs_table_free(&pairs);
    }
    hs_csv_free(&csv);
    return 0;
}
