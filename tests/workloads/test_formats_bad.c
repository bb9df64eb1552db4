/* tests/workloads/test_formats_bad.c — bad files of other tools' formats through
 * the `hetsim` command (DAX, STG, DAGGEN's text, StarPU's tasks.rec,
 * SimGrid's JSON DAGs, host maps): each gives exit code 2 and one line on
 * stderr naming the file and the field or value, never a crash or a hang;
 * files that are not regular (/dev/zero, a directory) are refused before
 * anything is read. */
#include "base/util.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write text to a file, then `hetsim dag WORKLOAD:file=PATH` on it. */
static void bad_file(const char *workload, const char *text, const char *expect)
{
    char *path = hs_test_tmp(".in"), args[1024];
    hs_test_write_file(path, text);
    snprintf(args, sizeof args, "dag %s%sfile=%s -o /dev/null", workload,
             strchr(workload, ':') ? "," : ":", path);
    hs_test_bad_cli(args, expect);
    free(path);
}

#define ADAG(body) "<?xml version=\"1.0\"?>\n<adag version=\"2.1\">\n" body "</adag>\n"
#define JOB(id) "<job id=\"" id "\" name=\"k\" runtime=\"1\"/>\n"

static void test_bad_dax(void)
{
    bad_file("dax", ADAG("<job id=\"a\" runtime=\"1\">\n</adag>\n"), "malformed XML: line 4");
    bad_file("dax", "<?xml version=\"1.0\"?>\n<workflow/>\n", ":2: <workflow>: not a DAX file (no <adag>)");
    bad_file("dax", "<adag version=\"4.0\"/>", "<adag version=\"4.0\">: hetsim reads DAX 2.1 and 3.x");
    bad_file("dax", ADAG("<job name=\"k\" runtime=\"1\"/>\n"), ":3: <job>: no id");
    bad_file("dax", ADAG("<job id=\"a\" runtime=\"-5\"/>\n"), ":3: <job> runtime -5 is negative");
    bad_file("dax", ADAG("<job id=\"a\" runtime=\"soon\"/>\n"), "<job> runtime 'soon' is not a number");
    bad_file("dax", ADAG("<job id=\"a\">\n<uses file=\"f\" link=\"sideways\"/>\n</job>\n"),
             ":4: <uses file=\"f\">: link 'sideways' is not input, output, inout, none or checkpoint");
    bad_file("dax", ADAG("<job id=\"a\">\n<uses file=\"f\" link=\"input\" size=\"-1\"/>\n</job>\n"),
             "<uses> size -1 is negative");
    bad_file("dax", ADAG(JOB("a") "<child ref=\"a\">\n<parent ref=\"zz\"/>\n</child>\n"),
             ":5: 'zz' is not the id of a job");
    bad_file("dax", ADAG(JOB("a") JOB("a")), "two jobs have id 'a'");
    bad_file("dax", ADAG("<dax id=\"sub\" file=\"x.dax\"/>\n"), "<dax>: sub-workflows are not read");
    bad_file("dax", ADAG(""), "no <job>");
    char args[1024];
    snprintf(args, sizeof args, "dag %s/tests/data/simgrid-dax-cycle.xml", HETSIM_SOURCE_DIR);
    hs_test_bad_cli(args, "has a cycle (through 1, 3)");
}

static void test_bad_stg(void)
{
    bad_file("stg", "", "empty (an STG file starts with its number of tasks)");
    bad_file("stg", "2\n0 0 0\n1 x 1 0\n", ":3: processing time 'x' is not an integer");
    bad_file("stg", "2\n0 0 0\n2 3 1 0\n", ":3: task id 2 where 1 was expected");
    bad_file("stg", "2\n0 0 0\n1 3 1 9\n", ":3: predecessor '9' is not an integer in [0, 3]");
    bad_file("stg", "3\n0 0 0\n1 3 1 0\n", "2 task lines, but the header says 3 tasks (+2 dummies)");
    bad_file("stg", "1\n0 0 0\n1 3 1 1\n2 0 1 1\n", ":3: task 1 is its own predecessor");
    bad_file("stg", "1\n0 0 1 2\n1 3 1 0\n2 0 1 1\n", "the dependencies have a cycle");
    bad_file("stg", "1\n0 0 0\n1 3 2 0\n", "task 1: the file ends within its line");
    bad_file("stg", "0\n", "no task line");
}

