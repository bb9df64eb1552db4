/* sim/trace_taskrec.c — StarPU's tasks.rec of a run (trace_taskrec.h). */
#include "sim/trace_taskrec.h"
#include "sim/runtime_internal.h"
#include "base/util.h"

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

static void data_fields(FILE *out, const struct hs_dag *dag, const struct hs_task *t)
{
    static const char *const modes[] = {"", "R", "W", "RW"};
    fprintf(out, "Handles:");
    for (int a = 0; a < t->naccess; a++)
        fprintf(out, " %x", dag->handles[t->access[a].handle].origin + 1);
    fprintf(out, "\nModes:");
    for (int a = 0; a < t->naccess; a++)
        fprintf(out, " %s", modes[t->access[a].mode]);
    fprintf(out, "\nSizes:");
    for (int a = 0; a < t->naccess; a++)
        fprintf(out, " %.0f", dag->handles[t->access[a].handle].bytes);
    fprintf(out, "\n");
    bool first = true;
    for (int a = 0; a < t->naccess; a++)
        if (dag->handles[t->access[a].handle].temporary) {
            fprintf(out, "%s %x", first ? "EdgeHandles:" : "", dag->handles[t->access[a].handle].origin + 1);
            first = false;
        }
    if (!first)
        fprintf(out, "\n");
}

/* A value as rec writes it: each line break followed by '+ ' (a continuation
 * line), so that a name holding one stays one field. */
static void put_value(FILE *out, const char *v)
{
    for (; *v; v++) {
        fputc(*v, out);
        if (*v == '\n')
            fputs("+ ", out);
    }
}

static void record(FILE *out, const struct hs_sched *rt, int i)
{
    const struct hs_dag *dag = rt->dag;
    const struct hs_task *t = &dag->tasks[i];
    const struct hs_task_event *ev = &rt->ts[i].ev;
    const char *kernel = dag->kernels[t->kernel];
    fputs("Name: ", out);
    put_value(out, kernel);
    fputs("\nModel: ", out);
    put_value(out, kernel);
    fprintf(out, "\nJobId: %d\nSubmitOrder: %d\nPriority: 0\n", i + 1, i + 1);
    if (t->npred) {
        fprintf(out, "DependsOn:");
        for (int k = 0; k < t->npred; k++)
            fprintf(out, " %d", dag->edges[t->pred[k]].src + 1);
        fprintf(out, "\n");
    }
    if (ev->worker >= 0) {
        const struct hs_worker *w = &rt->pf->workers[ev->worker];
        fprintf(out, "WorkerId: %d\nMemoryNode: %d\n", ev->worker,
                w->arch == HS_ARCH_GPU ? w->node : 0);
        fprintf(out, "SubmitTime: 0.000000\nReadyTime: %.17g\nStartTime: %.17g\nEndTime: %.17g\n",
                ev->ready * 1e3, ev->start * 1e3, ev->end * 1e3);
    }
    fprintf(out, "Footprint: %08x\n", footprint(dag, t));
    if (t->flops > 0)
        fprintf(out, "GFlop: %.9g\n", t->flops / 1e9);
    if (t->naccess)
        data_fields(out, dag, t);
    fprintf(out, "\n");
}

int hs_trace_write_taskrec(const struct hs_sched *rt, FILE *out)
{
    fprintf(out, "# tasks.rec written by hetsim: StarPU's fields (times in ms); EdgeHandles is "
                 "hetsim's\n\n");
    for (int i = 0; i < rt->dag->ntasks; i++)
        record(out, rt, i);
    return ferror(out) ? hs_fail("cannot write the tasks.rec") : 0;
}
