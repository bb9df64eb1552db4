/* tests/cli/test_cli.c — end-to-end tests of the `hetsim` command: the
 * default scenario, every shipped platform under every policy (each task runs
 * once, after its predecessors, with its inputs brought to its memory node),
 * byte-identical records for a seed, and one clear line with exit code 2 for
 * each kind of bad input. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_default_scenario(void)
{
    char *out, *err;
    int rc = hs_test_cli("run", &out, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "cholesky:n=8192,nb=512,precision=d,setarch=0,pardiag=0 on idgraf (8 GPU, 4 CPU"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "makespan"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "GFlop/s"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "tasks        816"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "H2D"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "utilisation"));
    CU_ASSERT_STRING_EQUAL(err, "");
    free(out);
    free(err);
}

/* ---- trace checks --------------------------------------------------------- */

struct row {
    char kind[16], name[64], what[16], worker[16], src[16], dst[16];
    double bytes, ready, inputs, start, end;
    int id;
};

/* Split one CSV line of the trace (quoted names may hold commas). */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        if (*p == '"') {
            fields[n++] = ++p;
            char *w = p;
            while (*p && !(*p == '"' && p[1] != '"'))
                *w++ = (*p == '"' ? *++p : *p), p++;
            *w = '\0';
            p++;
        } else {
            fields[n++] = p;
            p += strcspn(p, ",\n");
        }
        if (*p != ',')
            break;
        *p++ = '\0';
    }
    *p = '\0';
    return n;
}

static struct row *read_trace(const char *path, int *nrows)
{
    char *text = hs_test_read_file(path);
    int cap = hs_test_count_lines(text) + 1, n = 0;
    struct row *rows = hs_xcalloc((size_t)cap, sizeof *rows);
    char *save = NULL;
    strtok_r(text, "\n", &save); /* header */
    for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[12];
        if (split_csv(line, f, 12) != 12)
            continue;
        struct row *r = &rows[n++];
        snprintf(r->kind, sizeof r->kind, "%s", f[0]);
        r->id = atoi(f[1]);
        snprintf(r->name, sizeof r->name, "%s", f[2]);
        snprintf(r->what, sizeof r->what, "%s", f[3]);
        snprintf(r->worker, sizeof r->worker, "%s", f[4]);
        snprintf(r->src, sizeof r->src, "%s", f[5]);
        snprintf(r->dst, sizeof r->dst, "%s", f[6]);
        r->bytes = atof(f[7]);
        r->ready = atof(f[8]);
        r->inputs = *f[9] ? atof(f[9]) : NAN;
        r->start = atof(f[10]);
        r->end = atof(f[11]);
    }
    free(text);
    *nrows = n;
    return rows;
}

/* Was handle `name` copied into node `node` between t0 and t1? */
static bool copied(const struct row *rows, int n, const char *name, const char *node, double t0,
                   double t1)
{
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].kind, "transfer") == 0 && strcmp(rows[i].name, name) == 0 &&
            strcmp(rows[i].dst, node) == 0 && rows[i].start >= t0 - 1e-9 && rows[i].end <= t1 + 1e-9)
            return true;
    return false;
}

static bool writes(const cJSON *task, int handle)
{
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(task, "accesses"))
    {
        const char *mode = cJSON_GetObjectItem(a, "mode")->valuestring;
        if (cJSON_GetObjectItem(a, "handle")->valueint == handle && strchr(mode, 'W'))
            return true;
    }
    return false;
}

/* Every task ran exactly once, after its predecessors, and each datum it
 * reads was on its memory node: produced there, or copied there after its
 * producer finished (or from the start for initial data) and before it began. */
