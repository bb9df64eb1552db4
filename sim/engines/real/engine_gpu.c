/* sim/engines/real/engine_gpu.c — the real engine's GPUs (see engine_gpu.h).
 *
 * Every operation is enqueued on its stream and followed by an event taken
 * from a free list; drain polls each stream's oldest event and hands the
 * completed operations back in order. Each GPU holds a copy of every datum,
 * so that a transfer is one cudaMemcpyAsync between fixed buffers. */
#include "sim/engines/real/engine_gpu.h"
#include "base/util.h"
#include "sim/engines/real/numeric_gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hs_cuda_spin(double seconds, cudaStream_t stream); /* spin.cu */

enum { S_H2D, S_KERNEL, S_D2H, NSTREAMS };

struct op {
    cudaEvent_t ev;
    struct hs_real_cb done;
};

struct stream_q {
    cudaStream_t s;
    struct op *ops;
    int head, len, cap;
};

struct gpu {
    int device;
    struct stream_q q[NSTREAMS];
    struct hs_gpu_libs libs;
    void **dev; /* per datum */
};

struct hs_real_gpus {
    const struct hs_platform *pf;
    const struct hs_dag *dag;
    const struct hs_numeric *num;
    void **host;
    struct gpu **gpu; /* per memory node; NULL for host memory */
    cudaEvent_t *free_ev;
    int nfree_ev, cap_ev;
    char error[256];
};

static void fail(struct hs_real_gpus *g, const char *what, int err)
{
    if (!g->error[0])
        snprintf(g->error, sizeof g->error, "real engine: %s failed (CUDA error %d)", what, err);
}

