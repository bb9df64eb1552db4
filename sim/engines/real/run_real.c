/* sim/engines/real/run_real.c — a measured run: the platform of the machine
 * description written by `hetsim calibrate`, the same runtime and policy as
 * a simulation, real data in host memory (pinned, and on every GPU, when
 * GPUs are selected), the real engine, and the residual of the result when
 * the workload has numerics. */
#include "sim/engines/real/blas_core.h"
#include "sim/engines/real/blas_threads.h"
#include "sim/engines/real/engine_real.h"
#include "sim/engines/real/engine_gpu.h"
#include "sim/engines/real/machine.h"
#include "sim/engines/real/run_real.h"
#include "sim/costs.h"
#include "sim/sched.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The 1-minute load average (/proc/loadavg), NAN where the file is not
 * there: written beside a measured run, whose error means little on a loaded
 * machine. */
static double load_average(void)
{
    double l = NAN;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = NAN;
        fclose(f);
    }
    return l;
}

static int selected_gpus(const struct hs_platform *pf)
{
    int n = 0;
    for (int w = 0; w < pf->nworkers; w++)
        n += pf->workers[w].arch == HS_ARCH_GPU;
    return n;
}

/* The GPUs selected must be here: this engine built with CUDA, and as many
 * visible as the machine was calibrated with. */
static int check_gpus_here(const struct hs_machine *m, const struct hs_platform *pf)
{
    if (selected_gpus(pf) == 0)
        return 0;
#ifdef HETSIM_HAVE_CUDA
    int devices = hs_real_gpus_visible();
    if (devices == 0)
        return hs_fail("machine %s has GPUs but none is visible here (run its cores alone: --gpus 0)", m->name);
    if (devices < m->ngpus)
        return hs_fail("machine %s was calibrated with %d GPUs but %d are visible here", m->name, m->ngpus,
                       devices);
    return 0;
#else
    return hs_fail("machine %s has GPUs, but this hetsim was built without CUDA (run its cores alone: "
                   "--gpus 0)", m->name);
#endif
}

static int load_platform(const struct hs_run_config *cfg, struct hs_platform *pf)
{
    char *path = hs_machine_path(cfg->platform_file);
    struct hs_machine m;
    int rc = hs_machine_load(path, &m);
    free(path);
    if (rc)
        return -1;
    struct hs_inventory inv;
    hs_machine_inventory(&m, &inv);
    rc = hs_platform_build(pf, cfg->platform_name, &inv, &cfg->select, hs_machine_route, &m);
    if (!rc)
        hs_platform_routes_all(pf); /* m ends here: no route is asked of it later */
    hs_inventory_free(&inv);
    if (!rc)
        rc = check_gpus_here(&m, pf);
    if (!rc)
        rc = hs_machine_check_topology(&m);
    if (!rc)
        rc = hs_blas_check_same(m.blas, m.file);
    if (!rc)
        rc = hs_blas_threads_ready(pf->nworkers - selected_gpus(pf));
    hs_machine_free(&m);
    return rc;
}

/* A task with a real kernel only for cores must not be given to a GPU: the
 * timing table would have to say it runs there. */
static int check_gpu_versions(const struct hs_run *run, const struct hs_numeric *num, const char *perf)
{
    const struct hs_dag *dag = hs_sched_dag(run->rt);
    for (int t = 0; t < dag->ntasks; t++) {
        if (!hs_numeric_has_cpu_kernel(num, dag, t) || hs_numeric_has_gpu_kernel(num, dag, t))
            continue;
        for (int w = 0; w < run->pf.nworkers; w++)
            if (run->pf.workers[w].arch == HS_ARCH_GPU && hs_sched_can_run(run->rt, &dag->tasks[t], w))
                return hs_fail("the real engine has no GPU version of %s (task %s), but the timing "
                               "table %s gives it a GPU time: remove its gpu entries",
                               dag->kernels[dag->tasks[t].kernel], dag->tasks[t].label,
                               perf ? perf : "of the platform");
    }
    return 0;
}

/* Host buffers of every datum, zeroed: pinned when GPUs copy from them,
 * else cache-line aligned. NULL with hs_fail. */
