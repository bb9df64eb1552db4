/* base/nearest.c — the known name nearest an unknown one (nearest.h). The
 * libraries hetsim uses (GLib is not one of them; SimGrid, GSL, igraph,
 * cJSON, libxml2 and the others) have no edit distance, and the lists are a
 * few dozen short names: the textbook dynamic programme of Damerau's
 * distance restricted to one edit per substring (optimal string alignment),
 * over three rows. */
#include "base/nearest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LONGEST 128 /* names longer than this are not compared */

static int min3(int a, int b, int c)
{
    return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

static int distance_n(const char *a, size_t n, const char *b, size_t m)
{
    if (n > LONGEST || m > LONGEST)
        return LONGEST;
    int rows[3][LONGEST + 1], *back = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai != bj));
            if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == bj &&
                back[j - 2] + 1 < cur[j])
                cur[j] = back[j - 2] + 1;
        }
        int *t = back;
        back = prev, prev = cur, cur = t;
    }
    return prev[m];
}

int hs_name_distance(const char *a, const char *b)
{
    return distance_n(a, strlen(a), b, strlen(b));
}

const char *hs_did_you_mean(const char *name, const char *names)
{
    static _Thread_local char text[LONGEST + 32];
    size_t n = strlen(name), best_len = 0;
    int limit = n <= 4 ? 1 : n <= 8 ? 2 : 3, best = limit + 1;
    const char *best_at = NULL;
    for (const char *p = names; *p;) {
        p += strspn(p, ", ");
        size_t len = strcspn(p, ", ");
        if (!len)
            break;
        int d = distance_n(name, n, p, len);
        if (d < best) {
            best = d, best_at = p, best_len = len;
        }
        p += len;
    }
    text[0] = '\0';
    if (best_at && best_len <= LONGEST)
        snprintf(text, sizeof text, "; did you mean '%.*s'?", (int)best_len, best_at);
    return text;
}