/* Records of another type (after a %rec descriptor) and comments are
 * read as recutils reads them: every record with a JobId is a task; CR LF
 * line ends as LF, more than one blank after a colon as one. */
static void test_taskrec_descriptors(void)
{
    char *path = hs_test_tmp_text(".rec", "%rec: Task\n\n# a comment\nJobId: 1\nWorkerId: 0\nStartTime: 0\n"
                                          "EndTime: 2\n\n%rec: Other\n\nJobId: 2\nDependsOn: 1\n"
                                          "# inside\nWorkerId: 0\nStartTime: 2\nEndTime: 5\n");
    char *crlf = hs_test_tmp_text(".rec", "JobId: 1\r\nWorkerId: 0\r\nStartTime: 0\r\nEndTime: 2\r\n\r\n"
                                          "JobId: 2\r\nDependsOn: 1\r\nWorkerId: 0\r\nStartTime: 2\r\nEndTime: 5\r\n");
    /* and with more blanks after the colons than rec's one (a hand-edited file) */
    char *blanks = hs_test_tmp_text(".rec", "JobId:   1\nWorkerId:  0\nStartTime:\t 0\nEndTime: 2\n\n"
                                            "JobId: 2\nDependsOn:   1\nWorkerId:\t0\nStartTime: 2\nEndTime:  5\n");
    const char *files[] = {path, crlf, blanks}; /* the same tasks with CR LF line ends (Windows) */
    for (int i = 0; i < 3; i++) {
        char args[1024], *out = NULL;
        snprintf(args, sizeof args, "dag taskrec:file=%s --stats", files[i]);
        CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
        CU_ASSERT(out && strstr(out, "tasks: 2\n"));
        CU_ASSERT(out && strstr(out, "edges: 1\n"));
        free(out);
        unlink(files[i]);
    }
    free(path);
    free(crlf);
    free(blanks);
}

static void test_bad_daggen_text(void)
{
    bad_file("daggen-text", "NODE 0 1 ROOT 0.0 0.0\n", ":1: not DAGGEN's text output (it starts with NODE_COUNT <n>)");
    bad_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0.0 0.0\nNODE 1 2 WORK 5 0.1\n",
             ":3: node type (ROOT, COMPUTATION, TRANSFER, END) 'WORK'");
    bad_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0.0 0.0\nNODE 1 2 COMPUTATION -5 0.1\n",
             ":3: cost (a number >= 0) '-5'");
    bad_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0 0\nNODE 1 7 COMPUTATION 5 0.1\nNODE 2 - END 0 0\n",
             ":3: node 1: child '7' is not a node");
    bad_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0 0\nNODE 0 2 COMPUTATION 5 0.1\n",
             ":3: node 0 declared twice (also line 2)");
    bad_file("daggen-text", "NODE_COUNT 3\nNODE 0 1 ROOT 0 0\nNODE 1 2 COMPUTATION 5 0.1\n",
             "node 2 is not declared (NODE_COUNT is 3)");
    bad_file("daggen-text", "NODE_COUNT 2\nNODE 0 1 ROOT 0 0\nNODE 1 - END 0\n",
             ":3: a NODE line has 5 fields");
    bad_file("daggen-text", "NODE_COUNT 900000000\n", ":1: NODE_COUNT 900000000, but the file has 2 lines");
}

#define REC(fields) "JobId: 1\nWorkerId: 0\nStartTime: 0\nEndTime: 1\n" fields "\n"

