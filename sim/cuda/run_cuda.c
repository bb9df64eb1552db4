/* sim/cuda/run_cuda.c — a measured run: the platform of the machine
 * description written by `hetsim calibrate`, the same runtime and policy as
 * a simulation, real data in pinned host memory and on every GPU, the CUDA
 * engine, and the residual of the result when the workload has numerics. */
#include "sim/cuda/engine.h"
#include "sim/cuda/machine.h"
#include "sim/cuda/run_cuda.h"
#include "sim/sched.h"
#include "sim/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int load_platform(const struct hs_run_config *cfg, struct hs_platform *pf)
{
    char *path = hs_machine_path(cfg->platform_file);
    struct hs_machine m;
    int rc = hs_machine_load(path, &m);
    free(path);
    if (rc)
        return -1;
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        hs_machine_free(&m);
        return hs_fail("the CUDA engine needs a GPU: none is visible here");
    }
    if (devices < m.ngpus) {
        hs_machine_free(&m);
        return hs_fail("machine %s was calibrated with %d GPUs but %d are visible here", m.name,
                       m.ngpus, devices);
    }
    struct hs_inventory inv;
    hs_machine_inventory(&m, &inv);
    rc = hs_platform_build(pf, cfg->platform_name, &inv, &cfg->select, hs_machine_route, &m);
    hs_inventory_free(&inv);
    hs_machine_free(&m);
    return rc;
}

/* A task with a real kernel only for cores must not be given to a GPU: the
 * timing table would have to say it runs there. */
static int check_gpu_versions(const struct hs_run *run, const struct hs_numeric *num, const char *perf)
{
    const struct hs_dag *dag = run->rt->dag;
    for (int t = 0; t < dag->ntasks; t++) {
        if (!hs_numeric_has_cpu_kernel(num, dag, t) || hs_numeric_has_gpu_kernel(num, dag, t))
            continue;
        for (int w = 0; w < run->pf.nworkers; w++)
            if (run->pf.workers[w].arch == HS_ARCH_GPU && hs_sched_can_run(run->rt, &dag->tasks[t], w))
                return hs_fail("the CUDA engine has no GPU version of %s (task %s), but the timing "
                               "table %s gives it a GPU time: remove its gpu entries",
                               dag->kernels[dag->tasks[t].kernel], dag->tasks[t].label,
                               perf ? perf : "of the platform");
    }
    return 0;
}

/* Every GPU holds a copy of every datum (engine.h): refuse data that do not
 * fit, with room for the libraries' workspaces, before pinning host memory. */
static int check_device_memory(const struct hs_run *run, const struct hs_dag *dag)
{
    const double reserve = 512.0 * 1048576; /* cuBLAS/cuSOLVER handles and workspaces */
    double bytes = 0;
    for (int h = 0; h < dag->nhandles; h++)
        bytes += dag->handles[h].bytes;
    int device = 0;
    for (int node = 0; node < run->pf.nnodes; node++) {
        if (run->pf.nodes[node].kind != HS_NODE_GPU)
            continue;
        size_t avail = 0, total = 0;
        if (cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(&avail, &total) != cudaSuccess)
            return hs_fail("the CUDA engine cannot query GPU %d", device);
        if (bytes + reserve > (double)avail)
            return hs_fail("GPU %d has %.2f GiB free; the data of %s take %.2f GiB (the CUDA engine keeps "
                           "all of them on every GPU, with 0.5 GiB for the libraries)",
                           device, (double)avail / 1073741824.0, dag->name, bytes / 1073741824.0);
        device++;
    }
    return 0;
}

static void **alloc_host(const struct hs_dag *dag)
{
    void **host = hs_xcalloc((size_t)dag->nhandles, sizeof(void *));
    for (int h = 0; h < dag->nhandles; h++) {
        size_t bytes = (size_t)dag->handles[h].bytes;
        if (bytes && cudaHostAlloc(&host[h], bytes, cudaHostAllocPortable) != cudaSuccess) {
            for (int i = 0; i < h; i++)
                cudaFreeHost(host[i]);
            free(host);
            hs_fail("cannot pin %zu bytes of host memory for %s", bytes, dag->handles[h].name);
            return NULL;
        }
        if (bytes)
            memset(host[h], 0, bytes);
    }
    return host;
}

static void free_host(const struct hs_dag *dag, void **host)
{
    for (int h = 0; host && h < dag->nhandles; h++)
        cudaFreeHost(host[h]);
    free(host);
}

int hs_run_cuda(const struct hs_run_config *cfg, const struct hs_dag *dag,
                const struct hs_policy *policy, const struct hs_spec *policy_spec,
                struct hs_run *run)
{
    memset(run, 0, sizeof *run);
    run->engine = "cuda";
    run->residual = NAN;
    if (load_platform(cfg, &run->pf))
        return 2;
    if (cfg->perf_file) {
        char err[1024];
        if (hs_perf_load(cfg->perf_file, &run->perf, err, sizeof err)) {
            hs_fail("%s", err);
            return 2;
        }
        run->has_perf = true;
    }
    run->rt = hs_runtime_new(dag, &run->pf, run->has_perf ? &run->perf : NULL, policy,
                             policy_spec, &cfg->opts);
    if (!run->rt)
        return 2;
    struct hs_numeric num;
    hs_numeric_init(&num, dag);
    if (check_gpu_versions(run, &num, cfg->perf_file) || check_device_memory(run, dag)) {
        hs_numeric_free(&num);
        return 2;
    }
    void **host = alloc_host(dag);
    if (!host) {
        hs_numeric_free(&num);
        return 2;
    }
    hs_numeric_fill(&num, dag, host);
    double t0 = hs_now();
    int rc = hs_cuda_engine_run(run->rt, &run->pf, &num, host);
    run->wall = hs_now() - t0;
    if (policy->fini)
        policy->fini(run->rt);
    if (rc == 0 && !run->rt->error && cfg->opts.flush)
        run->residual = hs_numeric_residual(&num, dag, host);
    hs_numeric_free(&num);
    free_host(dag, host);
    if (rc)
        return 2; /* the GPU could not be set up (memory, handles): bad input for this machine */
    return !run->rt->error ? 0 : run->rt->refused ? 2 : 1;
}
