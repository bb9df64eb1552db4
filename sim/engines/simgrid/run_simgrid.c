/* sim/engines/simgrid/run_simgrid.c — loading everything a simulated run
 * needs (platform file, timing table, runtime costs), shared with the model
 * engine, and the SimGrid engine kind, which runs it in SimGrid. */
#include "sim/run.h"
#include "base/util.h"
#include "sim/engines/simgrid/energy.h"
#include "sim/engines/simgrid/engine_simgrid.h"
#include "sim/engines/simgrid/memory_link.h"
#include "sim/engines/simgrid/paje.h"
#include "sim/engines/simgrid/platform_checked.h"
#include "sim/engines/simgrid/platform_flat.h"
#include "sim/engines/simgrid/platform_simgrid.h"
#include "sim/outfile.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hs_platform_open(const struct hs_run_config *cfg, struct hs_platform *pf,
                     struct hs_inventory *inv)
{
    /* the machine's parameters this file applies: bw_scale, lat_scale, copy_engines, gpu_mem_scale, hosts */
    const struct hs_machine_params *m = &cfg->opts.machine;
    /* flat:P is built through SimGrid's API: nothing to check in a child, no <config> of its own */
    struct hs_sg_check chk = {0};
    if (!cfg->flat && hs_sg_check_platform(cfg->platform_file, m->hosts, &chk))
        return 2;
    /* SimGrid's Paje tracing takes a time that grows with the square of the hosts (flat:4096 3.4 s,
     * flat:16384 47 s, against 0.5 s untraced; SimGrid's crossbar of 65,536 did not end): refused
     * beyond 16,384 workers, before any work */
    long hosts = cfg->flat ? cfg->flat->p : (long)chk.ncores + chk.ngpus + chk.nprocs;
    if (cfg->paje_file && hosts > HS_SG_PAJE_MAX_HOSTS) {
        hs_fail("--paje: platform %s has %ld workers: SimGrid's Paje tracing takes a time that grows with the "
                "square of the hosts (47 s at 16,384, 0.5 s untraced; about 12 minutes at 65,536): trace a "
                "platform of at most %d, or run without --paje", cfg->platform_name, hosts, HS_SG_PAJE_MAX_HOSTS);
        return 2;
    }
    if (hs_sg_init(cfg->verbose, cfg->paje_file, chk.file_sets, cfg->flat ? NULL : cfg->platform_file))
        return 2;
    if (cfg->energy && chk.energy_hosts == 0) {
        hs_fail("--energy: platform %s declares no power (no host has wattage_per_state; "
                "docs/platforms.md#energy)", cfg->platform_name);
        return 2;
    }
    if (cfg->energy && cfg->paje_file) {
        hs_fail("--energy with --paje: the energy is counted by playing the run's busy spans again once it has "
                "ended, which the Paje trace would show; trace and count energy in two runs");
        return 2;
    }
    if (cfg->energy) /* the plugin reads the hosts' properties as they are created */
        hs_sg_energy_init();
    if (cfg->flat ? hs_sg_flat_build(cfg->flat) : hs_sg_load(cfg->platform_file, cfg->paje_file != NULL))
        return 2;
    if (m->bw_scale != 1 || m->lat_scale != 1)
        hs_sg_scale_links(m->bw_scale, m->lat_scale);
    if (hs_sg_inventory_map(cfg->platform_name, m->hosts, inv))
        return 2;
    for (int i = 0; i < inv->n; i++) /* copy_engines=N, gpu_mem_scale=F: every GPU's */
        if (inv->hosts[i].kind == HS_HOST_GPU) {
            if (m->copy_engines)
                inv->hosts[i].copy_engines = m->copy_engines;
            if (m->gpu_mem_scale != 1 && inv->hosts[i].memsize > 0)
                inv->hosts[i].memsize = round(inv->hosts[i].memsize * m->gpu_mem_scale);
        }
    int by_default = 0;
    for (int i = 0; i < inv->n; i++)
        by_default += inv->hosts[i].by_default;
    if (cfg->notes && by_default)
        fprintf(stderr, "hetsim: note: platform %s: %d of its %d hosts have no kind (property, name or host "
                "map) and are CPU hosts (docs/platforms.md)\n", cfg->platform_name, by_default, inv->n);
    /* a link of 0 B/s on a route the run uses: named, rather than the route said missing. The
     * routes between GPUs or processors are asked during the run (sim/routes.h): the context
     * lives as long as SimGrid's platform, one per process */
    static struct hs_sg_zero_link zero;
    memset(&zero, 0, sizeof zero);
    int built = hs_platform_build(pf, cfg->platform_name, inv, &cfg->select, hs_sg_route, &zero);
    if (hs_sg_zero_link_check(cfg->platform_name, &zero)) {
        if (!built)
            hs_platform_free(pf);
        built = -1;
    }
    if (!built)
        hs_sg_route_run(&zero, cfg->platform_name);
    if (!built)
        pf->uniform = cfg->flat != NULL; /* flat:P: one latency and bandwidth for every route */
    sg_host_t *memory = NULL; /* the declaration checked before any work; the engine reads it again */
    if (!built && hs_sg_memory_links(cfg->platform_name, pf, &zero, &memory)) {
        hs_platform_free(pf);
        built = -1;
    }
    free(memory);
    if (built) {
        hs_inventory_free(inv);
        return 2;
    }
    return 0;
}

