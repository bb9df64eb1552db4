/* workloads/dagfile.c — what the DAG file readers and writers share: reading
 * a whole file, line numbers for messages, the DAG's name, the attributes
 * kept for writers, architecture lists and exact number text. */
#include "workloads/dagio.h"
#include "base/inputfile.h"
#include "base/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *hs_read_text(const char *path, size_t *len)
{
    char err[1024];
    char *text = hs_input_read(path, HS_INPUT_MAX_BYTES, len, err, sizeof err);
    if (!text)
        hs_fail("%s", err);
    return text;
}

int hs_name_ok(const char *name, const char *fmt, ...)
{
    size_t n = hs_name_too_long(name);
    if (!n)
        return 0;
    char where[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(where, sizeof where, fmt, ap);
    va_end(ap);
    return hs_fail("%s: a name of %zu bytes, more than the %d bytes hetsim reads in a name", where, n,
                   HS_NAME_MAX);
}

int hs_text_line(const char *text, const char *where)
{
    int line = 1;
    for (const char *p = text; p < where && *p; p++)
        line += *p == '\n';
    return line;
}

void hs_dag_rename(struct hs_dag *dag, const char *name)
{
    free(dag->name);
    dag->name = hs_xstrdup(name);
}

void hs_task_add_extra(struct hs_task *t, const char *key, const char *value)
{
    size_t n = 0;
    while (t->extra && t->extra[n])
        n++;
    /* n + 1 slots (with the NULL) to n + 3, doubling: a node may carry many attributes */
    HS_GROW_IMPLIED(t->extra, t->extra ? n + 1 : 0, n + 3);
    t->extra[n] = hs_xstrdup(key);
    t->extra[n + 1] = hs_xstrdup(value);
    t->extra[n + 2] = NULL;
}

bool hs_dot_reserved(const char *name)
{
    static const char *const names[] = {"label", "kernel", "size", "footprint", "costs", "archs"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

int hs_archs_parse(const char *text, unsigned *mask)
{
    *mask = 0;
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len == 3 && strncmp(p, "cpu", 3) == 0)
            *mask |= HS_ARCH_BIT(HS_ARCH_CPU);
        else if (len == 3 && strncmp(p, "gpu", 3) == 0)
            *mask |= HS_ARCH_BIT(HS_ARCH_GPU);
        else
            return -1;
        p += len + (p[len] == ',');
    }
    return *mask ? 0 : -1;
}

void hs_archs_format(unsigned mask, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int a = 0; a < HS_NARCH; a++)
        if (mask & HS_ARCH_BIT(a))
            len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "," : "",
                                    hs_arch_name((enum hs_arch)a));
}

void hs_format_double(char buf[32], double v)
{
    if (isinf(v)) {
        snprintf(buf, 32, "%sinf", v < 0 ? "-" : "");
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15) { /* the common case, and much faster */
        snprintf(buf, 32, "%lld", (long long)v);
        return;
    }
    snprintf(buf, 32, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, 32, "%.17g", v);
}

void hs_task_zero_cost(struct hs_task *t)
{
    if (t->flops == 0 && !t->proc_cost && isnan(t->arch_cost[HS_ARCH_CPU]) &&
        isnan(t->arch_cost[HS_ARCH_GPU])) {
        t->arch_cost[HS_ARCH_CPU] = 0;
        t->arch_cost[HS_ARCH_GPU] = 0;
    }
}
