/* tests/bench/floor.c — the bare-SimGrid floor that hetsim's speed is
 * measured against (issue 19; tests/bench/bench_floor.sh pairs them).
 *
 * It simulates tiled Cholesky (right-looking: POTRF, TRSM, SYRK, GEMM) doing
 * the least a runtime must: one SimGrid actor per worker host takes the
 * oldest ready task from one shared FIFO list; for every tile the task
 * touches that has no valid copy on the worker's memory, one blocking
 * sg_host_sendto of the tile's bytes from a host that has one; then one
 * sg_actor_execute of the kernel's flops at the host's speed; the written
 * tile is then valid on that memory only. No cache limit, no eviction, no
 * write-back, no streams, no window, no estimates: hetsim does all of these,
 * so this is a floor for the cost per task, not a program to match.
 *
 * Memories: a GPU worker's is its own host; every CPU worker shares main
 * memory, the first host of the platform whose property "kind" is "ram"
 * (hetsim's platform files name RAM0, RAM1, ...). Every tile starts there.
 *
 * Usage: floor PLATFORM.xml TILES NB WORKER...
 * Prints the simulated makespan, the tasks and the transfers on stdout. */
#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kernel { POTRF, TRSM, SYRK, GEMM };

struct task {
    enum kernel kernel;
    int tiles[3];   /* tiles touched; tiles[0] is the one written */
    int ntiles;
    int unfinished; /* predecessors not yet done */
    int *succ;
    int nsucc, capsucc;
};

struct floor_state {
    struct task *tasks;
    int ntasks, done;
    int *ready; /* FIFO of task indices: ready[head..tail) */
    int head, tail;
    uint64_t *valid; /* per tile, one bit per memory (bit 0: main memory) */
    sg_host_t *memory_host; /* per memory */
    double nb;
    long transfers;
    sg_mutex_t lock;
    sg_cond_t changed;
};

static struct floor_state S;

static void die(const char *msg, const char *what)
{
    fprintf(stderr, "floor: %s%s%s\n", msg, what ? ": " : "", what ? what : "");
    exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die("out of memory", NULL);
    return p;
}

/* ---- the task graph ---------------------------------------------------- */

static int tile_index(int i, int j, int tiles) { return i * tiles + j; }

static void add_edge(int from, int to)
{
    struct task *t = &S.tasks[from];
    if (t->nsucc > 0 && t->succ[t->nsucc - 1] == to)
        return; /* the same predecessor through two tiles */
    if (t->nsucc == t->capsucc) {
        t->capsucc = t->capsucc ? 2 * t->capsucc : 4;
        t->succ = realloc(t->succ, (size_t)t->capsucc * sizeof *t->succ);
        if (!t->succ)
            die("out of memory", NULL);
    }
    t->succ[t->nsucc++] = to;
    S.tasks[to].unfinished++;
}

/* Appends a task; its predecessors are the last writers of the tiles it
 * touches (read after write, write after write: Cholesky has no write after
 * read, a tile read by a task is never written again). */
static void add_task(int *last_writer, enum kernel k, int w, int r1, int r2)
{
    int id = S.ntasks++;
    struct task *t = &S.tasks[id];
    t->kernel = k;
    int all[3] = {w, r1, r2};
    for (int i = 0; i < 3; i++)
        if (all[i] >= 0)
            t->tiles[t->ntiles++] = all[i];
    for (int i = 0; i < t->ntiles; i++)
        if (last_writer[t->tiles[i]] >= 0)
            add_edge(last_writer[t->tiles[i]], id);
    last_writer[w] = id;
}

static void build_cholesky(int T)
{
    long n = (long)T * (T + 1) * (T + 2) / 6; /* T POTRF, T(T-1)/2 TRSM and SYRK, T(T-1)(T-2)/6 GEMM */
    S.tasks = xcalloc((size_t)n, sizeof *S.tasks);
    S.ready = xcalloc((size_t)n, sizeof *S.ready);
    int *last_writer = xcalloc((size_t)T * T, sizeof *last_writer);
    for (int i = 0; i < T * T; i++)
        last_writer[i] = -1;
    for (int k = 0; k < T; k++) {
        add_task(last_writer, POTRF, tile_index(k, k, T), -1, -1);
        for (int i = k + 1; i < T; i++)
            add_task(last_writer, TRSM, tile_index(i, k, T), tile_index(k, k, T), -1);
        for (int i = k + 1; i < T; i++) {
            add_task(last_writer, SYRK, tile_index(i, i, T), tile_index(i, k, T), -1);
            for (int j = k + 1; j < i; j++)
                add_task(last_writer, GEMM, tile_index(i, j, T), tile_index(i, k, T),
                         tile_index(j, k, T));
        }
    }
    free(last_writer);
    for (int i = 0; i < S.ntasks; i++)
        if (S.tasks[i].unfinished == 0)
            S.ready[S.tail++] = i;
}

