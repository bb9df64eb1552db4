/* base/datadir.h — where shipped data lives (platforms and timing tables,
 * studies). Each kind of data is looked up, in order, in the folder its
 * environment variable names ($HETSIM_DATADIR for platforms, $HETSIM_STUDYDIR
 * for studies), in the installed tree relative to the running executable
 * (<prefix>/bin/hetsim finds <prefix>/share/hetsim/<kind>, so an installed
 * tree may be moved or copied anywhere), in the source tree the binary was
 * built from, and last in the install prefix chosen at configure time. */
#ifndef HS_DATADIR_H
#define HS_DATADIR_H

#include <stddef.h>

/* The kinds of shipped data: the folder under share/hetsim, the variable
 * that overrides it, the source folder and the configured install folder. */
struct hs_data_kind {
    const char *sub;     /* "platforms", "studies" */
    const char *env;     /* "HETSIM_DATADIR", "HETSIM_STUDYDIR" */
    const char *source;  /* absolute source folder, or NULL */
    const char *install; /* absolute configured install folder, or NULL */
};

extern const struct hs_data_kind hs_data_platforms;

/* The folders searched for this kind, in order (at most 4, NULL-terminated;
 * valid until the next call for the same kind). */
const char *const *hs_data_kind_dirs(const struct hs_data_kind *kind);

/* "A, B, C (set HETSIM_DATADIR to the folder that holds them)": the folders
 * searched, for messages. */
const char *hs_data_kind_describe(const struct hs_data_kind *kind);

/* Find `relative` (e.g. "idgraf.xml", "perf/idgraf.json") in the platform
 * data directories. Returns 0 and the full path in out, or -1 if not found. */
int hs_data_find(const char *relative, char *out, size_t outlen);

/* The platform data directories searched, for messages (names HETSIM_DATADIR). */
const char *hs_data_dirs(void);

#endif
