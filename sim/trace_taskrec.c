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

/* A line of a rec value that ends with a backslash is joined to the next
 * one by every rec reader (the format's line continuation, which has no
 * escape). A kernel named by a workflow's command (WfCommons' nf-core sarek)
 * holds shell line continuations, a backslash at a line's end that the shell
 * removes with the line break: the name is written so, joined as the shell
 * joins it, which rec readers read back unchanged. Removing a pair may leave
 * another backslash at a line's end ("\\\\\n"): joined again until none is. */
static bool continued(const char *v)
{
    for (const char *p = strchr(v, '\\'); p; p = strchr(p + 1, '\\'))
        if (p[1] == '\n' || p[1] == '\0')
            return true;
    return false;
}

char *hs_trace_taskrec_name(const char *kernel)
{
    char *v = hs_xstrdup(kernel);
    while (continued(v)) {
        char *to = v;
        for (const char *p = v; *p; p++) {
            if (*p == '\\' && (p[1] == '\n' || p[1] == '\0')) {
                p += p[1] == '\n'; /* the backslash and its line break, as the shell drops them */
                continue;
            }
            *to++ = *p;
        }
        *to = '\0';
    }
    return v;
}

/* The name as JSON writes a string (cJSON), so that its line breaks keep the
 * message on one line, cut at 80 characters. */
static void print_name(FILE *out, const char *name)
{
    cJSON *s = cJSON_CreateString(name);
    char *text = s ? cJSON_PrintUnformatted(s) : NULL;
    fprintf(out, "%.80s%s", text ? text : "(out of memory)", text && strlen(text) > 80 ? "..." : "");
    free(text);
    cJSON_Delete(s);
}

int hs_trace_taskrec_warn(const struct hs_dag *dag, const char *path, FILE *out)
{
    int first = -1, n = 0;
    for (int k = 0; k < dag->nkernels; k++)
        if (continued(dag->kernels[k])) {
            first = first < 0 ? k : first;
            n++;
        }
    if (!n)
        return 0;
    const char *label = "";
    for (int i = 0; i < dag->ntasks && !*label; i++)
        if (dag->tasks[i].kernel == first)
            label = dag->tasks[i].label ? dag->tasks[i].label : "";
    char *joined = hs_trace_taskrec_name(dag->kernels[first]);
    fprintf(out, "hetsim: warning: %s: DAG %.60s, task %.60s: its kernel ", path, dag->name, label);
    print_name(out, dag->kernels[first]);
    fprintf(out, " has lines ending with a backslash (shell line continuations), which a rec file cannot hold: "
                 "written joined as the shell joins them, ");
    print_name(out, joined);
    if (n > 1)
        fprintf(out, " (and %d other kernel%s alike)", n - 1, n > 2 ? "s" : "");
    fprintf(out, "\n");
    free(joined);
    return n;
}

static rec_record_t record(const struct hs_runtime *rt, int i, struct hs_buf *b)
{
    const struct hs_dag *dag = rt->dag;
    const struct hs_task *t = &dag->tasks[i];
    const struct hs_task_event *ev = &rt->ts[i].ev;
    char *kernel = hs_trace_taskrec_name(dag->kernels[t->kernel]);
    rec_record_t rec = checked(rec_record_new());
    add(rec, "Name", kernel, b); /* librec writes a line break as a '+' continuation line */
    add(rec, "Model", kernel, b);
    free(kernel);
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