int hs_platform_count(const char *file, const char *map_file, int *cores, int *gpus, int *procs)
{
    struct hs_sg_check chk;
    int rc = hs_sg_check_platform(file, map_file, &chk);
    *cores = rc ? -1 : chk.ncores;
    *gpus = rc ? -1 : chk.ngpus;
    *procs = rc ? -1 : chk.nprocs;
    return rc;
}

void hs_platform_route_links(const char *src, const char *dst, char *buf, int size)
{
    hs_sg_route_links(src, dst, buf, size);
}

int hs_platform_costs(const char *platform_name, struct hs_costs *c)
{
    return hs_sg_costs(platform_name, c);
}

int hs_platform_checked_write(const char *dir)
{
    return hs_sg_checked_write(dir);
}

/* A workload kernel left with no entry on an architecture the platform has
 * because its only StarPU history line there had no sample: said on stderr
 * (once per kernel and architecture) and in the notes, with what times its
 * tasks there instead: raw_cost (sim/runtime.c) gives flops / the worker's
 * speed to a kernel the table has on no architecture, and no time (the
 * architecture may not run it) to one it has on the other only. */
static void warn_no_sample(const struct hs_dag *dag, struct hs_run *run)
{
    struct hs_perfmodel *pm = &run->perf;
    for (int a = 0; a < HS_NARCH; a++) {
        bool has_arch = false;
        for (int w = 0; w < run->pf.nworkers && !has_arch; w++)
            has_arch = (int)run->pf.workers[w].arch == a;
        for (int k = 0; k < dag->nkernels && has_arch; k++) {
            const char *kernel = dag->kernels[k], *arch = hs_arch_name(a), *other = hs_arch_name(!a);
            const struct hs_perf_entry *e = NULL;
            for (int i = 0; i < pm->nstarpu_empty && !e; i++)
                if (strcmp(pm->starpu_empty[i].kernel, kernel) == 0 && strcmp(pm->starpu_empty[i].arch, arch) == 0)
                    e = &pm->starpu_empty[i];
            if (!e || hs_perf_has(pm, kernel, arch))
                continue;
            char then[256];
            if (hs_perf_has(pm, kernel, other))
                snprintf(then, sizeof then, "its tasks run on %s workers only", other);
            else
                snprintf(then, sizeof then, "its tasks last flops / the speed of the platform's %s hosts, not a "
                         "time StarPU measured", arch);
            hs_perf_note(pm, "%s on %s: no timing (%s has no sample): %s", kernel, arch, e->source, then);
            fprintf(stderr, "hetsim: warning: %s: %s on %s has no sample in StarPU's perfmodels (%s), so "
                            "%s (StarPU flushes a line whose samples stray: calibrate again on a quiet machine or with a "
                            "larger STARPU_HISTORY_MAX_ERROR)\n",
                    pm->file, kernel, arch, e->source, then);
        }
    }
}

/* A workload kernel StarPU's perfmodels time on no architecture the
 * platform has (no codelet file of it in the folder, a single file given for
 * several kernels, or only history lines without a sample: StarPU flushed
 * them): refused, naming the kernel and why, since nothing StarPU measured
 * would time its tasks (flops / the speed StarPU writes in its platform
 * files is no measure). A kernel timed on one architecture of the platform
 * but not the other is warn_no_sample's. */
