/* cli/options.c — reading the command line: getopt_long with one-line
 * errors, option values checked or exit 2 naming the option, comma-separated
 * lists, and the options that describe a scenario (platform, workload,
 * policy, worker selection, runtime options), which `run`, `sweep` and
 * `calibrate-sim` share: each sets one named scenario parameter
 * (hs_scenario_set), and a second option for the same parameter is refused;
 * last, the output paths options name, checked before any work. */
#include "cli/cli.h"
#include "scenario/scenario.h"
#include "base/util.h"
#include "policies/registry.h"
#include "sim/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
            "                        a name or file takes parameters that change the machine,\n"
            "                        NAME:key=value (idgraf:bw_scale=0.5: every link's bandwidth\n"
            "                        times 0.5); `hetsim platform --help` lists them, `hetsim\n"
            "                        platform NAME` gives each value and its source\n"
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
            "                        decide_push, decide_worker (e.g. --costs decide_worker=50us),\n"
            "                        and scale=F: the platform's costs times F (--costs scale=2)\n"
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

int hs_split_list(char *text, char ***out)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(text, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        HS_GROW_IMPLIED(*out, n, n + 1);
        (*out)[n++] = t;
    }
    return n;
}

/* An option of the command's own that takes one value, given twice: the
 * second would replace the first without a word (`-o a.json -o b.json`
 * writes b.json only; `summarize --by policy --by gpus` groups by gpus
 * alone). The options that add a value each time may repeat; the scenario's
 * options say it in their own words (hs_scenario_apply_option, and sweep's
 * for its base). Called with each option getopt returns; a parse starts
 * again at optind 1. */
static void check_given_once(const char *cmd, int c, const char *shortopts, const struct option *longopts,
                             bool restart)
{
    static const char *const repeatable[] = {"vary", "where", "set", "plugin"};
    static int seen[64], nseen;
    static const char *first[64];
    if (restart)
        nseen = 0;
    const struct option *o = longopts;
    while (o->name && o->val != c)
        o++;
    const char *sc = c > 0 && c < 128 ? strchr(shortopts, c) : NULL;
    bool takes_value = o->name ? o->has_arg == required_argument : sc && sc[1] == ':';
    if (!takes_value || c == ':' || c == '?')
        return;
    for (size_t i = 0; i < NOPTS; i++)
        if (table[i].opt.val == c)
            return;
    for (size_t i = 0; o->name && i < sizeof repeatable / sizeof *repeatable; i++)
        if (strcmp(o->name, repeatable[i]) == 0)
            return;
    for (int i = 0; i < nseen; i++)
        if (seen[i] == c) {
            char name[64]; /* as the help writes it: -o/--output, -x, --by */
            if (sc && o->name)
                snprintf(name, sizeof name, "-%c/--%s", c, o->name);
            else if (sc)
                snprintf(name, sizeof name, "-%c", c);
            else
                snprintf(name, sizeof name, "--%s", o->name);
            hs_die(HS_EXIT_USAGE, "%s: option %s is given twice ('%s' and '%s'; the second would replace the "
                   "first): give it once", cmd, name, first[i], optarg);
        }
    if (nseen < (int)(sizeof seen / sizeof *seen)) {
        seen[nseen] = c;
        first[nseen++] = optarg;
    }
}

int hs_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
              const struct option *longopts)
{
    bool restart = optind <= 1;
    char opts[128];
    snprintf(opts, sizeof opts, ":%s", shortopts); /* ':' first: report missing arguments */
    opterr = 0;
    int c = getopt_long(argc, argv, opts, longopts, NULL);
    if (c == '?' || c == ':') {
        const char *arg = argv[optind - 1];
        char shortname[3] = {'-', (char)optopt, '\0'};
        if (optopt && strncmp(arg, "--", 2) != 0)
            arg = shortname;
        if (c == '?')
            hs_die(HS_EXIT_USAGE, "%s: unknown option '%s' (see `hetsim %s --help`)", cmd, arg, cmd);
        hs_die(HS_EXIT_USAGE, "%s: option '%s' needs a value (see `hetsim %s --help`)", cmd, arg, cmd);
    }
    if (c != -1)
        check_given_once(cmd, c, shortopts, longopts, restart);
    return c;
}

long hs_opt_long(const char *opt, const char *value, long min, long max)
{
    long v;
    if (hs_parse_long(value, &v) || v < min || v > max)
        hs_die(HS_EXIT_USAGE, "option %s: '%s' is not an integer in [%ld, %ld]", opt, value, min,
               max);
    return v;
}

void hs_opt_max_memory(const char *value)
{
    double v;
    if (hs_parse_si(value, &v) || !(v > 0) || isinf(v))
        hs_die(HS_EXIT_USAGE, "option --max-memory: '%s' is not a number of bytes > 0 (e.g. 8G)",
               value);
    hs_set_memory_limit(v);
}