void **hs_real_host_alloc(const struct hs_dag *dag, bool gpus)
{
#ifdef HETSIM_HAVE_CUDA
    if (gpus)
        return hs_real_gpus_host_alloc(dag);
#else
    (void)gpus;
#endif
    void **host = hs_xcalloc((size_t)dag->nhandles, sizeof(void *));
    for (int h = 0; h < dag->nhandles; h++) {
        size_t bytes = (size_t)dag->handles[h].bytes;
        if (bytes && posix_memalign(&host[h], 64, bytes)) {
            for (int i = 0; i < h; i++)
                free(host[i]);
            free(host);
            hs_fail("cannot allocate %zu bytes of host memory for %s", bytes, dag->handles[h].name);
            return NULL;
        }
        if (bytes)
            memset(host[h], 0, bytes);
    }
    return host;
}

void hs_real_host_free(const struct hs_dag *dag, void **host, bool gpus)
{
#ifdef HETSIM_HAVE_CUDA
    if (gpus) {
        hs_real_gpus_host_free(dag, host);
        return;
    }
#else
    (void)gpus;
#endif
    for (int h = 0; host && h < dag->nhandles; h++)
        free(host[h]);
    free(host);
}

/* The runtime's costs (sim/costs.h) are simulated time. A measured run spends
 * its own, for real: calibrate measures them with the kernels and adds them
 * to the timing table, and the engine's exec gets no lead (0: no decision
 * or task costs to wait for). Costs given for the run would only skew the
 * policies' estimates and the record's start times: refused. */
static int check_no_costs(const struct hs_runtime_opts *opts)
{
    for (int i = 0; hs_costs_props[i]; i++) {
        double v = hs_costs_get(&opts->costs, i);
        if (!isnan(v) && v != 0)
            return hs_fail("--costs: %s is simulated time; a measured run spends the runtime's own (leave "
                           "--costs out, or give it to the simulation)", hs_costs_props[i]);
    }
    return 0;
}

/* Everything a run checks before touching memory: the timing table, the
 * runtime, GPU versions of the kernels, device memory. */
static int prepare(const struct hs_run_config *cfg, const struct hs_dag *dag, const struct hs_policy *policy,
                   const struct hs_spec *policy_spec, struct hs_run *run, const struct hs_numeric *num)
{
    if (cfg->perf_file) {
        char err[1024];
        if (hs_perf_load(cfg->perf_file, &run->perf, err, sizeof err))
            return hs_fail("%s", err);
        run->has_perf = true;
    }
    run->rt = hs_runtime_new(dag, &run->pf, run->has_perf ? &run->perf : NULL, policy, policy_spec,
                             &cfg->opts);
    if (!run->rt || check_gpu_versions(run, num, cfg->perf_file))
        return -1;
#ifdef HETSIM_HAVE_CUDA
    if (selected_gpus(&run->pf) && hs_real_gpus_check_memory(&run->pf, dag))
        return -1;
#endif
    return 0;
}

int hs_run_real(const struct hs_run_config *cfg, const struct hs_dag *dag,
                const struct hs_policy *policy, const struct hs_spec *policy_spec,
                struct hs_run *run)
{
    memset(run, 0, sizeof *run);
    run->engine = hs_engine_real.name;
    run->residual = NAN;
    if (check_no_costs(&cfg->opts) || load_platform(cfg, &run->pf))
        return 2;
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    bool gpus = selected_gpus(&run->pf) > 0;
    void **host = NULL;
    if (prepare(cfg, dag, policy, policy_spec, run, &num) || !(host = hs_real_host_alloc(dag, gpus))) {
        hs_numeric_free(&num);
        return 2;
    }
    hs_numeric_fill(&num, dag, host);
    run->core_time = hs_xmalloc((size_t)(dag->ntasks ? dag->ntasks : 1) * sizeof *run->core_time);
    for (int t = 0; t < dag->ntasks; t++)
        run->core_time[t] = NAN;
    run->load[0] = load_average();
    double t0 = hs_now();
    int rc = hs_real_engine_run(run->rt, &run->pf, &num, host, run->core_time);
    run->wall = hs_now() - t0;
    run->load[1] = load_average();
    if (policy->fini)
        policy->fini(run->rt);
    if (rc == 0 && !hs_runtime_error(run->rt) && cfg->opts.flush)
        run->residual = hs_numeric_residual(&num, dag, host);
    hs_numeric_free(&num);
    hs_real_host_free(dag, host, gpus);
    if (rc)
        return 2; /* the GPU could not be set up (memory, handles): bad input for this machine */
    return !hs_runtime_error(run->rt) ? 0 : hs_runtime_refused(run->rt) ? 2 : 1;
}

const struct hs_engine_kind hs_engine_real = {
    "real", "measured on this machine: its cores (and GPUs with CUDA) run the kernels", true,
    hs_run_real, NULL};
