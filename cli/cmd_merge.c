/* cli/cmd_merge.c — `hetsim merge`: join the CSV files of a sweep's
 * shards (or, with --mixed, of several sweeps with the same columns) into
 * one, keeping the first row of every key. */
#include "analysis/csv.h"
#include "base/util.h"
#include "cli/cli.h"
#include "sim/outfile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: hetsim merge [-o OUT.csv] [--mixed] FILE.csv...\n"
                 "Join sweep results with the same columns (the shards of a sweep run with\n"
                 "--shard I/N): every row once, the first of each key; to OUT.csv or stdout.\n"
                 "Rows of different sweeps (their 'sweep' column differs) are refused unless\n"
                 "--mixed says that they are meant to go together.\n");
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
            } else if (strcmp(first, id) != 0) {
                return hs_fail("%s: row %ld is from sweep %s, %s from sweep %s: these are different "
                               "sweeps (--mixed merges them anyway)",
                               files[i], r + 1, id, first_file, first);
            }
        }
    }
    return 0;
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
static int merge(char **files, int n, bool mixed, struct hs_buf *out, long *rows, long *dups)
{
    struct hs_csv *csv = hs_xcalloc((size_t)n, sizeof *csv);
    int rc = 0, nread = 0;
    for (; nread < n && !rc; nread++)
        if (hs_csv_read(files[nread], &csv[nread]) ||
            hs_csv_need_col(&csv[nread], "key", files[nread]) < 0)
            rc = -1;
        else if (!same_header(&csv[0], &csv[nread]))
            rc = hs_fail("%s: its columns differ from those of %s", files[nread], files[0]);
    if (!rc && !mixed)
        rc = same_sweep(csv, files, nread);
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
    return rc;
}

int hs_merge_files(char **files, int n, bool mixed, const char *path, long *rows, long *dups)
{
    struct hs_buf out = {0};
    int rc = merge(files, n, mixed, &out, rows, dups) ? -1 : write_out(path, &out) ? 1 : 0;
    hs_buf_free(&out);
    return rc;
}

int hs_cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, 0, 'o'}, {"quiet", no_argument, 0, 'q'},
        {"mixed", no_argument, 0, 'm'},        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *output = NULL;
    bool quiet = false, mixed = false;
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
    }
    if (optind >= argc)
        hs_die(HS_EXIT_USAGE, "merge: no file to merge (see `hetsim merge --help`)");
    hs_output_require("merge", "-o", output, false);
    long rows = 0, dups = 0;
    int rc = hs_merge_files(argv + optind, argc - optind, mixed, output, &rows, &dups);
    rc = rc < 0 ? HS_EXIT_USAGE : rc ? HS_EXIT_FAIL : 0;
    if (rc)
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
    else if (!quiet)
        fprintf(stderr, "merge: %d files, %ld rows (%ld duplicate keys dropped)\n", argc - optind, rows, dups);
    return rc;
}
