/* sim/engines/simgrid/platform_simgrid.c — SimGrid platform files: checking, loading, listing. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "sim/engines/simgrid/platform_simgrid.h"
#include "sim/engines/simgrid/platform_checked.h"
#include "sim/engines/simgrid/energy.h"
#include "base/inputfile.h"
#include "sim/hostmap.h"
#include "base/util.h"

#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <libxml/xmlreader.h>
#include <math.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/zone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/config.h>
#include <xbt/dynar.h>

/* Load the platform file and seal it, so that routes are asked of the
 * finished platform: SimGrid 3.32 completes some routing only when it seals
 * (a Floyd zone's tables: g5k.xml's routes between sites), which it does at
 * the start of its first run. Its C API has no seal of its own; a run before
 * any actor exists seals, starts the clock at 0 and returns at once. Not
 * when the run traces a Paje file: SimGrid's tracing starts and ends its
 * trace with that first run (the routes are then asked unsealed, as
 * hs_sg_route_run guards). */
static void load_sealed(const char *path, bool seal)
{
    simgrid_load_platform(path);
    if (seal)
        simgrid_run();
}

/* Keep the useful part of SimGrid's complaint ("Parse error at f.xml:12: …",
 * "Uncaught exception std::invalid_argument: Link not found: x", "[root/CRITICAL]
 * Model 'x' is invalid! …"). The markers are SimGrid 3.32's wording:
 * test_platform_simgrid checks each against the installed SimGrid, so that a
 * SimGrid that words them otherwise fails a test instead of every message
 * becoming "SimGrid could not load it". */
static void extract_message(const char *log, char *out, size_t size)
{
    static const char *markers[] = {"Parse error at ", "Uncaught exception ", "[xbt_cfg/",
                                    "Exception: ", "/CRITICAL] ", NULL};
    snprintf(out, size, "SimGrid could not load it");
    for (int i = 0; markers[i]; i++) {
        const char *p = strstr(log, markers[i]);
        if (!p)
            continue;
        p += strlen(markers[i]);
        if (i == 1 || i == 2) { /* skip the exception type / category */
            const char *colon = strstr(p, ": ");
            if (colon)
                p = colon + 2;
        }
        size_t len = strcspn(p, "\n");
        snprintf(out, size, "%.*s", (int)len, p);
        return;
    }
}

/* A platform of version 3 or older (<platform version="3">, power= instead
 * of speed=), told by its root element: SimGrid 3.32 reads version 4 and
 * would say only "Bad declaration". StarPU writes HOST.platform.xml in
 * version 3 beside HOST.platform.v4.xml; the refusal names that file and
 * says whether it is there. 0 for any other file (what is wrong with it is
 * SimGrid's to say). */
static int refuse_old_version(const char *path, xmlTextReaderPtr rd)
{
    xmlChar *version = NULL;
    if (xmlStrEqual(xmlTextReaderConstLocalName(rd), BAD_CAST "platform"))
        version = xmlTextReaderGetAttribute(rd, BAD_CAST "version");
    char *end = NULL;
    double v = version ? strtod((const char *)version, &end) : NAN;
    int rc = 0;
    if (version && end != (const char *)version && v < 4) {
        size_t len = strlen(path);
        bool xml = len > 4 && strcmp(path + len - 4, ".xml") == 0;
        char *v4 = hs_xmalloc(len + 8);
        snprintf(v4, len + 8, "%.*s.v4.xml", (int)(xml ? len - 4 : len), path);
        rc = hs_fail("platform file %s: SimGrid platform version %s (StarPU's older format); use the "
                     ".v4.xml file StarPU writes beside it: %s%s", path, (const char *)version, v4,
                     access(v4, R_OK) == 0 ? " (it is there)"
                                           : " (not there: convert this file with SimGrid's "
                                             "simgrid_update_xml, or rerun StarPU 1.2 or later)");
        free(v4);
    }
    xmlFree(version);
    return rc;
}

/* The hosts one platform file may declare through <cluster radical=...>
 * (and <cabinet radical=...>): SimGrid expands a radical host by host before
 * it could refuse anything (radical="0-2147483647" took 16 s of CPU), so the
 * radicals are counted first. An assumption of hetsim's: 16 times SimGrid's
 * largest example (cluster_crossbar.xml, 65,536 hosts). */
#define HS_SG_MAX_RADICAL_HOSTS 1048576L