static double kernel_flops(enum kernel k, double nb)
{
    double cube = nb * nb * nb;
    switch (k) {
    case POTRF: return cube / 3.0;
    case TRSM:  return cube;
    case SYRK:  return cube;
    case GEMM:  return 2.0 * cube;
    }
    return 0.0;
}

/* ---- the workers --------------------------------------------------------- */

static int first_valid_memory(uint64_t mask)
{
    for (int m = 0; m < 64; m++)
        if (mask & (UINT64_C(1) << m))
            return m;
    return 0;
}

static void fetch_missing_tiles(const struct task *t, int memory)
{
    uint64_t bit = UINT64_C(1) << memory;
    for (int i = 0; i < t->ntiles; i++) {
        int tile = t->tiles[i];
        if (S.valid[tile] & bit)
            continue;
        int from = (S.valid[tile] & 1) ? 0 : first_valid_memory(S.valid[tile]);
        sg_host_sendto(S.memory_host[from], S.memory_host[memory], S.nb * S.nb * 8.0);
        S.valid[tile] |= bit;
        S.transfers++;
    }
}

/* Takes the oldest ready task, waiting while there is none; -1 once all are done. */
static int take_ready_task(void)
{
    sg_mutex_lock(S.lock);
    while (S.head == S.tail && S.done < S.ntasks)
        sg_cond_wait(S.changed, S.lock);
    int id = S.head < S.tail ? S.ready[S.head++] : -1;
    sg_mutex_unlock(S.lock);
    return id;
}

static void finish_task(int id)
{
    sg_mutex_lock(S.lock);
    struct task *t = &S.tasks[id];
    for (int i = 0; i < t->nsucc; i++)
        if (--S.tasks[t->succ[i]].unfinished == 0)
            S.ready[S.tail++] = t->succ[i];
    S.done++;
    sg_cond_notify_all(S.changed);
    sg_mutex_unlock(S.lock);
}

static void worker(int argc, char **argv)
{
    (void)argc;
    int memory = atoi(argv[0]);
    int id;
    while ((id = take_ready_task()) >= 0) {
        struct task *t = &S.tasks[id];
        fetch_missing_tiles(t, memory);
        sg_actor_execute(kernel_flops(t->kernel, S.nb));
        S.valid[t->tiles[0]] = UINT64_C(1) << memory;
        finish_task(id);
    }
}

/* ---- platform and start ------------------------------------------------- */

static int is_kind(sg_host_t h, const char *kind)
{
    const char *v = sg_host_get_property_value(h, "kind");
    return v && strcmp(v, kind) == 0;
}

static sg_host_t main_memory(void)
{
    sg_host_t *hosts = sg_host_list();
    size_t n = sg_host_count();
    sg_host_t ram = NULL;
    for (size_t i = 0; i < n && !ram; i++)
        if (is_kind(hosts[i], "ram"))
            ram = hosts[i];
    free(hosts);
    if (!ram)
        die("the platform has no host of kind ram (main memory)", NULL);
    return ram;
}

int main(int argc, char **argv)
{
    simgrid_init(&argc, argv);
    if (argc < 5)
        die("usage: floor PLATFORM.xml TILES NB WORKER...", NULL);
    int T = atoi(argv[2]);
    S.nb = atof(argv[3]);
    int nworkers = argc - 4;
    if (T < 1 || S.nb < 1 || nworkers > 63)
        die("TILES and NB must be positive, at most 63 workers", NULL);
    simgrid_load_platform(argv[1]);
    build_cholesky(T);
    S.valid = xcalloc((size_t)T * T, sizeof *S.valid);
    for (int i = 0; i < T * T; i++)
        S.valid[i] = 1;
    S.memory_host = xcalloc((size_t)nworkers + 1, sizeof *S.memory_host);
    S.memory_host[0] = main_memory();
    S.lock = sg_mutex_init();
    S.changed = sg_cond_init();
    int memories = 1;
    for (int w = 0; w < nworkers; w++) {
        sg_host_t h = sg_host_by_name(argv[4 + w]);
        if (!h)
            die("no such host", argv[4 + w]);
        int memory = 0;
        if (is_kind(h, "gpu")) {
            memory = memories++;
            S.memory_host[memory] = h;
        }
        char arg[16];
        snprintf(arg, sizeof arg, "%d", memory);
        const char *args[] = {arg};
        sg_actor_create_(argv[4 + w], h, worker, 1, args);
    }
    simgrid_run();
    printf("makespan %.9f s, %d tasks (%d done), %ld transfers\n", simgrid_get_clock(), S.ntasks,
           S.done, S.transfers);
    for (int i = 0; i < S.ntasks; i++)
        free(S.tasks[i].succ);
    free(S.tasks);
    free(S.ready);
    free(S.valid);
    free(S.memory_host);
    sg_cond_destroy(S.changed);
    sg_mutex_destroy(S.lock);
    return S.done == S.ntasks ? 0 : 1;
}