static void check_run(const char *dag_path, const char *trace_path)
{
    char *text = hs_test_read_file(dag_path);
    cJSON *dag = cJSON_Parse(text);
    free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dag);
    const cJSON *tasks = cJSON_GetObjectItem(dag, "tasks"), *handles = cJSON_GetObjectItem(dag, "handles");
    int ntasks = cJSON_GetArraySize(tasks), nrows;
    struct row *rows = read_trace(trace_path, &nrows);
    struct row **byid = hs_xcalloc((size_t)ntasks, sizeof *byid);
    int seen = 0;
    for (int i = 0; i < nrows; i++)
        if (strcmp(rows[i].kind, "task") == 0) {
            CU_ASSERT_FATAL(rows[i].id >= 0 && rows[i].id < ntasks);
            CU_ASSERT_PTR_NULL(byid[rows[i].id]); /* exactly once */
            byid[rows[i].id] = &rows[i];
            seen++;
            CU_ASSERT(rows[i].start >= rows[i].inputs - 1e-12);
            CU_ASSERT(rows[i].end >= rows[i].start);
        }
    CU_ASSERT_EQUAL_FATAL(seen, ntasks);
    int bad_order = 0, missing_copy = 0;
    const cJSON *dep;
    cJSON_ArrayForEach(dep, cJSON_GetObjectItem(dag, "dependencies"))
    {
        int s = cJSON_GetObjectItem(dep, "src")->valueint, d = cJSON_GetObjectItem(dep, "dst")->valueint;
        bad_order += byid[d]->start < byid[s]->end - 1e-12;
    }
    for (int t = 0; t < ntasks; t++) {
        const cJSON *task = cJSON_GetArrayItem(tasks, t), *a;
        cJSON_ArrayForEach(a, cJSON_GetObjectItem(task, "accesses"))
        {
            if (strcmp(cJSON_GetObjectItem(a, "mode")->valuestring, "W") == 0)
                continue;
            int h = cJSON_GetObjectItem(a, "handle")->valueint;
            const char *name = cJSON_GetObjectItem(cJSON_GetArrayItem(handles, h), "name")->valuestring;
            const struct row *producer = NULL;
            cJSON_ArrayForEach(dep, cJSON_GetObjectItem(dag, "dependencies"))
            {
                int s = cJSON_GetObjectItem(dep, "src")->valueint;
                if (cJSON_GetObjectItem(dep, "dst")->valueint == t &&
                    cJSON_GetObjectItem(dep, "bytes")->valuedouble > 0 &&
                    writes(cJSON_GetArrayItem(tasks, s), h))
                    producer = byid[s];
            }
            const char *node = byid[t]->dst;
            if (producer ? strcmp(producer->dst, node) != 0 : strcmp(node, "host") != 0)
                missing_copy += !copied(rows, nrows, name, node, producer ? producer->end : 0,
                                        byid[t]->start);
        }
    }
    CU_ASSERT_EQUAL(bad_order, 0);
    CU_ASSERT_EQUAL(missing_copy, 0);
    free(byid);
    free(rows);
    cJSON_Delete(dag);
}

static void run_and_check(const char *platform, const char *workload, const char *policy,
                          const char *extra)
{
    char *rec = hs_test_tmp(".json"), *trace = hs_test_tmp(".csv"), *dag = hs_test_tmp(".json");
    char args[2048];
    snprintf(args, sizeof args, "dag '%s' -o %s", workload, dag);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "run -q -p '%s' -w '%s' -s '%s' %s -o %s --trace %s", platform,
             workload, policy, extra, rec, trace);
    char *err;
    int rc = hs_test_cli(args, NULL, &err);
    if (rc)
        fprintf(stderr, "\n%s: %s", args, err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(err);
    char *text = hs_test_read_file(rec);
    cJSON *r = cJSON_Parse(text);
    free(text);
    const cJSON *res = cJSON_GetObjectItem(r, "results");
    CU_ASSERT(cJSON_GetObjectItem(res, "makespan")->valuedouble > 0);
    const cJSON *audit = cJSON_GetObjectItem(res, "audit");
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(audit, "inputs_invalid_at_start")->valueint, 0);
    cJSON_Delete(r);
    check_run(dag, trace);
    free(rec);
    free(trace);
    free(dag);
}

static void test_platforms_and_policies(void)
{
    const char *policies[] = {"eager", "random", "dmda"};
    for (int p = 0; p < 3; p++) {
        run_and_check("idgraf", "cholesky:n=4096,nb=512", policies[p], "");
        run_and_check("idgraf", "gemm:n=4096,nb=512", policies[p], "--gpus 3 --gpu-order spread");
        run_and_check("idgraf-starpu", "cholesky:n=4096,nb=512", policies[p], "--noise 0.1 --p2p");
        run_and_check("mapuche", "cholesky:n=1000,nb=100,precision=s", policies[p], "");
        run_and_check("flat:4,bw=2G,lat=1e-5", "cholesky:n=2000,nb=250", policies[p], "");
        run_and_check("idgraf", "cholesky:n=8192,nb=1024", policies[p],
                      "--cache-fraction 0.05 --gpus 2"); /* evictions */
        /* data whose only copy is being written back while another GPU needs it */
        run_and_check("idgraf", "cholesky:n=8192,nb=512", policies[p], "--cache-fraction 0.02 --gpus 4");
    }
}

