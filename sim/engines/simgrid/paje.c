/* sim/engines/simgrid/paje.c — trimming SimGrid's Paje trace to the containers a run used.
 * The trace is read line by line: the event numbers come from its own
 * %EventDef header; containers are known by their alias. A host container is
 * kept when the run used the host; a link container when its variables
 * changed after time 0 (SimGrid sets every link's bandwidth and latency at
 * time 0 and its use only when a transfer crosses it). Events of dropped
 * containers go with them, and so do the topology links (PajeStartLink /
 * PajeEndLink pairs, by key) that touch one. */
#include "sim/engines/simgrid/paje.h"
#include "base/util.h"
#include "sim/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum ev { CREATE, DESTROY, SET_VAR, START_LINK, END_LINK, DYNAMIC, OTHER };

struct trace {
    char **line;
    long n;
    int ev_of[64];        /* event number -> enum ev */
    char **alias, **name; /* containers */
    bool *host, *keep;
    int nc, cap_c;
    char **dropped_keys;  /* topology links that touch a dropped container */
    int nkeys, cap_keys;
};

static int read_lines(const char *path, struct trace *t)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return hs_fail("Paje trace %s: cannot read: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    long cap_lines = 0;
    while (getline(&line, &cap, f) > 0) {
        if (t->n == cap_lines)
            t->line = hs_xrealloc(t->line, (size_t)(cap_lines = cap_lines ? 2 * cap_lines : 1024) * sizeof *t->line);
        t->line[t->n++] = hs_xstrdup(line);
    }
    free(line);
    fclose(f);
    return 0;
}

/* "%EventDef PajeCreateContainer 6" -> ev_of[6] = CREATE. */
static void event_def(struct trace *t, const char *line)
{
    static const struct {
        const char *name;
        enum ev ev;
    } kinds[] = {{"PajeCreateContainer", CREATE}, {"PajeDestroyContainer", DESTROY},
                 {"PajeSetVariable", SET_VAR},    {"PajeStartLink", START_LINK},
                 {"PajeEndLink", END_LINK},       {"PajeAddVariable", DYNAMIC},
                 {"PajeSubVariable", DYNAMIC},    {"PajeSetState", DYNAMIC},
                 {"PajePushState", DYNAMIC},      {"PajePopState", DYNAMIC},
                 {"PajeResetState", DYNAMIC},     {"PajeNewEvent", DYNAMIC}};
    char name[64];
    int id;
    if (sscanf(line, "%%EventDef %63s %d", name, &id) != 2 || id < 0 || id >= 64)
        return;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, name) == 0)
            t->ev_of[id] = kinds[i].ev;
}

/* The fields of an event line (at most max; quoted names keep their quotes). */
static int fields(const char *line, char f[][256], int max)
{
    int n = 0;
    const char *p = line;
    while (n < max) {
        p += strspn(p, " \t\n");
        if (!*p)
            break;
        size_t len = *p == '"' ? strcspn(p + 1, "\"") + 2 : strcspn(p, " \t\n");
        snprintf(f[n++], 256, "%.*s", (int)(len < 255 ? len : 255), p);
        p += strlen(p) < len ? strlen(p) : len;
    }
    return n;
}

static enum ev kind_of(const struct trace *t, const char *line, char f[][256], int *nf)
{
    if (line[0] == '%' || line[0] == '#')
        return OTHER;
    *nf = fields(line, f, 7);
    int id = atoi(f[0]);
    return *nf > 0 && id >= 0 && id < 64 ? (enum ev)t->ev_of[id] : OTHER;
}

static int container(const struct trace *t, const char *alias)
{
    for (int c = 0; c < t->nc; c++)
        if (strcmp(t->alias[c], alias) == 0)
            return c;
    return -1;
}

static bool used_host(const struct hs_platform *pf, const char *quoted)
{
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)strlen(quoted) - 2, quoted + 1);
    for (int w = 0; w < pf->nworkers; w++)
        if (strcmp(pf->workers[w].host, name) == 0 ||
            (pf->workers[w].driver && strcmp(pf->workers[w].driver, name) == 0))
            return true;
    for (int n = 0; n < pf->nnodes; n++)
        if (pf->nodes[n].host && strcmp(pf->nodes[n].host, name) == 0)
            return true;
    return false;
}

