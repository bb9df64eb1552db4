/* base/buf.h — a growable text buffer (printf-style appends), used to
 * build CSV rows, gnuplot scripts and tables. */
#ifndef HS_BUF_H
#define HS_BUF_H

#include <stddef.h>

struct hs_buf {
    char *s;    /* always '\0'-terminated once anything was appended */
    size_t len, cap;
};

void hs_buf_add(struct hs_buf *b, const char *text);
void hs_buf_addn(struct hs_buf *b, const char *text, size_t n);
void hs_buf_printf(struct hs_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text (an empty string if nothing was appended); stays owned by b. */
const char *hs_buf_str(struct hs_buf *b);
/* Hand the text over to the caller (who frees it) and reset b. */
char *hs_buf_take(struct hs_buf *b);
void hs_buf_reset(struct hs_buf *b);
/* Append the whole file at path, a regular file of at most HS_INPUT_MAX_BYTES
 * (base/inputfile.h); -1 with hs_fail ("PATH: why"). */
int hs_buf_read_file(struct hs_buf *b, const char *path);
void hs_buf_free(struct hs_buf *b);

#endif
