/* analysis/published.h — our value of a study's published figure (see
 * struct hs_study_ref's stat and versus), and whether it meets the figure. */
#ifndef HS_PUBLISHED_H
#define HS_PUBLISHED_H

#include "analysis/csv.h"
#include "analysis/stats.h"
#include "analysis/study.h"

#include <stdbool.h>

/* s->mean is our value (the mean, median, sd or percentage the ref asks
 * for), s->ci95 the mean's interval (NAN otherwise), s->n the rows or, for
 * a percentage, the instances compared. 0, or -1 with hs_fail naming a
 * column the CSV (from file) lacks. */
int hs_published_ours(const struct hs_csv *csv, const char *file, const struct hs_study_ref *r,
                      struct hs_stat *s);

/* hs_published_ours, and for a ratio or a gain of one mean against another
 * (stat "ratio", or "gain_pct" without by) the 95% interval of that value in
 * s->ci95 where both sides have repetitions (the delta method on the two
 * means; NAN otherwise): what a comparison plot draws as error bars. */
int hs_published_ours_ci(const struct hs_csv *csv, const char *file, const struct hs_study_ref *r,
                         struct hs_stat *s);

/* Does our value meet the published one: within the tolerance of the figure,
 * or on the right side of a bound (struct hs_study_ref's bound)? */
bool hs_published_met(const struct hs_study_ref *r, double ours);

/* Does the value read a run whose parameter columns (names, values: a
 * sweep's row before it runs) are these: does the run match its where, or,
 * with versus, the rows it is compared against? A where key that is no
 * column is no restriction. */
bool hs_published_reads(const struct hs_study_ref *r, const char *const *names, char *const *values, int n);

/* Is the value checked: a figure with a tolerance, or a bound? */
bool hs_published_checked(const struct hs_study_ref *r);

/* The texts of its row, each at most `size` bytes: the published figure
 * ("1790", or "<= 1" for a bound), ours (s->mean, 6 significant digits) and
 * the tolerance ("7%", "" when none). */
void hs_published_texts(const struct hs_study_ref *r, const struct hs_stat *s, size_t size, char *published,
                        char *ours, char *tolerance);

#endif
