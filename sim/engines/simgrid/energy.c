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
 * engine (engine_simgrid.c) loads a worker's host with an execution while
 * the worker runs a task, so that the plugin sees it at work; the plugin is
 * turned on only for a platform that declares wattage_per_state, so that
 * other runs are as they were. */
#include "sim/engines/simgrid/energy.h"
#include "base/util.h"

#include <math.h>
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

void hs_sg_energy_read(struct hs_energy *energy)
{
    size_t n = sg_host_count();
    sg_host_t *hosts = sg_host_list();
    energy->n = 0;
    energy->total = 0;
    energy->hosts = hs_xcalloc(n + 1, sizeof *energy->hosts);
    energy->joules = hs_xcalloc(n + 1, sizeof *energy->joules);
    for (size_t i = 0; i < n; i++)
        if (sg_host_get_property_value(hosts[i], "wattage_per_state")) {
            double j = sg_host_get_consumed_energy(hosts[i]);
            energy->hosts[energy->n] = hs_xstrdup(sg_host_get_name(hosts[i]));
            energy->joules[energy->n++] = j;
            energy->total += j;
        }
    free(hosts);
}