/* The hosts radical "0-3,5,8-9" names (SimGrid's syntax: comma-separated
 * numbers and LOW-HIGH ranges), at most cap + 1; -1 if it is not of that
 * syntax (SimGrid's parser says what is wrong). */
static long radical_hosts(const char *radical, long cap)
{
    long total = 0;
    for (const char *p = radical; *p && total <= cap;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0)
            return -1;
        if (*end == '-') {
            const char *q = end + 1;
            hi = strtol(q, &end, 10);
            if (end == q)
                return -1;
        }
        if (hi >= lo)
            total += hi - lo < cap ? hi - lo + 1 : cap + 1;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return total;
}

/* core="1.5" (or "2x"): SimGrid reads the number it starts with (1) without
 * a word; a value that starts with no number it refuses itself. */
static bool core_misread(const char *core)
{
    char *end;
    errno = 0;
    (void)strtol(core, &end, 10);
    return end != core && (*end || errno);
}

/* What SimGrid would read wrong or too slowly, in the element rd is at: a
 * core="N" that is not a whole number, radicals that name, with those before
 * (*hosts), more than HS_SG_MAX_RADICAL_HOSTS hosts. 0, or -1 with hs_fail
 * naming the file, line and value. */
static int check_attributes(const char *path, xmlTextReaderPtr rd, long *hosts)
{
    const char *name = (const char *)xmlTextReaderConstLocalName(rd);
    bool host = strcmp(name, "host") == 0, cluster = strcmp(name, "cluster") == 0;
    if (!host && !cluster && strcmp(name, "cabinet") != 0)
        return 0;
    char *core = host || cluster ? (char *)xmlTextReaderGetAttribute(rd, BAD_CAST "core") : NULL;
    char *radical = host ? NULL : (char *)xmlTextReaderGetAttribute(rd, BAD_CAST "radical");
    char *id = (char *)xmlTextReaderGetAttribute(rd, BAD_CAST "id");
    int line = (int)xmlGetLineNo(xmlTextReaderCurrentNode(rd));
    long n = radical ? radical_hosts(radical, HS_SG_MAX_RADICAL_HOSTS) : 0;
    int rc = 0;
    if (core && core_misread(core))
        rc = hs_fail("platform file %s:%d: <%s id=\"%s\">: core=\"%s\" is not an int (write a whole number "
                     "there, e.g. core=\"4\"; SimGrid would read the number it starts with)",
                     path, line, name, id ? id : "", core);
    else if (n > 0 && (*hosts += n) > HS_SG_MAX_RADICAL_HOSTS)
        rc = hs_fail("platform file %s:%d: <%s id=\"%s\"> radical=\"%s\": the file's radicals name more "
                     "than %ld hosts, hetsim's bound (16 times SimGrid's largest example cluster)",
                     path, line, name, id ? id : "", radical, HS_SG_MAX_RADICAL_HOSTS);
    xmlFree(core);
    xmlFree(radical);
    xmlFree(id);
    return rc;
}

/* Availability profiles (SimGrid's state_file, speed_file, the deprecated
 * availability_file of a host or peer; bandwidth_file, latency_file,
 * state_file of a link; <trace_connect>) in the element rd is at: SimGrid
 * turns hosts and links off or changes their rates during the run, which
 * hetsim does not model (a kernel lasts its timing table's time, a route's
 * rates are read once, a host turned off ends the run with tasks left):
 * refused, naming the host or link and the profile (reported once SimGrid
 * has loaded the file in the child). 0 when there is none. */
