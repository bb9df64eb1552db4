/* sim/hostmap.h — which hosts of a SimGrid platform are workers of which
 * kind, when their names do not tell (SimGrid's example platforms: Tremblay,
 * Jupiter, ...): a side file given as the platform parameter hosts=FILE,
 *
 *     # comment
 *     Tremblay   ram
 *     Jup*       gpu
 *     *          proc
 *
 * one "PATTERN KIND" per line, PATTERN a shell pattern (fnmatch) on host
 * names, KIND cpu, gpu, ram, proc or ignore; the first line that matches a
 * host decides, hosts no line matches are told apart as without a map. */
#ifndef HS_HOSTMAP_H
#define HS_HOSTMAP_H

#include "sim/platform.h"

struct hs_hostmap {
    int n;
    char **pattern;
    enum hs_host_kind *kind;
};

/* Read the side file; 0, or -1 with hs_fail naming the file and line. */
int hs_hostmap_read(const char *path, struct hs_hostmap *map);
/* The kind the map gives a host; false if no line matches. */
bool hs_hostmap_kind(const struct hs_hostmap *map, const char *host, enum hs_host_kind *kind);
void hs_hostmap_free(struct hs_hostmap *map);

#endif
