/* sim/engines/simgrid/platform_checked.h — platform files checked once:
 * checked.json, a manifest beside shipped platform files that records what
 * checking each one found, so that a run of an unchanged file parses it once
 * (in the SimGrid that runs it) instead of twice (the checking child first). */
#ifndef HS_PLATFORM_CHECKED_H
#define HS_PLATFORM_CHECKED_H

#include "sim/engines/simgrid/platform_simgrid.h"
#include "sim/run.h"

#include <stdbool.h>

/* The manifest's name, in the folder of the platform files it vouches for. */
#define HS_SG_CHECKED_NAME HS_PLATFORM_CHECKED_NAME

/* What the manifest beside path says of it, when the manifest has an entry for
 * that file name with its size and digest, written by this SimGrid version,
 * and no host map is given (a map changes what the check counts). Returns
 * true and fills out; false (out untouched) in every other case, including a
 * missing or unreadable manifest: the caller then checks the file. */
bool hs_sg_checked_lookup(const char *path, const char *map_file, struct hs_sg_check *out);

/* Check every *.xml file of dir in the checking child and write
 * dir/checked.json (sorted by name). A file that does not pass is left out
 * and named on stderr. Returns 0, or -1 with hs_fail. */
int hs_sg_checked_write(const char *dir);

#endif
