/* sim/engines/simgrid/energy.h — hosts' energy through SimGrid's host energy
 * plugin: checking the properties it reads, turning it on, and reading each
 * host's joules at the end of a run. */
#ifndef HS_SG_ENERGY_H
#define HS_SG_ENERGY_H

#include "sim/run.h"

#include <simgrid/forward.h>
#include <stddef.h>

#include <stdbool.h>

/* Check the energy properties of every host of the loaded platform
 * (wattage_per_state: one Idle:AllCores or Idle:Epsilon:AllCores list of
 * watts per pstate, comma separated; wattage_off: watts) before the plugin
 * reads them (SimGrid aborts on a malformed one). The hosts that declare
 * wattage_per_state in *nhosts; -1 with hs_fail naming the platform, the
 * host, the property, its value and what to write instead. */
int hs_sg_energy_check(const char *pfname, int *nhosts);

/* Turn SimGrid's host energy plugin on: after hs_sg_init, before hs_sg_load. */
void hs_sg_energy_init(void);
/* Whether hs_sg_energy_init was called in this process. */
bool hs_sg_energy_on(void);

/* A span of time a worker's host was at work: from the runtime's cost
 * before a task to its kernel's end, in simulated seconds. */
struct hs_sg_busy {
    sg_host_t host;
    double start, end;
};

/* The joules each host that declares wattage_per_state consumed while the
 * run went on, in *energy: the run's time T is now (from an actor, once the
 * run ended), and the spans of busy[0, n) are played again from T, each a
 * load of one core of its host, so that the plugin counts [T, 2T) and
 * nothing of the run itself changed for it (its events, their order, the
 * clock). */
void hs_sg_energy_replay(const struct hs_sg_busy *busy, size_t n, struct hs_energy *energy);

#endif