static int refuse_profiles(const char *path, xmlTextReaderPtr rd)
{
    static const struct {
        const char *element, *what, *attr;
    } profiled[] = {
        {"host", "host", "state_file"},     {"host", "host", "speed_file"},
        {"host", "host", "availability_file"}, {"peer", "peer", "state_file"},
        {"peer", "peer", "speed_file"},     {"peer", "peer", "availability_file"},
        {"link", "link", "state_file"},     {"link", "link", "bandwidth_file"},
        {"link", "link", "latency_file"},
    };
    int rc = 0;
    const xmlChar *name = xmlTextReaderConstLocalName(rd);
    if (xmlStrEqual(name, BAD_CAST "trace_connect")) {
        xmlChar *kind = xmlTextReaderGetAttribute(rd, BAD_CAST "kind"),
                *trace = xmlTextReaderGetAttribute(rd, BAD_CAST "trace"),
                *element = xmlTextReaderGetAttribute(rd, BAD_CAST "element");
        rc = hs_fail("platform file %s: <trace_connect kind=\"%s\"> gives %s the profile '%s', which SimGrid "
                     "plays during the run (turning it off or changing its rate) and hetsim does not model: "
                     "remove it", path, kind ? (const char *)kind : "HOST_AVAIL",
                     element ? (const char *)element : "?", trace ? (const char *)trace : "?");
        xmlFree(kind), xmlFree(trace), xmlFree(element);
        return rc;
    }
    for (size_t i = 0; i < sizeof profiled / sizeof *profiled && !rc; i++) {
        if (!xmlStrEqual(name, BAD_CAST profiled[i].element))
            continue;
        xmlChar *file = xmlTextReaderGetAttribute(rd, BAD_CAST profiled[i].attr);
        if (file && *file) {
            xmlChar *id = xmlTextReaderGetAttribute(rd, BAD_CAST "id");
            rc = hs_fail("platform file %s: %s %s has %s='%s', a profile SimGrid plays during the run "
                         "(turning it off or changing its %s), which hetsim does not model (a kernel lasts "
                         "its timing table's time, a route's rates are read once): remove the attribute",
                         path, profiled[i].what, id ? (const char *)id : "?", profiled[i].attr,
                         (const char *)file,
                         strcmp(profiled[i].what, "link") == 0 ? "bandwidth or latency" : "speed");
            xmlFree(id);
        }
        xmlFree(file);
    }
    return rc;
}

/* What libxml2's reader (no entity substituted, no network) finds in one
 * pass over the file, each the first refusal of its kind, "" when none: an
 * older platform version (told by the root, which ends the pass), an
 * attribute SimGrid would read wrong or too slowly (which ends it too), an
 * availability profile. */
struct xml_findings {
    char version[1024], attribute[1024], profile[1024];
};

static void keep(char *msg, size_t size)
{
    snprintf(msg, size, "%s", hs_last_error());
}

static void scan_xml(const char *path, struct xml_findings *fx)
{
    memset(fx, 0, sizeof *fx);
    xmlTextReaderPtr rd = xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                                           XML_PARSE_NOWARNING);
    if (!rd)
        return;
    long hosts = 0;
    for (bool root = true; xmlTextReaderRead(rd) == 1;) {
        if (xmlTextReaderNodeType(rd) != XML_READER_TYPE_ELEMENT)
            continue;
        if (root && refuse_old_version(path, rd)) {
            keep(fx->version, sizeof fx->version);
            break;
        }
        root = false;
        if (!fx->profile[0] && refuse_profiles(path, rd))
            keep(fx->profile, sizeof fx->profile);
        if (check_attributes(path, rd, &hosts)) {
            keep(fx->attribute, sizeof fx->attribute);
            break;
        }
    }
    xmlFreeTextReader(rd);
}

/* What to write instead, for SimGrid's refusals of a host's attributes
 * (SimGrid 3.32's wording; test_platform_simgrid checks each). */
static const char *value_hint(const char *msg)
{
    if (strstr(msg, "must have at least one core"))
        return " (core=\"N\" takes N >= 1: the host's cores, one CPU worker each)";
    if (strstr(msg, "is not an int"))
        return " (write a whole number there, e.g. core=\"4\")";
    if (strstr(msg, "length of pstates"))
        return " (pstate=\"K\" picks one of the speeds of speed=\"S0,S1,...\", counted from 0)";
    return "";
}

/* SimGrid's TCP artefacts, turned off unless the platform file's own <config>
 * sets them (as StarPU's platform files do): the TCP window bound
 * (a flow runs at most at TCP-gamma / (2 latency), so routes of large latency
 * no longer take latency + bytes / bandwidth), interference between the two
 * directions of a link, and the bandwidth term of CM02's flow weights. */
static const struct {
    const char *key, *value;
} tcp_off[HS_SG_NCONFIG] = {
    {"network/TCP-gamma", "0"}, {"network/crosstraffic", "0"}, {"network/weight-S", "0"}};

/* Which of tcp_off the file's <config> sets: SimGrid says so, at level info,
 * for every key of the file that was set before loading it. */
static unsigned file_config(const char *log)
{
    unsigned mask = 0;
    for (int i = 0; i < HS_SG_NCONFIG; i++) {
        char line[128];
        snprintf(line, sizeof line, "The custom configuration '%s' is already defined", tcp_off[i].key);
        if (strstr(log, line))
            mask |= 1u << i;
    }
    return mask;
}

