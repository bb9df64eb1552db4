/* sim/engines/simgrid/platform_checked.c — platform files checked once.
 *
 * Before SimGrid loads a platform file, hetsim checks it in a child process
 * (platform_simgrid.c): SimGrid aborts or crashes on some malformed files,
 * and the child turns that into one line. The price is a second parse of the
 * file in every run. The files hetsim ships do not change between runs, so
 * checked.json, beside them, records for each what its check found (the
 * TCP settings its <config> makes, its hosts by kind, how many declare
 * energy) with its size, its
 * digest and the SimGrid version that checked it. A run whose file matches
 * an entry byte for byte, under that SimGrid, takes the entry instead of
 * forking. `hetsim platform --write-checked DIR` writes the manifest;
 * test_platform_checked fails when a shipped file no longer matches it. */
#define _DEFAULT_SOURCE /* DT_* */
#include "sim/engines/simgrid/platform_checked.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "sim/outfile.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <inttypes.h>
#include <xbt/base.h> /* simgrid/version.h needs it first */
#include <simgrid/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void simgrid_version(char *out, size_t size)
{
    int major = 0, minor = 0, patch = 0;
    sg_version_get(&major, &minor, &patch);
    snprintf(out, size, "%d.%d.%d", major, minor, patch);
}

/* The FNV-1a digest of the file at path, in hex, and its size in *len;
 * false when it cannot be read. */
static bool file_digest(const char *path, size_t *len, char digest[17])
{
    char err[256];
    char *content = hs_input_read(path, HS_INPUT_MAX_BYTES, len, err, sizeof err);
    if (!content)
        return false;
    snprintf(digest, 17, "%016" PRIx64, hs_fnv1a64(content, *len, HS_FNV_OFFSET));
    free(content);
    return true;
}

/* The folder of path ("." when it has none), and its last component. */
static void split_path(const char *path, char *dir, size_t size, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, size, ".");
    else
        snprintf(dir, size, "%.*s", (int)(slash - path > 0 ? slash - path : 1), path);
}

static bool entry_int(const cJSON *e, const char *key, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
    if (!cJSON_IsNumber(v))
        return false;
    *out = v->valueint;
    return true;
}

/* Does entry e describe this file (name, size, digest)? */
static bool entry_matches(const cJSON *e, const char *base, size_t len, const char *digest)
{
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(e, "file");
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(e, "bytes");
    const cJSON *hash = cJSON_GetObjectItemCaseSensitive(e, "fnv1a64");
    return cJSON_IsString(file) && strcmp(file->valuestring, base) == 0 && cJSON_IsNumber(bytes) &&
           bytes->valuedouble == (double)len && cJSON_IsString(hash) && strcmp(hash->valuestring, digest) == 0;
}

static bool entry_read(const cJSON *e, struct hs_sg_check *out)
{
    int sets, cores, gpus, procs, energy;
    if (!entry_int(e, "file_sets", &sets) || !entry_int(e, "cores", &cores) || !entry_int(e, "gpus", &gpus) ||
        !entry_int(e, "procs", &procs) || !entry_int(e, "energy_hosts", &energy) || sets < 0 ||
        sets >= (1 << HS_SG_NCONFIG))
        return false;
    *out = (struct hs_sg_check){.file_sets = (unsigned)sets, .ncores = cores, .ngpus = gpus, .nprocs = procs,
                                .energy_hosts = energy};
    return true;
}

bool hs_sg_checked_lookup(const char *path, const char *map_file, struct hs_sg_check *out)
{
    if (map_file)
        return false;
    char dir[4096], manifest_path[4200], err[256], version[32];
    const char *base;
    split_path(path, dir, sizeof dir, &base);
    snprintf(manifest_path, sizeof manifest_path, "%s/%s", dir, HS_SG_CHECKED_NAME);
    char *manifest = hs_input_read(manifest_path, (size_t)1 << 20, NULL, err, sizeof err);
    if (!manifest)
        return false;
    size_t len = 0;
    char digest[17];
    cJSON *root = file_digest(path, &len, digest) ? cJSON_Parse(manifest) : NULL;
    free(manifest);
    simgrid_version(version, sizeof version);
    const cJSON *sg = cJSON_GetObjectItemCaseSensitive(root, "simgrid");
    bool found = false;
    if (cJSON_IsString(sg) && strcmp(sg->valuestring, version) == 0) {
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "platforms"))
        {
            if (entry_matches(e, base, len, digest)) {
                found = entry_read(e, out);
                break;
            }
        }
    }
    cJSON_Delete(root);
    return found;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.xml regular files of dir, sorted; *n of them. */
static char **xml_files(const char *dir, int *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len > 4 && strcmp(de->d_name + len - 4, ".xml") == 0 && (de->d_type == DT_REG || de->d_type == DT_UNKNOWN)) {
            HS_GROW(names, cap, (size_t)*n + 1);
            names[(*n)++] = hs_xstrdup(de->d_name);
        }
    }
    closedir(d);
    if (*n)
        qsort(names, (size_t)*n, sizeof *names, compare_names);
    return names;
}

/* The manifest entry of one file, or NULL (named on stderr) when it does not pass. */
static cJSON *check_entry(const char *dir, const char *name)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct hs_sg_check chk;
    if (hs_sg_check_platform_child(path, NULL, &chk)) {
        fprintf(stderr, "hetsim: %s: left out of %s: %s\n", path, HS_SG_CHECKED_NAME, hs_last_error());
        return NULL;
    }
    size_t len = 0;
    char digest[17];
    if (!file_digest(path, &len, digest))
        return NULL;
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "file", name);
    cJSON_AddNumberToObject(e, "bytes", (double)len);
    cJSON_AddStringToObject(e, "fnv1a64", digest);
    cJSON_AddNumberToObject(e, "file_sets", chk.file_sets);
    cJSON_AddNumberToObject(e, "cores", chk.ncores);
    cJSON_AddNumberToObject(e, "gpus", chk.ngpus);
    cJSON_AddNumberToObject(e, "procs", chk.nprocs);
    cJSON_AddNumberToObject(e, "energy_hosts", chk.energy_hosts);
    return e;
}

int hs_sg_checked_write(const char *dir)
{
    int n = 0;
    char **names = xml_files(dir, &n);
    if (!names)
        return hs_fail("platform --write-checked: %s: no *.xml platform file to check", dir);
    char version[32], path[4400];
    simgrid_version(version, sizeof version);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "about", "platform files that passed hetsim's check (a SimGrid load in a child "
                                           "process), written by hetsim platform --write-checked; a file that "
                                           "matches its size and FNV-1a digest, under this SimGrid, is not "
                                           "checked again");
    cJSON_AddStringToObject(root, "simgrid", version);
    cJSON *list = cJSON_AddArrayToObject(root, "platforms");
    for (int i = 0; i < n; i++) {
        cJSON *e = check_entry(dir, names[i]);
        if (e)
            cJSON_AddItemToArray(list, e);
        free(names[i]);
    }
    free(names);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    snprintf(path, sizeof path, "%s/%s", dir, HS_SG_CHECKED_NAME);
    struct hs_outfile out;
    int rc = hs_outfile_open(&out, path);
    if (!rc) {
        fprintf(out.f, "%s\n", text); /* a failed write shows at the commit */
        rc = hs_outfile_commit(&out);
    }
    if (rc) {
        char why[1024];
        snprintf(why, sizeof why, "%s", hs_last_error());
        rc = hs_fail("platform --write-checked: %s", why);
    }
    free(text);
    return rc;
}
