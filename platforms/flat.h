/* platforms/flat.h — the parametric platform flat:P: P processors, each with
 * its own memory, plus a host-memory endpoint "RAM" that holds the initial
 * data, every transfer taking exactly latency + bytes / bandwidth whatever
 * else is moving (the classic contention-free model of the list-scheduling
 * literature); bw = inf makes the network free. flat.c reads a flat:P
 * specification into a struct hs_flat; the engine builds it in SimGrid
 * through SimGrid's API, with no file (sim/engines/simgrid/platform_flat.h). */
#ifndef HS_FLAT_H
#define HS_FLAT_H

struct hs_flat {
    int p;             /* number of processors */
    const double *speeds; /* p speeds in flop/s, or NULL for all = speed */
    double speed;      /* default speed (flop/s) */
    double bw;         /* bytes/s, INFINITY for a free network */
    double lat;        /* seconds */
};

/* flat:P's text ("flat:8,bw=inf"), checked against hs_flat_params()
 * (platforms/resolve.h), into *out, the speeds drawn from seed where they
 * are drawn (platforms/flat_speeds.h); out->speeds is allocated (free it
 * with hs_flat_free). Speeds that drift (Beaumont and Marchal's model only)
 * are refused. 0, or -1 with hs_fail. */
int hs_flat_parse(const char *text, unsigned long seed, struct hs_flat *out);
void hs_flat_free(struct hs_flat *flat);

/* The bandwidth SimGrid is given for bw = inf: large enough that any
 * transfer takes no measurable time, finite so that SimGrid accepts it. */
#define HS_FLAT_FREE_BW 1e30
/* Up to this many processors a flat platform gives each ordered pair of hosts
 * its own link (sim/engines/simgrid/platform_flat_zone.cpp says why); past
 * it, each host a link out and a link in. */
#define HS_FLAT_PAIR_LINKS_MAX 128

#endif