/* Pass 1: the containers, which hosts were used, which containers changed. */
static void find_containers(struct trace *t, const struct hs_platform *pf)
{
    char f[7][256], host_type[256] = "", link_type[256] = "";
    int nf = 0;
    for (long i = 0; i < t->n; i++) {
        if (strncmp(t->line[i], "%EventDef", 9) == 0)
            event_def(t, t->line[i]);
        else if (strncmp(t->line[i], "0 ", 2) == 0 && fields(t->line[i], f, 4) == 4) /* container types */
            snprintf(strcmp(f[3], "HOST") == 0 ? host_type : strcmp(f[3], "LINK") == 0 ? link_type : f[0],
                     256, "%s", f[1]);
        enum ev e = kind_of(t, t->line[i], f, &nf);
        if (e == CREATE && nf >= 6) {
            if (t->nc == t->cap_c) { /* doubling, not one container per realloc */
                t->cap_c = t->cap_c ? 2 * t->cap_c : 64;
                t->alias = hs_xrealloc(t->alias, (size_t)t->cap_c * sizeof *t->alias);
                t->name = hs_xrealloc(t->name, (size_t)t->cap_c * sizeof *t->name);
                t->host = hs_xrealloc(t->host, (size_t)t->cap_c * sizeof *t->host);
                t->keep = hs_xrealloc(t->keep, (size_t)t->cap_c * sizeof *t->keep);
            }
            t->alias[t->nc] = hs_xstrdup(f[2]);
            t->name[t->nc] = hs_xstrdup(f[5]);
            t->host[t->nc] = strcmp(f[3], host_type) == 0;
            /* hosts the run used; links only if their use changes (below); zones and the rest stay */
            t->keep[t->nc] = t->host[t->nc] ? used_host(pf, f[5]) : strcmp(f[3], link_type) != 0;
            t->nc++;
        } else if ((e == DYNAMIC || (e == SET_VAR && atof(f[1]) > 0)) && nf >= 4) {
            int c = container(t, f[3]);
            if (c >= 0 && !t->host[c])
                t->keep[c] = true; /* a link (or other container) whose use changed */
        }
    }
}

static bool dropped(const struct trace *t, const char *alias)
{
    int c = container(t, alias);
    return c >= 0 && !t->keep[c];
}

static bool key_dropped(const struct trace *t, const char *key)
{
    for (int k = 0; k < t->nkeys; k++)
        if (strcmp(t->dropped_keys[k], key) == 0)
            return true;
    return false;
}

/* Should line i go? (Pass 2 fills the topology keys to drop first.) */
static bool drop_line(const struct trace *t, long i)
{
    char f[7][256];
    int nf = 0;
    enum ev e = kind_of(t, t->line[i], f, &nf);
    switch (e) {
    case CREATE: return nf >= 3 && dropped(t, f[2]);
    case DESTROY: return nf >= 4 && dropped(t, f[3]);
    case SET_VAR:
    case DYNAMIC: return nf >= 4 && dropped(t, f[3]);
    case START_LINK:
    case END_LINK: return nf >= 7 && key_dropped(t, f[6]);
    default: return false;
    }
}

static void find_dropped_links(struct trace *t)
{
    char f[7][256];
    int nf = 0;
    for (long i = 0; i < t->n; i++) {
        enum ev e = kind_of(t, t->line[i], f, &nf);
        if ((e == START_LINK || e == END_LINK) && nf >= 7 && dropped(t, f[5])) {
            if (t->nkeys == t->cap_keys) { /* doubling, not one key per realloc */
                t->cap_keys = t->cap_keys ? 2 * t->cap_keys : 64;
                t->dropped_keys = hs_xrealloc(t->dropped_keys, (size_t)t->cap_keys * sizeof *t->dropped_keys);
            }
            t->dropped_keys[t->nkeys++] = hs_xstrdup(f[6]);
        }
    }
}

static int write_kept(const char *path, const struct trace *t)
{
    struct hs_outfile out; /* the trimmed trace replaces the whole one at once */
    if (hs_outfile_open(&out, path))
        return -1;
    for (long i = 0; i < t->n && !ferror(out.f); i++)
        if (!drop_line(t, i))
            fputs(t->line[i], out.f);
    if (hs_outfile_commit(&out)) {
        char why[1024];
        snprintf(why, sizeof why, "%s", hs_last_error());
        return hs_fail("Paje trace: %s", why);
    }
    return 0;
}

static void trace_free(struct trace *t)
{
    for (long i = 0; i < t->n; i++)
        free(t->line[i]);
    for (int c = 0; c < t->nc; c++)
        free(t->alias[c]), free(t->name[c]);
    for (int k = 0; k < t->nkeys; k++)
        free(t->dropped_keys[k]);
    free(t->line), free(t->alias), free(t->name), free(t->host), free(t->keep), free(t->dropped_keys);
}

int hs_paje_trim(const char *path, const struct hs_platform *pf)
{
    struct trace t = {0};
    for (int i = 0; i < 64; i++)
        t.ev_of[i] = OTHER;
    int rc = read_lines(path, &t);
    if (!rc) {
        find_containers(&t, pf);
        find_dropped_links(&t);
        rc = write_kept(path, &t);
    }
    trace_free(&t);
    return rc;
}