static int refuse_untimed(const struct hs_run_config *cfg, const struct hs_dag *dag, struct hs_run *run)
{
    struct hs_perfmodel *pm = &run->perf;
    for (int k = 0; k < dag->nkernels; k++) {
        const char *kernel = dag->kernels[k], *elsewhere = NULL;
        bool timed = false, used = false;
        for (int a = 0; a < HS_NARCH && !timed; a++) {
            bool has_arch = false;
            for (int w = 0; w < run->pf.nworkers && !has_arch; w++)
                has_arch = (int)run->pf.workers[w].arch == a;
            if (!hs_perf_has(pm, kernel, hs_arch_name(a)))
                continue;
            if (has_arch)
                timed = true;
            else
                elsewhere = hs_arch_name(a);
        }
        for (int i = 0; i < dag->ntasks && !used; i++)
            used = dag->tasks[i].kernel == k;
        if (timed || !used)
            continue;
        const struct hs_perf_entry *e = NULL;
        for (int i = 0; i < pm->nstarpu_empty && !e; i++)
            if (strcmp(pm->starpu_empty[i].kernel, kernel) == 0)
                e = &pm->starpu_empty[i];
        if (elsewhere)
            return hs_fail("%s: StarPU's perfmodels time %s on %s workers only, and this run on platform %s has "
                           "none (see --gpus, --cpus): give the run such workers, or perfmodels of its workers",
                           pm->file, kernel, elsewhere, cfg->platform_name);
        if (e)
            return hs_fail("%s: StarPU's perfmodels have no sample of %s (%s: n = 0, StarPU flushed the line as its "
                           "samples strayed), so nothing StarPU measured times its tasks: calibrate again on a quiet "
                           "machine or with a larger STARPU_HISTORY_MAX_ERROR (tools/compare_starpu.sh sets 10000)",
                           pm->file, kernel, e->source);
        return hs_fail("%s: StarPU's perfmodels time no %s (no codelet file of it), so nothing StarPU measured "
                       "times its tasks: give the folder of every codelet file StarPU wrote for this workload",
                       pm->file, kernel);
    }
    return 0;
}

/* A timing table read from StarPU's perfmodels: refused if it times a CUDA
 * device the platform lacks or none of the workload's kernels; notes where
 * a task's tile size has no history line. */
static int check_starpu(const struct hs_run_config *cfg, const struct hs_dag *dag, struct hs_run *run)
{
    struct hs_perfmodel *pm = &run->perf;
    if (!pm->starpu)
        return 0;
    if (pm->starpu_gpus > run->pf.ngpus)
        return hs_fail("%s: StarPU arch cuda%d_impl0 (CUDA device %d), but platform %s has %d GPU(s): run on the "
                       "platform file StarPU wrote beside these perfmodels (bus/HOST.platform.v4.xml)",
                       pm->starpu_gpu_at, pm->starpu_gpus - 1, pm->starpu_gpus - 1, cfg->platform_name,
                       run->pf.ngpus);
    bool any = false, incpiv = false;
    for (int k = 0; k < dag->nkernels; k++) {
        any |= hs_perf_has(pm, dag->kernels[k], "cpu") || hs_perf_has(pm, dag->kernels[k], "gpu");
        incpiv |= strcmp(dag->kernels[k] + 1, "gessm") == 0; /* PLASMA's incremental-pivoting LU */
    }
    if (pm->starpu_nopiv && incpiv)
        return hs_fail("%s: StarPU's LU example (starpu_?lu_lu_model_11 …) times GETRF without pivoting, and none "
                       "of GESSM, TSTRF, SSSSM of the incremental-pivoting lu: run its LU as -w lunopiv:n=…,nb=…",
                       cfg->perf_file);
    if (!any && pm->n)
        return hs_fail("%s: StarPU's perfmodels time %s … (precision from their sizes), none of the workload's "
                       "kernels (%s …): for StarPU's single-precision examples add precision=s to the workload",
                       cfg->perf_file, pm->entries[0].kernel, dag->nkernels ? dag->kernels[0] : "none");
    if (refuse_untimed(cfg, dag, run))
        return -1;
    warn_no_sample(dag, run);
    int *seen = NULL; /* (kernel, nb) pairs noted: a workload has few */
    size_t nseen = 0, cap = 0;
    for (int i = 0; i < dag->ntasks; i++) {
        const struct hs_task *t = &dag->tasks[i];
        size_t j = 0;
        while (j < nseen && !(seen[2 * j] == t->kernel && seen[2 * j + 1] == t->footprint))
            j++;
        if (j < nseen)
            continue;
        HS_GROW(seen, cap, 2 * nseen + 2);
        seen[2 * nseen] = t->kernel;
        seen[2 * nseen++ + 1] = t->footprint;
        for (int a = 0; a < HS_NARCH; a++) {
            const char *kernel = dag->kernels[t->kernel], *arch = hs_arch_name(a);
            if (!hs_perf_has(pm, kernel, arch) || hs_perf_has_nb(pm, kernel, arch, t->footprint))
                continue;
            const struct hs_perf_regression *r = hs_perf_regression_for(pm, kernel, arch, t->footprint);
            if (r)
                hs_perf_note(pm, "%s on %s at nb=%d: no history line; %s", kernel, arch, t->footprint, r->source);
            else
                hs_perf_note(pm, "%s on %s at nb=%d: no history line or valid regression; the rate of the nearest "
                             "history sizes (flops as the workload counts them)", kernel, arch, t->footprint);
        }
    }
    free(seen);
    return 0;
}

