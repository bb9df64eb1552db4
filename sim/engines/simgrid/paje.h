/* sim/engines/simgrid/paje.h — trimming the Paje trace SimGrid writes: SimGrid declares a
 * container for every host and link of the platform file, so a run on 4 of
 * Idgraf's 8 GPUs listed the 4 others, the unselected cores, the second host
 * bridge's RAM and 56 GPU-to-GPU links no transfer used. */
#ifndef HS_PAJE_H
#define HS_PAJE_H

#include "sim/platform.h"

/* Rewrite the trace at path keeping only the hosts the run used (its workers,
 * the cores that drive its GPUs, its memory nodes' endpoints) and the links
 * whose use varied during the run (with their events and the topology links
 * between kept containers), replacing the file at once (sim/outfile.h). 0,
 * or -1 with hs_fail (the file is then left as SimGrid wrote it). */
int hs_paje_trim(const char *path, const struct hs_platform *pf);

#endif
