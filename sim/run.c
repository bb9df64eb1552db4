/* sim/run.c — what every engine's run shares: configuration defaults and
 * releasing a finished run. */
#include "sim/run.h"

#include <stdlib.h>
#include <string.h>

void hs_run_config_defaults(struct hs_run_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    hs_select_defaults(&cfg->select);
    hs_runtime_opts_defaults(&cfg->opts);
}

void hs_run_free(struct hs_run *run)
{
    hs_runtime_free(run->rt);
    if (run->has_perf)
        hs_perf_free(&run->perf);
    if (run->pf.name)
        hs_platform_free(&run->pf);
    free(run->core_time);
    for (int i = 0; i < run->energy.n; i++)
        free(run->energy.hosts[i]);
    free(run->energy.hosts);
    free(run->energy.joules);
    memset(run, 0, sizeof *run);
}
