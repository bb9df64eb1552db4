/* platforms/flat.h — the parametric platform flat:P: P processors, each with
 * its own memory, plus a host-memory endpoint "RAM" that holds the initial
 * data. All routes share one FATPIPE link, so every transfer takes exactly
 * latency + bytes / bandwidth whatever else is moving (the classic
 * contention-free model of the list-scheduling literature); bw = inf makes
 * the network free. The generator writes SimGrid XML that is then loaded
 * like any other platform file. */
#ifndef HS_FLAT_H
#define HS_FLAT_H

#include <stdio.h>

struct hs_flat {
    int p;             /* number of processors */
    const double *speeds; /* p speeds in flop/s, or NULL for all = speed */
    double speed;      /* default speed (flop/s) */
    double bw;         /* bytes/s, INFINITY for a free network */
    double lat;        /* seconds */
};

/* Write the platform as SimGrid XML. Returns 0, or -1 with a message in err. */
int hs_flat_write(FILE *out, const struct hs_flat *flat, char *err, size_t errlen);

/* The bandwidth written for bw = inf: large enough that any transfer takes
 * no measurable time, finite so that SimGrid accepts it. */
#define HS_FLAT_FREE_BW 1e30
/* Up to this many processors a flat platform gives each ordered pair of hosts
 * its own link (platforms/flat.c says why); past it, one link for all. */
#define HS_FLAT_PAIR_LINKS_MAX 128

#endif
