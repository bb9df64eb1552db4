/* sim/engines/simgrid/platform_flat.c — flat:P built in SimGrid without a
 * file (platform_flat.h): its values checked here, its zone built by
 * platform_flat_zone.cpp through SimGrid's s4u API. */
#include "sim/engines/simgrid/platform_flat.h"
#include "base/util.h"

#include <math.h>

int hs_sg_flat_build(const struct hs_flat *flat)
{
    if (flat->p < 1)
        return hs_fail("platform flat: needs at least one processor (got %d)", flat->p);
    if (!(flat->bw > 0) || !(flat->lat >= 0) || isinf(flat->lat))
        return hs_fail("platform flat: needs bw > 0 and a finite lat >= 0 (got bw %g, lat %g)", flat->bw,
                       flat->lat);
    for (int i = 0; i < flat->p; i++) {
        double s = flat->speeds ? flat->speeds[i] : flat->speed;
        if (!(s > 0) || isinf(s))
            return hs_fail("platform flat: speed of processor %d must be positive and finite (got %g)", i, s);
    }
    char err[512];
    if (hs_sg_flat_zone(flat, err, sizeof err))
        return hs_fail("platform flat: SimGrid could not build it: %s", err);
    return 0;
}