static void test_same_seed_same_record(void)
{
    char *a = hs_test_tmp(".json"), *b = hs_test_tmp(".json"), *c = hs_test_tmp(".json");
    char args[1024];
    const char *common = "run -q -w cholesky:n=4096,nb=512 -s random --noise 0.1";
    snprintf(args, sizeof args, "%s --seed 5 -o %s", common, a);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "%s --seed 5 -o %s", common, b);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "%s --seed 6 -o %s", common, c);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    char *ta = hs_test_read_file(a), *tb = hs_test_read_file(b), *tc = hs_test_read_file(c);
    CU_ASSERT(strlen(ta) > 100);
    CU_ASSERT_STRING_EQUAL(ta, tb);
    CU_ASSERT_STRING_NOT_EQUAL(ta, tc);
    free(ta), free(tb), free(tc), free(a), free(b), free(c);
}

static void test_bad_input(void)
{
    char *trunc = hs_test_tmp(".xml"), *badlink = hs_test_tmp(".xml"), *perf = hs_test_tmp(".json");
    char *xml = hs_test_read_file(hs_test_data("mapuche.xml"));
    char args[2048];
    xml[strlen(xml) / 2] = '\0';
    hs_test_write_file(trunc, xml);
    free(xml);
    xml = hs_test_read_file(hs_test_data("mapuche.xml"));
    char *p = strstr(xml, "<link_ctn id=\"pcie_h2d\"/>");
    memcpy(p, "<link_ctn id=\"pcie_xxx\"/>", 25);
    hs_test_write_file(badlink, xml);
    free(xml);
    hs_test_write_file(perf, "{\"kernels\": [ {\"kernel\": \"dgemm\",, } ]}");
    char *noroute = hs_test_tmp(".xml");
    xml = hs_test_read_file(hs_test_data("mapuche.xml"));
    p = strstr(xml, "  <route src=\"GPU0\"");
    strcpy(p, " </zone>\n</platform>\n");
    hs_test_write_file(noroute, xml);
    free(xml);
    snprintf(args, sizeof args, "run -p %s -w cholesky:n=1000,nb=100,precision=s", noroute);
    hs_test_bad_cli(args, "no route from GPU0 to RAM0");
    free(noroute);

    hs_test_bad_cli("run -p /nonexistent/plat.xml", "platform file /nonexistent/plat.xml: No such file");
    snprintf(args, sizeof args, "run -p %s", trunc);
    hs_test_bad_cli(args, "Invalid XML");
    snprintf(args, sizeof args, "run -p %s", badlink);
    hs_test_bad_cli(args, "Link not found: pcie_xxx");
    snprintf(args, sizeof args, "run --perf %s", perf);
    hs_test_bad_cli(args, "malformed JSON near line 1");
    hs_test_bad_cli("run --perf /nonexistent/perf.json", "/nonexistent/perf.json: No such file");
    hs_test_bad_cli("run -p nosuch", "unknown platform 'nosuch' (shipped: ");
    hs_test_bad_cli("run -p flat:0", "platform flat: parameter p: 0 is outside the allowed range");
    hs_test_bad_cli("run -p flat:4,speeds=1G:2G", "speeds lists 2 values but p=4");
    hs_test_bad_cli("run -p flat:4,colour=red", "unknown parameter 'colour' (valid: p, speed, speeds, bw, lat, spread, choices, scenario, drift)");
    hs_test_bad_cli("run -w cholesky:n=8192,nb=500", "nb=500 does not divide n=8192");
    hs_test_bad_cli("run -w cholesky:n=-8,nb=2", "n: -8 is outside the allowed range");
    hs_test_bad_cli("run -w cholesky:nb=0", "nb: 0 is outside the allowed range");
    hs_test_bad_cli("run -w lux:n=8", "unknown workload 'lux' (valid: cholesky, gemm");
    hs_test_bad_cli("run -w gemm:n=4096,cpu-only=gemm", "cpu-only names kernel 'gemm', which no task has (kernels: dgemm)");
    hs_test_bad_cli("run -w cholesky:m=8", "unknown parameter 'm' (valid: n, nb, precision, setarch, pardiag)");
    hs_test_bad_cli("run -s nosuch", "unknown policy 'nosuch' (valid: eager, random, dmda, heft, cpop, peft");
    hs_test_bad_cli("run -s dmda:alpha=2", "unknown parameter 'alpha' (valid: beta, eft, bus, prefetch)");
    hs_test_bad_cli("run -s dmda:beta=x", "'x' is not a number");
    hs_test_bad_cli("run --gpus 9", "platform idgraf has 8 GPUs; --gpus 9 asks for more");
    hs_test_bad_cli("run --gpus 8 --cpus 5", "do not fit");
    hs_test_bad_cli("run --gpus 8 --cpus 0", "kernel dpotrf has no timing for the architectures of the selected workers");
    hs_test_bad_cli("run -p flat:2 --gpus 1", "platform flat:2 has no GPU");
    hs_test_bad_cli("run --gpus x", "option --gpus: 'x' is not an integer");
    hs_test_bad_cli("run --gpu-order random", "'random' is not first, spread or script");
    hs_test_bad_cli("run --frobnicate", "unknown option '--frobnicate'");
    hs_test_bad_cli("run extra", "unexpected argument 'extra'");
    hs_test_bad_cli("dag cholesky:n=10,nb=3", "nb=3 does not divide n=10");
    hs_test_bad_cli("dag gemm --format xml", "'xml' is not json or dot");
    hs_test_bad_cli("platform nosuch", "unknown platform 'nosuch'");
    /* the start of the list of valid names: it grows with platforms/machine_params.def */
    hs_test_bad_cli("run -p idgraf:bw=3G", "platform idgraf: unknown parameter 'bw' (valid: bw_scale, lat_scale, ");
    hs_test_bad_cli("run -p idgraf:gpu_speed=0", "gpu_speed: 0 is outside the allowed range");
    hs_test_bad_cli("run -p nosuch:bw_scale=2", "unknown platform 'nosuch'");
    hs_test_bad_cli("nosuch", "unknown command 'nosuch'");
    free(trunc);
    free(badlink);
    free(perf);
}

