/* sim/engines/real/machine.c — reading and writing machine descriptions, and the
 * platform they give (see machine.h). */
#include "sim/engines/real/machine.h"
#include "base/buf.h"
#include "base/inputfile.h"
#include "sim/outfile.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <libxml/xmlwriter.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double number(const cJSON *o, const char *key, bool *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0)) {
        *ok = false;
        return 0;
    }
    return v->valuedouble;
}

static struct hs_link_fit link_of(const cJSON *o, const char *key, bool *ok)
{
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(o, key);
    struct hs_link_fit f = {number(l, "bandwidth", ok), number(l, "latency", ok)};
    if (!(f.bandwidth > 0))
        *ok = false;
    return f;
}

/* A whole number in [1, 1e6] (a count of cores and the like). */
static int count_of(const cJSON *o, const char *key, bool *ok)
{
    double v = number(o, key, ok);
    if (!(v >= 1 && v <= 1e6 && v == floor(v)))
        *ok = false;
    return *ok ? (int)v : 0;
}

/* The optional "topology" object into t (left zeroed when absent); false
 * if it is there but not well formed. */
static bool topology_of(const cJSON *root, struct hs_topology *t)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "topology");
    if (!o)
        return true;
    bool ok = cJSON_IsObject(o);
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(o, "cpu_model");
    t->packages = count_of(o, "packages", &ok);
    t->numa_nodes = count_of(o, "numa_nodes", &ok);
    t->cores = count_of(o, "cores", &ok);
    t->pus = count_of(o, "pus", &ok);
    double cache = number(o, "largest_cache_bytes", &ok);
    t->largest_cache_bytes = cache < 1e18 ? (size_t)cache : 0;
    ok &= cache < 1e18 && t->pus >= t->cores && cJSON_IsString(model);
    if (ok)
        snprintf(t->cpu_model, sizeof t->cpu_model, "%s", model->valuestring);
    else
        memset(t, 0, sizeof *t);
    return ok;
}

/* A GPU's optional "pci_bus_id" and "numa_node" (only beside a PCI bus
 * id) into p; false if they are there but not well formed. */
static bool place_of(const cJSON *o, struct hs_machine_place *p)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "pci_bus_id");
    const cJSON *node = cJSON_GetObjectItemCaseSensitive(o, "numa_node");
    p->numa_node = -1;
    if (id && (!cJSON_IsString(id) || strlen(id->valuestring) >= sizeof p->pci_bus_id))
        return false;
    if (id)
        snprintf(p->pci_bus_id, sizeof p->pci_bus_id, "%s", id->valuestring);
    if (!node)
        return true;
    bool ok = id != NULL;
    double v = number(o, "numa_node", &ok);
    ok &= v <= 1e6 && v == floor(v);
    p->numa_node = ok ? (int)v : -1;
    return ok;
}

