/* workloads/stg.c — the "stg" workload: a task graph of Kasahara's Standard
 * Task Graph set (STG, Tobita and Kasahara, "A standard task graph set for
 * fair evaluation of multiprocessor scheduling algorithms", J. Scheduling
 * 5(5), 2002):
 *
 *   N [P]                              tasks, without the two dummies; P, in
 *                                      some files (the set's proto*.stg),
 *                                      the processors it was made for
 *   id  time  npred  pred1 pred2 ...   one task per line, ids 0 .. N+1
 *   # comments (generator, "CP Length", "Optimal ...")
 *
 * Task 0 and task N+1 are the dummy entry and exit (time 0). Some files of
 * the set count the dummies in N (robot.stg: 90 for 88 tasks); both are
 * read. A task's numbers may run over several lines. Each task becomes a
 * task of time × speed flops (speed=1G: one time unit is a second on a
 * 1 Gflop/s processor), labelled by its id; each precedence a pure
 * dependency (the set has no communication costs). */
#include "base/util.h"
#include "workloads/dagio.h"
#include "workloads/foreign.h"
#include "workloads/workload.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stg {
    const char *path;
    struct hs_lines lines;
    char *rest; /* what is left of the current line */
};

/* The next number of the task part (comment lines skipped); 1 at the end,
 * -1 with hs_fail if it is not an integer in [0, max]. */
static int next_int(struct stg *s, const char *what, long max, long *out)
{
    char *w;
    while (!(w = s->rest ? hs_next_word(&s->rest) : NULL)) {
        char *l = hs_lines_next(&s->lines);
        if (!l)
            return 1;
        s->rest = l[strspn(l, " \t")] == '#' ? NULL : l;
    }
    if (hs_parse_long(w, out) || *out < 0 || *out > max)
        return hs_fail("%s:%d: %s '%s' is not an integer in [0, %ld]", s->path, s->lines.line,
                       what, w, max);
    return 0;
}

/* One task line: 0; 1 at the end of the task part; -1 with hs_fail. */
static int read_task(struct stg *s, int expected, long ntotal, long *time, struct hs_edges *e)
{
    long id, npred = 0, p;
    int rc = next_int(s, "task id", INT_MAX, &id);
    if (rc)
        return rc;
    if (id != expected)
        return hs_fail("%s:%d: task id %ld where %d was expected (ids run 0, 1, 2, ...)", s->path,
                       s->lines.line, id, expected);
    rc = next_int(s, "processing time", LONG_MAX / 2, time);
    if (!rc)
        rc = next_int(s, "number of predecessors", ntotal, &npred);
    for (long k = 0; k < npred && !rc; k++) {
        rc = next_int(s, "predecessor", ntotal - 1, &p);
        if (rc)
            break;
        if (p == id)
            return hs_fail("%s:%d: task %ld is its own predecessor (a cycle)", s->path,
                           s->lines.line, id);
        hs_edges_add(e, (int)p, (int)id, 0);
    }
    if (rc > 0)
        return hs_fail("%s: task %ld: the file ends within its line", s->path, id);
    /* the next task starts on a line of its own: a word left on this one is a
       column too many (it would read as the next task's id) */
    char *extra = !rc && s->rest ? hs_next_word(&s->rest) : NULL;
    if (extra && extra[0] != '#')
        return hs_fail("%s:%d: task %ld: an extra column '%s' after its %ld predecessor%s (a task line holds "
                       "its id, processing time, number of predecessors and the predecessors)",
                       s->path, s->lines.line, id, extra, npred, npred == 1 ? "" : "s");
    s->rest = NULL;
    return rc;
}

static int read_stg(const char *path, double speed, struct hs_dag *dag)
{
    char *text = hs_read_text(path, NULL);
    if (!text)
        return -1;
    struct stg s = {.path = path};
    hs_lines_init(&s.lines, text);
    long n = 0, cap = 0;
    int rc = next_int(&s, "number of tasks", 100000000, &n);
    if (rc > 0)
        rc = hs_fail("%s: empty (an STG file starts with its number of tasks)", path);
    /* the rest of the header line: the processor count, if any, and nothing else */
    char *w = !rc && s.rest ? hs_next_word(&s.rest) : NULL;
    long procs = 0;
    if (w && (hs_parse_long(w, &procs) || procs < 1 || procs > 1000000))
        rc = hs_fail("%s:%d: header field '%s' is not a number of processors (an integer in [1, 1000000])",
                     path, s.lines.line, w);
    if (!rc && w && (w = hs_next_word(&s.rest)))
        rc = hs_fail("%s:%d: header field '%s': a header holds the number of tasks and at most the "
                     "number of processors", path, s.lines.line, w);
    long *time = NULL;
    struct hs_edges e = {0};
    int ntasks = 0;
    while (rc == 0) {
        if (ntasks == cap)
            time = hs_xrealloc(time, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *time);
        rc = ntasks > n + 2 ? hs_fail("%s: more than %ld task lines (the header says %ld tasks)",
                                      path, n + 2, n)
                            : read_task(&s, ntasks, n + 2, &time[ntasks], &e);
        ntasks += rc == 0;
    }
    if (rc > 0) {
        rc = ntasks == 0 ? hs_fail("%s: no task line", path)
             : ntasks != n + 2 && ntasks != n
                 ? hs_fail("%s: %d task lines, but the header says %ld tasks (+2 dummies)", path,
                           ntasks, n)
                 : 0;
        for (size_t k = 0; k < e.n && !rc; k++)
            if (e.src[k] >= ntasks)
                rc = hs_fail("%s: task %d has predecessor %d, which is not a task", path, e.dst[k],
                             e.src[k]);
    }
    if (!rc) {
        struct hs_plain_task *t = hs_xcalloc((size_t)ntasks, sizeof *t);
        char (*labels)[24] = hs_xmalloc((size_t)ntasks * sizeof *labels);
        for (int i = 0; i < ntasks; i++) {
            snprintf(labels[i], sizeof labels[i], "%d", i);
            t[i] = (struct hs_plain_task){labels[i], time[i] ? "stg" : "dummy",
                                          (double)time[i] * speed, NULL, NULL};
        }
        rc = hs_build_plain(dag, path, t, ntasks, &e);
        dag->runtime_speed = speed; /* flops = time x speed */
        dag->processors = (int)procs;
        free(labels);
        free(t);
    }
    hs_edges_free(&e);
    free(time);
    free(text);
    return rc < 0 ? -1 : 0;
}

static const struct hs_param stg_params[] = {
    {.name = "file", .type = HS_P_STRING, .positional = true,
     .help = "task graph of Kasahara's Standard Task Graph set (.stg)"},
    {.name = "speed", .type = HS_P_SI, .defval = "1G", .range = "(0,inf)",
     .help = "flops per time unit (speed=1G: a unit lasts 1 s on a 1 Gflop/s processor)"},
    {0},
};

static int build_stg(const struct hs_spec *spec, struct hs_dag *dag)
{
    return read_stg(hs_spec_get(spec, "file"), hs_spec_double(spec, "speed"), dag);
}

const struct hs_workload hs_workload_stg = {
    .name = "stg",
    .summary = "Standard Task Graph set file (Kasahara; task times and precedences)",
    .params = stg_params,
    .build = build_stg,
};