/* What the checking child was doing when it failed: the route it was asking
 * SimGrid for (SimGrid crashes on some missing routes), in shared memory. */
struct probe_state {
    char src[128], dst[128];
    bool probing;
    int count[HS_HOST_IGNORED + 1]; /* hosts per hs_host_kind, once the inventory is read */
    bool counted;
    int energy_hosts;
    long asked; /* routes asked */
};

/* Ask SimGrid for the route from host a to host b of inv, noting the pair
 * first: SimGrid crashes on some missing routes. */
static void probe(struct probe_state *ps, const struct hs_inventory *inv, int a, int b, xbt_dynar_t links)
{
    snprintf(ps->src, sizeof ps->src, "%s", inv->hosts[a].name);
    snprintf(ps->dst, sizeof ps->dst, "%s", inv->hosts[b].name);
    ps->probing = true;
    ps->asked++;
    xbt_dynar_reset(links);
    sg_host_get_route(sg_host_by_name(inv->hosts[a].name), sg_host_by_name(inv->hosts[b].name), links);
    ps->probing = false;
}

/* Ask SimGrid for the routes a run cannot do without (platform_simgrid.h):
 * between host memory's endpoint (a RAM host, else the first CPU host) and
 * every GPU and processor both ways, between every two GPUs, and between
 * every two processors where there are few (HS_SG_PROC_SAMPLE pairs at
 * most), else between HS_SG_PROC_SAMPLE pairs spread over them, both ways:
 * 2n + 64 routes for n processors, where every pair would be n². The CPU
 * hosts compute in host memory and are never asked about. */
static void probe_routes(const char *path, const char *map_file, struct probe_state *ps)
{
    struct hs_inventory inv;
    if (hs_sg_inventory_map(path, map_file, &inv))
        return; /* the parent says what is wrong with the hosts */
    for (int i = 0; i < inv.n; i++)
        ps->count[inv.hosts[i].kind] += inv.hosts[i].kind == HS_HOST_CPU ? inv.hosts[i].cores : 1;
    ps->counted = true;
    int endpoint = hs_inventory_endpoint(&inv);
    int *gpus = hs_xmalloc((size_t)inv.n * sizeof *gpus), *procs = hs_xmalloc((size_t)inv.n * sizeof *procs);
    int ngpus = 0, nprocs = 0;
    for (int i = 0; i < inv.n; i++)
        if (inv.hosts[i].kind == HS_HOST_GPU)
            gpus[ngpus++] = i;
        else if (inv.hosts[i].kind == HS_HOST_PROC)
            procs[nprocs++] = i;
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    for (int i = 0; endpoint >= 0 && i < inv.n; i++)
        if (i != endpoint && (inv.hosts[i].kind == HS_HOST_GPU || inv.hosts[i].kind == HS_HOST_PROC)) {
            probe(ps, &inv, i, endpoint, links);
            probe(ps, &inv, endpoint, i, links);
        }
    for (int i = 0; i < ngpus; i++)
        for (int j = 0; j < ngpus; j++)
            if (i != j)
                probe(ps, &inv, gpus[i], gpus[j], links);
    long pairs = (long)nprocs * (nprocs - 1) / 2;
    for (int i = 0; pairs <= HS_SG_PROC_SAMPLE && i < nprocs; i++)
        for (int j = 0; j < nprocs; j++)
            if (i != j)
                probe(ps, &inv, procs[i], procs[j], links);
    for (int k = 0; pairs > HS_SG_PROC_SAMPLE && k < HS_SG_PROC_SAMPLE; k++) {
        int a = (int)((long)k * nprocs / HS_SG_PROC_SAMPLE), b = (a + nprocs / 2 + k) % nprocs;
        if (a != b) {
            probe(ps, &inv, procs[a], procs[b], links);
            probe(ps, &inv, procs[b], procs[a], links);
        }
    }
    xbt_dynar_free(&links);
    free(gpus);
    free(procs);
    hs_inventory_free(&inv);
}

/* The child's own refusal of the file, one line: "hetsim-refused: MESSAGE". */
static const char refused[] = "hetsim-refused: ";

