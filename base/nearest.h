/* base/nearest.h — "did you mean": the known name nearest a misspelt or
 * wrong-case one (`-s hfet`, `-s HEFT`, `reproduce dada-choleski`), for the
 * one-line refusals of unknown names. */
#ifndef HS_NEAREST_H
#define HS_NEAREST_H

#include <stddef.h>

/* The optimal string alignment distance of a and b, letters compared
 * without case: insertions, deletions, substitutions and transpositions of
 * neighbours, each 1 ("hfet" to "heft": 1; "HEFT" to "heft": 0). */
int hs_name_distance(const char *a, const char *b);

/* "; did you mean 'heft'?" (the end of a refusal's line) for the name of `names` (a list separated by
 * commas and blanks, as the refusals print it) nearest `name`: the same but
 * for case, or within 1 edit for names of up to 4 characters, 2 up to 8, 3
 * beyond; the first of the nearest; "" when none is near. The text lives
 * until the thread's next call. */
const char *hs_did_you_mean(const char *name, const char *names);

#endif
