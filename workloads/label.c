/* workloads/label.c — labels of tiled workloads' tasks and tiles (see
 * label.h): a bounded append of strings and decimal integers. */
#include "workloads/label.h"

#include <string.h>

struct out {
    char *p, *end; /* end: the byte kept for the terminator */
};

static void put(struct out *o, const char *s, size_t n)
{
    size_t room = (size_t)(o->end - o->p);
    n = n < room ? n : room;
    memcpy(o->p, s, n);
    o->p += n;
}

static void put_int(struct out *o, int v)
{
    char digits[16];
    int n = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        digits[sizeof digits - 1 - n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        digits[sizeof digits - 1 - n++] = '-';
    put(o, digits + sizeof digits - n, (size_t)n);
}

char *hs_label(char *out, size_t size, const char *prefix, const char *name, int n, int i, int j, int k)
{
    struct out o = {out, out + size - 1};
    if (prefix)
        put(&o, prefix, strnlen(prefix, 16));
    put(&o, name, strlen(name));
    const int idx[3] = {i, j, k};
    for (int a = 0; a < n && a < 3; a++) {
        put(&o, a ? "," : "(", 1);
        put_int(&o, idx[a]);
    }
    if (n > 0)
        put(&o, ")", 1);
    *o.p = '\0';
    return out;
}
