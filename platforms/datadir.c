/* platforms/datadir.c — finding shipped data files. */
#include "platforms/datadir.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef HETSIM_SOURCE_DATADIR
#define HETSIM_SOURCE_DATADIR "platforms"
#endif
#ifndef HETSIM_INSTALL_DATADIR
#define HETSIM_INSTALL_DATADIR "/usr/local/share/hetsim/platforms"
#endif

static const char *candidates(int i)
{
    switch (i) {
    case 0:
        return getenv("HETSIM_DATADIR");
    case 1:
        return HETSIM_SOURCE_DATADIR;
    case 2:
        return HETSIM_INSTALL_DATADIR;
    default:
        return NULL;
    }
}

int hs_data_find(const char *relative, char *out, size_t outlen)
{
    for (int i = 0; i < 3; i++) {
        const char *dir = candidates(i);
        if (!dir || !*dir)
            continue;
        snprintf(out, outlen, "%s/%s", dir, relative);
        if (access(out, R_OK) == 0)
            return 0;
    }
    return -1;
}

const char *hs_data_dirs(void)
{
    static char buf[2048];
    const char *env = getenv("HETSIM_DATADIR");
    snprintf(buf, sizeof buf, "%s%s%s, %s", env ? env : "", env ? ", " : "", HETSIM_SOURCE_DATADIR,
             HETSIM_INSTALL_DATADIR);
    return buf;
}
