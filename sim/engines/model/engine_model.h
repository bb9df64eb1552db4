/* sim/engines/model/engine_model.h — the free-network model engine: the
 * runtime's activities on an event loop of its own, in simulated time, with
 * the network of Beaumont and Marchal's model (2014, §3.4) and of the classic
 * list-scheduling papers' contention-free machine taken to its limit: a
 * transfer takes no time, a kernel takes its duration (after the runtime's
 * own costs), a timer its seconds. No SimGrid simulation runs: events are
 * kept in a heap and served in time order, simultaneous ones in the order
 * they were posted, so a run is deterministic. */
#ifndef HS_ENGINE_MODEL_H
#define HS_ENGINE_MODEL_H

#include "sim/runtime.h"

/* Run the runtime rt to its end (or its failure, in rt->error). */
void hs_model_engine_run(struct hs_runtime *rt);

#endif
