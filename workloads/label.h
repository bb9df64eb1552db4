/* workloads/label.h — a task's or a tile's label, PREFIX NAME(i,j,k), as
 * the tiled workloads name them: one per task of an O(n³) DAG, so written
 * without printf (glibc's snprintf costs about 1,900 instructions a call,
 * 3% of a 40×40-tile Cholesky run on the floor's model under eager:
 * callgrind, docs/performance.md). */
#ifndef HS_LABEL_H
#define HS_LABEL_H

#include <stddef.h>

/* out (size bytes, at least 1) = the first 16 bytes of prefix (NULL: none),
 * name, and "(" the n (0 to 3) indices ")" separated by commas (no
 * parentheses when n is 0); cut to fit, always terminated. Returns out. */
char *hs_label(char *out, size_t size, const char *prefix, const char *name, int n, int i, int j, int k);

#endif
