/* platforms/flat.c — writing flat:P platforms as SimGrid XML. */
#include "platforms/flat.h"

#include <math.h>

int hs_flat_write(FILE *out, const struct hs_flat *flat, char *err, size_t errlen)
{
    if (flat->p < 1) {
        snprintf(err, errlen, "flat platform needs at least one processor (got %d)", flat->p);
        return -1;
    }
    if (!(flat->bw > 0) || !(flat->lat >= 0)) {
        snprintf(err, errlen, "flat platform needs bw > 0 and lat >= 0");
        return -1;
    }
    double bw = isinf(flat->bw) ? HS_FLAT_FREE_BW : flat->bw;
    fprintf(out, "<?xml version=\"1.0\"?>\n"
                 "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                 "<platform version=\"4.1\">\n"
                 " <config>\n"
                 "  <prop id=\"network/model\" value=\"CM02\"/>\n"
                 "  <prop id=\"network/crosstraffic\" value=\"0\"/>\n"
                 " </config>\n"
                 " <zone id=\"flat\" routing=\"Full\">\n"
                 "  <host id=\"RAM\" speed=\"1f\"><prop id=\"kind\" value=\"ram\"/></host>\n");
    for (int i = 0; i < flat->p; i++) {
        double s = flat->speeds ? flat->speeds[i] : flat->speed;
        if (!(s > 0) || isinf(s)) {
            snprintf(err, errlen, "flat platform: speed of processor %d must be positive and finite",
                     i);
            return -1;
        }
        fprintf(out, "  <host id=\"P%d\" speed=\"%.17gf\"><prop id=\"kind\" value=\"proc\"/></host>\n",
                i, s);
    }
    fprintf(out, "  <link id=\"net\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" "
                 "sharing_policy=\"FATPIPE\"/>\n", bw, flat->lat);
    for (int i = -1; i < flat->p; i++)
        for (int j = -1; j < flat->p; j++) {
            if (i == j)
                continue;
            char src[32], dst[32];
            snprintf(src, sizeof src, i < 0 ? "RAM" : "P%d", i);
            snprintf(dst, sizeof dst, j < 0 ? "RAM" : "P%d", j);
            fprintf(out, "  <route src=\"%s\" dst=\"%s\" symmetrical=\"NO\"><link_ctn id=\"net\"/></route>\n",
                    src, dst);
        }
    fprintf(out, " </zone>\n</platform>\n");
    return ferror(out) ? (snprintf(err, errlen, "cannot write the flat platform"), -1) : 0;
}
