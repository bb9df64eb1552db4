/* sim/trace_taskrec.c — StarPU's tasks.rec of a run (trace_taskrec.h),
 * written by GNU recutils' librec: each task a rec_record_t of
 * rec_field_t's, written by rec_write_record, so that a value holding line
 * breaks (a kernel named by a workflow file) is written as rec continues a
 * value, and recsel, rec2csv, StarVZ and the taskrec workload read it back
 * as one field. */
#include "sim/trace_taskrec.h"
#include "sim/runtime_internal.h"
#include "base/buf.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <rec.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

/* FNV-1a over what decides a task's duration: its kernel's footprint, flops
 * and explicit costs (StarPU hashes the data sizes; hetsim's tasks of one
 * kernel and one size may still differ in cost). */
static uint32_t footprint(const struct hs_dag *dag, const struct hs_task *t)
{
    uint32_t h = 2166136261u;
    double v[3 + HS_NARCH];
    memset(v, 0, sizeof v);
    v[0] = t->footprint;
    v[1] = t->flops;
    v[2] = t->kernel;
    for (int a = 0; a < HS_NARCH; a++)
        v[3 + a] = isnan(t->arch_cost[a]) ? -1 : t->arch_cost[a];
    const unsigned char *p = (const unsigned char *)v;
    for (size_t i = 0; i < sizeof v; i++)
        h = (h ^ p[i]) * 16777619u;
    for (int k = 0; t->proc_cost && k < dag->nproc_costs; k++) {
        p = (const unsigned char *)&t->proc_cost[k];
        for (size_t i = 0; i < sizeof(double); i++)
            h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

/* librec's objects, which it returns NULL when malloc fails. */
static void *checked(void *p)
{
    if (!p) {
        fputs("hetsim: out of memory (librec)\n", stderr);
        exit(1);
    }
    return p;
}

/* A field of the record; value NULL: the text of b (then emptied). */
static void add(rec_record_t rec, const char *name, const char *value, struct hs_buf *b)
{
    rec_field_t f = checked(rec_field_new(name, value ? value : hs_buf_str(b)));
    checked(rec_mset_append(rec_record_mset(rec), MSET_FIELD, f, MSET_ANY));
    hs_buf_reset(b);
}

static void data_fields(rec_record_t rec, const struct hs_dag *dag, const struct hs_task *t, struct hs_buf *b)
{
    static const char *const modes[] = {"", "R", "W", "RW"};
    for (int a = 0; a < t->naccess; a++)
        hs_buf_printf(b, "%s%x", a ? " " : "", dag->handles[t->access[a].handle].origin + 1);
    add(rec, "Handles", NULL, b);
    for (int a = 0; a < t->naccess; a++)
        hs_buf_printf(b, "%s%s", a ? " " : "", modes[t->access[a].mode]);
    add(rec, "Modes", NULL, b);
    for (int a = 0; a < t->naccess; a++)
        hs_buf_printf(b, "%s%.0f", a ? " " : "", dag->handles[t->access[a].handle].bytes);
    add(rec, "Sizes", NULL, b);
    bool any = false;
    for (int a = 0; a < t->naccess; a++)
        if (dag->handles[t->access[a].handle].temporary) {
            hs_buf_printf(b, "%s%x", any ? " " : "", dag->handles[t->access[a].handle].origin + 1);
            any = true;
        }
    if (any)
        add(rec, "EdgeHandles", NULL, b);
}

/* A line of a rec value that ends with a backslash would be joined to the
 * next one by every rec reader (the format's line continuation, which has
 * no escape): such a kernel is refused rather than written as another. The
 * name is shown as JSON writes a string (cJSON), so that its line breaks
 * keep the message on one line. */
int hs_trace_taskrec_check(const struct hs_dag *dag)
{
    for (int k = 0; k < dag->nkernels; k++) {
        const char *v = dag->kernels[k];
        for (const char *p = strchr(v, '\\'); p; p = strchr(p + 1, '\\'))
            if (p[1] == '\n' || p[1] == '\0') {
                cJSON *name = cJSON_CreateString(v);
                char *text = name ? cJSON_PrintUnformatted(name) : NULL;
                hs_fail("DAG %.60s, kernel %.80s%s: a line of it ends with a backslash, which a rec file cannot hold "
                        "(rec readers join that line to the next); rename the kernel or leave out "
                        "--tasks-rec", dag->name, text ? text : "(out of memory)", text && strlen(text) > 80 ? "..." : "");
                free(text);
                cJSON_Delete(name);
                return -1;
            }
    }
    return 0;
}

static rec_record_t record(const struct hs_runtime *rt, int i, struct hs_buf *b)
{
    const struct hs_dag *dag = rt->dag;
    const struct hs_task *t = &dag->tasks[i];
    const struct hs_task_event *ev = &rt->ts[i].ev;
    const char *kernel = dag->kernels[t->kernel];
    rec_record_t rec = checked(rec_record_new());
    add(rec, "Name", kernel, b); /* librec writes a line break as a '+' continuation line */
    add(rec, "Model", kernel, b);
    hs_buf_printf(b, "%d", i + 1);
    add(rec, "JobId", NULL, b);
    hs_buf_printf(b, "%d", i + 1);
    add(rec, "SubmitOrder", NULL, b);
    add(rec, "Priority", "0", b);
    for (int k = 0; k < t->npred; k++)
        hs_buf_printf(b, "%s%d", k ? " " : "", dag->edges[t->pred[k]].src + 1);
    if (t->npred)
        add(rec, "DependsOn", NULL, b);
    if (ev->worker >= 0) {
        const struct hs_worker *w = &rt->pf->workers[ev->worker];
        hs_buf_printf(b, "%d", ev->worker);
        add(rec, "WorkerId", NULL, b);
        hs_buf_printf(b, "%d", w->arch == HS_ARCH_GPU ? w->node : 0);
        add(rec, "MemoryNode", NULL, b);
        add(rec, "SubmitTime", "0.000000", b);
        static const char *const times[] = {"ReadyTime", "StartTime", "EndTime"};
        const double at[] = {ev->ready, ev->start, ev->end};
        for (int k = 0; k < 3; k++) {
            hs_buf_printf(b, "%.17g", at[k] * 1e3);
            add(rec, times[k], NULL, b);
        }
    }
    hs_buf_printf(b, "%08x", footprint(dag, t));
    add(rec, "Footprint", NULL, b);
    if (t->flops > 0) {
        hs_buf_printf(b, "%.9g", t->flops / 1e9);
        add(rec, "GFlop", NULL, b);
    }
    if (t->naccess)
        data_fields(rec, dag, t, b);
    return rec;
}

int hs_trace_write_taskrec(const struct hs_runtime *rt, FILE *out)
{
    if (hs_trace_taskrec_check(rt->dag)) /* checked before the run too (scenario.c) */
        return -1;
    rec_writer_t w = checked(rec_writer_new(out));
    struct hs_buf b = {0};
    char text[] = " tasks.rec written by hetsim: StarPU's fields (times in ms); EdgeHandles is hetsim's";
    rec_comment_t head = checked(rec_comment_new(text));
    bool ok = rec_write_comment(w, head) && rec_write_string(w, "\n\n"); /* librec ends no line */
    rec_comment_destroy(head);
    for (int i = 0; ok && i < rt->dag->ntasks; i++) {
        rec_record_t rec = record(rt, i, &b);
        ok = rec_write_record(w, rec) && rec_write_string(w, "\n\n");
        rec_record_destroy(rec);
    }
    rec_writer_destroy(w);
    hs_buf_free(&b);
    return !ok || ferror(out) ? hs_fail("cannot write the tasks.rec") : 0;
}
