/* cli/cmd_merge.c — `hetsim merge`: join the CSV files of a sweep's
 * shards (or, with --mixed, of several sweeps with the same columns) into
 * one, keeping the first row of every key. */
#include "analysis/csv.h"
#include "analysis/sweep.h"
#include "base/util.h"
#include "cli/cli.h"
#include "sim/outfile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: hetsim merge [-o OUT.csv] [--mixed] [--partial] FILE.csv...\n"
                 "Join sweep results with the same columns (the shards of a sweep run with\n"
                 "--shard I/N): every row once, the first of each key; to OUT.csv or stdout.\n"
                 "Rows of different sweeps (their 'sweep' column differs) are refused unless\n"
                 "--mixed says that they are meant to go together. A shard of which no file\n"
                 "holds a row is named and nothing is written (exit 1) unless --partial.\n");
}

/* The sweep of a row's "sweep" column, less a shard's ":I/N". */
static size_t sweep_len(const char *id)
{
    return strcspn(id, ":");
}

/* Every row of every file from one sweep (the "sweep" column), unless mixed. */
static int same_sweep(struct hs_csv *csv, char **files, int n)
{
    const char *first = NULL, *first_file = NULL;
    for (int i = 0; i < n; i++) {
        int c = hs_csv_col(&csv[i], "sweep");
        for (long r = 0; c >= 0 && r < csv[i].nrows; r++) {
            const char *id = csv[i].rows[r][c];
            if (!first) {
                first = id;
                first_file = files[i];
            } else if (sweep_len(first) != sweep_len(id) || strncmp(first, id, sweep_len(id)) != 0) {
                return hs_fail("%s: row %ld is from sweep %.*s, %s from sweep %.*s: these are different "
                               "sweeps (--mixed merges them anyway)",
                               files[i], r + 1, (int)sweep_len(id), id, first_file, (int)sweep_len(first), first);
            }
        }
    }
    return 0;
}

/* The shards of a sweep (rows whose sweep column is HASH:I/N, written by
 * `sweep --shard I/N`) of which no file given holds a row: named, with
 * hs_fail, unless partial. A shard with no run (I at least the sweep's
 * number of runs) writes a file with no row: as many of the highest missing
 * shards as files without a row are taken to be those (a shard I has no run
 * only if every shard above I has none). 0, or 1 with hs_fail. */
struct shards {
    char *sweep; /* HASH */
    int n;       /* N; 0 for rows not run as a shard */
    bool *seen;
};

static char *text_of(const char *s, size_t len)
{
    char *t = hs_xmalloc(len + 1);
    memcpy(t, s, len);
    t[len] = '\0';
    return t;
}

/* The group of (sweep, n), added if new. */
static int group_of(struct shards **g, int *ng, const char *id, size_t len, int n)
{
    for (int k = 0; k < *ng; k++)
        if ((*g)[k].n == n && strlen((*g)[k].sweep) == len && strncmp((*g)[k].sweep, id, len) == 0)
            return k;
    HS_GROW_IMPLIED(*g, *ng, *ng + 1);
    (*g)[*ng] = (struct shards){text_of(id, len), n, n ? hs_xcalloc((size_t)n, 1) : NULL};
    return (*ng)++;
}

static bool whole_run(const struct shards *g, int ng, const char *sweep)
{
    for (int k = 0; k < ng; k++)
        if (g[k].n == 0 && strcmp(g[k].sweep, sweep) == 0)
            return true;
    return false;
}

static int missing_shards(struct hs_csv *csv, int nfiles)
{
    struct shards *g = NULL;
    int ng = 0, empty = 0;
    for (int i = 0; i < nfiles; i++) {
        int c = hs_csv_col(&csv[i], "sweep");
        empty += csv[i].nrows == 0;
        for (long r = 0; c >= 0 && r < csv[i].nrows; r++) {
            const char *id = csv[i].rows[r][c], *colon = strchr(id, ':');
            int shard = 0, n = 0, used = 0;
            if (colon && (sscanf(colon + 1, "%d/%d%n", &shard, &n, &used) != 2 || colon[1 + used] || n < 2 ||
                          n > 1000000 || shard < 0 || shard >= n))
                n = 0; /* not a shard's mark: no claim on completeness */
            int k = group_of(&g, &ng, id, colon ? (size_t)(colon - id) : strlen(id), n);
            if (n)
                g[k].seen[shard] = true;
        }
    }
    int rc = 0;
    for (int k = 0; k < ng && !rc; k++) {
        if (!g[k].n || whole_run(g, ng, g[k].sweep))
            continue;
        int missing = 0, top = 0; /* top: missing shards above every shard seen */
        for (int s = g[k].n - 1; s >= 0 && !g[k].seen[s] && top < empty; s--)
            g[k].seen[s] = true, top++; /* those of the files without a row */
        for (int s = 0; s < g[k].n; s++)
            missing += !g[k].seen[s];
        if (!missing)
            continue;
        struct hs_buf b = {0};
        int listed = 0;
        for (int s = 0; s < g[k].n && listed < 20; s++)
            if (!g[k].seen[s])
                hs_buf_printf(&b, "%s%d", listed++ ? ", " : "", s);
        if (listed < missing)
            hs_buf_printf(&b, " and %d more", missing - listed);
        rc = hs_fail("%d of the %d shards of sweep %s have no row in the files given: shard%s %s (give their "
                     "files, or --partial to merge without them)", missing, g[k].n, g[k].sweep,
                     missing == 1 ? "" : "s", hs_buf_str(&b));
        hs_buf_free(&b);
    }
    for (int k = 0; k < ng; k++)
        free(g[k].sweep), free(g[k].seen);
    free(g);
    return rc ? 1 : 0;
}

struct entry {
    uint64_t key;
    long order; /* position over all the files */
};

