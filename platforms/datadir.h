/* platforms/datadir.h — where shipped platforms and performance models live:
 * $HETSIM_DATADIR if set, else the source tree the binary was built from, else
 * the install prefix (share/hetsim/platforms). So `hetsim` runs from any folder. */
#ifndef HS_DATADIR_H
#define HS_DATADIR_H

#include <stddef.h>

/* Find `relative` (e.g. "idgraf.xml", "perf/idgraf.json") in the data
 * directories. Returns 0 and the full path in out, or -1 if not found. */
int hs_data_find(const char *relative, char *out, size_t outlen);

/* The data directories searched, separated by ", " (for messages). */
const char *hs_data_dirs(void);

#endif
