/* sim/engines/simgrid/engine_simgrid.h — the SimGrid engine: simulated time. */
#ifndef HS_ENGINE_SIMGRID_H
#define HS_ENGINE_SIMGRID_H

#include "sim/run.h"
#include "sim/runtime.h"

#include <stdbool.h>

/* Run the runtime to completion on the loaded SimGrid platform (one
 * simulation per process). With paje, kernels appear as "task" states of
 * their worker's host in the Paje trace. With energy (not NULL; the energy
 * plugin on, energy.h), each host's joules at the end go there. */
void hs_sg_engine_run(struct hs_runtime *rt, const struct hs_platform *pf, bool paje, struct hs_energy *energy);

#endif