/* An option of a command's own that takes one value, given twice, is
 * refused (the second would replace the first without a word); the ones
 * that add a value each time repeat. */
static void test_option_given_twice(void)
{
    hs_test_bad_cli("run -q -o a.json -o b.json", "run: option -o/--output is given twice ('a.json' and 'b.json'; "
                                                  "the second would replace the first): give it once");
    hs_test_bad_cli("run -q --chrome-trace a.json --chrome-trace=b.json", "option --chrome-trace is given twice");
    hs_test_bad_cli("run -q --engine model --engine simgrid", "option --engine is given twice ('model' and 'simgrid'");
    hs_test_bad_cli("dag cholesky:n=1024,nb=512 -o a.json -o b.json", "dag: option -o/--output is given twice");
    hs_test_bad_cli("summarize x.csv --by policy --by gpus", "summarize: option --by is given twice ('policy' and 'gpus'");
    hs_test_bad_cli("plot x.csv -x gpus -x policy -y gflops", "plot: option -x is given twice");
    hs_test_bad_cli("reproduce cholesky-idgraf-gpus -j 2 --jobs 3", "reproduce: option -j/--jobs is given twice ('2' and '3'");
    /* the scenario's options keep their own words */
    hs_test_bad_cli("run -q --seed 1 --seed 2", "option --seed is given twice (the second would replace the first)");
    /* repeatable: --where and --vary of two axes (the sweep's CSV, plotted for two wheres) */
    char *csv = hs_test_tmp(".csv"), *png = hs_test_tmp(".png"), args[4096];
    snprintf(args, sizeof args, "sweep -p flat:2 -w random:v=5 --vary policy=eager,heft --vary noise=0,0.01 -o %s -q",
             csv);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    snprintf(args, sizeof args, "plot %s -x noise -y makespan --where policy=eager --where noise=0 -o %s", csv, png);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    unlink(csv), unlink(png);
    free(csv), free(png);
}

