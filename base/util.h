/* base/util.h — small helpers shared by every hetsim library: checked allocation,
 * the "last error" message that the CLI prints on one line, and growable arrays. */
#ifndef HS_UTIL_H
#define HS_UTIL_H

#include <stddef.h>
#include <stdint.h>

void *hs_xmalloc(size_t size);
void *hs_xcalloc(size_t count, size_t size);
void *hs_xrealloc(void *ptr, size_t size);
char *hs_xstrdup(const char *s);

/* Grow *array (of elem_size elements) so that it can hold at least need elements. */
void hs_grow(void **array, size_t *capacity, size_t need, size_t elem_size);
#define HS_GROW(arr, cap, need) hs_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))
/* The same without zeroing the new room, for a caller that fills every
 * element it uses: a large array's untouched room stays out of resident memory. */
void hs_grow_uninit(void **array, size_t *capacity, size_t need, size_t elem_size);
#define HS_GROW_UNINIT(arr, cap, need) hs_grow_uninit((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* The room an array of n elements that keeps no capacity of its own has:
 * n itself up to 8 (such arrays are mostly short, a task's accesses: they
 * stay exact), then n rounded up to a power of two. */
static inline size_t hs_implied_capacity(size_t n)
{
    size_t cap = 16;
    if (n <= 8)
        return n;
    while (cap < n)
        cap *= 2;
    return cap;
}
/* Grow an array that holds n elements, and keeps no capacity (its struct
 * has no room for one), to hold need: reallocated when need passes the
 * implied room, so that appending one at a time costs O(log n) reallocs,
 * not n (each a copy of the whole array). Every allocation of such an
 * array must come from here: the room is implied by n alone. */
static inline void *hs_grow_implied(void *array, size_t n, size_t need, size_t elem_size)
{
    if (need <= hs_implied_capacity(n))
        return array;
    return hs_xrealloc(array, hs_implied_capacity(need) * elem_size);
}
#define HS_GROW_IMPLIED(arr, n, need) \
    ((arr) = hs_grow_implied((arr), (size_t)(n), (size_t)(need), sizeof(*(arr))))

/* Record an error message (printf format) and return -1, so that callers can
 * `return hs_fail("...")`. The message is one line, without "hetsim:" prefix. */
int hs_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *hs_last_error(void);
/* The same, for readers: "FILE:LINE: message", or "FILE: message" with line < 0. */
int hs_fail_at(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* FNV-1a, 64 bits, continuing from hash (HS_FNV_OFFSET to start).
 * Hand-written on purpose: a sweep's resume keys and checked.json's file
 * digests must stay the same across machines, library versions and builds,
 * need no cryptographic strength, and it is four lines (none of our
 * libraries hashes bytes). */
#define HS_FNV_OFFSET 14695981039346656037ULL
uint64_t hs_fnv1a64(const void *data, size_t len, uint64_t hash);

/* Seconds of a monotonic clock (wall time: for durations only). */
double hs_now(void);
/* Seconds of CPU time the calling thread has had (what a kernel takes of
 * its core, however loaded the machine). */
double hs_thread_seconds(void);

/* Print "hetsim: <msg>" on stderr and exit with the given code. */
_Noreturn void hs_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The memory a workload's DAG or a platform may take: the machine's physical
 * memory, or what hs_set_memory_limit set (bytes; 0: the machine's again;
 * `--max-memory`). */
double hs_memory_limit(void);
void hs_set_memory_limit(double bytes);
int hs_memory_limit_set(void); /* 1 if set, 0 if the machine's */
/* "12.11 GiB": bytes in powers of 1024, as the papers and the plots give
 * data volumes (the one byte formatter of the project). */
void hs_format_bytes(double bytes, char *buf, size_t size);

/* Parse a double / non-negative integer in full; return 0 on success. */
int hs_parse_double(const char *s, double *out);
int hs_parse_long(const char *s, long *out);

/* Parse a quantity with an optional SI suffix (k, M, G, T, and Ki, Mi, Gi, Ti),
 * e.g. "6GBps" is not accepted but "6G" is. */
int hs_parse_si(const char *s, double *out);

/* Compare two texts as a person sorts them: runs of digits (with a decimal
 * fraction) compare as numbers, so "n=600,nb=60" comes before "n=1000,nb=100",
 * "GPU2" before "GPU10" and "alpha=0.25" before "alpha=0.5"; the rest byte by
 * byte. Returns <0, 0, >0 like strcmp (0 only for equal texts). */
int hs_natural_cmp(const char *a, const char *b);

#endif