int hs_machine_load(const char *path, struct hs_machine *m)
{
    memset(m, 0, sizeof *m);
    struct hs_buf b = {0};
    if (hs_buf_read_file(&b, path)) {
        char why[1024];
        snprintf(why, sizeof why, "%s", hs_last_error()); /* hs_fail writes over it */
        hs_buf_free(&b);
        return hs_fail("machine file %s (run `hetsim calibrate` on the machine first)", why);
    }
    if (b.len == 0)
        return hs_fail("machine file %s is empty", path);
    char err[1024];
    cJSON *root = hs_json_parse_strict(path, hs_buf_str(&b), b.len, err, sizeof err);
    hs_buf_free(&b);
    if (!root)
        return hs_fail("machine file %s", err);
    bool ok = true, placed = true;
    const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(root, "gpus");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "gpu_model");
    const cJSON *blas = cJSON_GetObjectItemCaseSensitive(root, "blas");
    ok &= !blas || (cJSON_IsString(blas) && strlen(blas->valuestring) < sizeof m->blas);
    if (cJSON_IsString(blas))
        snprintf(m->blas, sizeof m->blas, "%s", blas->valuestring);
    m->cores = (int)number(root, "cores", &ok);
    m->core_speed = number(root, "core_speed", &ok);
    m->ngpus = cJSON_GetArraySize(gpus);
    m->gpus = hs_xcalloc((size_t)(m->ngpus ? m->ngpus : 1), sizeof *m->gpus);
    m->places = hs_xcalloc((size_t)(m->ngpus ? m->ngpus : 1), sizeof *m->places);
    for (int i = 0; i < m->ngpus; i++) {
        const cJSON *g = cJSON_GetArrayItem(gpus, i);
        m->gpus[i] = (struct hs_machine_gpu){number(g, "memsize", &ok), number(g, "speed", &ok),
                                             link_of(g, "h2d", &ok), link_of(g, "d2h", &ok)};
        placed &= place_of(g, &m->places[i]);
    }
    bool topology = topology_of(root, &m->topology);
    const cJSON *over = cJSON_GetObjectItemCaseSensitive(root, "task_overhead");
    static const char *const arch[HS_NARCH] = {"cpu", "gpu"};
    for (int a = 0; a < HS_NARCH; a++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(over, arch[a]);
        m->task_overhead[a] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
        ok &= !v || (cJSON_IsNumber(v) && v->valuedouble >= 0);
    }
    m->name = hs_xstrdup(cJSON_IsString(name) ? name->valuestring : "machine");
    m->gpu_model = hs_xstrdup(cJSON_IsString(model) ? model->valuestring : "");
    cJSON_Delete(root);
    if (!ok || m->cores < 1 || !cJSON_IsArray(gpus)) {
        hs_machine_free(m);
        return hs_fail("machine file %s: needs cores >= 1, core_speed, gpus[] (maybe empty) with memsize, "
                       "speed, h2d and d2h {bandwidth > 0, latency}, and task_overhead {cpu, gpu} >= 0 if "
                       "given, and blas a string of under 256 bytes if given", path);
    }
    if (!placed || !topology) {
        hs_machine_free(m);
        return hs_fail(placed ? "machine file %s: topology needs packages, numa_nodes, cores and pus (whole "
                                "numbers >= 1, pus >= cores), largest_cache_bytes >= 0 and cpu_model"
                              : "machine file %s: a GPU's pci_bus_id must be a string of at most 31 "
                                "characters, and its numa_node a whole number >= 0 beside a pci_bus_id",
                       path);
    }
    m->file = hs_xstrdup(path);
    return 0;
}

int hs_machine_check_topology(const struct hs_machine *m)
{
    const struct hs_topology *t = &m->topology;
    struct hs_topology here;
    if (t->cores == 0 || hs_topology_describe(&here))
        return 0;
    const char *file = m->file ? m->file : m->name;
    if (t->cores > here.cores)
        return hs_fail("machine file %s: topology.cores is %d, but this machine has %d physical core%s that "
                       "this process may use (calibrate it here: hetsim calibrate)",
                       file, t->cores, here.cores, here.cores == 1 ? "" : "s");
    if (strcmp(t->cpu_model, here.cpu_model) != 0)
        return hs_fail("machine file %s: topology.cpu_model is \"%s\", but this machine's is \"%s\" "
                       "(calibrate it here: hetsim calibrate)", file, t->cpu_model, here.cpu_model);
    return 0;
}

static cJSON *link_json(const struct hs_link_fit *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "bandwidth", l->bandwidth);
    cJSON_AddNumberToObject(o, "latency", l->latency);
    return o;
}

