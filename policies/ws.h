/* policies/ws.h — work stealing as in XKaapi (Lima 2014,
 * §4.3, §5.1, §5.5, §6.1), shared by the policies `ws` and `lws`. */
#ifndef HS_WS_H
#define HS_WS_H

#include "sim/policy.h"

int hs_ws_init(struct hs_runtime *s);
void hs_ws_push(struct hs_runtime *s, struct hs_task *t);
struct hs_task *hs_ws_pop(struct hs_runtime *s, int w);
void hs_ws_done(struct hs_runtime *s, struct hs_task *t, int w);
void hs_ws_fini(struct hs_runtime *s);
/* Steal attempts so far on a worker whose queues held no task for the
 * thief's architecture: none for random victims (only workers with work are
 * drawn), the workers passed in turn for victim=neighbour. */
long hs_ws_empty_visits(const struct hs_runtime *s);

#endif
