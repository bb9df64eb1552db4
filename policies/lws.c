/* policies/lws.c — StarPU's "lws" (locality work stealing) as users know it:
 * a task made ready goes to the ready list of the worker that ran its
 * predecessor (local push at the head), and an idle worker steals from the
 * tail of its neighbours' lists, trying the next worker, then the one after,
 * instead of random victims. It is the work stealing of ws.c with neighbour
 * victims and local pushes. */
#include "policies/registry.h"
#include "policies/ws.h"

static const struct hs_param lws_params[] = {
    {.name = "victim", .type = HS_P_CHOICE, .defval = "neighbour", .choices = "neighbour|random",
     .help = "steal from the next workers in turn, or from random ones"},
    {.name = "steal_cost", .type = HS_P_DOUBLE, .defval = "2e-6", .range = "[0,inf)",
     .help = "seconds a steal attempt holds the victim's lock"},
    {.name = "attempts", .type = HS_P_INT, .defval = "0", .range = "[0,100000]",
     .help = "random victims drawn before visiting all (0: twice the workers)"},
    {0},
};

const struct hs_policy hs_policy_lws = {
    .name = "lws",
    .summary = "StarPU-style locality work stealing: successors stay local, idle workers steal "
               "from their neighbours",
    .params = lws_params,
    .init = hs_ws_init,
    .push = hs_ws_push,
    .pop = hs_ws_pop,
    .done = hs_ws_done,
    .fini = hs_ws_fini,
};
