/* cli/scenario_opts.c — what `run` and `sweep` share: the options that
 * describe a scenario (platform, workload, policy, worker selection, runtime
 * options), each of which sets one named scenario parameter; and setting a
 * parameter by name, which also serves --vary and study files. */
#include "policies/registry.h"
#include "base/util.h"
#include "cli/cli.h"
#include "cli/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Long option -> the parameter it sets (and its fixed value for flags). */
static const struct {
    struct option opt;
    const char *name, *value;
} table[] = {
    {{"platform", required_argument, 0, 'p'}, "platform", NULL},
    {{"workload", required_argument, 0, 'w'}, "workload", NULL},
    {{"policy", required_argument, 0, 's'}, "policy", NULL},
    {{"gpus", required_argument, 0, HS_OPT_SCENARIO + 0}, "gpus", NULL},
    {{"cpus", required_argument, 0, HS_OPT_SCENARIO + 1}, "cpus", NULL},
    {{"gpu-order", required_argument, 0, HS_OPT_SCENARIO + 2}, "gpu_order", NULL},
    {{"seed", required_argument, 0, HS_OPT_SCENARIO + 3}, "seed", NULL},
    {{"noise", required_argument, 0, HS_OPT_SCENARIO + 4}, "noise", NULL},
    {{"window", required_argument, 0, HS_OPT_SCENARIO + 5}, "window", NULL},
    {{"cache-fraction", required_argument, 0, HS_OPT_SCENARIO + 6}, "cache_fraction", NULL},
    {{"p2p", no_argument, 0, HS_OPT_SCENARIO + 7}, "p2p", "1"},
    {{"no-flush", no_argument, 0, HS_OPT_SCENARIO + 8}, "flush", "0"},
    {{"perf", required_argument, 0, HS_OPT_SCENARIO + 9}, "perf", NULL},
    {{"costs", required_argument, 0, HS_OPT_SCENARIO + 10}, "costs", NULL},
    {{"no-costs", no_argument, 0, HS_OPT_SCENARIO + 11}, "costs", "off"},
    {{"energy", no_argument, 0, HS_OPT_SCENARIO + 12}, "energy", "1"},
    {{"plugin", required_argument, 0, HS_OPT_PLUGIN}, NULL, NULL}, /* not a parameter */
};
#define NOPTS (sizeof table / sizeof table[0])

void hs_scenario_usage(FILE *out)
{
    fprintf(out,
            "  -p, --platform P      shipped name (idgraf, idgraf-dada, idgraf-starpu, mapuche, h100),\n"
            "                        flat:P[,key=value] or the path of a SimGrid platform file;\n"
            "                        a name or file takes bw_scale=F (every link's bandwidth times F)\n"
            "                        and gpu_speed=F (GPU kernel durations divided by F)\n"
            "  -w, --workload W      name:key=value,... (see `hetsim workloads`)\n"
            "  -s, --policy S        name:key=value,... (see `hetsim policies`), or the path of\n"
            "                        a policy plugin: ./libmine.so:key=value,...; none (run\n"
            "                        only): build the workload's DAG and stop\n"
            "      --plugin FILE     load a policy plugin (lib*.so), then -s NAME names its policy\n"
            "      --gpus K          GPU workers (default: all)\n"
            "      --cpus C          CPU workers (default: cores left after the GPUs' drivers)\n"
            "      --gpu-order O     first (GPU0, GPU1, ...), spread (one per PCIe switch first) or\n"
            "                        script (the DADA paper's 2013 Idgraf script's GPU sets)\n"
            "      --seed S          seed of every random stream (default 1)\n"
            "      --noise CV        lognormal noise on execution times, coefficient of variation\n"
            "      --window W        tasks in flight per GPU or flat processor (default 2)\n"
            "      --cache-fraction F  part of GPU memory for the data cache (default 0.8)\n"
            "      --p2p             direct GPU-to-GPU copies where the platform has routes\n"
            "      --no-flush        do not write data back to host memory at the end\n"
            "      --perf FILE       timing table (default: the platform's shipped one), or the\n"
            "                        name of a shipped one (idgraf-cal8: perf/idgraf-cal8.json)\n"
            "                        or StarPU's perfmodels: a codelet file SYMBOL.HOST or a folder\n"
            "                        of them (STARPU_HOME/.starpu/sampling/codelets/45)\n"
            "      --costs C         the runtime's own costs in simulated time: platform (the\n"
            "                        platform file's, default), off, or KEY=DURATION/... with keys\n"
            "                        task (task_cpu and task_gpu), task_cpu, task_gpu, transfer_issue,\n"
            "                        decide_push, decide_worker (e.g. --costs decide_worker=50us)\n"
            "      --no-costs        the same as --costs off\n"
            "      --energy          count each host's energy (a platform whose hosts declare\n"
            "                        wattage_per_state; SimGrid's energy plugin, about a fifth more\n"
            "                        CPU per run)\n");
}

