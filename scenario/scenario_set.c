/* scenario/scenario_set.c — setting a scenario parameter by name (platform,
 * workload, policy, worker selection, runtime options), with its value
 * checked: what the command line's scenario options (cli/options.c), --vary
 * and study files all come to. */
#include "base/util.h"
#include "scenario/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- setting a parameter by name ----------------------------------------- */

/* "1-8" where an integer is expected: a range, which --vary and study
 * files write 1..8. */
static bool dash_range(const char *v)
{
    size_t a = strspn(v, "0123456789");
    return a && v[a] == '-' && v[a + 1] && strspn(v + a + 1, "0123456789") == strlen(v + a + 1);
}

static int set_long(const char *v, long lo, long hi, long *out)
{
    if (hs_parse_long(v, out) || *out < lo || *out > hi)
        return hs_fail("'%s' is not an integer in [%ld, %ld]%s", v, lo, hi,
                       dash_range(v) ? " (a range of values, in --vary or a study, is written 1..8)" : "");
    return 0;
}

/* A number written as a percentage ("5%"), where a fraction is expected:
 * what (noun) it is, and the fraction. */
static int set_double_of(const char *v, double lo, double hi, double *out, const char *what)
{
    double pct;
    size_t n = strlen(v);
    char number[64];
    snprintf(number, sizeof number, "%.*s", n ? (int)n - 1 : 0, v);
    if (n > 1 && v[n - 1] == '%' && !hs_parse_double(number, &pct))
        return hs_fail("'%s' is not a number in [%g, %g] (%s, a fraction: %s is written %g)", v, lo, hi, what, v,
                       pct / 100);
    if (hs_parse_double(v, out) || !(*out >= lo && *out <= hi))
        return hs_fail("'%s' is not a number in [%g, %g]", v, lo, hi);
    return 0;
}

static int set_double(const char *v, double lo, double hi, double *out)
{
    return set_double_of(v, lo, hi, out, "not a percentage");
}

static int set_bool(const char *v, bool *out)
{
    static const char *yes[] = {"1", "on", "yes", "true"}, *no[] = {"0", "off", "no", "false"};
    for (int i = 0; i < 4; i++)
        if (strcasecmp(v, yes[i]) == 0 || strcasecmp(v, no[i]) == 0) {
            *out = strcasecmp(v, yes[i]) == 0;
            return 0;
        }
    return hs_fail("'%s' is not a boolean (use 0/1, on/off)", v);
}

static int set_text(const char *v, const char **out)
{
    if (!*v)
        return hs_fail("empty value");
    *out = v;
    return 0;
}

static int set_selection(struct hs_run_config *cfg, const char *name, const char *v)
{
    long l = 0;
    int rc = 0;
    if (strcmp(name, "gpus") == 0 && !(rc = set_long(v, 0, 1 << 20, &l)))
        cfg->select.gpus = (int)l;
    else if (strcmp(name, "cpus") == 0 && !(rc = set_long(v, 0, 1 << 20, &l)))
        cfg->select.cpus = (int)l;
    else if (strcmp(name, "window") == 0 && !(rc = set_long(v, 1, 1024, &l)))
        cfg->select.window = (int)l;
    else if (strcmp(name, "seed") == 0 && !(rc = set_long(v, 0, 4294967295L, &l)))
        cfg->opts.seed = (unsigned long)l;
    return rc;
}

int hs_scenario_set(struct hs_scenario *sc, const char *name, const char *v)
{
    struct hs_run_config *cfg = &sc->cfg;
    if (strcmp(name, "platform") == 0)
        return set_text(v, &sc->platform);
    if (strcmp(name, "workload") == 0)
        return set_text(v, &sc->workload);
    if (strcmp(name, "policy") == 0)
        return set_text(v, &sc->policy);
    if (strcmp(name, "perf") == 0)
        return set_text(v, &sc->perf);
    if (!strcmp(name, "gpus") || !strcmp(name, "cpus") || !strcmp(name, "window") || !strcmp(name, "seed"))
        return set_selection(cfg, name, v);
    if (strcmp(name, "gpu_order") == 0)
        return hs_gpu_order_parse(v, &cfg->select.gpu_order);
    if (strcmp(name, "noise") == 0)
        return set_double_of(v, 0, 10, &cfg->opts.noise, "a coefficient of variation");
    if (strcmp(name, "cache_fraction") == 0)
        return set_double(v, 1e-9, 1, &cfg->select.cache_fraction);
    if (strcmp(name, "p2p") == 0)
        return set_bool(v, &cfg->select.p2p);
    if (strcmp(name, "flush") == 0)
        return set_bool(v, &cfg->opts.flush);
    if (strcmp(name, "energy") == 0)
        return set_bool(v, &cfg->energy);
    if (strcmp(name, "costs") == 0) {
        if (hs_costs_parse_spec(v, &cfg->opts.costs))
            return -1;
        sc->costs = v;
        return 0;
    }
    return hs_fail("unknown scenario parameter '%s'", name);
}

const char *const *hs_scenario_names(void)
{
    static const char *const names[] = {"platform", "workload", "policy", "gpus", "cpus", "gpu_order",
                                        "window", "cache_fraction", "p2p", "flush", "noise", "perf",
                                        "costs", "energy", "seed", NULL};
    return names;
}