static _Noreturn void check_child(const char *path, const char *map_file, int fd, struct probe_state *ps)
{
    dup2(fd, STDERR_FILENO);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, STDOUT_FILENO);
    char *argv[4 + HS_SG_NCONFIG] = {"hetsim", "--log=root.thres:critical",
                                     "--log=xbt_exception.thres:error",
                                     "--log=surf_parse.thres:info"};
    char cfg[HS_SG_NCONFIG][64];
    int argc = 4;
    for (int i = 0; i < HS_SG_NCONFIG; i++) { /* set first, so that the file's own show */
        snprintf(cfg[i], sizeof cfg[i], "--cfg=%s:%s", tcp_off[i].key, tcp_off[i].value);
        argv[argc++] = cfg[i];
    }
    simgrid_init(&argc, argv);
    load_sealed(path, true);
    if (sg_host_count() == 0) {
        fprintf(stderr, "hetsim-check: the platform has no host\n");
        _exit(3);
    }
    if (hs_sg_energy_check(path, &ps->energy_hosts)) {
        fprintf(stderr, "%s%s\n", refused, hs_last_error());
        _exit(4);
    }
    probe_routes(path, map_file, ps);
    _exit(0);
}

/* Everything the child writes, keeping the first size-1 bytes. */
static void read_log(int fd, char *log, size_t size)
{
    size_t len = 0;
    char scratch[4096];
    for (;;) {
        char *to = len < size - 1 ? log + len : scratch;
        size_t room = len < size - 1 ? size - 1 - len : sizeof scratch;
        ssize_t r = read(fd, to, room);
        if (r <= 0)
            break;
        if (to != scratch)
            len += (size_t)r;
    }
    log[len] = '\0';
}

int hs_sg_check_platform(const char *path, const char *map_file, struct hs_sg_check *out)
{
    struct hs_sg_check known; /* a file that cannot be read has no entry: the child's check says why */
    if (hs_sg_checked_lookup(path, map_file, &known)) { /* a shipped file, unchanged: checked before */
        if (out)
            *out = known;
        return 0;
    }
    return hs_sg_check_platform_child(path, map_file, out);
}

