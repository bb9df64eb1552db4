/* base/inputfile.c — opening and reading input files safely, and strict
 * JSON parsing (inputfile.h). */
#include "base/inputfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *hs_input_open(const char *path, size_t max, char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO with no writer would wait forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (S_ISDIR(st.st_mode))
        why = "is a folder, not a file";
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file (a device, FIFO or socket is not read)";
    else if ((unsigned long long)st.st_size > max)
        why = "too large";
    if (why) {
        if (strcmp(why, "too large") == 0)
            snprintf(err, errlen, "%s: %lld bytes, more than the %zu bytes hetsim reads", path,
                     (long long)st.st_size, max);
        else
            snprintf(err, errlen, "%s: %s", path, why);
        close(fd);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

char *hs_input_read(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    FILE *f = hs_input_open(path, max, err, errlen);
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    bool failed = !buf;
    /* the size fstat gave may change while reading: the bound holds anyway */
    while (!failed) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1 || n > max)
            break;
        char *grown = realloc(buf, cap * 2);
        failed = !grown;
        if (grown) {
            buf = grown;
            cap *= 2;
        }
    }
    if (failed || ferror(f) || n > max) {
        if (n > max)
            snprintf(err, errlen, "%s: more than the %zu bytes hetsim reads", path, max);
        else
            snprintf(err, errlen, "%s: cannot read the file", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static int cmp_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A key that an object gives twice, or NULL. Sorting keeps a large object
 * (thousands of keys) from costing a quadratic search. */
static const char *duplicate_key(const cJSON *obj)
{
    size_t n = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        n += c->string != NULL;
    if (n < 2)
        return NULL;
    const char **keys = malloc(n * sizeof *keys);
    if (!keys)
        return NULL;
    n = 0;
    for (const cJSON *c = obj->child; c; c = c->next)
        if (c->string)
            keys[n++] = c->string;
    qsort(keys, n, sizeof *keys, cmp_keys);
    const char *dup = NULL;
    for (size_t i = 1; i < n && !dup; i++)
        if (strcmp(keys[i - 1], keys[i]) == 0)
            dup = keys[i];
    free(keys);
    return dup;
}

int hs_json_unique_keys(const cJSON *item, const char *prefix, char *where, size_t wherelen)
{
    const char *dup = cJSON_IsObject(item) ? duplicate_key(item) : NULL;
    if (dup) {
        snprintf(where, wherelen, "%s%s%s", prefix, *prefix ? "." : "", dup);
        return -1;
    }
    int i = 0;
    for (const cJSON *c = item ? item->child : NULL; c; c = c->next, i++) {
        if (!cJSON_IsObject(c) && !cJSON_IsArray(c))
            continue;
        char path[512];
        if (cJSON_IsObject(item))
            snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "",
                     c->string ? c->string : "");
        else
            snprintf(path, sizeof path, "%s[%d]", prefix, i);
        if (hs_json_unique_keys(c, path, where, wherelen))
            return -1;
    }
    return 0;
}

int hs_input_no_nul(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return 0;
    snprintf(err, errlen, "%s: a NUL byte at offset %zu (the file is text: a NUL would end it there)",
             path, (size_t)(nul - text));
    return -1;
}

size_t hs_name_too_long(const char *name)
{
    size_t n = strnlen(name, HS_NAME_MAX + 1);
    return n <= HS_NAME_MAX ? 0 : n + strlen(name + n);
}

cJSON *hs_json_parse_strict(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    if (hs_input_no_nul(path, text, len, err, errlen))
        return NULL;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        int line = 1;
        for (const char *p = text; end && p < end && *p; p++)
            line += *p == '\n';
        snprintf(err, errlen, "%s: malformed JSON near line %d", path, line);
        return NULL;
    }
    char where[256];
    if (hs_json_unique_keys(root, "", where, sizeof where)) {
        snprintf(err, errlen, "%s: %s: given twice", path, where);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}
