/* sim/hostmap.c — the host map side file (hostmap.h). */
#include "sim/hostmap.h"
#include "base/inputfile.h"
#include "base/util.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int kind_parse(const char *word, enum hs_host_kind *kind)
{
    static const char *const names[] = {"cpu", "gpu", "ram", "proc", "ignore"};
    for (int i = 0; i < 5; i++)
        if (strcmp(word, names[i]) == 0) {
            *kind = (enum hs_host_kind)i;
            return 0;
        }
    return -1;
}

int hs_hostmap_read(const char *path, struct hs_hostmap *map)
{
    memset(map, 0, sizeof *map);
    char err[1024];
    FILE *f = hs_input_open(path, (size_t)1 << 20, err, sizeof err);
    if (!f)
        return hs_fail("host map %s", err);
    char line[1024];
    int rc = 0, lineno = 0;
    size_t cap = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        char *save = NULL, *pat = strtok_r(line, " \t\r\n", &save);
        if (!pat || pat[0] == '#')
            continue;
        char *kw = strtok_r(NULL, " \t\r\n", &save), *extra = strtok_r(NULL, " \t\r\n", &save);
        enum hs_host_kind kind;
        if (!kw || extra) {
            rc = hs_fail("host map %s:%d: expected 'PATTERN KIND', KIND cpu, gpu, ram, proc or "
                         "ignore (%s)", path, lineno, kw ? "one word too many" : "no KIND");
            break;
        }
        if (kind_parse(kw, &kind)) {
            rc = hs_fail("host map %s:%d: kind '%.64s' is not cpu, gpu, ram, proc or ignore", path,
                         lineno, kw);
            break;
        }
        if ((size_t)map->n == cap) {
            cap = cap ? 2 * cap : 16;
            map->pattern = hs_xrealloc(map->pattern, cap * sizeof *map->pattern);
            map->kind = hs_xrealloc(map->kind, cap * sizeof *map->kind);
        }
        map->pattern[map->n] = hs_xstrdup(pat);
        map->kind[map->n++] = kind;
    }
    fclose(f);
    if (!rc && map->n == 0)
        rc = hs_fail("host map %s: no 'PATTERN KIND' line", path);
    if (rc)
        hs_hostmap_free(map);
    return rc;
}

bool hs_hostmap_kind(const struct hs_hostmap *map, const char *host, enum hs_host_kind *kind)
{
    for (int i = 0; i < map->n; i++)
        if (fnmatch(map->pattern[i], host, 0) == 0) {
            *kind = map->kind[i];
            return true;
        }
    return false;
}

void hs_hostmap_free(struct hs_hostmap *map)
{
    for (int i = 0; i < map->n; i++)
        free(map->pattern[i]);
    free(map->pattern);
    free(map->kind);
    memset(map, 0, sizeof *map);
}