int hs_machine_save(const char *path, const struct hs_machine *m)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", m->name);
    cJSON_AddStringToObject(root, "gpu_model", m->gpu_model);
    cJSON_AddNumberToObject(root, "cores", m->cores);
    cJSON_AddNumberToObject(root, "core_speed", m->core_speed);
    cJSON *gpus = cJSON_AddArrayToObject(root, "gpus");
    for (int i = 0; i < m->ngpus; i++) {
        cJSON *g = cJSON_CreateObject();
        cJSON_AddNumberToObject(g, "memsize", m->gpus[i].memsize);
        cJSON_AddNumberToObject(g, "speed", m->gpus[i].speed);
        cJSON_AddItemToObject(g, "h2d", link_json(&m->gpus[i].h2d));
        cJSON_AddItemToObject(g, "d2h", link_json(&m->gpus[i].d2h));
        const struct hs_machine_place *p = m->places ? &m->places[i] : NULL;
        if (p && p->pci_bus_id[0]) {
            cJSON_AddStringToObject(g, "pci_bus_id", p->pci_bus_id);
            if (p->numa_node >= 0)
                cJSON_AddNumberToObject(g, "numa_node", p->numa_node);
        }
        cJSON_AddItemToArray(gpus, g);
    }
    if (!isnan(m->task_overhead[HS_ARCH_CPU]) || !isnan(m->task_overhead[HS_ARCH_GPU])) {
        cJSON *over = cJSON_AddObjectToObject(root, "task_overhead");
        if (!isnan(m->task_overhead[HS_ARCH_CPU]))
            cJSON_AddNumberToObject(over, "cpu", m->task_overhead[HS_ARCH_CPU]);
        if (!isnan(m->task_overhead[HS_ARCH_GPU]))
            cJSON_AddNumberToObject(over, "gpu", m->task_overhead[HS_ARCH_GPU]);
    }
    const struct hs_topology *t = &m->topology;
    if (t->cores > 0) {
        cJSON *o = cJSON_AddObjectToObject(root, "topology");
        cJSON_AddNumberToObject(o, "packages", t->packages);
        cJSON_AddNumberToObject(o, "numa_nodes", t->numa_nodes);
        cJSON_AddNumberToObject(o, "cores", t->cores);
        cJSON_AddNumberToObject(o, "pus", t->pus);
        cJSON_AddNumberToObject(o, "largest_cache_bytes", (double)t->largest_cache_bytes);
        cJSON_AddStringToObject(o, "cpu_model", t->cpu_model);
    }
    if (m->blas[0])
        cJSON_AddStringToObject(root, "blas", m->blas);
    return hs_machine_write_json(path, root);
}

int hs_machine_write_json(const char *path, cJSON *root)
{
    int rc = hs_outfile_write_json(path, root);
    cJSON_Delete(root);
    return rc;
}

void hs_machine_free(struct hs_machine *m)
{
    free(m->name);
    free(m->gpu_model);
    free(m->gpus);
    free(m->places);
    free(m->file);
    memset(m, 0, sizeof *m);
}

void hs_machine_inventory(const struct hs_machine *m, struct hs_inventory *inv)
{
    inv->n = 0;
    inv->hosts = hs_xcalloc((size_t)(m->cores + m->ngpus + 1), sizeof *inv->hosts);
    char name[32];
    for (int i = 0; i < m->cores; i++) {
        snprintf(name, sizeof name, "CPU%d", i);
        inv->hosts[inv->n++] = (struct hs_inv_host){hs_xstrdup(name), HS_HOST_CPU, m->core_speed, 0, -1, 0, 0, 1, false};
    }
    for (int i = 0; i < m->ngpus; i++) {
        snprintf(name, sizeof name, "GPU%d", i);
        inv->hosts[inv->n++] = (struct hs_inv_host){hs_xstrdup(name), HS_HOST_GPU, m->gpus[i].speed,
                                                    m->gpus[i].memsize, i, 0, 2, 1, false};
    }
    inv->hosts[inv->n++] = (struct hs_inv_host){hs_xstrdup("RAM0"), HS_HOST_RAM, 1, 0, -1, 0, 0, 1, false};
}

