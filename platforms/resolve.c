/* platforms/resolve.c — from a platform name to the files a run loads:
 * shipped names are looked up in the data directory (with their timing table
 * perf/<name>.json, or perf/<base>.json for a variant "<base>-<variant>"),
 * flat:P specifications are read into a struct hs_flat that the engine builds
 * in SimGrid through its API, with no file (with speeds drawn from the run's
 * seed where they are drawn), and
 * anything else is taken as the path of a SimGrid platform file. A shipped
 * name or a file may take parameters that scale the machine
 * ("idgraf:bw_scale=0.5,gpu_speed=1.25"): the knobs of our sensitivity
 * study of Bleuse et al. 2014 (dada-sensitivity); gpu_kernels= restricts
 * gpu_speed to some kernels (a timing table's assumed rates,
 * docs/fidelity.md's "How the verdicts move with the assumptions"), and
 * cpu_speed= with cpu_kernels= does the same on the cores;
 * lat_scale= scales every link's latency and copy_engines= sets every GPU's
 * copy engines, the two machine properties that docs/fidelity.md's
 * experiment on Beniamine's R9 removes. */
#include "platforms/resolve.h"
#include "base/datadir.h"
#include "platforms/flat.h"
#include "platforms/perfmodel.h"
#include "base/params.h"
#include "base/util.h"
#include "base/nearest.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hs_param flat_params[] = {
    {.name = "p", .type = HS_P_INT, .range = "[1,100000]", .positional = true,
     .help = "number of processors (flat:8 is flat:p=8)"},
    {.name = "speed", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "speed of every processor in flop/s"},
    {.name = "speeds", .type = HS_P_STRING, .defval = "",
     .help = "per-processor speeds in flop/s, ':'-separated (overrides speed)"},
    {.name = "bw", .type = HS_P_SI, .defval = "1G", .range = "(0,inf]",
     .help = "bandwidth of every route in bytes/s (inf: free network)"},
    {.name = "lat", .type = HS_P_DOUBLE, .defval = "0", .range = "[0,inf)",
     .help = "latency of every route in seconds"},
    {.name = "spread", .type = HS_P_SI, .defval = "0", .range = "[0,inf)",
     .help = "speeds drawn per run (from --seed) uniformly in [speed-spread, speed+spread]"},
    {.name = "choices", .type = HS_P_STRING, .defval = "",
     .help = "speeds drawn per run uniformly among these, ':'-separated"},
    {.name = "scenario", .type = HS_P_CHOICE, .defval = "none",
     .choices = "none|u10-100|unif.1|unif.2|set.3|set.5|dyn.5|dyn.20",
     .help = "a speed scenario of Beaumont and Marchal (docs/platforms.md, Speeds of flat:P drawn per run)"},
    {.name = "drift", .type = HS_P_DOUBLE, .defval = "0", .range = "[0,1)",
     .help = "after each task a speed is multiplied by 1+U(-drift,drift) (their model only)"},
    {0},
};


const struct hs_param *hs_flat_params(void)
{
    return flat_params;
}

bool hs_platform_is_flat(const char *text)
{
    return strncmp(text, "flat", 4) == 0 && (text[4] == ':' || text[4] == '\0');
}

const struct hs_param *hs_platform_params(const char *text)
{
    return hs_platform_is_flat(text) ? flat_params : hs_machine_params_table();
}

void hs_print_file_platform_params(const char *indent)
{
    hs_params_print(hs_machine_params_table(), indent);
}

/* Where the parameters of a shipped name or a file start (its ':'), or NULL. */
static const char *params_start(const char *text)
{
    const char *xml = strstr(text, ".xml:");
    if (xml)
        return xml + 4;
    return strchr(text, '/') ? NULL : strchr(text, ':');
}

static int parse_file_params(const char *base, const char *params, struct hs_platform_ref *ref)
{
    char label[PATH_MAX + 16];
    snprintf(label, sizeof label, "platform %s", base);
    return hs_machine_params_parse(params, label, &ref->machine);
}

void hs_print_flat_params(const char *indent)
{
    hs_params_print(flat_params, indent);
}

/* flat:P: built by the engine from its struct hs_flat, with no file. */
static int read_flat(const char *text, unsigned long seed, struct hs_platform_ref *ref)
{
    ref->flat = hs_xcalloc(1, sizeof *ref->flat);
    return hs_flat_parse(text, seed, ref->flat);
}

/* Names of the shipped platforms, for the error message. */
static void shipped_names(char *buf, size_t size)
{
    char dirpath[PATH_MAX], probe[PATH_MAX];
    buf[0] = '\0';
    if (hs_data_find("idgraf.xml", probe, sizeof probe))
        return;
    snprintf(dirpath, sizeof dirpath, "%.*s", (int)(strrchr(probe, '/') - probe), probe);
    DIR *d = opendir(dirpath);
    if (!d)
        return;
    size_t len = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".xml") == 0 && len < size)
            len += (size_t)snprintf(buf + len, size - len, "%s%.*s", len ? ", " : "",
                                    (int)(n - 4), e->d_name);
    }
    closedir(d);
}

/* perf/<name>.json, else perf/<base>.json for a variant <base>-<variant>. */
static void find_perf(const char *name, struct hs_platform_ref *ref)
{
    char rel[PATH_MAX], path[PATH_MAX];
    const char *dash = strchr(name, '-');
    for (int attempt = 0; attempt < (dash ? 2 : 1); attempt++) {
        int len = attempt ? (int)(dash - name) : (int)strlen(name);
        snprintf(rel, sizeof rel, "perf/%.*s.json", len, name);
        if (hs_data_find(rel, path, sizeof path) == 0) {
            ref->perf = hs_xstrdup(path);
            ref->perf_label = hs_xstrdup(rel);
            return;
        }
    }
}

