/* workloads/foreign.h — what the readers of other tools' DAG formats share
 * (Pegasus DAX in dax.c, Kasahara's STG in stg.c, DAGGEN's text output in
 * daggen_text.c, StarPU's tasks.rec in taskrec_*.c, SimGrid's JSON DAGs in
 * sgjson.c): walking the lines of a file read whole (by hs_read_text,
 * dagio.h: a regular file of bounded size).
 * docs/formats.md lists every format with what is kept and dropped. */
#ifndef HS_FOREIGN_H
#define HS_FOREIGN_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct hs_dag;

/* Lines of a text read into memory, split in place: each call returns the
 * next line without its end ("\n" or "\r\n"), NULL after the last. */
struct hs_lines {
    char *p;  /* start of the next line; NULL at the end */
    int line; /* 1-based number of the line last returned */
};
void hs_lines_init(struct hs_lines *l, char *text);
char *hs_lines_next(struct hs_lines *l);

/* The next whitespace-separated word of *s (moved past it), NUL-terminated
 * in place; NULL if none is left. */
char *hs_next_word(char **s);

/* A growing list of dependencies src -> dst with their bytes. */
struct hs_edges {
    int *src, *dst;
    double *bytes;
    size_t n, cap;
};
void hs_edges_add(struct hs_edges *e, int src, int dst, double bytes);
void hs_edges_free(struct hs_edges *e);

/* A topological order of n tasks under the dependencies e, as igraph gives
 * it: order[i] is the task to add i-th. 0, or -1 (without hs_fail) if they
 * have a cycle. */
int hs_topo_order(int n, const struct hs_edges *e, int *order);

/* A task of a graph given as tasks and edges (STG, DAGGEN's text): its
 * label, kernel, flops and, if not NULL, one attribute kept for the writers
 * (key, value). */
struct hs_plain_task {
    const char *label, *kernel;
    double flops;
    const char *attr_key, *attr_value;
};

/* Add the tasks in a topological order (a task of 0 flops gets an explicit
 * zero cost), then the edges as explicit dependencies with their bytes.
 * 0, or -1 with hs_fail("PATH: ... cycle") if there is a cycle. */
int hs_build_plain(struct hs_dag *dag, const char *path, const struct hs_plain_task *t, int n,
                   const struct hs_edges *e);

/* Build a WfFormat 1.4 instance given as a cJSON tree (workflow.tasks with
 * name, category, runtimeInSeconds, parents, files) into an empty DAG, with
 * wfformat.c's mapping (files become data handles); runtimes become
 * runtime × speed flops. The DAX reader converts to it. 0, or -1 with
 * hs_fail naming path. */
int hs_wfformat_build(const char *path, const cJSON *root, double speed, struct hs_dag *dag);

/* SimGrid's JSON DAGs (sgjson.c): is root one (a task of type "transfer"
 * carrying writtenBytes and no files, which WfFormat does not write)? And
 * build it with SimGrid's meaning: runtimeInSeconds are flops, a transfer
 * task is writtenBytes of data its parent writes and its children read.
 * 0, or -1 with hs_fail. */
int hs_sgjson_detect(const cJSON *root);
int hs_sgjson_build(const char *path, const cJSON *root, struct hs_dag *dag);

#endif
