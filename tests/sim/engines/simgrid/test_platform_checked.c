/* tests/sim/engines/simgrid/test_platform_checked.c — checked.json, the manifest of the
 * shipped platform files that a run need not check again: it is up to date
 * (every shipped file has an entry, and checking the file now finds what the
 * entry says), a run takes an entry only for the very file it describes, and
 * a file the manifest does not vouch for is still checked. */
#include "tests/support/testing.h"
#include "base/util.h"
#include "sim/engines/simgrid/platform_checked.h"

#include <CUnit/Basic.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *shipped(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/platforms/%s", HETSIM_SOURCE_DIR, name);
    return path;
}

static bool same_check(const struct hs_sg_check *a, const struct hs_sg_check *b)
{
    return a->file_sets == b->file_sets && a->ncores == b->ncores && a->ngpus == b->ngpus &&
           a->nprocs == b->nprocs && a->energy_hosts == b->energy_hosts;
}

/* Every shipped *.xml has an entry, and the entry is what the child finds
 * today: otherwise run `hetsim platform --write-checked platforms`. */
static void test_manifest_up_to_date(void)
{
    DIR *d = opendir(shipped(""));
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int files = 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".xml"))
            continue;
        files++;
        char path[4096];
        snprintf(path, sizeof path, "%s", shipped(de->d_name));
        struct hs_sg_check entry = {0}, now = {0};
        bool found = hs_sg_checked_lookup(path, NULL, &entry);
        if (!found)
            fprintf(stderr, "\n%s has no entry in platforms/checked.json (or the file changed): run "
                            "hetsim platform --write-checked platforms\n", path);
        CU_ASSERT(found);
        CU_ASSERT_EQUAL_FATAL(hs_sg_check_platform_child(path, NULL, &now), 0);
        CU_ASSERT(same_check(&entry, &now));
        CU_ASSERT(now.ngpus >= 0 && now.ncores >= 0);
    }
    closedir(d);
    CU_ASSERT(files >= 7); /* idgraf and its four host models, mapuche, h100 */
}

static char *copy_into(const char *dir, const char *from, const char *name, const char *append)
{
    char *text = hs_test_read_file(from);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = hs_xmalloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fputs(append, f);
    fclose(f);
    free(text);
    return path;
}

/* A copy of mapuche.xml with the manifest beside it: taken as is; one byte
 * more, another name, a host map or another SimGrid version: not taken. The
 * counts come from the platform file (by hand: 4 cores and 1 GPU, the NVS 300
 * of Beniamine 2013's Mapuche). */
static void test_lookup_exact_file_only(void)
{
    char *dir = hs_test_tmp_dir(".d");
    char *manifest = copy_into(dir, shipped(HS_SG_CHECKED_NAME), HS_SG_CHECKED_NAME, "");
    char *same = copy_into(dir, shipped("mapuche.xml"), "mapuche.xml", "");
    struct hs_sg_check c = {.ncores = -7};
    CU_ASSERT_TRUE(hs_sg_checked_lookup(same, NULL, &c));
    CU_ASSERT_EQUAL(c.ncores, 4);
    CU_ASSERT_EQUAL(c.ngpus, 1);
    CU_ASSERT_EQUAL(c.nprocs, 0);
    CU_ASSERT_FALSE(hs_sg_checked_lookup(same, "some-map.txt", &c));
    char *renamed = copy_into(dir, shipped("mapuche.xml"), "mine.xml", "");
    CU_ASSERT_FALSE(hs_sg_checked_lookup(renamed, NULL, &c));
    free(same);
    same = copy_into(dir, shipped("mapuche.xml"), "mapuche.xml", " "); /* one byte more */
    CU_ASSERT_FALSE(hs_sg_checked_lookup(same, NULL, &c));
    free(same);
    same = copy_into(dir, shipped("mapuche.xml"), "mapuche.xml", "");
    char *text = hs_test_read_file(manifest), *at = strstr(text, "\"simgrid\":");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    at = strchr(at + 10, '"');
    at[1] = at[1] == '9' ? '8' : '9'; /* another SimGrid major version */
    hs_test_write_file(manifest, text);
    CU_ASSERT_FALSE(hs_sg_checked_lookup(same, NULL, &c));
    free(text);
    free(manifest);
    free(renamed);
    free(same);
    free(dir);
}

/* A malformed file under a shipped name, beside the manifest: not vouched for,
 * so it is checked and refused with one line. */
static void test_changed_file_still_checked(void)
{
    char *dir = hs_test_tmp_dir(".d");
    free(copy_into(dir, shipped(HS_SG_CHECKED_NAME), HS_SG_CHECKED_NAME, ""));
    char path[4200];
    snprintf(path, sizeof path, "%s/idgraf.xml", dir);
    hs_test_write_file(path, "<?xml version='1.0'?>\n<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">"
                             "<link id=\"l\" bandwidth=\"1GBps\"/></platform>\n");
    struct hs_sg_check c;
    CU_ASSERT_EQUAL(hs_sg_check_platform(path, NULL, &c), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), path));
    char args[4400], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "run -q -p %s -w cholesky:n=1024,nb=1024 -o /dev/null", path);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "platform file"));
    CU_ASSERT_PTR_NULL(strchr(err, '\n') ? strchr(strchr(err, '\n') + 1, '\n') : NULL); /* one line */
    free(out);
    free(err);
    free(dir);
}

/* `hetsim platform --write-checked DIR` writes an entry per file that passes
 * and leaves out, naming it, one that does not. */
static void test_write(void)
{
    char *dir = hs_test_tmp_dir(".d");
    free(copy_into(dir, shipped("h100.xml"), "h100.xml", ""));
    char bad[4200], args[4400], *out = NULL, *err = NULL;
    snprintf(bad, sizeof bad, "%s/broken.xml", dir);
    hs_test_write_file(bad, "<platform version=\"4.1\">\n");
    snprintf(args, sizeof args, "platform --write-checked %s", dir);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "broken.xml: left out"));
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, HS_SG_CHECKED_NAME);
    char *text = hs_test_read_file(path);
    cJSON *root = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    const cJSON *list = cJSON_GetObjectItem(root, "platforms");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(list), 1);
    const cJSON *e = cJSON_GetArrayItem(list, 0);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItem(e, "file")->valuestring, "h100.xml");
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(e, "gpus")->valueint, 1);
    cJSON_Delete(root);
    free(text);
    free(out);
    free(err);
    snprintf(args, sizeof args, "platform --write-checked %s/nowhere", dir);
    hs_test_bad_cli(args, "no *.xml platform file");
    free(dir);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"checked.json is up to date with the shipped platforms", test_manifest_up_to_date},
        {"an entry is taken only for the file it describes", test_lookup_exact_file_only},
        {"a changed file is checked and refused with one line", test_changed_file_still_checked},
        {"platform --write-checked", test_write},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("platform_checked", tests);
}
