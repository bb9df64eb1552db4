/* platforms/perf_starpu.c — StarPU's history-based perfmodels as a timing
 * table, so that `--perf $STARPU_HOME/.starpu/sampling/codelets/45` times
 * kernels as StarPU measured them.
 *
 * StarPU writes one text file per codelet symbol and host,
 * codelets/NN/SYMBOL.HOST (NN the format version: 44 in StarPU 1.2, 45
 * since 1.3; the host name is cut at its first dot, so the host is what
 * follows the last dot). After the version come the architecture
 * combinations; each gives its devices (type: 0 CPU, 1 CUDA, 2 OpenCL, …;
 * device id; number of cores), its implementations, and per implementation
 * the number of history entries, the linear regression (sums, alpha, beta,
 * n, minx, maxx), the non-linear one (a b c: a·size^b + c µs), the multiple
 * regression's coefficients (a count, always written since version 45) and
 * the history lines `footprint size flops mean dev sum sum2 n` (flops left
 * out by older writers), times in µs. '#' lines are comments. The layout was
 * read from StarPU's parse_model_file and its helpers
 * (src/core/perfmodel/perfmodel_history.c); this reader is our own: no
 * library reads the format, and StarPU's own reader asserts (aborts) on a
 * bad file where hetsim must name the file and line.
 *
 * What hetsim takes: implementation 0 of the combinations of one CPU core
 * (arch "cpu") or one CUDA device (arch "gpu"; hetsim times every GPU
 * alike, from the lowest device id with an entry for the size); other
 * combinations (parallel tasks on several cores, OpenCL) are noted and left
 * out. A symbol names hetsim kernels (the table `symbols`), and a history
 * line's size, the bytes of the data the task touches, gives the tile size
 * nb: size = tiles · elem · nb² for the kernel's number of tiles and the one
 * element size (8 or 4 bytes, double or single precision: 8·a² = 4·b² has no
 * whole solution) that makes nb whole, which also picks the kernel's
 * precision prefix (dgemm, sgemm). The entry's mean becomes its duration in
 * seconds. A valid regression (StarPU's rule: finite coefficients, at least
 * 10 samples, minx < 0.9·maxx) serves tile sizes without a history line
 * within [0.9·minx, 1.1·maxx], as StarPU uses it. A history line without
 * a sample (n = 0 or mean 0: a footprint StarPU registered but never
 * measured) times nothing: it is noted, and kept (starpu_empty) so that a
 * run whose kernel is then left without an entry says so on stderr. */