static int by_key_then_order(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int same_header(const struct hs_csv *a, const struct hs_csv *b)
{
    if (a->ncols != b->ncols)
        return 0;
    for (int c = 0; c < a->ncols; c++)
        if (strcmp(a->header[c], b->header[c]) != 0)
            return 0;
    return 1;
}

static int write_out(const char *path, const struct hs_buf *b)
{
    struct hs_outfile out;
    if (hs_outfile_open(&out, path ? path : "-"))
        return -1;
    fwrite(b->s, 1, b->len, out.f); /* a failed write shows at the commit */
    return hs_outfile_commit(&out);
}

/* Read every file (all before writing: OUT may be one of them). */
static int merge(char **files, int n, bool mixed, bool partial, struct hs_buf *out, long *rows, long *dups)
{
    struct hs_csv *csv = hs_xcalloc((size_t)n, sizeof *csv);
    int rc = 0, nread = 0;
    for (; nread < n && !rc; nread++)
        if (hs_csv_read(files[nread], &csv[nread]) ||
            hs_csv_need_col(&csv[nread], "key", files[nread]) < 0)
            rc = -1;
        else if (!same_header(&csv[0], &csv[nread]))
            rc = hs_fail("%s: its columns differ from those of %s", files[nread], files[0]);
    for (int i = 0; i < nread && !rc; i++) /* rows reused, not run again: as a run writes them */
        for (long r = 0; r < csv[i].nrows && !rc; r++)
            rc = hs_sweep_row_check(&csv[i], r, files[i]);
    if (!rc && !mixed)
        rc = same_sweep(csv, files, nread);
    int incomplete = !rc ? missing_shards(csv, nread) : 0;
    for (int i = 0; i < nread && !rc && !incomplete; i++) { /* whole: its rows are those of one sweep */
        int c = hs_csv_col(&csv[i], "sweep");
        for (long r = 0; c >= 0 && r < csv[i].nrows; r++)
            csv[i].rows[r][c][sweep_len(csv[i].rows[r][c])] = '\0';
    }
    if (partial && incomplete) { /* merged with the shards' marks kept: a later merge can still tell */
        fprintf(stderr, "hetsim: warning: merged with --partial: %s\n", hs_last_error());
        incomplete = 0;
    }
    long total = 0;
    for (int i = 0; i < nread; i++)
        total += csv[i].nrows;
    /* keep[order]: the first row of its key */
    struct entry *e = hs_xmalloc((size_t)(total + 1) * sizeof *e);
    bool *keep = hs_xcalloc((size_t)total + 1, sizeof *keep);
    long k = 0;
    for (int i = 0; i < nread && !rc; i++) {
        int kc = hs_csv_col(&csv[i], "key");
        for (long r = 0; r < csv[i].nrows; r++, k++)
            e[k] = (struct entry){strtoull(csv[i].rows[r][kc], NULL, 16), k};
    }
    qsort(e, (size_t)k, sizeof *e, by_key_then_order);
    for (long i = 0; i < k; i++)
        keep[e[i].order] = i == 0 || e[i].key != e[i - 1].key;
    if (!rc)
        hs_csv_line(out, csv[0].header, csv[0].ncols);
    k = 0;
    for (int i = 0; i < nread && !rc; i++)
        for (long r = 0; r < csv[i].nrows; r++, k++) {
            if (keep[k])
                hs_csv_line(out, csv[i].rows[r], csv[i].ncols);
            *rows += keep[k];
            *dups += !keep[k];
        }
    free(e);
    free(keep);
    for (int i = 0; i < nread; i++)
        hs_csv_free(&csv[i]);
    free(csv);
    return rc ? -1 : incomplete ? 2 : 0;
}

/* hs_merge_files, and unless partial, 2 (nothing written) with hs_fail when
 * shards of a sweep have no row in the files. */
static int merge_files(char **files, int n, bool mixed, bool partial, const char *path, long *rows, long *dups)
{
    struct hs_buf out = {0};
    int rc = merge(files, n, mixed, partial, &out, rows, dups);
    if (!rc)
        rc = write_out(path, &out) ? 1 : 0;
    hs_buf_free(&out);
    return rc;
}

int hs_merge_files(char **files, int n, bool mixed, const char *path, long *rows, long *dups)
{
    return merge_files(files, n, mixed, true, path, rows, dups);
}

int hs_cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"quiet", no_argument, 0, 'q'},
        {"mixed", no_argument, 0, 'm'},        {"help", no_argument, 0, 'h'},
        {"partial", no_argument, 0, 'p'},      {0, 0, 0, 0},
    };
    const char *output = NULL;
    bool quiet = false, mixed = false, partial = false;
    int c;
    optind = 1;
    while ((c = hs_getopt("merge", argc, argv, "o:qh", opts)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return HS_EXIT_OK;
        }
        if (c == 'o')
            output = optarg;
        if (c == 'q')
            quiet = true;
        if (c == 'm')
            mixed = true;
        if (c == 'p')
            partial = true;
        if (c == '?')
            return HS_EXIT_USAGE;
    }
    if (optind >= argc)
        hs_die(HS_EXIT_USAGE, "merge: no file to merge (see `hetsim merge --help`)");
    hs_output_require("merge", "-o", output, false);
    long rows = 0, dups = 0;
    int rc = merge_files(argv + optind, argc - optind, mixed, partial, output, &rows, &dups);
    rc = rc < 0 ? HS_EXIT_USAGE : rc ? HS_EXIT_FAIL : 0; /* a shard missing: 1, as a failed run */
    if (rc)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    else if (!quiet)
        fprintf(stderr, "merge: %d files, %ld rows (%ld duplicate keys dropped)\n", argc - optind, rows, dups);
    return rc;
}