bool hs_machine_route(void *machine, const char *src, const char *dst, double *lat, double *bw)
{
    const struct hs_machine *m = machine;
    int g;
    const struct hs_link_fit *l = NULL;
    if (strcmp(src, "RAM0") == 0 && sscanf(dst, "GPU%d", &g) == 1 && g < m->ngpus)
        l = &m->gpus[g].h2d;
    else if (strcmp(dst, "RAM0") == 0 && sscanf(src, "GPU%d", &g) == 1 && g < m->ngpus)
        l = &m->gpus[g].d2h;
    if (!l)
        return false;
    *lat = l->latency;
    *bw = l->bandwidth;
    return true;
}

/* The comment at the top of the platform: what it is and how its costs
 * were found. A comment may not hold "--": a name that does is written
 * with "- -" (the text ends with a space, never with a "-"). */
static char *platform_comment(const struct hs_machine *m)
{
    struct hs_buf b = {0};
    hs_buf_printf(&b, " %s: %d cores", m->name, m->cores);
    if (m->ngpus)
        hs_buf_printf(&b, ", %d x %s", m->ngpus, m->gpu_model);
    hs_buf_add(&b, "; written by `hetsim calibrate` from measurements.\n     No runtime/* costs (sim/costs.h): ");
    bool cpu = !isnan(m->task_overhead[HS_ARCH_CPU]), gpu = !isnan(m->task_overhead[HS_ARCH_GPU]);
    if (!cpu && !gpu) {
        hs_buf_add(&b, "none was measured. ");
    } else {
        hs_buf_add(&b, "what the real engine and the runtime add to each\n     task (");
        if (cpu)
            hs_buf_printf(&b, "%.2f us on a core%s", m->task_overhead[HS_ARCH_CPU] * 1e6, gpu ? ", " : "");
        if (gpu)
            hs_buf_printf(&b, "%.2f us on a GPU", m->task_overhead[HS_ARCH_GPU] * 1e6);
        hs_buf_add(&b, "; calibrate runs tasks of a known length through them and times\n"
                       "     what each takes beyond it) is in the timing table's entries, as it is in the\n"
                       "     task times a measured run records. ");
    }
    struct hs_buf out = {0}; /* a copy, a space after each "-" that another follows */
    for (const char *p = hs_buf_str(&b); *p; p++) {
        hs_buf_addn(&out, p, 1);
        if (p[0] == '-' && p[1] == '-')
            hs_buf_add(&out, " ");
    }
    hs_buf_free(&b);
    return hs_buf_take(&out);
}

/* <prop id= value=/> elements (id, value pairs, NULL-ended). */
static void props(xmlTextWriterPtr w, const char *const *kv)
{
    for (int i = 0; kv[i]; i += 2) {
        xmlTextWriterStartElement(w, BAD_CAST "prop");
        xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST kv[i]);
        xmlTextWriterWriteAttribute(w, BAD_CAST "value", BAD_CAST kv[i + 1]);
        xmlTextWriterEndElement(w);
    }
}

/* A <host id=...> with its props. */
static void host(xmlTextWriterPtr w, const char *id, const char *speed, const char *const *kv)
{
    xmlTextWriterStartElement(w, BAD_CAST "host");
    xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST id);
    xmlTextWriterWriteAttribute(w, BAD_CAST "speed", BAD_CAST speed);
    props(w, kv);
    xmlTextWriterEndElement(w);
}

static void link_route(xmlTextWriterPtr w, const char *src, const char *dst, const char *link)
{
    xmlTextWriterStartElement(w, BAD_CAST "route");
    xmlTextWriterWriteAttribute(w, BAD_CAST "src", BAD_CAST src);
    xmlTextWriterWriteAttribute(w, BAD_CAST "dst", BAD_CAST dst);
    xmlTextWriterWriteAttribute(w, BAD_CAST "symmetrical", BAD_CAST "NO");
    xmlTextWriterStartElement(w, BAD_CAST "link_ctn");
    xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST link);
    xmlTextWriterEndElement(w);
    xmlTextWriterEndElement(w);
}

/* Written with libxml2's writer, which escapes what the machine's name or
 * its GPU's model may hold (a quote in -o NAME broke the zone's id). */