static void test_bad_taskrec(void)
{
    bad_file("taskrec", "Name: x\nWorkerId: 0\n\n", ":1: a task record with no JobId");
    bad_file("taskrec", "# only a comment\n", "no task record");
    bad_file("taskrec", REC("") "JobId: 1\n\n", ":6: JobId 1 given twice");
    bad_file("taskrec", REC("DependsOn: 7\n"), ":1: JobId 1: DependsOn 7 is not the JobId of a task");
    bad_file("taskrec", "JobId: 1\nWorkerId: 0\nStartTime: 5\nEndTime: 1\n\n",
             "JobId 1: StartTime and EndTime must be numbers, EndTime >= StartTime ('5', '1')");
    bad_file("taskrec", REC("Handles: a b\nModes: R\nSizes: 8 8\n"),
             "JobId 1: handle b needs a mode (R, W, RW) and a size in bytes");
    bad_file("taskrec", REC("Handles: a\nModes: Q\nSizes: 8\n"), "JobId 1: handle a needs a mode");
    bad_file("taskrec", "JobId: 1\nDependsOn: 2\n\nJobId: 2\nDependsOn: 1\n\n",
             "the DependsOn links have a cycle");
    bad_file("taskrec", "JobId: 1\nWorkerId: one\nStartTime: 0\nEndTime: 1\n\n",
             "JobId 1: WorkerId 'one' is not a worker number");
    bad_file("taskrec", "JobId 1\n\n", ":1: 'JobId 1' is not a 'Field: value' line");
    /* librec's parse errors, at the line it stopped */
    bad_file("taskrec", REC("") "+ more\nJobId: 2\n\n", ":6: '+ more' is not a 'Field: value' line of rec");
    bad_file("taskrec", REC("Bad-Name: x\n"), ":5: 'Bad-Name: x' is not a 'Field: value' line of rec");
    bad_file("taskrec", REC("") "JobId: 2\n%rec: Task\nWorkerId: 0\n\n",
             ":6: a record with both %rec (a record descriptor, which rec readers do not count as a record) and JobId");
    hs_test_bad_cli("dag taskrec:file=x.rec,gpu_workers=a", "gpu_workers 'a' is not a list of worker numbers");
}

#define SGJSON(tasks) "{\"name\": \"w\", \"workflow\": {\"tasks\": [" tasks "]}}"
#define SGT(name, type, extra) "{\"name\": \"" name "\", \"type\": \"" type "\"" extra "}"

static void test_bad_simgrid_json(void)
{
    const char *sg = "wfformat:semantics=simgrid";
    bad_file(sg, SGJSON(SGT("a", "auxiliary", "")),
             "workflow.tasks[0].type: 'auxiliary' is not compute or transfer");
    bad_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": -1")),
             "workflow.tasks[0].runtimeInSeconds: negative");
    bad_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": 1") ","
                        SGT("b", "compute", ", \"runtimeInSeconds\": 1") ","
                        SGT("t", "transfer", ", \"writtenBytes\": 1, \"parents\": [\"a\", \"b\"]")),
             "workflow.tasks[2]: a transfer has one parent, a compute task");
    bad_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": 1, \"parents\": [\"zz\"]")),
             "workflow.tasks[0].parents[0]: 'zz' is not a task");
    bad_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": 1") ","
                        SGT("a", "compute", ", \"runtimeInSeconds\": 1")),
             "workflow.tasks[1]: duplicate task name 'a' (also workflow.tasks[0])");
    bad_file(sg, SGJSON(SGT("a", "compute", ", \"runtimeInSeconds\": 1, \"parents\": [\"b\"]") ","
                        SGT("b", "compute", ", \"runtimeInSeconds\": 1, \"parents\": [\"a\"]")),
             "workflow.tasks: the parents links have a cycle");
}

static void test_not_regular(void)
{
    static const char *const readers[] = {"dax", "stg", "daggen-text", "taskrec", "wfformat", NULL};
    char args[256];
    for (int i = 0; readers[i]; i++) {
        snprintf(args, sizeof args, "dag %s:file=/dev/zero", readers[i]);
        hs_test_bad_cli(args, "/dev/zero: not a regular file");
        snprintf(args, sizeof args, "dag %s:file=/tmp", readers[i]);
        hs_test_bad_cli(args, "/tmp: is a folder, not a file");
    }
    hs_test_bad_cli("dag stg:file=/nonexistent/g.stg", "/nonexistent/g.stg: No such file or directory");
}