void hs_opt_shard(const char *text, int *shard, int *nshards)
{
    long i, n;
    char tail;
    if (sscanf(text, "%ld/%ld%c", &i, &n, &tail) != 2 || n < 1 || i < 0 || i >= n || n > 1000000)
        hs_die(HS_EXIT_USAGE, "option --shard: '%s' is not I/N with 0 <= I < N", text);
    *shard = (int)i;
    *nshards = (int)n;
}

double hs_opt_double(const char *opt, const char *value, double min, double max)
{
    double v;
    if (hs_parse_double(value, &v) || v < min || v > max)
        hs_die(HS_EXIT_USAGE, "option %s: '%s' is not a number in [%g, %g]", opt, value, min, max);
    return v;
}

/* ---- output paths checked before any work: a run, a sweep
 * or a plot must not find out at the end that it cannot write its result.
 * A file is opened for writing as the command will open it (created if
 * absent and then removed again, never truncated), so that every reason
 * (missing folder, a folder in its place, no permission, read-only file
 * system) shows up at once. An output replaces only a regular file: a
 * device (/dev/full, a disk), a FIFO, a socket or a folder in its place is
 * refused before any work, since a writer that finishes with a rename
 * would put a file in the device's place, and one that reads its output
 * back (the Paje trimming) never ends on /dev/full. The null device is the
 * one exception, the usual way to discard an output (the docs, tests and
 * benchmarks use it): writing into it replaces nothing. Only an output
 * that is renamed into place (--paje) refuses it too. */
/* What st is, in a word, when it is not a regular file. */
static int check_file(const char *path, bool null_ok)
{
    if (!*path)
        return hs_fail("an empty file name");
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !(null_ok && hs_outfile_is_null(&st)))
        return hs_fail("cannot write %s: it is %s, and an output replaces only a regular file (name a "
                       "file, or leave the option out)", path, hs_outfile_kind(&st));
    /* Several processes may check one path at once (the ranks of an MPI
     * sweep): one that finds the file created by another may then find it
     * removed again, so try a few times before calling the path unwritable. */
    int fd = -1;
    for (int attempt = 0; attempt < 8; attempt++) {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) { /* it did not exist: leave nothing behind */
            close(fd);
            unlink(path);
            return 0;
        }
        if (errno != EEXIST)
            break;
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0 || errno != ENOENT)
            break;
    }
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    return hs_fail("cannot write %s: %s", path, strerror(errno));
}

int hs_output_check(const char *path)
{
    return check_file(path, true);
}

int hs_output_check_renamed(const char *path)
{
    return check_file(path, false);
}

int hs_output_dir_check(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return hs_fail("cannot write into %s: not a folder", path);
        if (access(path, W_OK | X_OK) != 0)
            return hs_fail("cannot write into %s: %s", path, strerror(errno));
        return 0;
    }
    if (errno != ENOENT)
        return hs_fail("cannot write into %s: %s", path, strerror(errno));
    char *parent = hs_xstrdup(path);
    char *slash = strrchr(parent, '/');
    while (slash && slash > parent && slash[1] == '\0') { /* "dir/" */
        *slash = '\0';
        slash = strrchr(parent, '/');
    }
    const char *dir = !slash ? "." : slash == parent ? "/" : (*slash = '\0', parent);
    int rc = 0;
    if (stat(dir, &st) != 0 || (S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) != 0))
        rc = hs_fail("cannot create the folder %s: %s", path, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = hs_fail("cannot create the folder %s: %s is not a folder", path, dir);
    free(parent);
    return rc;
}

void hs_output_distinct(const char *cmd, const char *const *opts, const char *const *paths, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; paths[i] && j < i; j++) {
            if (!paths[j] || strcmp(paths[i], "-") == 0)
                continue;
            struct stat a, b;
            bool same = strcmp(paths[i], paths[j]) == 0 ||
                        (stat(paths[i], &a) == 0 && stat(paths[j], &b) == 0 && a.st_dev == b.st_dev &&
                         a.st_ino == b.st_ino);
            if (same)
                hs_die(HS_EXIT_USAGE, "%s: options %s and %s name the same file %s: one would overwrite the "
                       "other (give each its own)", cmd, opts[j], opts[i], paths[i]);
        }
}

void hs_output_require(const char *cmd, const char *opt, const char *path, bool dir)
{
    if (!path || (!dir && strcmp(path, "-") == 0))
        return;
    if (dir ? hs_output_dir_check(path) : hs_output_check(path))
        hs_die(HS_EXIT_USAGE, "%s: option %s: %s", cmd, opt, hs_last_error());
}

void hs_output_require_renamed(const char *cmd, const char *opt, const char *path)
{
    if (path && hs_output_check_renamed(path))
        hs_die(HS_EXIT_USAGE, "%s: option %s: %s", cmd, opt, hs_last_error());
}