int hs_sg_check_platform_child(const char *path, const char *map_file, struct hs_sg_check *out)
{
    char err[1024];
    FILE *f = hs_input_open(path, HS_INPUT_MAX_BYTES, err, sizeof err);
    if (!f)
        return hs_fail("platform file %s", err);
    fclose(f);
    struct xml_findings fx;
    scan_xml(path, &fx);
    if (fx.version[0] || fx.attribute[0])
        return hs_fail("%s", fx.version[0] ? fx.version : fx.attribute);
    int fds[2];
    if (pipe(fds) != 0)
        return hs_fail("platform file %s: cannot create a pipe", path);
    struct probe_state *ps = mmap(NULL, sizeof *ps, PROT_READ | PROT_WRITE,
                                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (ps == MAP_FAILED) {
        close(fds[0]);
        close(fds[1]);
        return hs_fail("platform file %s: cannot map memory to check it", path);
    }
    memset(ps, 0, sizeof *ps);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        check_child(path, map_file, fds[1], ps);
    }
    close(fds[1]);
    static char log[16384];
    log[0] = '\0';
    if (pid > 0)
        read_log(fds[0], log, sizeof log);
    close(fds[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    struct probe_state at = *ps;
    munmap(ps, sizeof *ps);
    if (pid < 0)
        return hs_fail("platform file %s: cannot fork to check it", path);
    if (out) {
        out->file_sets = file_config(log);
        out->ncores = at.counted ? at.count[HS_HOST_CPU] : -1;
        out->ngpus = at.counted ? at.count[HS_HOST_GPU] : -1;
        out->nprocs = at.counted ? at.count[HS_HOST_PROC] : -1;
        out->energy_hosts = at.energy_hosts;
        out->routes_asked = at.asked;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return fx.profile[0] ? hs_fail("%s", fx.profile) : 0;
    if (strstr(log, "hetsim-check: the platform has no host"))
        return hs_fail("platform file %s: no host (a platform needs a RAM host and workers)", path);
    const char *why = strstr(log, refused);
    if (why) {
        why += strlen(refused);
        return hs_fail("%.*s", (int)strcspn(why, "\n"), why);
    }
    char msg[512];
    extract_message(log, msg, sizeof msg);
    if (at.probing)
        return hs_fail("platform file %s: no route from %s to %s (SimGrid %s; hetsim asks for the "
                       "routes between host memory and every other memory node, and between processors: "
                       "add a <route>, or mark host memory's host <prop id=\"kind\" value=\"ram\"/>)",
                       path, at.src, at.dst,
                       strcmp(msg, "SimGrid could not load it") ? msg : "crashed looking it up");
    return hs_fail("platform file %s: %s%s", path, msg, value_hint(msg));
}

/* Whether SimGrid can write a Paje trace of the platform, with its
 * topology or without (topology false): it aborts on <cluster> zones when it
 * links the containers (3.32: "container with name X_link_0_UP not found"),
 * and on some multi-cluster files even without them (griffon.xml: SIGSEGV
 * in its tracing when it seals the links; cluster_multi.xml: an uncaught
 * TracingError). Tried in a child that loads the file, seals it (a run
 * without actors) and traces into /dev/null. */
static bool paje_probe(const char *path, bool topology)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        char *argv[] = {"hetsim", "--log=root.thres:critical", "--cfg=tracing:yes",
                        "--cfg=tracing/filename:/dev/null", "--cfg=tracing/uncategorized:yes",
                        topology ? NULL : "--cfg=tracing/platform/topology:no", NULL};
        int argc = topology ? 5 : 6;
        simgrid_init(&argc, argv);
        simgrid_load_platform(path);
        simgrid_run();
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return true; /* cannot tell: as before */
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int hs_sg_init(bool verbose, const char *paje_file, unsigned file_sets, const char *platform_file)
{
    static char *argv[16 + HS_SG_NCONFIG];
    static char cfg[HS_SG_NCONFIG][64];
    int argc = 0;
    argv[argc++] = "hetsim";
    if (!verbose)
        argv[argc++] = "--log=root.thres:critical";
#ifdef HETSIM_SANITIZE
    /* AddressSanitizer follows threads, not SimGrid's hand-made stacks */
    argv[argc++] = "--cfg=contexts/factory:thread";
#endif
    for (int i = 0; i < HS_SG_NCONFIG; i++)
        if (!(file_sets & (1u << i))) {
            snprintf(cfg[i], sizeof cfg[i], "--cfg=%s:%s", tcp_off[i].key, tcp_off[i].value);
            argv[argc++] = cfg[i];
        }
    static char trace_file[4096];
    if (paje_file) {
        snprintf(trace_file, sizeof trace_file, "--cfg=tracing/filename:%s", paje_file);
        argv[argc++] = "--cfg=tracing:yes";
        argv[argc++] = trace_file;
        argv[argc++] = "--cfg=tracing/uncategorized:yes";
        if (platform_file && !paje_probe(platform_file, true)) {
            if (!paje_probe(platform_file, false))
                return hs_fail("platform %s: SimGrid cannot write a Paje trace of this platform (its tracing "
                               "crashes on its <cluster> zones, with or without the topology): run it without "
                               "--paje, or trace a platform without clusters", platform_file);
            argv[argc++] = "--cfg=tracing/platform/topology:no";
            fprintf(stderr, "hetsim: note: SimGrid cannot draw the topology of platform %s in a Paje "
                    "trace (its <cluster> zones): --paje writes the hosts, links and states without "
                    "the links between containers\n", platform_file);
        }
    }
    argv[argc] = NULL;
    simgrid_init(&argc, argv);
    return 0;
}

/* A name a Paje line cannot hold: Paje quotes names and has no escape, so
 * a quote or a line break (XML's &quot; and &#10; in an id) ends them. */
static bool paje_unsafe(const char *name)
{
    for (const char *p = name; *p; p++)
        if (*p == '"' || (unsigned char)*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

static int check_paje_names(const char *path)
{
    size_t nh = sg_host_count(), nl = sg_link_count();
    sg_host_t *hosts = sg_host_list();
    sg_link_t *links = sg_link_list();
    const char *bad = NULL, *what = "host";
    for (size_t i = 0; i < nh && !bad; i++)
        if (paje_unsafe(sg_host_get_name(hosts[i])))
            bad = sg_host_get_name(hosts[i]);
    for (size_t i = 0; i < nl && !bad; i++)
        if (paje_unsafe(sg_link_get_name(links[i]))) {
            bad = sg_link_get_name(links[i]);
            what = "link";
        }
    int rc = 0;
    if (bad) {
        char shown[96];
        size_t k = 0;
        for (const char *p = bad; *p && k + 5 < sizeof shown; p++) /* the name on one line */
            k += (size_t)snprintf(shown + k, sizeof shown - k, (unsigned char)*p < 0x20 || *p == 0x7f ? "\\x%02x" : "%c",
                                  (unsigned char)*p);
        rc = hs_fail("platform %s: %s id \"%s\" holds a quote or a control character, which a Paje trace "
                     "cannot (--paje)", path, what, shown);
    }
    free(hosts);
    free(links);
    return rc;
}

int hs_sg_load(const char *path, bool paje)
{
    load_sealed(path, !paje);
    return paje ? check_paje_names(path) : 0;
}

void hs_sg_scale_links(double bw_factor, double lat_factor)
{
    size_t n = sg_link_count();
    sg_link_t *links = sg_link_list();
    for (size_t i = 0; i < n; i++) {
        sg_link_set_bandwidth(links[i], sg_link_get_bandwidth(links[i]) * bw_factor);
        sg_link_set_latency(links[i], sg_link_get_latency(links[i]) * lat_factor);
    }
    free(links);
}

/* Every link's latency >= 0 and bandwidth >= 0 (SimGrid takes a negative
 * latency without a word). A bandwidth of 0 is refused only on a route the
 * run uses (hs_sg_route, hs_sg_zero_link_check): StarPU 1.3 writes a CPU-only
 * machine's unused "Host" link with 0 B/s. */
static int check_links(const char *pfname)
{
    size_t n = sg_link_count();
    sg_link_t *links = sg_link_list();
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        double lat = sg_link_get_latency(links[i]), bw = sg_link_get_bandwidth(links[i]);
        if (!(lat >= 0) || !isfinite(lat))
            rc = hs_fail("platform %s: link %s: latency %g s is negative", pfname,
                         sg_link_get_name(links[i]), lat);
        else if (!(bw >= 0))
            rc = hs_fail("platform %s: link %s: bandwidth %g B/s (it must be > 0)", pfname,
                         sg_link_get_name(links[i]), bw);
    }
    free(links);
    return rc;
}

static const char *host_prop(const void *host, const char *key)
{
    return sg_host_get_property_value((sg_host_t)host, key);
}

int hs_sg_inventory(const char *platform_name, struct hs_inventory *inv)
{
    return hs_sg_inventory_map(platform_name, NULL, inv);
}

int hs_sg_inventory_map(const char *platform_name, const char *map_file, struct hs_inventory *inv)
{
    memset(inv, 0, sizeof *inv);
    size_t n = sg_host_count();
    if (n == 0) /* sg_host_list aborts then */
        return hs_fail("platform %s: no host", platform_name);
    if (check_links(platform_name))
        return -1;
    struct hs_hostmap map;
    if (map_file && hs_hostmap_read(map_file, &map))
        return -1;
    struct hs_inv_ctx ctx = {.pfname = platform_name, .prop = host_prop, .map = map_file ? &map : NULL};
    sg_host_t *hosts = sg_host_list();
    for (size_t i = 0; i < n; i++)
        hs_inv_ctx_note(&ctx, sg_host_get_name(hosts[i]));
    inv->hosts = hs_xcalloc(n, sizeof *inv->hosts);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) { /* a host's name is set even when it fails */
        struct hs_inv_host *h = &inv->hosts[inv->n++];
        rc = hs_inv_host_read(h, &ctx, sg_host_get_name(hosts[i]), sg_host_get_speed(hosts[i]), hosts[i]);
        if (!rc && h->kind == HS_HOST_CPU) /* core="N": N workers on the host */
            h->cores = sg_host_core_count(hosts[i]);
    }
    free(hosts);
    if (map_file)
        hs_hostmap_free(&map);
    if (rc) {
        hs_inventory_free(inv);
        return -1;
    }
    hs_inventory_sort(inv);
    return 0;
}

int hs_sg_costs(const char *platform_name, struct hs_costs *c)
{
    sg_netzone_t zone = sg_zone_get_root();
    for (int i = 0; hs_costs_props[i]; i++) {
        if (!isnan(hs_costs_get(c, i)))
            continue; /* set by the run */
        const char *v = zone ? sg_zone_get_property_value(zone, hs_costs_props[i]) : NULL;
        double seconds = 0;
        if (v && hs_costs_parse_time(v, &seconds))
            return hs_fail("platform %s: zone property %s='%s' is not a duration (e.g. 5us, 2e-6)",
                           platform_name, hs_costs_props[i], v);
        hs_costs_set(c, i, c->scale > 0 ? seconds * c->scale : seconds); /* costs=scale=F */
    }
    return 0;
}

/* A route asked during a run: SimGrid aborts with its backtrace on some
 * missing routes (Floyd's "No route from"), which the check before the run
 * asks for only a sample of. While such a query runs, SimGrid's stderr goes
 * to /dev/null and SIGABRT writes the line prepared beforehand and exits 2
 * (only async-signal-safe calls in the handler). */
static struct {
    volatile sig_atomic_t armed;
    int saved_err, null_fd;
    char line[768];
    size_t len;
    struct sigaction before;
} guard = {.saved_err = -1, .null_fd = -1};

static void on_abort(int sig)
{
    if (guard.armed) {
        dup2(guard.saved_err, STDERR_FILENO);
        ssize_t w = write(STDERR_FILENO, guard.line, guard.len);
        (void)w;
        _exit(2);
    }
    sigaction(sig, &guard.before, NULL);
    raise(sig);
}

void hs_sg_route_run(struct hs_sg_zero_link *ctx, const char *platform_name)
{
    snprintf(ctx->platform, sizeof ctx->platform, "%s", platform_name);
    ctx->running = true;
    if (guard.saved_err >= 0)
        return;
    guard.saved_err = dup(STDERR_FILENO);
    guard.null_fd = open("/dev/null", O_WRONLY);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_abort;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGABRT, &sa, &guard.before);
}

/* The links of the route s -> d into links, SimGrid silenced and its abort
 * turned into one line naming src and dst (hs_sg_route_run). */
static void run_route(const struct hs_sg_zero_link *zero, sg_host_t s, sg_host_t d, const char *src,
                      const char *dst, xbt_dynar_t links)
{
    int n = snprintf(guard.line, sizeof guard.line, "hetsim: platform %s: no route from %s to %s: SimGrid "
                     "cannot look it up (found after the check, which asks only for a sample of the routes "
                     "between processors: add a <route> between them)\n",
                     zero->platform, src, dst);
    guard.len = n < 0 ? 0 : (size_t)n < sizeof guard.line ? (size_t)n : sizeof guard.line - 1;
    fflush(stderr);
    bool quiet = guard.saved_err >= 0 && guard.null_fd >= 0 && dup2(guard.null_fd, STDERR_FILENO) >= 0;
    guard.armed = 1;
    sg_host_get_route(s, d, links);
    guard.armed = 0;
    if (quiet)
        dup2(guard.saved_err, STDERR_FILENO);
}

bool hs_sg_route(void *ctx, const char *src, const char *dst, double *lat, double *bw)
{
    struct hs_sg_zero_link *zero = ctx;
    sg_host_t s = sg_host_by_name(src), d = sg_host_by_name(dst);
    if (!s || !d)
        return false;
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    if (zero && zero->running)
        run_route(zero, s, d, src, dst, links);
    else
        sg_host_get_route(s, d, links);
    unsigned long n = xbt_dynar_length(links);
    for (unsigned long i = 0; zero && !zero->link[0] && i < n; i++) {
        sg_link_t l = xbt_dynar_get_as(links, i, sg_link_t);
        if (!(sg_link_get_bandwidth(l) > 0)) {
            snprintf(zero->link, sizeof zero->link, "%s", sg_link_get_name(l));
            snprintf(zero->src, sizeof zero->src, "%s", src);
            snprintf(zero->dst, sizeof zero->dst, "%s", dst);
        }
    }
    xbt_dynar_free(&links);
    if (zero && zero->running && zero->link[0]) {
        hs_sg_zero_link_check(zero->platform, zero);
        fprintf(stderr, "hetsim: %s\n", hs_last_error());
        fflush(NULL);
        _exit(2);
    }
    if (n == 0)
        return false;
    *lat = sg_host_get_route_latency(s, d);
    *bw = sg_host_get_route_bandwidth(s, d);
    return *bw > 0;
}

int hs_sg_zero_link_check(const char *platform_name, const struct hs_sg_zero_link *zero)
{
    if (!zero->link[0])
        return 0;
    return hs_fail("platform %s: link %s has bandwidth 0 B/s and the route from %s to %s, which the run "
                   "uses, crosses it: give the link its bandwidth", platform_name, zero->link, zero->src,
                   zero->dst);
}

void hs_sg_route_links(const char *src, const char *dst, char *buf, int size)
{
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_get_route(sg_host_by_name(src), sg_host_by_name(dst), links);
    int len = 0;
    buf[0] = '\0';
    for (unsigned long i = 0; i < xbt_dynar_length(links) && len < size; i++) {
        sg_link_t l = xbt_dynar_get_as(links, i, sg_link_t);
        len += snprintf(buf + len, (size_t)(size - len), "%s%s", i ? "," : "", sg_link_get_name(l));
    }
    xbt_dynar_free(&links);
}
