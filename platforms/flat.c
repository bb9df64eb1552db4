/* platforms/flat.c — flat:P's specification read into a struct hs_flat
 * (flat.h): its processors, their speeds (flat_speeds.c), bandwidth and
 * latency. Nothing is written: the engine builds the platform from it. */
#include "platforms/flat.h"
#include "base/params.h"
#include "base/util.h"
#include "platforms/flat_speeds.h"
#include "platforms/resolve.h"

#include <stdlib.h>
#include <string.h>

int hs_flat_parse(const char *text, unsigned long seed, struct hs_flat *out)
{
    memset(out, 0, sizeof *out);
    struct hs_spec spec;
    if (hs_spec_parse(text, &spec))
        return -1;
    struct hs_flat_speeds fs;
    int rc = hs_spec_check(&spec, hs_flat_params(), "platform flat") ? -1 : hs_flat_speeds(&spec, seed, &fs);
    hs_spec_free(&spec);
    if (rc)
        return -1;
    if (fs.drift > 0) {
        hs_flat_speeds_free(&fs);
        return hs_fail("platform flat: drift (speeds that change after every task) exists only in "
                       "Beaumont and Marchal's model: bw=inf with one of their policies");
    }
    *out = (struct hs_flat){.p = fs.p, .speeds = fs.speeds, .bw = fs.bw, .lat = fs.lat};
    return 0; /* fs.speeds now out's */
}

void hs_flat_free(struct hs_flat *flat)
{
    free((void *)flat->speeds);
    memset(flat, 0, sizeof *flat);
}
