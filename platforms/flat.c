/* platforms/flat.c — writing flat:P platforms as SimGrid XML.
 *
 * Written with fprintf, not libxml2's writer (which machine.c uses, for the
 * names a user gives): every id here is made by this file (RAM, P<i>,
 * net-<src>-<dst>) and every value is a number, so nothing needs escaping,
 * and a flat:P file has a route per ordered pair of hosts (P = 256: 66,000
 * routes), written for every flat run. */
#include "platforms/flat.h"

#include <math.h>
#include <stdbool.h>

/* The host of processor i, or of the memory (i < 0). */
static const char *host_id(int i, char *buf, size_t size)
{
    snprintf(buf, size, i < 0 ? "RAM" : "P%d", i);
    return buf;
}

/* The link of the route from host i to host j. */
static const char *route_link(bool per_pair, int i, int j, char *buf, size_t size)
{
    char src[32], dst[32];
    if (!per_pair)
        return "net";
    snprintf(buf, size, "net-%s-%s", host_id(i, src, sizeof src), host_id(j, dst, sizeof dst));
    return buf;
}

static void write_link(FILE *out, const char *id, double bw, double lat)
{
    fprintf(out, "  <link id=\"%s\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" "
                 "sharing_policy=\"FATPIPE\"/>\n", id, bw, lat);
}

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
    /* Contention-free: every link is a FATPIPE (each transfer gets bw whatever
     * else crosses it). One link per ordered pair of hosts rather than one for
     * all: SimGrid re-solves every transfer that shares a link with one that
     * starts or ends, so a single link made each event cost as much as all
     * the transfers in flight (issue 19: 58% of a 100,000-task run). Past
     * HS_FLAT_PAIR_LINKS_MAX processors the pairs would be too many links, and
     * all pairs share one, with the same times. SimGrid wants the links
     * before the routes. */
    bool per_pair = flat->p <= HS_FLAT_PAIR_LINKS_MAX;
    char link[80];
    if (!per_pair)
        write_link(out, "net", bw, flat->lat);
    else
        for (int i = -1; i < flat->p; i++)
            for (int j = -1; j < flat->p; j++)
                if (i != j)
                    write_link(out, route_link(true, i, j, link, sizeof link), bw, flat->lat);
    for (int i = -1; i < flat->p; i++)
        for (int j = -1; j < flat->p; j++) {
            if (i == j)
                continue;
            char src[32], dst[32];
            fprintf(out, "  <route src=\"%s\" dst=\"%s\" symmetrical=\"NO\"><link_ctn id=\"%s\"/></route>\n",
                    host_id(i, src, sizeof src), host_id(j, dst, sizeof dst),
                    route_link(per_pair, i, j, link, sizeof link));
        }
    fprintf(out, " </zone>\n</platform>\n");
    return ferror(out) ? (snprintf(err, errlen, "cannot write the flat platform"), -1) : 0;
}