static void test_listings(void)
{
    char *out;
    CU_ASSERT_EQUAL(hs_test_cli("policies", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "dmda"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "beta=1"));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("workloads", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "nb=512"));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("platform idgraf", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "host     -> GPU0        5985.15 MB/s    11.019 us  [ioh0_down,sw0_down,gpu0_h2d]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "host     -> GPU4        6017.07 MB/s    11.106 us  [ioh0_down,qpi_0to1,sw2_down,gpu4_h2d]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "cache 2576441110 B"));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("platform flat:3,bw=inf", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "P2 "));
    free(out);
    CU_ASSERT_EQUAL(hs_test_cli("dag cholesky:n=4,nb=2 --format dot", &out, NULL), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "digraph"));
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "size=32"));
    free(out);
    for (const char *const *c = (const char *const[]){"run", "platform", "policies", "workloads", "dag", NULL}; *c; c++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", *c);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(out, "usage: hetsim"));
        free(out);
    }
}

/* Every page the listings point to exists and has the section they name:
 * "(docs/PAGE.md, SECTION)" or "docs/PAGE.md"; none points to the README
 * (it is short: the rest lives in docs/). */
static void check_pointers(const char *out, const char *cmd)
{
    for (const char *p = out; (p = strstr(p, "docs/")); p++) {
        char page[128], section[128] = "", path[512];
        if (sscanf(p, "%127[a-z0-9_./-]", page) != 1)
            continue;
        size_t n = strlen(page);
        while (n && page[n - 1] == '.') /* a full stop after the name */
            page[--n] = '\0';
        snprintf(path, sizeof path, "%s/%s", HETSIM_SOURCE_DIR, page);
        char *text = hs_test_read_file(path);
        if (!text)
            fprintf(stderr, "\n`hetsim %s` points to %s, which does not exist\n", cmd, page);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        if (strncmp(p + strlen(page), ", ", 2) == 0 && sscanf(p + strlen(page) + 2, "%127[^)\n]", section) == 1) {
            char heading[160];
            snprintf(heading, sizeof heading, "# %s\n", section);
            if (!strstr(text, heading))
                fprintf(stderr, "\n`hetsim %s` points to %s, section '%s', which it has not\n", cmd, page, section);
            CU_ASSERT_PTR_NOT_NULL(strstr(text, heading));
        }
        free(text);
    }
    CU_ASSERT_PTR_NULL(strstr(out, "README"));
}

static void test_listing_pointers(void)
{
    for (const char *const *c = (const char *const[]){"policies", "workloads", "platform --help", NULL}; *c; c++) {
        char *out;
        CU_ASSERT_EQUAL_FATAL(hs_test_cli(*c, &out, NULL), 0);
        check_pointers(out, *c);
        free(out);
    }
}

static void test_paje(void)
{
    char *paje = hs_test_tmp(".trace"), args[1024];
    snprintf(args, sizeof args, "run -q -w cholesky:n=2048,nb=512 --paje %s", paje);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    char *text = hs_test_read_file(paje);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "%EventDef PajeDefineContainerType"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "dgemm"));
    free(text);
    free(paje);
}

/* --events lists every task and transfer; without --timing there is no wall clock */
static void test_events_in_record(void)
{
    char *rec = hs_test_tmp(".json"), args[1024];
    snprintf(args, sizeof args, "run -q -w cholesky:n=2048,nb=512 --gpus 2 --events -o %s", rec);
    CU_ASSERT_EQUAL_FATAL(hs_test_cli(args, NULL, NULL), 0);
    char *text = hs_test_read_file(rec);
    cJSON *r = cJSON_Parse(text);
    const cJSON *res = cJSON_GetObjectItem(r, "results"), *ev = cJSON_GetObjectItem(r, "events");
    const cJSON *count = cJSON_GetObjectItem(res, "transfers");
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(ev, "tasks")), 20); /* 4x4 tiles */
    CU_ASSERT_EQUAL(cJSON_GetArraySize(cJSON_GetObjectItem(ev, "transfers")),
                    cJSON_GetObjectItem(count, "h2d")->valueint + cJSON_GetObjectItem(count, "d2h")->valueint +
                        cJSON_GetObjectItem(count, "p2p")->valueint);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(r, "timing"));
    cJSON_Delete(r);
    free(text);
    free(rec);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"default scenario", test_default_scenario},
        {"every shipped platform under every policy", test_platforms_and_policies},
        {"same seed, same record; other seed with noise, other record", test_same_seed_same_record},
        {"bad input: one line, exit 2", test_bad_input},
        {"an option of one value given twice: one line, exit 2", test_option_given_twice},
        {"listings and help", test_listings},
        {"the pages and sections the listings point to exist", test_listing_pointers},
        {"Paje trace", test_paje},
        {"events in the record", test_events_in_record},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("cli", tests);
}