int hs_machine_write_platform(const struct hs_machine *m, const char *path)
{
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    if (!w) {
        xmlBufferFree(buf);
        return hs_fail("cannot write %s: out of memory", path);
    }
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, BAD_CAST " ");
    xmlTextWriterStartDocument(w, "1.0", NULL, NULL);
    xmlTextWriterWriteDTD(w, BAD_CAST "platform", NULL, BAD_CAST "https://simgrid.org/simgrid.dtd", NULL);
    char *comment = platform_comment(m);
    xmlTextWriterWriteComment(w, BAD_CAST comment);
    free(comment);
    xmlTextWriterStartElement(w, BAD_CAST "platform");
    xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST "4.1");
    xmlTextWriterStartElement(w, BAD_CAST "config");
    props(w, (const char *const[]){"network/model", "CM02", "network/crosstraffic", "0", NULL});
    xmlTextWriterEndElement(w);
    xmlTextWriterStartElement(w, BAD_CAST "zone");
    xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST m->name);
    xmlTextWriterWriteAttribute(w, BAD_CAST "routing", BAD_CAST "Full");
    char id[32], speed[64], a[64], b[64], c[32];
    for (int i = 0; i < m->cores; i++) {
        snprintf(id, sizeof id, "CPU%d", i);
        snprintf(speed, sizeof speed, "%.17gf", m->core_speed);
        host(w, id, speed, (const char *const[]){"kind", "cpu", NULL});
    }
    for (int i = 0; i < m->ngpus; i++) {
        snprintf(id, sizeof id, "GPU%d", i);
        snprintf(speed, sizeof speed, "%.17gf", m->gpus[i].speed);
        snprintf(a, sizeof a, "%.0f", m->gpus[i].memsize);
        snprintf(c, sizeof c, "%d", i);
        host(w, id, speed, (const char *const[]){"kind", "gpu", "memsize", a, "switch", c, NULL});
    }
    host(w, "RAM0", "1f", (const char *const[]){"kind", "ram", NULL});
    for (int i = 0; i < m->ngpus; i++)
        for (int d = 0; d < 2; d++) {
            const struct hs_link_fit *l = d ? &m->gpus[i].d2h : &m->gpus[i].h2d;
            snprintf(id, sizeof id, "gpu%d_%s", i, d ? "d2h" : "h2d");
            snprintf(a, sizeof a, "%.17gBps", l->bandwidth);
            snprintf(b, sizeof b, "%.17gs", l->latency);
            xmlTextWriterStartElement(w, BAD_CAST "link");
            xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST id);
            xmlTextWriterWriteAttribute(w, BAD_CAST "bandwidth", BAD_CAST a);
            xmlTextWriterWriteAttribute(w, BAD_CAST "latency", BAD_CAST b);
            xmlTextWriterEndElement(w);
        }
    for (int i = 0; i < m->ngpus; i++) {
        snprintf(id, sizeof id, "GPU%d", i);
        snprintf(a, sizeof a, "gpu%d_h2d", i);
        link_route(w, "RAM0", id, a);
        snprintf(a, sizeof a, "gpu%d_d2h", i);
        link_route(w, id, "RAM0", a);
    }
    int rc = xmlTextWriterEndDocument(w) < 0; /* closes zone and platform */
    xmlFreeTextWriter(w);
    if (!rc)
        rc = hs_outfile_write(path, (const char *)xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
    else
        rc = hs_fail("cannot write %s: the XML writer failed", path);
    xmlBufferFree(buf);
    return rc ? -1 : 0;
}

char *hs_machine_path(const char *platform_file)
{
    size_t n = strlen(platform_file);
    if (n > 4 && strcmp(platform_file + n - 4, ".xml") == 0)
        n -= 4;
    char *p = hs_xmalloc(n + 16);
    memcpy(p, platform_file, n);
    strcpy(p + n, ".machine.json");
    return p;
}
