/* base/buf.c — the growable text buffer. */
#include "base/buf.h"
#include "base/inputfile.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(struct hs_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->s = hs_xrealloc(b->s, cap);
    b->s[b->len] = '\0';
    b->cap = cap;
}

void hs_buf_addn(struct hs_buf *b, const char *text, size_t n)
{
    reserve(b, n);
    memcpy(b->s + b->len, text, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void hs_buf_add(struct hs_buf *b, const char *text)
{
    hs_buf_addn(b, text, strlen(text));
}

void hs_buf_printf(struct hs_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

const char *hs_buf_str(struct hs_buf *b)
{
    reserve(b, 0);
    return b->s;
}

char *hs_buf_take(struct hs_buf *b)
{
    reserve(b, 0);
    char *s = b->s;
    memset(b, 0, sizeof *b);
    return s;
}

void hs_buf_reset(struct hs_buf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

void hs_buf_free(struct hs_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

int hs_buf_read_file(struct hs_buf *b, const char *path)
{
    /* a regular file of bounded size only (a FIFO or /dev/zero would never end) */
    char err[1024];
    size_t n;
    char *text = hs_input_read(path, HS_INPUT_MAX_BYTES, &n, err, sizeof err);
    if (!text)
        return hs_fail("%s", err);
    hs_buf_addn(b, text, n);
    free(text);
    return 0;
}
