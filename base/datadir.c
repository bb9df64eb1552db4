/* base/datadir.c — finding shipped data files: the variable's folder,
 * the installed tree relative to the executable, the source tree, the
 * configured install prefix. */
#define _DEFAULT_SOURCE /* realpath */
#include "base/datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HETSIM_SOURCE_DATADIR
#define HETSIM_SOURCE_DATADIR NULL
#endif
#ifndef HETSIM_INSTALL_DATADIR
#define HETSIM_INSTALL_DATADIR NULL
#endif
/* From the installed executable's folder to share/hetsim (set by CMake from
 * the install layout, e.g. "../share/hetsim"). */
#ifndef HETSIM_BIN_TO_SHARE
#define HETSIM_BIN_TO_SHARE "../share/hetsim"
#endif

const struct hs_data_kind hs_data_platforms = {"platforms", "HETSIM_DATADIR", HETSIM_SOURCE_DATADIR,
                                               HETSIM_INSTALL_DATADIR};

/* <folder of the running executable>/<HETSIM_BIN_TO_SHARE>/<sub>, or "" when
 * the executable's path is unknown. */
static void beside_executable(const char *sub, char *out, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    out[0] = '\0';
    if (n <= 0)
        return;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    char joined[PATH_MAX + 64], *real;
    snprintf(joined, sizeof joined, "%s/%s/%s", self, HETSIM_BIN_TO_SHARE, sub);
    real = realpath(joined, NULL); /* tidier in messages; NULL when it does not exist */
    snprintf(out, size, "%s", real ? real : joined);
    free(real);
}

const char *const *hs_data_kind_dirs(const struct hs_data_kind *kind)
{
    /* one slot per kind in use (platforms, studies): enough for the callers */
    static struct {
        const struct hs_data_kind *kind;
        char exe[PATH_MAX + 64];
        const char *dirs[5];
    } slots[4];
    int s = 0;
    while (s < 3 && slots[s].kind && slots[s].kind != kind)
        s++;
    slots[s].kind = kind;
    beside_executable(kind->sub, slots[s].exe, sizeof slots[s].exe);
    const char *candidates[] = {getenv(kind->env), slots[s].exe, kind->source, kind->install};
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (candidates[i] && *candidates[i])
            slots[s].dirs[n++] = candidates[i];
    slots[s].dirs[n] = NULL;
    return slots[s].dirs;
}

const char *hs_data_kind_describe(const struct hs_data_kind *kind)
{
    static char buf[4 * PATH_MAX + 128];
    size_t len = 0;
    buf[0] = '\0';
    for (const char *const *d = hs_data_kind_dirs(kind); *d && len < sizeof buf; d++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", len ? ", " : "", *d);
    if (len < sizeof buf)
        snprintf(buf + len, sizeof buf - len, " (set %s to the folder that holds them)", kind->env);
    return buf;
}

int hs_data_find(const char *relative, char *out, size_t outlen)
{
    for (const char *const *d = hs_data_kind_dirs(&hs_data_platforms); *d; d++) {
        snprintf(out, outlen, "%s/%s", *d, relative);
        if (access(out, R_OK) == 0)
            return 0;
    }
    return -1;
}

const char *hs_data_dirs(void)
{
    return hs_data_kind_describe(&hs_data_platforms);
}
