/* sim/engines/simgrid/energy.c — a run's energy, from SimGrid's host energy
 * plugin (SimGrid 3.32, src/plugins/host_energy.cpp).
 *
 * The plugin reads two host properties: wattage_per_state, per pstate (the
 * speeds of speed="100Mf,50Mf"), "Idle:AllCores" or "Idle:Epsilon:AllCores"
 * watts, and wattage_off. A host draws Idle watts while nothing runs on it,
 * and Epsilon + load x (AllCores - Epsilon) while something does, where load
 * is the share of its cores at work (Epsilon is Idle when two values are
 * given). SimGrid aborts on a malformed list, so the check in a child
 * (platform_simgrid.c) reads them first and refuses them in one line. The
 * plugin sees a host at work only while an execution runs on it, and an
 * execution beside the run's own activities changes the run: SimGrid's CPU
 * model updates the remaining time of the sleeps that time kernels when a
 * host's load changes, and ends activities due at one instant in another
 * order, so online policies that read the clock decide otherwise (online
 * HEFT on Idgraf: 2.715 ms without the loads, 2.619 ms with). So the engine
 * (engine_simgrid.c) only notes when each worker's host was at work, and once
 * the run has ended (at T) those spans are played again from T, each a load
 * of one core of its host: the plugin's joules over [T, 2T) are the run's,
 * and the run is the same, event for event, with energy or without. The
 * plugin is turned on only with --energy. */
#include "sim/engines/simgrid/energy.h"
#include "base/util.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/plugins/energy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number of watts >= 0: the whole of text (blanks before it allowed, as
 * SimGrid's examples put them after commas). */
static bool watts(const char *text)
{
    double w;
    return hs_parse_double(text, &w) == 0 && w >= 0 && isfinite(w);
}

/* One pstate's "Idle:AllCores" or "Idle:Epsilon:AllCores", text[0, len). */
static bool pstate_watts(const char *text, size_t len)
{
    char field[256];
    if (len >= sizeof field)
        return false;
    memcpy(field, text, len);
    field[len] = '\0';
    int fields = 0;
    for (char *p = field;; fields++) {
        char *colon = strchr(p, ':');
        if (colon)
            *colon = '\0';
        if (!watts(p))
            return false;
        if (!colon)
            break;
        p = colon + 1;
    }
    return fields == 1 || fields == 2; /* two or three values */
}

static int check_host(const char *pfname, sg_host_t h, int *nhosts)
{
    const char *name = sg_host_get_name(h);
    const char *off = sg_host_get_property_value(h, "wattage_off");
    if (off && !watts(off))
        return hs_fail("platform %s: host %s: property wattage_off='%s' is not a number of watts >= 0", pfname,
                       name, off);
    const char *list = sg_host_get_property_value(h, "wattage_per_state");
    if (!list)
        return 0;
    int pstates = (int)sg_host_get_nb_pstates(h), n = 0;
    for (const char *p = list;; n++) {
        size_t len = strcspn(p, ",");
        if (!pstate_watts(p, len))
            return hs_fail("platform %s: host %s: property wattage_per_state='%s': pstate %d's watts are not "
                           "Idle:AllCores or Idle:Epsilon:AllCores, numbers >= 0 (e.g. \"100:200\")",
                           pfname, name, list, n);
        if (!p[len])
            break;
        p += len + 1;
    }
    if (n + 1 != pstates)
        return hs_fail("platform %s: host %s: property wattage_per_state='%s' gives watts for %d pstates, and its "
                       "speed has %d (one Idle:AllCores list per speed, comma separated)",
                       pfname, name, list, n + 1, pstates);
    (*nhosts)++;
    return 0;
}

int hs_sg_energy_check(const char *pfname, int *nhosts)
{
    *nhosts = 0;
    size_t n = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        rc = check_host(pfname, hosts[i], nhosts);
    free(hosts);
    return rc;
}

static bool plugin_on; /* one simulation per process */

void hs_sg_energy_init(void)
{
    sg_host_energy_plugin_init();
    plugin_on = true;
}

bool hs_sg_energy_on(void)
{
    return plugin_on;
}

/* The joules of the hosts that declare wattage_per_state, in host order. */
static double *joules_now(sg_host_t *hosts, size_t n)
{
    double *j = hs_xcalloc(n + 1, sizeof *j);
    for (size_t i = 0; i < n; i++)
        if (sg_host_get_property_value(hosts[i], "wattage_per_state"))
            j[i] = sg_host_get_consumed_energy(hosts[i]);
    return j;
}

/* An execution that keeps one core of host at work until cancelled. */
static sg_exec_t busy_start(sg_host_t host)
{
    sg_exec_t load = sg_actor_exec_init(1e300);
    sg_exec_set_host(load, host);
    sg_exec_start(load);
    return load;
}

/* A span's start (k = 2i) or end (k = 2i + 1), at time at. */
struct edge {
    double at;
    size_t k;
};

/* In time order; at one time, in the order of the spans (which changes no
 * joule: no time elapses between them). */
static int by_time(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at ? 1 : (x->k > y->k) - (x->k < y->k);
}

void hs_sg_energy_replay(const struct hs_sg_busy *busy, size_t n, struct hs_energy *energy)
{
    size_t nhosts = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    double t0 = simgrid_get_clock();
    double *before = joules_now(hosts, nhosts); /* the run's span [0, T), every host idle */
    struct edge *edges = hs_xmalloc((2 * n + 1) * sizeof *edges);
    for (size_t i = 0; i < n; i++) {
        edges[2 * i] = (struct edge){busy[i].start, 2 * i};
        edges[2 * i + 1] = (struct edge){busy[i].end, 2 * i + 1};
    }
    qsort(edges, 2 * n, sizeof *edges, by_time);
    sg_exec_t *load = hs_xcalloc(n + 1, sizeof *load);
    for (size_t e = 0; e < 2 * n; e++) {
        size_t i = edges[e].k / 2;
        double at = t0 + edges[e].at;
        if (at > simgrid_get_clock())
            sg_actor_sleep_until(at);
        if (edges[e].k % 2)
            sg_exec_cancel(load[i]);
        else
            load[i] = busy_start(busy[i].host);
    }
    free(load);
    free(edges);
    if (simgrid_get_clock() < 2 * t0) /* the spans end by T: the idle end of [T, 2T) */
        sg_actor_sleep_until(2 * t0);
    double *after = joules_now(hosts, nhosts);
    energy->n = 0;
    energy->total = 0;
    energy->hosts = hs_xcalloc(nhosts + 1, sizeof *energy->hosts);
    energy->joules = hs_xcalloc(nhosts + 1, sizeof *energy->joules);
    for (size_t i = 0; i < nhosts; i++)
        if (sg_host_get_property_value(hosts[i], "wattage_per_state")) {
            double j = after[i] - before[i];
            energy->hosts[energy->n] = hs_xstrdup(sg_host_get_name(hosts[i]));
            energy->joules[energy->n++] = j;
            energy->total += j;
        }
    free(before);
    free(after);
    free(hosts);
}
