/* sim/engines/simgrid/platform_flat.h — flat:P built in SimGrid through its
 * API, with no file: P processors and host memory's endpoint RAM, a link per
 * ordered pair of hosts up to HS_FLAT_PAIR_LINKS_MAX processors, past it a
 * star zone of 2(P+1) links and no route table (platform_flat_zone.cpp). */
#ifndef HS_PLATFORM_FLAT_H
#define HS_PLATFORM_FLAT_H

#include "platforms/flat.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Build the platform of flat in the initialised SimGrid (hs_sg_init), which
 * has no platform yet. Returns 0, or -1 with hs_fail (flat's values are
 * checked first: P >= 1, bw > 0, lat >= 0, every speed positive and finite). */
int hs_sg_flat_build(const struct hs_flat *flat);

/* What hs_sg_flat_build calls once the values are checked (C++, SimGrid's
 * s4u API: platform_flat_zone.cpp): 0, or -1 with SimGrid's complaint in err. */
int hs_sg_flat_zone(const struct hs_flat *flat, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
