/* base/util.c — checked allocation, the last-error buffer and number parsing. */
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char last_error[1024];

static void out_of_memory(size_t size)
{
    fprintf(stderr, "hetsim: out of memory (asked for %zu bytes)\n", size);
    exit(1);
}

void *hs_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *hs_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *hs_xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

char *hs_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = hs_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void hs_grow_uninit(void **array, size_t *capacity, size_t need, size_t elem_size)
{
    if (need <= *capacity)
        return;
    size_t cap = *capacity ? *capacity : 8;
    while (cap < need)
        cap *= 2;
    *array = hs_xrealloc(*array, cap * elem_size);
    *capacity = cap;
}

void hs_grow(void **array, size_t *capacity, size_t need, size_t elem_size)
{
    size_t old = *capacity;
    hs_grow_uninit(array, capacity, need, elem_size);
    if (*capacity == old)
        return; /* nothing grew; *array may still be NULL, which memset must not see */
    memset((char *)*array + old * elem_size, 0, (*capacity - old) * elem_size);
}

int hs_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return -1;
}

int hs_fail_at(const char *file, int line, const char *fmt, ...)
{
    char msg[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line >= 0)
        return hs_fail("%s:%d: %s", file, line, msg);
    return hs_fail("%s: %s", file, msg);
}

const char *hs_last_error(void)
{
    return last_error[0] ? last_error : "unknown error";
}

void hs_die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("hetsim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

int hs_parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    if (strcmp(s, "inf") == 0 || strcmp(s, "INF") == 0) {
        *out = INFINITY;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || isnan(v))
        return -1;
    *out = v;
    return 0;
}

int hs_parse_long(const char *s, long *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int hs_parse_si(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    if (strcmp(s, "inf") == 0) {
        *out = INFINITY;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || isnan(v))
        return -1;
    static const struct { const char *suffix; double mult; } units[] = {
        {"", 1},          {"k", 1e3},       {"K", 1e3},        {"M", 1e6},
        {"G", 1e9},       {"T", 1e12},      {"Ki", 1024.0},    {"Mi", 1048576.0},
        {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].suffix) == 0) {
            *out = v * units[i].mult;
            return 0;
        }
    return -1;
}

uint64_t hs_fnv1a64(const void *data, size_t len, uint64_t hash)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ p[i]) * 1099511628211ULL;
    return hash;
}

static double clock_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double hs_now(void)
{
    return clock_seconds(CLOCK_MONOTONIC);
}

double hs_thread_seconds(void)
{
    return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

static double memory_limit; /* 0: the machine's */

void hs_set_memory_limit(double bytes)
{
    memory_limit = bytes;
}

int hs_memory_limit_set(void)
{
    return memory_limit > 0;
}

double hs_memory_limit(void)
{
    if (memory_limit > 0)
        return memory_limit;
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : INFINITY;
}

void hs_format_bytes(double b, char *buf, size_t size)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (b >= 1024 && u < 6)
        b /= 1024, u++;
    snprintf(buf, size, u ? "%.2f %s" : "%.0f %s", b, units[u]);
}

/* A run of digits with an optional fraction (".5"), as a number; *end after it. */
static double digit_run(const char *s, const char **end)
{
    double v = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        v = 10 * v + (*s - '0');
    if (*s == '.' && s[1] >= '0' && s[1] <= '9')
        for (double f = 0.1; *++s >= '0' && *s <= '9'; f /= 10)
            v += f * (*s - '0');
    *end = s;
    return v;
}

int hs_natural_cmp(const char *a, const char *b)
{
    const char *a0 = a, *b0 = b;
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            double x = digit_run(a, &a), y = digit_run(b, &b);
            if (x != y)
                return x < y ? -1 : 1;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        a++, b++;
    }
    if (*a || *b)
        return (unsigned char)*a - (unsigned char)*b;
    return strcmp(a0, b0); /* "01" and "1": equal as numbers, not as texts */
}