#include "platforms/perf_starpu.h"
#include "base/buf.h"
#include "base/inputfile.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* StarPU's codelet symbols hetsim has kernels for, first the preferred
 * source of a kernel: StarPU 1.4's Cholesky example (chol_model_potrf …),
 * StarPU 1.3's (chol_model_11 POTRF, 21 TRSM, 22 the update, which also
 * updates the diagonal tiles, so it times SYRK too, with three tiles), then
 * the GEMM of StarPU's matrix-product example (whose blocks are square only
 * when it runs on square tiles), then StarPU's LU example (examples/lu,
 * xlu_kernels.c), which factorises without pivoting as hetsim's lunopiv
 * does: 11 GETRF of the diagonal tile without pivoting, 12 and 21 the TRSMs
 * of its row and its column, 22 the GEMM update (both TRSMs are one kernel
 * in lunopiv, 12's where both time a size); StarPU 1.4 renamed them
 * lu_model_getrf, _trsm_ll, _trsm_ru, _gemm (commit 3a0af687c, 2022, in
 * 1.4.0), read first where a folder holds both. The incremental-pivoting lu's
 * GETRF pivots: a run of it on these files is refused (run_simgrid.c).
 * tiles: the tiles of nb² elements a task touches (StarPU's size is the sum
 * of its data's sizes). */
static const struct symbol_map {
    const char *symbol;
    const char *kernel[2];
    int tiles;
} symbols[] = {
    {"chol_model_potrf", {"potrf", NULL}, 1},
    {"chol_model_trsm", {"trsm", NULL}, 2},
    {"chol_model_syrk", {"syrk", NULL}, 2},
    {"chol_model_gemm", {"gemm", NULL}, 3},
    {"chol_model_11", {"potrf", NULL}, 1},
    {"chol_model_21", {"trsm", NULL}, 2},
    {"chol_model_22", {"gemm", "syrk"}, 3},
    {"starpu_dgemm_gemm", {"gemm", NULL}, 3},
    {"starpu_sgemm_gemm", {"gemm", NULL}, 3},
    {"starpu_dlu_lu_model_getrf", {"getrf", NULL}, 1},
    {"starpu_dlu_lu_model_trsm_ll", {"trsm", NULL}, 2},
    {"starpu_dlu_lu_model_trsm_ru", {"trsm", NULL}, 2},
    {"starpu_dlu_lu_model_gemm", {"gemm", NULL}, 3},
    {"starpu_slu_lu_model_getrf", {"getrf", NULL}, 1},
    {"starpu_slu_lu_model_trsm_ll", {"trsm", NULL}, 2},
    {"starpu_slu_lu_model_trsm_ru", {"trsm", NULL}, 2},
    {"starpu_slu_lu_model_gemm", {"gemm", NULL}, 3},
    {"starpu_dlu_lu_model_11", {"getrf", NULL}, 1},
    {"starpu_dlu_lu_model_12", {"trsm", NULL}, 2},
    {"starpu_dlu_lu_model_21", {"trsm", NULL}, 2},
    {"starpu_dlu_lu_model_22", {"gemm", NULL}, 3},
    {"starpu_slu_lu_model_11", {"getrf", NULL}, 1},
    {"starpu_slu_lu_model_12", {"trsm", NULL}, 2},
    {"starpu_slu_lu_model_21", {"trsm", NULL}, 2},
    {"starpu_slu_lu_model_22", {"gemm", NULL}, 3},
};
#define NSYMBOLS ((int)(sizeof symbols / sizeof symbols[0]))
#define KNOWN_SYMBOLS                                                                                 \
    "chol_model_potrf, _trsm, _syrk, _gemm, chol_model_11, _21, _22, starpu_dgemm_gemm, starpu_sgemm_gemm, " \
    "starpu_dlu_lu_model_getrf, _trsm_ll, _trsm_ru, _gemm (StarPU 1.4), starpu_dlu_lu_model_11, _12, _21, _22 " \
    "(1.2 and 1.3), and the same with starpu_slu"

/* StarPU's _starpu_calibration_minimum (STARPU_CALIBRATE_MINIMUM's default):
 * the samples below which it trusts no regression. */
#define STARPU_CALIBRATION_MINIMUM 10

/* A duration or regression found, before the best of each key is kept:
 * rank orders the sources of one key (symbol priority, then device id). */
struct cand {
    struct hs_perf_entry e;
    struct hs_perf_regression r;
    long rank;
    int order;
};

struct loader {
    struct cand *c;
    size_t nc, capc;
    struct cand *reg;
    size_t nreg, capreg;
    struct hs_perfmodel *pm; /* its notes */
    struct hs_perf_entry *empty; /* history lines without a sample (no_sample) */
    size_t nempty, capempty;
    int gpus;
    char *gpu_at;
    char *err;
    size_t errlen;
};

/* One codelet file being read: where it is in its text, and a copy of the
 * current line (so that a line read ahead can be read again). */
struct reader {
    const char *path;
    const char *p;
    int line;
    int version;
    struct loader *L;
    char buf[1024];
};

static int fail_at(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail_at(struct reader *r, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->L->err, r->L->errlen, "%s:%d: %s", r->path, r->line, what);
    return -1;
}

/* The next line that is not a comment or blank (StarPU's
 * _starpu_drop_comments), copied into r->buf; NULL at the end of the text
 * (r->line is then the line that is missing). */
static char *next_line(struct reader *r)
{
    while (*r->p) {
        const char *line = r->p, *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        r->p = end ? end + 1 : line + n;
        r->line++;
        if (n && line[n - 1] == '\r')
            n--;
        if (n == 0 || line[0] == '#' || strspn(line, " \t") >= n)
            continue;
        snprintf(r->buf, sizeof r->buf, "%.*s", (int)(n < sizeof r->buf ? n : sizeof r->buf - 1), line);
        return r->buf;
    }
    r->line++;
    return NULL;
}

/* Split line into whitespace-separated fields (at most max kept); returns
 * their number. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (n++ < max)
            f[n - 1] = t;
    return n;
}

/* The next value line, split; -1 (with the message) at the end of the file. */
static int value_line(struct reader *r, const char *what, char **f, int max, int *nf)
{
    char *line = next_line(r);
    if (!line)
        return fail_at(r, "the file ends where StarPU writes %s: it is cut short (copy or calibrate it again)", what);
    *nf = split(line, f, max);
    return 0;
}

static int int_line(struct reader *r, const char *what, long min, long max, long *out)
{
    char *f[2];
    int nf;
    if (value_line(r, what, f, 2, &nf))
        return -1;
    if (nf != 1 || hs_parse_long(f[0], out) || *out < min || *out > max)
        return fail_at(r, "%s: '%s' is not an integer in [%ld, %ld] (is this a StarPU perfmodel?)", what,
                       nf ? f[0] : "", min, max);
    return 0;
}

/* A number as StarPU writes it: %e, or "nan" for a regression it has not
 * computed. */
static int number(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return (errno == ERANGE && !isfinite(*out)) || *end || end == s ? -1 : 0;
}

static int numbers(struct reader *r, const char *what, char **f, int nf, double *v)
{
    for (int i = 0; i < nf; i++)
        if (number(f[i], &v[i]))
            return fail_at(r, "%s: field %d, '%s', is not a number", what, i + 1, f[i]);
    return 0;
}

/* The tile size of a task that touches `tiles` tiles in size bytes, and
 * the element size (8 or 4) that makes it whole; 0 if none does. */
static int tile_nb(unsigned long size, int tiles, int *elem)
{
    static const int elems[] = {8, 4};
    for (int i = 0; i < 2; i++) {
        unsigned long unit = (unsigned long)tiles * (unsigned long)elems[i];
        if (size % unit)
            continue;
        unsigned long q = size / unit, nb = (unsigned long)llround(sqrt((double)q));
        if (nb > 0 && nb <= INT_MAX && nb * nb == q) {
            *elem = elems[i];
            return (int)nb;
        }
    }
    return 0;
}

/* The architecture of one combination: "cpu", "gpu" (with *devid) or NULL. */
struct comb {
    const char *arch;
    int devid, line;
    char name[32];
};

/* A history line of an architecture hetsim uses with no sample (n = 0, or
 * a mean of 0: StarPU writes the line of a footprint it registered but
 * never measured): kept out of the table, but noted, and kept in L->empty
 * so that a run whose kernel then has no entry on that architecture says
 * what times it instead (check_starpu, sim/engines/simgrid/run_simgrid.c). */
static void no_sample(struct reader *r, const struct comb *cb, const struct symbol_map *sym, int nb, int e,
                      long size, long n)
{
    struct loader *L = r->L;
    if (!nb) {
        hs_perf_note(L->pm, "%s line %d (%s): size %ld B has no sample (n = %ld): StarPU recorded none, and it "
                     "is not %d tile(s) of nb×nb 8- or 4-byte elements; left out", r->path, r->line, cb->name,
                     size, n, sym->tiles);
        return;
    }
    for (int k = 0; k < 2 && sym->kernel[k]; k++) {
        char kernel[16], at[1024];
        snprintf(kernel, sizeof kernel, "%c%s", e == 8 ? 'd' : 's', sym->kernel[k]);
        snprintf(at, sizeof at, "%s line %d (%s)", r->path, r->line, cb->name);
        hs_perf_note(L->pm, "%s: %s at nb = %d has no sample (n = %ld): StarPU recorded none, so it is left out "
                     "of the table", at, kernel, nb, n);
        HS_GROW(L->empty, L->capempty, L->nempty + 1);
        L->empty[L->nempty++] = (struct hs_perf_entry){.kernel = hs_xstrdup(kernel), .arch = hs_xstrdup(cb->arch),
                                                       .nb = nb, .source = hs_xstrdup(at)};
    }
}

/* One history line; with an architecture hetsim uses, its duration for
 * each kernel the symbol names. */
static int history_line(struct reader *r, const struct comb *cb, const struct symbol_map *sym, long rank,
                        int *elem, int *unsized)
{
    char *f[9];
    int nf;
    if (value_line(r, "a history line", f, 9, &nf))
        return -1;
    if (nf != 8 && nf != 7)
        return fail_at(r, "a history line has %d fields where StarPU writes 8 (footprint size flops mean "
                       "dev sum sum2 n): the file is cut or edited (copy or calibrate it again)", nf);
    char *end;
    errno = 0;
    (void)strtoul(f[0], &end, 16);
    long size, n;
    double v[5];
    if (*end || errno)
        return fail_at(r, "footprint '%s' is not hexadecimal", f[0]);
    if (hs_parse_long(f[1], &size) || size <= 0)
        return fail_at(r, "size '%s' is not a positive number of bytes", f[1]);
    if (numbers(r, "a history line", f + 2, nf - 3, v))
        return -1;
    if (hs_parse_long(f[nf - 1], &n) || n < 0)
        return fail_at(r, "sample count '%s' is not a whole number", f[nf - 1]);
    double mean = v[nf == 8 ? 1 : 0];
    if (!(mean >= 0) || !isfinite(mean))
        return fail_at(r, "mean '%s' µs is not a finite number >= 0", f[nf == 8 ? 3 : 2]);
    if (!cb->arch)
        return 0;
    int e = 0, nb = tile_nb((unsigned long)size, sym->tiles, &e);
    if (n == 0 || mean == 0) {
        no_sample(r, cb, sym, nb, e, size, n);
        return 0;
    }
    if (!nb) {
        (*unsized)++;
        return 0;
    }
    *elem = e;
    struct loader *L = r->L;
    for (int k = 0; k < 2 && sym->kernel[k]; k++) {
        HS_GROW(L->c, L->capc, L->nc + 1);
        struct cand *c = &L->c[L->nc];
        char kernel[16], source[1024];
        snprintf(kernel, sizeof kernel, "%c%s", e == 8 ? 'd' : 's', sym->kernel[k]);
        snprintf(source, sizeof source, "StarPU perfmodel %s line %d (%s): mean of %ld runs, size %ld B = "
                 "%d tile(s) of %d×%d %d-byte elements", r->path, r->line, cb->name, n, size, sym->tiles, nb,
                 nb, e);
        c->e = (struct hs_perf_entry){.kernel = hs_xstrdup(kernel), .arch = hs_xstrdup(cb->arch), .nb = nb,
                                      .seconds = mean * 1e-6, .source = hs_xstrdup(source)};
        c->rank = rank;
        c->order = (int)L->nc++;
    }
    if (cb->arch[0] == 'g' && cb->devid + 1 > L->gpus) {
        char at[1024];
        snprintf(at, sizeof at, "%s:%d", r->path, cb->line);
        L->gpus = cb->devid + 1;
        free(L->gpu_at);
        L->gpu_at = hs_xstrdup(at);
    }
    return 0;
}

/* A regression StarPU trusts, kept until the file's element size is known. */
static void keep_regression(struct reader *r, const struct comb *cb, long rank, const double *lin,
                            const double *nl)
{
    double a = nl[0], b = nl[1], c = nl[2];
    if (!(isfinite(a) && isfinite(b) && isfinite(c))) { /* the linear one: alpha·size^beta */
        a = lin[4];
        b = lin[5];
        c = 0;
    }
    if (!(isfinite(a) && isfinite(b)) || lin[6] < STARPU_CALIBRATION_MINIMUM || !(lin[7] < 0.9 * lin[8]))
        return;
    struct loader *L = r->L;
    HS_GROW(L->reg, L->capreg, L->nreg + 1);
    struct cand *k = &L->reg[L->nreg];
    char source[1024];
    snprintf(source, sizeof source, "StarPU perfmodel %s line %d (%s): regression %g·size^%g + %g µs", r->path,
             r->line, cb->name, a, b, c);
    k->r = (struct hs_perf_regression){.arch = hs_xstrdup(cb->arch), .source = hs_xstrdup(source), .a = a,
                                       .b = b, .c = c, .minx = lin[7], .maxx = lin[8]};
    k->rank = rank;
    k->order = (int)L->nreg++;
}

/* One implementation's model: entries, regressions, history. */
static int arch_model(struct reader *r, const struct comb *cb, const struct symbol_map *sym, long rank,
                      int *elem, int *unsized)
{
    long nentries, ncoeff;
    char *f[16];
    int nf;
    double lin[9], nl[3];
    if (int_line(r, "the number of entries", 0, 100000000, &nentries) ||
        value_line(r, "the linear regression", f, 16, &nf))
        return -1;
    if (nf != 9)
        return fail_at(r, "the linear regression has %d fields where StarPU writes 9 (sumlnx sumlnx2 sumlny "
                       "sumlnxlny alpha beta n minx maxx)", nf);
    if (numbers(r, "the linear regression", f, 9, lin) || value_line(r, "the non-linear regression", f, 16, &nf))
        return -1;
    if (nf != 3)
        return fail_at(r, "the non-linear regression has %d fields where StarPU writes 3 (a b c)", nf);
    if (numbers(r, "the non-linear regression", f, 3, nl))
        return -1;
    /* the multiple regression's coefficients: always since version 45, in
       version 44 only for such models (a line shorter than a history line) */
    const char *save_p = r->p;
    int save_line = r->line;
    if (value_line(r, "the multiple regression", f, 16, &nf))
        return -1;
    if (r->version == 44 && nf >= 7) { /* a history line: read it again below */
        r->p = save_p;
        r->line = save_line;
    } else if (hs_parse_long(f[0], &ncoeff) || ncoeff < 0 || ncoeff != nf - 1) {
        return fail_at(r, "the multiple regression's line gives %d coefficients after a count of '%s'", nf - 1,
                       f[0]);
    }
    if (cb->arch)
        keep_regression(r, cb, rank, lin, nl);
    for (long i = 0; i < nentries; i++)
        if (history_line(r, cb, sym, rank, elem, unsized))
            return -1;
    return 0;
}

/* One combination: its devices, then its implementations. */
static int combination(struct reader *r, const struct symbol_map *sym, int symrank, int *elem, int *unsized,
                       int *ignored)
{
    long ndev, type = -1, devid = 0, ncores = 0, nimpls;
    struct comb cb = {0};
    if (int_line(r, "a combination's number of devices", 1, 4096, &ndev))
        return -1;
    for (long d = 0; d < ndev; d++) {
        if (int_line(r, "a device type", 0, 64, &type) || int_line(r, "a device id", 0, 65535, &devid))
            return -1;
        cb.line = r->line; /* the device id's line */
        if (int_line(r, "a device's number of cores", 0, 65536, &ncores))
            return -1;
    }
    if (ndev == 1 && type == 0 && ncores == 1)
        cb.arch = "cpu";
    else if (ndev == 1 && type == 1)
        cb.arch = "gpu";
    cb.devid = (int)devid;
    snprintf(cb.name, sizeof cb.name, "%s%ld_impl0", type == 1 ? "cuda" : "cpu", devid);
    if (!cb.arch)
        (*ignored)++;
    if (int_line(r, "the number of implementations", 0, 64, &nimpls))
        return -1;
    for (long i = 0; i < nimpls; i++) {
        struct comb use = cb;
        if (i > 0)
            use.arch = NULL; /* hetsim has one implementation per kernel */
        if (arch_model(r, &use, sym, (long)symrank * 65536 + devid, elem, unsized))
            return -1;
    }
    return 0;
}

static int read_codelet(struct loader *L, const char *path, int symrank)
{
    const struct symbol_map *sym = &symbols[symrank];
    size_t len;
    char *text = hs_input_read(path, HS_INPUT_MAX_BYTES, &len, L->err, L->errlen);
    if (!text)
        return -1;
    if (hs_input_no_nul(path, text, len, L->err, L->errlen)) {
        free(text);
        return -1;
    }
    struct reader r = {.path = path, .p = text, .L = L};
    size_t reg0 = L->nreg;
    long version, ncombs;
    int elem = 0, unsized = 0, ignored = 0, rc = -1;
    if (int_line(&r, "the format version", 0, INT_MAX, &version))
        goto out;
    if (version != 44 && version != 45) {
        fail_at(&r, "perfmodel format version %ld; hetsim reads StarPU's versions 44 and 45 (StarPU 1.2 to "
                "1.4): calibrate again with one of these", version);
        goto out;
    }
    r.version = (int)version;
    if (int_line(&r, "the number of combinations", 0, 65536, &ncombs))
        goto out;
    for (long c = 0; c < ncombs; c++)
        if (combination(&r, sym, symrank, &elem, &unsized, &ignored))
            goto out;
    if (unsized)
        hs_perf_note(L->pm, "%s: %d history line(s) left out: their size is not %d tile(s) of nb×nb 8- or 4-byte "
                 "elements", path, unsized, sym->tiles);
    if (ignored)
        hs_perf_note(L->pm, "%s: %d combination(s) left out: hetsim times one CPU core or one CUDA device per task",
                 path, ignored);
    if (sym->kernel[1])
        hs_perf_note(L->pm, "%s times %s and %s: StarPU 1.3's Cholesky example updates diagonal tiles with the same "
                 "codelet", path, sym->kernel[0], sym->kernel[1]);
    for (size_t i = reg0; i < L->nreg; i++) { /* the regressions take the file's element size */
        char kernel[16];
        snprintf(kernel, sizeof kernel, "%c%s", elem == 8 ? 'd' : 's', sym->kernel[0]);
        L->reg[i].r.kernel = hs_xstrdup(kernel);
        L->reg[i].r.bytes_per_nb2 = (double)sym->tiles * elem;
        if (!elem)
            L->reg[i].rank = LONG_MAX; /* no sized history line: its unit is unknown, dropped below */
    }
    rc = 0;
out:
    free(text);
    return rc;
}

/* Same key: (kernel, arch, nb) of entries, (kernel, arch) of regressions. */
static int key_cmp(const struct cand *a, const struct cand *b)
{
    const char *ka = a->e.kernel ? a->e.kernel : a->r.kernel, *kb = b->e.kernel ? b->e.kernel : b->r.kernel;
    const char *aa = a->e.kernel ? a->e.arch : a->r.arch, *ab = b->e.kernel ? b->e.arch : b->r.arch;
    int c = strcmp(ka, kb);
    if (!c)
        c = strcmp(aa, ab);
    return c ? c : (a->e.nb > b->e.nb) - (a->e.nb < b->e.nb);
}

static int cand_cmp(const void *pa, const void *pb)
{
    const struct cand *a = pa, *b = pb;
    int c = key_cmp(a, b);
    if (!c)
        c = (a->rank > b->rank) - (a->rank < b->rank);
    return c ? c : a->order - b->order;
}

static void free_cand(struct cand *c)
{
    free(c->e.kernel);
    free(c->e.arch);
    free(c->e.source);
    free(c->r.kernel);
    free(c->r.arch);
    free(c->r.source);
}

/* Sort the candidates and keep, in place, the best of each key (entries:
 * kernel, arch, nb; regressions: kernel, arch), freeing the others and
 * those of rank LONG_MAX; returns how many are kept. */
static size_t best_of_each(struct cand *c, size_t n)
{
    size_t kept = 0;
    if (n)
        qsort(c, n, sizeof *c, cand_cmp);
    for (size_t i = 0; i < n; i++) {
        if (c[i].rank == LONG_MAX || (kept && key_cmp(&c[kept - 1], &c[i]) == 0))
            free_cand(&c[i]);
        else
            c[kept++] = c[i];
    }
    return kept;
}

/* The best candidates into pm (which then owns their strings). */
static void keep_best(struct loader *L, struct hs_perfmodel *pm)
{
    pm->n = (int)best_of_each(L->c, L->nc);
    pm->entries = hs_xcalloc(pm->n ? (size_t)pm->n : 1, sizeof *pm->entries);
    for (int i = 0; i < pm->n; i++)
        pm->entries[i] = L->c[i].e;
    pm->nreg = (int)best_of_each(L->reg, L->nreg);
    pm->reg = hs_xcalloc(pm->nreg ? (size_t)pm->nreg : 1, sizeof *pm->reg);
    for (int i = 0; i < pm->nreg; i++)
        pm->reg[i] = L->reg[i].r;
    L->nc = L->nreg = 0;
}

/* A codelet file's name: SYMBOL.HOST, the symbol's index (-1: none hetsim
 * knows) and where the host begins; 0 if the name has no such form. */
static int split_name(const char *name, int *symrank, const char **host)
{
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name || !dot[1])
        return 0;
    *host = dot + 1;
    *symrank = -1;
    for (int s = 0; s < NSYMBOLS; s++)
        if (strlen(symbols[s].symbol) == (size_t)(dot - name) && strncmp(name, symbols[s].symbol, dot - name) == 0)
            *symrank = s;
    return 1;
}

/* Does the file begin as StarPU writes a perfmodel: comments, then the
 * version alone on its line? */
static bool looks_like_codelet(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[256];
    bool ok = false, first = true;
    while (fgets(line, sizeof line, f)) {
        if (first && line[0] != '#')
            break;
        first = false;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        long v;
        line[strcspn(line, "\r\n")] = '\0';
        ok = hs_parse_long(line, &v) == 0;
        break;
    }
    fclose(f);
    return ok;
}

bool hs_perf_is_starpu(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    if (S_ISDIR(st.st_mode))
        return true;
    if (!S_ISREG(st.st_mode))
        return false;
    FILE *f = fopen(path, "r");
    int c = f ? getc(f) : EOF;
    if (f)
        fclose(f);
    return c == '#';
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The codelet files of a folder, sorted by name: those named after a symbol
 * hetsim reads, and others that begin as a perfmodel does. */
static char **list_codelets(const char *dir, size_t *n)
{
    char **names = NULL;
    size_t cap = 0;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
        int symrank = -1;
        const char *host = NULL;
        struct stat st;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        /* a file named after a symbol hetsim reads is read, and refused with its line if it does
         * not parse; others only if they begin as a perfmodel does */
        if (de->d_name[0] == '.' || !split_name(de->d_name, &symrank, &host) || stat(path, &st) ||
            !S_ISREG(st.st_mode) || (symrank < 0 && !looks_like_codelet(path)))
            continue;
        HS_GROW(names, cap, *n + 1);
        names[(*n)++] = hs_xstrdup(de->d_name);
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, name_cmp);
    return names;
}

/* The host of a platform file StarPU wrote (its bus sampling,
 * bus/HOST.platform.v4.xml or HOST.platform.xml) into host; 0 if the file
 * is not named so (a platform of hetsim's own says no host). */
static int starpu_platform_host(const char *platform_file, char *host, size_t size)
{
    static const char *const suffix[] = {".platform.v4.xml", ".platform.xml"};
    const char *base = platform_file ? strrchr(platform_file, '/') : NULL;
    base = base ? base + 1 : platform_file;
    for (int i = 0; base && i < 2; i++) {
        size_t n = strlen(base), k = strlen(suffix[i]);
        if (n > k && strcmp(base + n - k, suffix[i]) == 0) {
            snprintf(host, size, "%.*s", (int)(n - k), base);
            return 1;
        }
    }
    return 0;
}

/* Refuse the perfmodels of host `have` (files: where they are) on the bus
 * sampling StarPU wrote on another host: a timing measured on one machine
 * and a platform of another. */
static int other_machine(const char *files, const char *have, const char *platform_file, char *err, size_t errlen)
{
    char host[256];
    if (!starpu_platform_host(platform_file, host, sizeof host) || strcmp(host, have) == 0)
        return 0;
    snprintf(err, errlen, "%s: StarPU's perfmodels of host %s, but the platform %s is StarPU's bus sampling of "
             "host %s: the two were measured on different machines (run on the platform file StarPU wrote beside "
             "these perfmodels, bus/%s.platform.v4.xml)", files, have, platform_file, host, have);
    return -1;
}

/* The host whose files a folder gives: the platform file's (StarPU names
 * it HOST.platform.v4.xml), else the only one; NULL with err, also when the
 * platform is StarPU's bus sampling of a host the folder has no file of. */
static char *pick_host(const char *dir, char **names, size_t n, const char *platform_file, char *err,
                       size_t errlen)
{
    char want[256] = "";
    if (platform_file) {
        const char *base = strrchr(platform_file, '/');
        base = base ? base + 1 : platform_file;
        snprintf(want, sizeof want, "%.*s", (int)strcspn(base, "."), base);
    }
    struct hs_buf hosts = {0};
    int nhosts = 0;
    const char *only = NULL;
    for (size_t i = 0; i < n; i++) {
        int symrank = -1;
        const char *host = NULL;
        split_name(names[i], &symrank, &host);
        if (*want && strcmp(host, want) == 0) {
            hs_buf_free(&hosts);
            return hs_xstrdup(host);
        }
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(strrchr(names[j], '.') + 1, host) == 0;
        if (!seen) {
            hs_buf_printf(&hosts, "%s%s", nhosts ? ", " : "", host);
            nhosts++;
            only = host;
        }
    }
    if (nhosts == 1) {
        hs_buf_free(&hosts);
        return other_machine(dir, only, platform_file, err, errlen) ? NULL : hs_xstrdup(only);
    }
    char host[256];
    if (starpu_platform_host(platform_file, host, sizeof host))
        snprintf(err, errlen, "%s: codelet files of %d hosts (%s), none of host %s, whose bus sampling the platform "
                 "%s is: the perfmodels and the platform were measured on different machines (run on the platform "
                 "file StarPU wrote beside the perfmodels)", dir, nhosts, hs_buf_str(&hosts), host, platform_file);
    else
        snprintf(err, errlen, "%s: codelet files of %d hosts (%s): run on a platform file named HOST.platform.v4.xml "
                 "(as StarPU writes it) or give a folder of one host's files", dir, nhosts, hs_buf_str(&hosts));
    hs_buf_free(&hosts);
    return NULL;
}

/* The files of one host a folder holds, in symbols' order; unknown symbols
 * noted. */
static int read_folder(struct loader *L, const char *dir, const char *platform_file, char **hostp)
{
    size_t n;
    char **names = list_codelets(dir, &n);
    int rc = -1, read = 0;
    if (!n) {
        snprintf(L->err, L->errlen, "%s: no StarPU codelet file (SYMBOL.HOST, as StarPU writes them in "
                 "$STARPU_HOME/.starpu/sampling/codelets/45) in this folder", dir);
        goto out;
    }
    char *host = pick_host(dir, names, n, platform_file, L->err, L->errlen);
    if (!host)
        goto out;
    *hostp = host;
    struct hs_buf unknown = {0};
    for (int s = 0; s < NSYMBOLS; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s", dir, symbols[s].symbol, host);
        for (size_t i = 0; i < n; i++)
            if (strcmp(names[i], path + strlen(dir) + 1) == 0) {
                if (read_codelet(L, path, s)) {
                    hs_buf_free(&unknown);
                    goto out;
                }
                read++;
            }
    }
    int nunknown = 0;
    for (size_t i = 0; i < n; i++) {
        int symrank = -1;
        const char *h = NULL;
        split_name(names[i], &symrank, &h);
        if (symrank < 0 && strcmp(h, host) == 0 && nunknown++ < 4)
            hs_buf_printf(&unknown, "%s%.*s", unknown.len ? ", " : "", (int)(h - 1 - names[i]), names[i]);
    }
    if (nunknown)
        hs_perf_note(L->pm, "%s: %d symbol(s) with no hetsim kernel left out: %.512s%s", dir, nunknown,
                     hs_buf_str(&unknown), nunknown > 4 ? ", …" : "");
    hs_buf_free(&unknown);
    if (!read)
        snprintf(L->err, L->errlen, "%s: no codelet file of host %s times a kernel hetsim has (it reads %s)", dir,
                 host, KNOWN_SYMBOLS);
    else
        rc = 0;
out:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

static void free_loader(struct loader *L)
{
    for (size_t i = 0; i < L->nc; i++)
        free_cand(&L->c[i]);
    for (size_t i = 0; i < L->nreg; i++)
        free_cand(&L->reg[i]);
    for (size_t i = 0; i < L->nempty; i++) {
        free(L->empty[i].kernel);
        free(L->empty[i].arch);
        free(L->empty[i].source);
    }
    free(L->empty);
    free(L->c);
    free(L->reg);
    free(L->gpu_at);
}

int hs_perf_load_starpu(const char *path, const char *platform_file, struct hs_perfmodel *pm, char *err,
                        size_t errlen)
{
    struct loader L = {.err = err, .errlen = errlen, .pm = pm};
    struct stat st;
    char *host = NULL;
    int rc = -1;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (read_folder(&L, path, platform_file, &host))
            goto out;
    } else {
        const char *base = strrchr(path, '/');
        int symrank = -1;
        const char *h = NULL;
        base = base ? base + 1 : path;
        if (!split_name(base, &symrank, &h) || symrank < 0) {
            snprintf(err, errlen, "%s: not a StarPU codelet file hetsim reads (SYMBOL.HOST, SYMBOL one of %s)",
                     path, KNOWN_SYMBOLS);
            goto out;
        }
        host = hs_xstrdup(h);
        if (other_machine(path, host, platform_file, err, errlen) || read_codelet(&L, path, symrank))
            goto out;
    }
    keep_best(&L, pm);
    if (!pm->n && !pm->nreg) {
        snprintf(err, errlen, "%s: no history line of one CPU core or one CUDA device with nb×nb tiles: nothing "
                 "to time kernels with", path);
        goto out;
    }
    pm->starpu = 1;
    for (int i = 0; i < pm->n; i++) /* only StarPU's LU example times GETRF: without pivoting */
        pm->starpu_nopiv |= strcmp(pm->entries[i].kernel + 1, "getrf") == 0;
    for (int i = 0; i < pm->nreg; i++)
        pm->starpu_nopiv |= strcmp(pm->reg[i].kernel + 1, "getrf") == 0;
    pm->starpu_gpus = L.gpus;
    pm->starpu_gpu_at = L.gpu_at;
    L.gpu_at = NULL;
    pm->starpu_empty = L.empty;
    pm->nstarpu_empty = (int)L.nempty;
    L.empty = NULL;
    L.nempty = 0;
    char desc[512];
    snprintf(desc, sizeof desc, "StarPU perfmodel(s) of host %s: %s", host, path);
    pm->description = hs_xstrdup(desc);
    pm->file = hs_xstrdup(path);
    rc = 0;
out:
    free(host);
    free_loader(&L);
    if (rc)
        hs_perf_free(pm);
    return rc;
}
