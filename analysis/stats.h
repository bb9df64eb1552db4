/* analysis/stats.h — statistics of sweep results: rows grouped by the values
 * of some columns; per group and metric the count, mean, standard deviation
 * (n - 1), the median and the half-width of the 95% confidence interval of the mean
 * (Student t, GSL); and pairwise comparisons of groups instance by instance
 * (runs that share their `instance` column met the same DAG, seed and
 * noise): how often one group's value is better, equal or worse. */
#ifndef HS_STATS_H
#define HS_STATS_H

#include "analysis/csv.h"

#include <stdbool.h>

struct hs_stat {
    long n;
    double mean, median, sd, ci95; /* sd and ci95 NAN when n < 2; all NAN when n = 0 */
    double min, max;               /* NAN when n = 0 */
};

void hs_stat_compute(const double *x, long n, struct hs_stat *s);

struct hs_group {
    char **values;   /* one per --by column (pointers into the CSV) */
    long *rows, nrows;  /* rows usable for statistics (status ok) */
    long failed;     /* rows of this group whose status is not ok */
};

struct hs_groups {
    int nby;
    int *cols;
    int n;
    struct hs_group *g;
};

/* Group the rows of csv (read from `file`) by the named columns, groups in
 * ascending order of their values (numerically where both are numbers).
 * Rows whose status column says other than ok are counted as failed. -1
 * with hs_fail for an unknown column. */
int hs_groups_make(const struct hs_csv *csv, const char *file, char *const *by, int nby,
                   struct hs_groups *out);
void hs_groups_free(struct hs_groups *gs);
/* "policy=heft ccr=5" (caller frees); "all" with no --by column. */
char *hs_group_label(const struct hs_csv *csv, const struct hs_groups *gs, int group);

/* Values of column col over a group's rows (empty fields skipped). Returns
 * the count, or -1 with hs_fail for a field that is not a number. */
long hs_group_values(const struct hs_csv *csv, const char *file, const struct hs_group *g, int col,
                     double *out);

/* Compare two numbers as better/equal/worse (-1, 0, 1 for a against b);
 * equal within a relative 1e-9. */
int hs_compare_values(double a, double b, bool lower_better);

struct hs_pair {
    int a, b;         /* group indices, a < b */
    long common;      /* instances run in both */
    long better, equal, worse; /* a against b */
};

/* Every pair of groups sharing instances. -1 with hs_fail when the CSV has
 * no instance column, a value is not a number, or a group holds two rows of
 * one instance (a varying column is missing from --by). */
int hs_pairwise(const struct hs_csv *csv, const char *file, const struct hs_groups *gs, int col,
                bool lower_better, struct hs_pair **pairs, int *npairs);

/* Order of cells: numbers before texts, numbers by value, texts alphabetically. */
int hs_cmp_cells(const char *a, const char *b);

/* Is this text a number (the whole of it)? */
bool hs_is_number(const char *s, double *value);

#endif