/* --perf: the path of a timing table, or the name of a shipped one
 * (perf/<name>.json: no '/' and no ".json"). */
static int override_perf(const char *perf, struct hs_platform_ref *ref)
{
    free(ref->perf);
    free(ref->perf_label);
    char rel[PATH_MAX], path[PATH_MAX];
    size_t n = strlen(perf);
    if (strchr(perf, '/') || (n > 5 && strcmp(perf + n - 5, ".json") == 0)) {
        ref->perf = hs_xstrdup(perf);
        ref->perf_label = hs_xstrdup(perf);
        return 0;
    }
    snprintf(rel, sizeof rel, "perf/%s.json", perf);
    if (hs_data_find(rel, path, sizeof path)) {
        ref->perf = ref->perf_label = NULL;
        hs_platform_ref_free(ref);
        return hs_fail("unknown timing table '%s' (no %s in %s; or give the path of a .json file)",
                       perf, rel, hs_data_dirs());
    }
    ref->perf = hs_xstrdup(path);
    ref->perf_label = hs_xstrdup(rel);
    return 0;
}

/* A shipped name or a file, with its parameters. */
static int resolve_file(const char *text, struct hs_platform_ref *ref)
{
    const char *colon = params_start(text);
    char *base = hs_xstrdup(text);
    if (colon)
        base[colon - text] = '\0';
    int rc = colon ? parse_file_params(base, colon + 1, ref) : 0;
    if (!rc && (strchr(base, '/') || strstr(base, ".xml"))) {
        ref->file = hs_xstrdup(base);
    } else if (!rc) {
        char rel[PATH_MAX], path[PATH_MAX];
        snprintf(rel, sizeof rel, "%s.xml", base);
        if (hs_data_find(rel, path, sizeof path)) {
            char names[512];
            shipped_names(names, sizeof names);
            if (names[0])
                rc = hs_fail("unknown platform '%s' (shipped: %s; or flat:P, or the path of a "
                             "SimGrid platform file)%s", base, names, hs_did_you_mean(base, names));
            else
                rc = hs_fail("unknown platform '%s': no shipped platform found in %s; or flat:P, "
                             "or the path of a SimGrid platform file", base, hs_data_dirs());
        } else {
            ref->file = hs_xstrdup(path);
            find_perf(base, ref);
        }
    }
    free(base);
    return rc;
}

/* gpu_kernels=K1:K2 (cpu_kernels=, arch "cpu"): each name a kernel that
 * `table` (the platform's shipped timing table, else --perf's) times on
 * that architecture, since a misspelt name would scale nothing without a
 * word. */
static int check_kernels(const struct hs_platform_ref *ref, const char *table, const char *param,
                         const char *kernels, const char *arch)
{
    size_t len = strlen(kernels);
    if (kernels[0] == ':' || kernels[len - 1] == ':' || strstr(kernels, "::")) /* it would scale nothing */
        return hs_fail("platform %s: %s '%s' has an empty kernel name (':'-separated kernel names of the "
                       "timing table, e.g. dgessm:dssssm)", ref->name, param, kernels);
    if (!table)
        return hs_fail("platform %s: %s names kernels of a timing table, and the platform "
                       "has none (name one with --perf)",
                       ref->name, param);
    struct hs_perfmodel pm;
    char err[1024];
    if (hs_perf_load_for(table, ref->file, &pm, err, sizeof err))
        return hs_fail("%s", err);
    char *copy = hs_xstrdup(kernels), *save = NULL;
    int rc = 0;
    for (char *k = strtok_r(copy, ":", &save); k && !rc; k = strtok_r(NULL, ":", &save))
        if (!hs_perf_has(&pm, k, arch))
            rc = hs_fail("platform %s: %s names kernel '%s', which %s does not time on a %s "
                         "(':'-separated kernel names of the table, e.g. dgessm:dssssm)",
                         ref->name, param, k, table, strcmp(arch, "gpu") == 0 ? "GPU" : "CPU");
    free(copy);
    hs_perf_free(&pm);
    return rc;
}

int hs_resolve_platform(const char *text, const char *perf_override, struct hs_platform_ref *ref)
{
    return hs_resolve_platform_seeded(text, perf_override, 1, ref);
}

int hs_resolve_platform_seeded(const char *text, const char *perf_override, unsigned long seed,
                               struct hs_platform_ref *ref)
{
    memset(ref, 0, sizeof *ref);
    ref->name = hs_xstrdup(text);
    hs_machine_params_defaults(&ref->machine);
    if (hs_platform_is_flat(text) ? read_flat(text, seed, ref) : resolve_file(text, ref)) {
        hs_platform_ref_free(ref);
        return -1;
    }
    char *shipped = ref->perf ? hs_xstrdup(ref->perf) : NULL;
    if (perf_override && override_perf(perf_override, ref)) {
        free(shipped);
        return -1; /* ref freed */
    }
    const char *table = shipped ? shipped : ref->perf;
    const struct hs_machine_params *m = &ref->machine;
    int rc = m->gpu_kernels ? check_kernels(ref, table, "gpu_kernels", m->gpu_kernels, "gpu") : 0;
    if (!rc && m->cpu_kernels)
        rc = check_kernels(ref, table, "cpu_kernels", m->cpu_kernels, "cpu");
    free(shipped);
    if (rc)
        hs_platform_ref_free(ref);
    return rc;
}

void hs_platform_ref_free(struct hs_platform_ref *ref)
{
    if (ref->flat)
        hs_flat_free(ref->flat);
    free(ref->flat);
    free(ref->name);
    free(ref->file);
    free(ref->perf);
    free(ref->perf_label);
    hs_machine_params_free(&ref->machine);
    memset(ref, 0, sizeof *ref);
}
