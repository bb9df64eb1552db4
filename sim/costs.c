/* sim/costs.c — the runtime's costs: names, parsing (durations, or the
 * platform's costs scaled: scale=F) and access by index. */
#include "sim/costs.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const hs_costs_props[] = {"runtime/task_cpu",     "runtime/task_gpu",
                                      "runtime/transfer_issue", "runtime/decide_push",
                                      "runtime/decide_worker",  NULL};

bool hs_costs_any(const struct hs_costs *c)
{
    for (int i = 0; hs_costs_props[i]; i++)
        if (hs_costs_get(c, i) != 0)
            return true;
    return false;
}

int hs_costs_parse_time(const char *text, double *seconds)
{
    static const struct {
        const char *unit;
        double factor;
    } units[] = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"", 1}};
    char *end;
    double v = strtod(text, &end);
    if (end == text || !isfinite(v) || v < 0)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            *seconds = v * units[i].factor;
            return 0;
        }
    return -1;
}

static double *slot(struct hs_costs *c, int i)
{
    double *slots[] = {&c->task[HS_ARCH_CPU], &c->task[HS_ARCH_GPU], &c->transfer_issue, &c->decide_push,
                       &c->decide_worker};
    return slots[i];
}

void hs_costs_set(struct hs_costs *c, int i, double seconds)
{
    *slot(c, i) = seconds;
}

double hs_costs_get(const struct hs_costs *c, int i)
{
    return *slot((struct hs_costs *)c, i);
}

/* scale=F: the platform's costs times F. */
static int set_scale(const char *text, struct hs_costs *c)
{
    double f;
    if (hs_parse_double(text, &f) || !isfinite(f) || f <= 0)
        return hs_fail("costs: scale '%s' is not a number > 0 (the platform's costs times it; off for none)", text);
    c->scale = f;
    return 0;
}

/* One KEY=DURATION (or scale=F) of a spec. */
static int set_pair(const char *pair, struct hs_costs *c)
{
    const char *eq = strchr(pair, '=');
    double v;
    if (eq && eq - pair == 5 && strncmp(pair, "scale", 5) == 0)
        return set_scale(eq + 1, c);
    if (!eq || hs_costs_parse_time(eq + 1, &v))
        return hs_fail("costs: '%s' is not KEY=DURATION (e.g. decide_worker=2us)", pair);
    size_t n = (size_t)(eq - pair);
    if (n == 4 && strncmp(pair, "task", 4) == 0) {
        c->task[HS_ARCH_CPU] = c->task[HS_ARCH_GPU] = v;
        return 0;
    }
    for (int i = 0; hs_costs_props[i]; i++) {
        const char *key = strchr(hs_costs_props[i], '/') + 1;
        if (strlen(key) == n && strncmp(pair, key, n) == 0) {
            hs_costs_set(c, i, v);
            return 0;
        }
    }
    return hs_fail("costs: unknown cost '%.*s' (valid: task, task_cpu, task_gpu, transfer_issue, "
                   "decide_push, decide_worker, scale)",
                   (int)n, pair);
}

int hs_costs_parse_spec(const char *spec, struct hs_costs *c)
{
    for (int i = 0; hs_costs_props[i]; i++)
        hs_costs_set(c, i, strcmp(spec, "off") == 0 ? 0 : NAN);
    c->scale = 1;
    if (strcmp(spec, "platform") == 0 || strcmp(spec, "off") == 0)
        return 0;
    char *copy = hs_xstrdup(spec), *save = NULL;
    int rc = 0;
    for (char *p = strtok_r(copy, "/", &save); p && !rc; p = strtok_r(NULL, "/", &save)) {
        /* a key given twice: the second would replace the first without a word */
        size_t n = strcspn(p, "=");
        for (const char *q = copy; q < p && !rc; q += strlen(q) + 1)
            if (strcspn(q, "=") == n && strncmp(q, p, n) == 0)
                rc = hs_fail("costs: '%.*s' is given twice in '%s': give it once", (int)n, p, spec);
        rc = rc ? rc : set_pair(p, c);
    }
    free(copy);
    return rc;
}