/* A timing table's co-running curve on a platform with a memory link: both
 * would slow the same kernels for the same cause (docs/platforms.md). */
static int check_corun_memory(const struct hs_run_config *cfg, struct hs_run *run)
{
    if (!run->perf.ncorun)
        return 0;
    sg_host_t *memory = NULL; /* the routes were checked when the platform was opened */
    if (hs_sg_memory_links(cfg->platform_name, &run->pf, NULL, &memory))
        return -1;
    bool any = memory != NULL;
    free(memory);
    if (!any)
        return 0;
    return hs_fail("%s: a co-running curve (\"corun\"), and platform %s declares a memory link its cores share: "
                   "the two would count one slowdown twice; give this platform a table without \"corun\" "
                   "(docs/platforms.md#shared-memory-bandwidth)", cfg->perf_file, cfg->platform_name);
}

int hs_run_prepare_simulated(const struct hs_run_config *cfg, const struct hs_dag *dag,
                             const struct hs_policy *policy, const struct hs_spec *policy_spec,
                             struct hs_run *run)
{
    run->residual = NAN;
    struct hs_inventory inv;
    int rc = hs_platform_open(cfg, &run->pf, &inv);
    if (rc)
        return rc;
    hs_inventory_free(&inv);
    if (cfg->perf_file) {
        char err[1024];
        if (hs_perf_load_for(cfg->perf_file, cfg->platform_file, &run->perf, err, sizeof err)) {
            hs_fail("%s", err);
            return 2;
        }
        run->has_perf = true;
        if (check_starpu(cfg, dag, run) || check_corun_memory(cfg, run))
            return 2;
    }
    struct hs_runtime_opts opts = cfg->opts;
    if (hs_sg_costs(cfg->platform_name, &opts.costs))
        return 2;
    run->rt = hs_runtime_new(dag, &run->pf, run->has_perf ? &run->perf : NULL, policy,
                             policy_spec, &opts);
    return run->rt ? 0 : 2;
}

int hs_run_simgrid(const struct hs_run_config *cfg, const struct hs_dag *dag,
                   const struct hs_policy *policy, const struct hs_spec *policy_spec,
                   struct hs_run *run)
{
    memset(run, 0, sizeof *run);
    run->engine = hs_engine_simgrid.name;
    /* SimGrid writes the Paje trace into a temporary file beside --paje's,
       renamed onto it once the run ended and the trace was trimmed: a run
       that fails or is killed leaves the old trace as it was */
    struct hs_outfile paje = {0};
    struct hs_run_config c = *cfg;
    if (cfg->paje_file) {
        if (strcmp(cfg->paje_file, "-") == 0) {
            hs_fail("--paje -: the Paje trace is trimmed once written, so it goes to a file (name one)");
            return 2;
        }
        if (hs_outfile_open(&paje, cfg->paje_file))
            return 2;
        c.paje_file = hs_outfile_name(&paje);
    }
    int rc = hs_run_prepare_simulated(&c, dag, policy, policy_spec, run);
    if (rc) {
        hs_outfile_abort(&paje);
        return rc;
    }
    double t0 = hs_now();
    hs_sg_engine_run(run->rt, &run->pf, c.paje_file != NULL, hs_sg_energy_on() ? &run->energy : NULL);
    run->wall = hs_now() - t0;
    if (policy->fini)
        policy->fini(run->rt);
    /* SimGrid closed the trace when the simulation ended: leave only what the run used */
    if (cfg->paje_file) {
        if (!hs_runtime_error(run->rt) && (hs_paje_trim(c.paje_file, &run->pf) || hs_outfile_commit(&paje)))
            hs_runtime_fail(run->rt, hs_last_error());
        hs_outfile_abort(&paje); /* after a failure (nothing to do after the commit) */
    }
    return !hs_runtime_error(run->rt) ? 0 : hs_runtime_refused(run->rt) ? 2 : 1;
}

const struct hs_engine_kind hs_engine_simgrid = {
    "simgrid", "simulated in SimGrid: transfers share the platform's links", false,
    hs_run_simgrid, NULL};