static void test_old_platform(void)
{
    char *pf = hs_test_tmp(".xml"), args[1024];
    hs_test_write_file(pf, "<?xml version='1.0'?>\n<platform version=\"3\">\n<AS id=\"AS0\" "
                           "routing=\"Full\">\n<host id=\"CPU0\" power=\"1\"/>\n</AS>\n</platform>\n");
    snprintf(args, sizeof args, "platform %s", pf);
    hs_test_bad_cli(args, "SimGrid platform version 3 (StarPU's older format); use the .v4.xml file "
                          "StarPU writes beside it");
    free(pf);
}

/* SimGrid's complaints, as the installed SimGrid words them, reach the user
 * (platform_simgrid.c recognises them by their text): a bad number, bad XML,
 * an invalid model in <config> (xbt_die), a route to a link that does not
 * exist (an exception). Never the fallback "SimGrid could not load it". */
static void test_simgrid_wording(void)
{
    static const struct {
        const char *body, *expect;
    } cases[] = {
        {"<host id=\"RAM\" speed=\"1f\"/>\n<host id=\"CPU0\" speed=\"abc\"/>", ":6: cannot parse number:abc"},
        {"<host id=\"RAM\" speed=\"1f\"/>\n<hots id=\"CPU0\" speed=\"1Gf\"/>", ":6: Invalid XML"},
        {"<host id=\"RAM\" speed=\"1f\"/>\n<host id=\"CPU0\" speed=\"1Gf\"/>\n<route src=\"RAM\" dst=\"CPU0\">"
         "<link_ctn id=\"nowhere\"/></route>", "Link not found: nowhere"},
        {NULL, "Model 'Banana' is invalid!"},
    };
    char *pf = hs_test_tmp(".xml"), args[1024], text[2048];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(text, sizeof text, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                 "<platform version=\"4.1\">\n%s<zone id=\"z\" routing=\"Full\">\n%s\n</zone>\n</platform>\n",
                 cases[i].body ? "" : "<config><prop id=\"network/model\" value=\"Banana\"/></config>\n",
                 cases[i].body ? cases[i].body : "<host id=\"RAM\" speed=\"1f\"/>");
        hs_test_write_file(pf, text);
        snprintf(args, sizeof args, "platform %s", pf);
        hs_test_bad_cli(args, cases[i].expect);
    }
    unlink(pf);
    free(pf);
}

static void test_bad_host_map(void)
{
    char args[2048], *map = hs_test_tmp(".hosts");
    const char *pf = HETSIM_SOURCE_DIR "/tests/data/simgrid-small_platform.xml";
    hs_test_write_file(map, "Tremblay ram\n* processor\n");
    snprintf(args, sizeof args, "platform %s:hosts=%s", pf, map);
    hs_test_bad_cli(args, ":2: kind 'processor' is not cpu, gpu, ram, proc or ignore");
    hs_test_write_file(map, "Tremblay ram\n* cpu extra\n");
    hs_test_bad_cli(args, ":2: expected 'PATTERN KIND', KIND cpu, gpu, ram, proc or ignore (one "
                          "word too many)");
    snprintf(args, sizeof args, "platform %s:hosts=/nonexistent.hosts", pf);
    hs_test_bad_cli(args, "host map /nonexistent.hosts: No such file or directory");
    snprintf(args, sizeof args, "platform %s:hosts=/dev/zero", pf);
    hs_test_bad_cli(args, "host map /dev/zero: not a regular file");
    free(map);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"bad DAX", test_bad_dax},
        {"bad STG", test_bad_stg},
        {"bad DAGGEN text", test_bad_daggen_text},
        {"bad tasks.rec", test_bad_taskrec},
        {"tasks.rec: descriptors and comments as recutils reads them", test_taskrec_descriptors},
        {"bad SimGrid JSON DAG", test_bad_simgrid_json},
        {"files that are not regular", test_not_regular},
        {"bad host maps", test_bad_host_map},
        {"SimGrid's complaints as the installed SimGrid words them", test_simgrid_wording},
        {"version-3 platform files", test_old_platform},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("formats_bad", tests);
}