int hs_real_gpus_visible(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

int hs_real_gpus_pci_bus_id(int device, char *id, int size)
{
    return cudaDeviceGetPCIBusId(id, size, device) == cudaSuccess ? 0 : -1;
}

int hs_real_gpus_check_memory(const struct hs_platform *pf, const struct hs_dag *dag)
{
    const double reserve = 512.0 * 1048576; /* cuBLAS/cuSOLVER handles and workspaces */
    double bytes = hs_dag_data_bytes(dag);
    int device = 0;
    for (int node = 0; node < pf->nnodes; node++) {
        if (pf->nodes[node].kind != HS_NODE_GPU)
            continue;
        size_t avail = 0, total = 0;
        if (cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(&avail, &total) != cudaSuccess)
            return hs_fail("the real engine cannot query GPU %d", device);
        if (bytes + reserve > (double)avail)
            return hs_fail("GPU %d has %.2f GiB free; the data of %s take %.2f GiB (the real engine keeps "
                           "all of them on every GPU, with 0.5 GiB for the libraries)",
                           device, (double)avail / 1073741824.0, dag->name, bytes / 1073741824.0);
        device++;
    }
    return 0;
}

void **hs_real_gpus_host_alloc(const struct hs_dag *dag)
{
    void **host = hs_xcalloc((size_t)dag->nhandles, sizeof(void *));
    for (int h = 0; h < dag->nhandles; h++) {
        size_t bytes = (size_t)dag->handles[h].bytes;
        if (bytes && cudaHostAlloc(&host[h], bytes, cudaHostAllocPortable) != cudaSuccess) {
            hs_real_gpus_host_free(dag, host);
            hs_fail("cannot pin %zu bytes of host memory for %s", bytes, dag->handles[h].name);
            return NULL;
        }
        if (bytes)
            memset(host[h], 0, bytes);
    }
    return host;
}

void hs_real_gpus_host_free(const struct hs_dag *dag, void **host)
{
    for (int h = 0; host && h < dag->nhandles; h++)
        if (host[h])
            cudaFreeHost(host[h]);
    free(host);
}

/* ---- operations ------------------------------------------------------------- */

static cudaEvent_t take_event(struct hs_real_gpus *g)
{
    if (g->nfree_ev)
        return g->free_ev[--g->nfree_ev];
    cudaEvent_t ev = NULL;
    int err = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    if (err)
        fail(g, "cudaEventCreate", err);
    return ev;
}

static void give_event(struct hs_real_gpus *g, cudaEvent_t ev)
{
    if (g->nfree_ev == g->cap_ev) {
        g->cap_ev = g->cap_ev ? 2 * g->cap_ev : 64;
        g->free_ev = hs_xrealloc(g->free_ev, (size_t)g->cap_ev * sizeof *g->free_ev);
    }
    g->free_ev[g->nfree_ev++] = ev;
}

/* Follow the operation just enqueued on stream `stream` of gpu with an event. */
static void track(struct hs_real_gpus *g, struct gpu *gpu, int stream, struct hs_real_cb done)
{
    struct stream_q *q = &gpu->q[stream];
    cudaEvent_t ev = take_event(g);
    int err = cudaEventRecord(ev, q->s);
    if (err) {
        fail(g, "cudaEventRecord", err);
        return;
    }
    if (q->len == q->cap) {
        int cap = q->cap ? 2 * q->cap : 16;
        struct op *ops = hs_xmalloc((size_t)cap * sizeof *ops);
        for (int i = 0; i < q->len; i++)
            ops[i] = q->ops[(q->head + i) % q->cap];
        free(q->ops);
        q->ops = ops;
        q->head = 0;
        q->cap = cap;
    }
    q->ops[(q->head + q->len++) % q->cap] = (struct op){ev, done};
}

void hs_real_gpus_spin(struct hs_real_gpus *g, int node, double seconds, struct hs_real_cb done)
{
    struct gpu *gpu = g->gpu[node];
    cudaSetDevice(gpu->device);
    if (hs_cuda_spin(seconds, gpu->q[S_KERNEL].s))
        fail(g, "the spin kernel launch", (int)cudaGetLastError());
    track(g, gpu, S_KERNEL, done);
}

void hs_real_gpus_exec(struct hs_real_gpus *g, int node, int task, double seconds, struct hs_real_cb done)
{
    struct gpu *gpu = g->gpu[node];
    void *bufs[HS_NUMERIC_MAX_BUFS];
    if (!hs_numeric_task_bufs(g->dag, task, gpu->dev, bufs) || !hs_numeric_has_gpu_kernel(g->num, g->dag, task)) {
        hs_real_gpus_spin(g, node, seconds, done);
        return;
    }
    cudaSetDevice(gpu->device);
    if (!hs_numeric_gpu(g->num, g->dag, task, bufs, &gpu->libs))
        fail(g, "a cuBLAS/cuSOLVER call", (int)cudaGetLastError());
    track(g, gpu, S_KERNEL, done);
}

void hs_real_gpus_transfer(struct hs_real_gpus *g, int handle, int src, int dst, double bytes,
                           struct hs_real_cb done)
{
    struct gpu *gs = g->gpu[src], *gd = g->gpu[dst];
    size_t n = (size_t)bytes;
    int err;
    if (gd && !gs) {
        cudaSetDevice(gd->device);
        err = cudaMemcpyAsync(gd->dev[handle], g->host[handle], n, cudaMemcpyHostToDevice, gd->q[S_H2D].s);
        track(g, gd, S_H2D, done);
    } else if (gs && !gd) {
        cudaSetDevice(gs->device);
        err = cudaMemcpyAsync(g->host[handle], gs->dev[handle], n, cudaMemcpyDeviceToHost, gs->q[S_D2H].s);
        track(g, gs, S_D2H, done);
    } else if (gs && gd) {
        cudaSetDevice(gd->device);
        err = cudaMemcpyPeerAsync(gd->dev[handle], gd->device, gs->dev[handle], gs->device, n, gd->q[S_H2D].s);
        track(g, gd, S_H2D, done);
    } else {
        err = -1; /* host to host never happens: cores share host memory */
    }
    if (err)
        fail(g, "cudaMemcpyAsync", err);
}

int hs_real_gpus_drain(struct hs_real_gpus *g, bool *pending)
{
    int n = 0;
    *pending = false;
    for (int node = 0; node < g->pf->nnodes; node++) {
        struct gpu *gpu = g->gpu[node];
        for (int s = 0; gpu && s < NSTREAMS; s++) {
            struct stream_q *q = &gpu->q[s];
            while (q->len > 0) {
                struct op op = q->ops[q->head];
                int err = cudaEventQuery(op.ev);
                if (err == cudaErrorNotReady)
                    break;
                if (err) {
                    fail(g, "a GPU operation", err);
                    return n;
                }
                q->head = (q->head + 1) % q->cap;
                q->len--;
                give_event(g, op.ev);
                op.done.cb(op.done.ctx, op.done.id);
                n++;
            }
            *pending |= q->len > 0;
        }
    }
    return n;
}

const char *hs_real_gpus_error(const struct hs_real_gpus *g)
{
    return g->error[0] ? g->error : NULL;
}

/* ---- set-up and tear-down ---------------------------------------------------------- */

/* First launches of cuBLAS/cuSOLVER kernels load modules and initialise
 * heuristics (tens of ms): run each kernel once on the task's own device
 * buffers (the runtime brings the real data in before any use) and wait. */
static void warm_up(struct hs_real_gpus *g, struct gpu *gpu)
{
    const struct hs_dag *dag = g->dag;
    for (int k = 0; k < dag->nkernels; k++)
        for (int t = 0; t < dag->ntasks; t++) {
            void *bufs[HS_NUMERIC_MAX_BUFS];
            if (dag->tasks[t].kernel != k || !hs_numeric_has_gpu_kernel(g->num, dag, t) ||
                !hs_numeric_task_bufs(dag, t, gpu->dev, bufs))
                continue;
            hs_numeric_gpu(g->num, dag, t, bufs, &gpu->libs);
            break;
        }
    hs_cuda_spin(0, gpu->q[S_KERNEL].s);
    cudaStreamSynchronize(gpu->q[S_KERNEL].s);
}

static int setup_gpu(struct hs_real_gpus *g, int node, int device)
{
    struct gpu *gpu = hs_xcalloc(1, sizeof *gpu);
    g->gpu[node] = gpu;
    gpu->device = device;
    int err = cudaSetDevice(device);
    for (int s = 0; !err && s < NSTREAMS; s++)
        err = cudaStreamCreateWithFlags(&gpu->q[s].s, cudaStreamNonBlocking);
    if (err)
        return hs_fail("real engine: cannot set up GPU %d (CUDA error %d)", device, err);
    if (hs_gpu_libs_init(&gpu->libs, gpu->q[S_KERNEL].s, g->num))
        return hs_fail("real engine: cannot create the cuBLAS/cuSOLVER handles on GPU %d", device);
    gpu->dev = hs_xcalloc((size_t)g->dag->nhandles, sizeof(void *));
    for (int h = 0; h < g->dag->nhandles; h++) {
        size_t bytes = (size_t)g->dag->handles[h].bytes;
        if (bytes && cudaMalloc(&gpu->dev[h], bytes) != cudaSuccess)
            return hs_fail("real engine: GPU %d has not enough memory for the data of %s "
                           "(datum %s, %zu bytes)", device, g->dag->name, g->dag->handles[h].name, bytes);
    }
    warm_up(g, gpu);
    return 0;
}

struct hs_real_gpus *hs_real_gpus_new(const struct hs_platform *pf, const struct hs_dag *dag,
                                      const struct hs_numeric *num, void **host)
{
    struct hs_real_gpus *g = hs_xcalloc(1, sizeof *g);
    *g = (struct hs_real_gpus){.pf = pf, .dag = dag, .num = num, .host = host};
    g->gpu = hs_xcalloc((size_t)pf->nnodes, sizeof *g->gpu);
    int rc = 0, device = 0;
    for (int node = 0; !rc && node < pf->nnodes; node++)
        if (pf->nodes[node].kind == HS_NODE_GPU)
            rc = setup_gpu(g, node, device++);
    if (rc) {
        hs_real_gpus_free(g);
        return NULL;
    }
    return g;
}

static void free_gpu(struct gpu *gpu, int nhandles)
{
    cudaSetDevice(gpu->device);
    cudaDeviceSynchronize();
    for (int h = 0; gpu->dev && h < nhandles; h++)
        cudaFree(gpu->dev[h]);
    hs_gpu_libs_free(&gpu->libs);
    for (int s = 0; s < NSTREAMS; s++) {
        struct stream_q *q = &gpu->q[s];
        for (int i = 0; i < q->len; i++)
            cudaEventDestroy(q->ops[(q->head + i) % q->cap].ev);
        if (q->s)
            cudaStreamDestroy(q->s);
        free(q->ops);
    }
    free(gpu->dev);
    free(gpu);
}

void hs_real_gpus_free(struct hs_real_gpus *g)
{
    if (!g)
        return;
    for (int node = 0; node < g->pf->nnodes; node++)
        if (g->gpu[node])
            free_gpu(g->gpu[node], g->dag->nhandles);
    for (int i = 0; i < g->nfree_ev; i++)
        cudaEventDestroy(g->free_ev[i]);
    free(g->free_ev);
    free(g->gpu);
    free(g);
}
