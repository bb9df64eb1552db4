/* workloads/estimate.c — what building a workload's DAG will take, known from
 * its parameters before anything is built, so that `random:v=10000000` or
 * `cholesky:n=1000000,nb=16` is refused at once with the memory it needs
 * instead of growing until the machine gives out.
 *
 * A generator's counts follow from its parameters (tasks, dependencies
 * inferred from accesses, explicit edges, data); a DAG file's from its size.
 * The bytes per item were measured on hetsim's own DAGs (peak RSS of `hetsim
 * dag W --stats`, Release build): about 220 B per task, 120 B per inferred
 * dependency, about 140 B per explicit edge (a private handle, two accesses
 * and the edge; 200 to 290 B before the DAG kept its names in blocks);
 * rounded up here, over a 40 MiB process (the libraries). A
 * DAG file takes a multiple of its size that depends on its format
 * (file_bytes). */
#include "workloads/workload.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

enum { TASK_B = 250, INFERRED_B = 130, EDGE_B = 250, HANDLE_B = 150, BASE_B = 40 << 20 };

struct counts {
    double tasks, inferred, edges, handles;
};

static double ratio(const struct hs_spec *s, const char *num, const char *den)
{
    double d = (double)hs_spec_int(s, den);
    return d > 0 ? ceil((double)hs_spec_int(s, num) / d) : 0;
}

/* Tiled Cholesky: POTRF, TRSM, SYRK and GEMM of nt tiles; pardiag splits
 * each diagonal tile into a Cholesky of its own. */
static void cholesky(const struct hs_spec *s, struct counts *c, bool moves)
{
    double nt = ratio(s, "n", "nb"), sub = (double)hs_spec_int(s, "pardiag");
    c->tasks = nt * (nt + 1) * (nt + 2) / 6;
    c->handles = nt * (nt + 1) / 2;
    if (sub > 0) {
        double st = ratio(s, "nb", "pardiag");
        c->tasks += nt * (st * (st + 1) * (st + 2) / 6 + 2);
        c->handles += nt * st * (st + 1) / 2;
    }
    if (moves)
        c->tasks += c->handles;
    c->inferred = 3 * c->tasks;
}

static void gemm(const struct hs_spec *s, struct counts *c)
{
    double nb = (double)hs_spec_int(s, "nb"), n = (double)hs_spec_int(s, "n");
    double m = (double)hs_spec_int(s, "m"), k = (double)hs_spec_int(s, "k");
    double M = ceil((m > 0 ? m : n) / nb), N = ceil(n / nb), K = ceil((k > 0 ? k : n) / nb);
    c->tasks = M * N * K;
    c->handles = M * K + K * N + M * N;
    c->inferred = c->tasks;
}

/* Tile LU and QR (and LU without pivoting): nt(nt+1)(2nt+1)/6 tasks. */
static void lu_qr(const struct hs_spec *s, struct counts *c)
{
    double nt = ratio(s, "n", "nb");
    c->tasks = nt * (nt + 1) * (2 * nt + 1) / 6;
    c->handles = 3 * nt * nt;
    c->inferred = 3 * c->tasks;
}

static void products(const struct hs_spec *s, struct counts *c, int dim)
{
    double n = (double)hs_spec_int(s, "n");
    c->tasks = pow(n, dim);
    c->handles = dim * pow(n, dim - 1);
    c->inferred = dim == 3 ? c->tasks : 0;
}

/* random: every task draws up to outdeg_max children; daggen: each task
 * draws 1 + U·density·(width of a level) parents, a level being n^fat wide. */
static void random_dag(const struct hs_spec *s, struct counts *c)
{
    c->tasks = (double)hs_spec_int(s, "v") + 1;
    c->edges = c->tasks * ((double)hs_spec_int(s, "outdeg_max") / 2 + 1);
}

static void daggen(const struct hs_spec *s, struct counts *c)
{
    double n = (double)hs_spec_int(s, "n");
    c->tasks = n;
    c->edges = n * (1 + hs_spec_double(s, "density") * pow(n, hs_spec_double(s, "fat")) / 2);
}

/* Bytes a DAG file may take once read: its size times the reader's factor,
 * measured as (peak RSS - 40 MiB) / file size on files of 3 to 12 MB of
 * each format and rounded up: hetsim JSON 2.4, DOT 21 (cgraph), WfFormat 12
 * and DAX 13 (a cJSON tree first), STG 27 and DAGGEN's text 8.5 (a few bytes
 * of text per task), tasks.rec 20 (GNU recutils' librec holds every field of
 * every record, with its name and location strings: 19.8 and 20.0 on
 * hetsim-written files of 15.2 and 6.5 MB, 2026-11-27; 5.4 with the
 * hand-written reader before it). */
static double file_bytes(const char *kind, const struct hs_spec *s)
{
    static const struct {
        const char *reader;
        double factor;
    } factors[] = {{"json", 4},  {"dot", 21},         {"wfformat", 14}, {"dax", 16},
                   {"stg", 32},  {"daggen-text", 12}, {"taskrec", 24}};
    const char *path = hs_spec_get(s, "file");
    struct stat st;
    if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0; /* the reader says what is wrong with it */
    double factor = 32; /* a reader not measured: the largest */
    for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++)
        if (strcmp(kind, factors[i].reader) == 0)
            factor = factors[i].factor;
    return BASE_B + (double)st.st_size * factor;
}

double hs_workload_estimate(const char *name, const struct hs_spec *spec, double *tasks)
{
    struct counts c = {0};
    *tasks = 0;
    if (strcmp(name, "cholesky") == 0 || strcmp(name, "xkcholesky") == 0)
        cholesky(spec, &c, name[0] == 'x');
    else if (strcmp(name, "gemm") == 0)
        gemm(spec, &c);
    else if (strcmp(name, "lu") == 0 || strcmp(name, "qr") == 0 || strcmp(name, "lunopiv") == 0)
        lu_qr(spec, &c);
    else if (strcmp(name, "outer") == 0 || strcmp(name, "matmul") == 0)
        products(spec, &c, name[0] == 'o' ? 2 : 3);
    else if (strcmp(name, "random") == 0)
        random_dag(spec, &c);
    else if (strcmp(name, "daggen") == 0)
        daggen(spec, &c);
    else if (hs_spec_get(spec, "file"))
        return file_bytes(name, spec);
    *tasks = c.tasks;
    return BASE_B + c.tasks * TASK_B + c.inferred * INFERRED_B + c.edges * EDGE_B +
           c.handles * HANDLE_B;
}

int hs_workload_check_size(const char *name, const struct hs_spec *spec, const char *canonical)
{
    double tasks, need = hs_workload_estimate(name, spec, &tasks), have = hs_memory_limit();
    char n[32], h[32];
    hs_format_bytes(need, n, sizeof n);
    hs_format_bytes(have, h, sizeof h);
    if (tasks > 2147483647.0)
        return hs_fail("workload %s: %.3g tasks, more than a DAG holds (2147483647); it would need "
                       "about %s of memory", canonical, tasks, n);
    if (need > have)
        return hs_fail("workload %s: building its DAG needs about %s of memory, more than the %s %s "
                       "(--max-memory sets the limit)",
                       canonical, n, h, hs_memory_limit_set() ? "allowed" : "this machine has");
    return 0;
}