struct option *hs_scenario_options(const struct option *extra)
{
    size_t n = 0;
    while (extra[n].name)
        n++;
    struct option *all = hs_xcalloc(NOPTS + n + 1, sizeof *all);
    for (size_t i = 0; i < NOPTS; i++)
        all[i] = table[i].opt;
    memcpy(all + NOPTS, extra, n * sizeof *all);
    return all;
}

bool hs_scenario_option(int c, const char *arg, const char **name, const char **value)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (table[i].opt.val == c && table[i].name) {
            *name = table[i].name;
            *value = table[i].value ? table[i].value : arg;
            return true;
        }
    return false;
}

const char *hs_scenario_option_name(const char *param)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (table[i].name && strcmp(table[i].name, param) == 0)
            return table[i].opt.name;
    return param;
}

/* A shared scenario option: set its parameter or exit 2 naming the option. */
void hs_scenario_apply_option(struct hs_scenario *sc, int c, const char *arg)
{
    const char *name, *value;
    if (c == HS_OPT_PLUGIN) {
        if (!hs_policy_load_plugin(arg, true))
            hs_die(HS_EXIT_USAGE, "option --plugin: %s", hs_last_error());
        return;
    }
    if (!hs_scenario_option(c, arg, &name, &value))
        exit(HS_EXIT_USAGE);
    /* two options for one parameter (--seed 1 --seed 2, --no-costs --costs
     * platform): the second would replace the first without a word */
    int k = 0;
    const char *const *names = hs_scenario_names();
    while (names[k] && strcmp(names[k], name) != 0)
        k++;
    if (k < (int)(sizeof sc->given / sizeof *sc->given) && sc->given[k]) {
        const char *before = "?", *now = "?";
        for (size_t i = 0; i < NOPTS; i++) {
            if (table[i].opt.val == sc->given[k])
                before = table[i].opt.name;
            if (table[i].opt.val == c)
                now = table[i].opt.name;
        }
        if (strcmp(before, now) == 0)
            hs_die(HS_EXIT_USAGE, "option --%s is given twice (the second would replace the first): give it "
                   "once", now);
        hs_die(HS_EXIT_USAGE, "options --%s and --%s both set %s (the second would replace the first): "
               "give one", before, now, name);
    }
    if (k < (int)(sizeof sc->given / sizeof *sc->given))
        sc->given[k] = c;
    if (hs_scenario_set(sc, name, value))
        hs_die(HS_EXIT_USAGE, "option --%s: %s", hs_scenario_option_name(name), hs_last_error());
}

/* ---- setting a parameter by name ----------------------------------------- */

static int set_long(const char *v, long lo, long hi, long *out)
{
    if (hs_parse_long(v, out) || *out < lo || *out > hi)
        return hs_fail("'%s' is not an integer in [%ld, %ld]", v, lo, hi);
    return 0;
}

static int set_double(const char *v, double lo, double hi, double *out)
{
    if (hs_parse_double(v, out) || !(*out >= lo && *out <= hi))
        return hs_fail("'%s' is not a number in [%g, %g]", v, lo, hi);
    return 0;
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
        return set_double(v, 0, 10, &cfg->opts.noise);
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
