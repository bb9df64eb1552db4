/* sim/engines/model/run_model.c — the model engine kind: a simulated run
 * prepared as SimGrid's (the same platform file, timing table and runtime
 * costs) and executed on the free-network event loop (engine_model.h). */
#include "sim/engines/model/engine_model.h"
#include "base/util.h"
#include "sim/run.h"

#include <string.h>

int hs_run_model(const struct hs_run_config *cfg, const struct hs_dag *dag,
                 const struct hs_policy *policy, const struct hs_spec *policy_spec,
                 struct hs_run *run)
{
    memset(run, 0, sizeof *run);
    run->engine = hs_engine_model.name;
    if (cfg->paje_file) {
        hs_fail("--paje %s: a Paje trace is written by SimGrid, and the model engine runs no SimGrid "
                "simulation (use --trace or --chrome-trace, or --engine simgrid)",
                cfg->paje_file);
        return 2;
    }
    int rc = hs_run_prepare_simulated(cfg, dag, policy, policy_spec, run);
    if (rc)
        return rc;
    double t0 = hs_now();
    hs_model_engine_run(run->rt);
    run->wall = hs_now() - t0;
    if (policy->fini)
        policy->fini(run->rt);
    return !hs_runtime_error(run->rt) ? 0 : hs_runtime_refused(run->rt) ? 2 : 1;
}

const struct hs_engine_kind hs_engine_model = {
    "model", "simulated on a free network: transfers take no time (no SimGrid simulation)",
    false, hs_run_model, NULL};
