/* workloads/taskrec.h — what the two halves of the "taskrec" workload share:
 * a StarPU tasks.rec read by GNU recutils' librec into task records in an
 * order fit for building (taskrec_records.c), and the DAG built from them
 * (taskrec_read.c). */
#ifndef HS_TASKREC_H
#define HS_TASKREC_H

#include <rec.h>
#include <stddef.h>

enum { F_NAME, F_MODEL, F_JOBID, F_SUBMIT, F_DEPS, F_WORKER, F_NODE, F_START, F_END, F_FOOT,
       F_GFLOP, F_HANDLES, F_MODES, F_SIZES, F_EDGES, F_CONTROL, NFIELDS };

struct hs_taskrec_task {
    const char *f[NFIELDS]; /* values, kept by r->db */
    int line;        /* first line of the record */
    double order;    /* submission order */
    int arch;        /* -1: never ran */
    double duration; /* seconds */
    int id;          /* hetsim task */
};

struct hs_taskrec {
    const char *path;
    rec_db_t db; /* the file as librec read it: holds the values of t[].f */
    struct hs_taskrec_task *t;
    int n;
    size_t cap;
    char **handles; /* unique handle names, sorted */
    int nhandles;
    int *handle_id;
    const char *gpu_workers;
};

struct hs_taskrec_job {
    const char *id;
    int index;
};

/* "PATH:LINE: message" as hs_fail; returns -1. */
int hs_taskrec_bad(const struct hs_taskrec *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Read the len bytes of text (its CR LF line ends made LF in place) into r
 * through librec: tasks only, each with
 * its architecture and duration, ordered by submission and then so that
 * every task comes after those it depends on. 0, or -1 with hs_fail; either
 * way, hs_taskrec_free releases what r holds. */
int hs_taskrec_load(struct hs_taskrec *r, char *text, size_t len);
void hs_taskrec_free(struct hs_taskrec *r);

/* JobId -> index in r->t, sorted (caller frees); NULL with hs_fail if a
 * JobId is given twice. */
struct hs_taskrec_job *hs_taskrec_index_jobs(const struct hs_taskrec *r);
/* The index of a JobId, or -1. */
int hs_taskrec_job(const struct hs_taskrec *r, const struct hs_taskrec_job *jobs, const char *id);

#endif
