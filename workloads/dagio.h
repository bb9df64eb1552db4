/* workloads/dagio.h — DAG files: the writers (JSON, hetsim's own format with
 * handles and accesses, so that the data-flow is kept; DOT through Graphviz
 * cgraph, the task graph with SimGrid's and DAGGEN's "size" attributes) and
 * the helpers the readers share (workloads json, dot and wfformat in
 * dag_json_read.c, dag_dot_read.c and wfformat.c). README.md "DAG files"
 * documents the formats. */
#ifndef HS_DAGIO_H
#define HS_DAGIO_H

#include "sim/dag.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Returns 0, or -1 with hs_fail. */
int hs_dag_write_json(const struct hs_dag *dag, FILE *out);
int hs_dag_write_dot(const struct hs_dag *dag, FILE *out);
/* Can DOT keep the DAG's name? 0, or -1 with hs_fail (Graphviz reserves a
 * leading '%'). hs_dag_write_dot checks it first. */
int hs_dot_name_check(const struct hs_dag *dag);

/* Build a WfFormat instance into an empty DAG, runtimes in seconds becoming
 * flops = runtime × speed. 0, or -1 with hs_fail. (The json workload hands
 * WfFormat instances over to it.) */
int hs_wfformat_read(const char *path, double speed, struct hs_dag *dag);

/* ---- shared by the readers ------------------------------------------------ */

/* The whole file, NUL-terminated (*len bytes before the NUL); NULL with
 * hs_fail("PATH: reason") if it cannot be read. Caller frees. */
char *hs_read_text(const char *path, size_t *len);

/* 0 if name is at most HS_NAME_MAX (base/inputfile.h) bytes long;
 * else -1 with hs_fail("WHERE: a name of N bytes, more than ..."), WHERE
 * formatted from fmt ("PATH: tasks[3].label"), only then. */
int hs_name_ok(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* 1-based line of a position in text, for parse error messages. */
int hs_text_line(const char *text, const char *where);

/* Name the DAG after its file (the name a file gives replaces the workload text). */
void hs_dag_rename(struct hs_dag *dag, const char *name);

/* Keep an attribute hetsim does not use on a task (see hs_task.extra). */
void hs_task_add_extra(struct hs_task *t, const char *key, const char *value);

/* A node attribute of hetsim's DOT files (label, kernel, size, footprint,
 * costs, archs): never one of the kept attributes. */
bool hs_dot_reserved(const char *name);

/* "cpu", "gpu", "cpu,gpu" <-> an architecture mask; -1 if a word is neither. */
int hs_archs_parse(const char *text, unsigned *mask);
void hs_archs_format(unsigned mask, char *buf, size_t size);

/* Text that reads back to exactly v: an integer, else the shorter of %.15g
 * and %.17g that does; "inf" for infinity. */
void hs_format_double(char buf[32], double v);

/* Give a task with no flops, no explicit cost and no kernel the file named
 * an explicit zero cost on both architectures (the runtime otherwise refuses
 * a task it cannot time): SimGrid's root/end nodes, WfFormat runtimes of 0. */
void hs_task_zero_cost(struct hs_task *t);

#endif
