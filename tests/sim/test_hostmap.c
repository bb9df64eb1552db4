/* tests/sim/test_hostmap.c — the host map side file (sim/hostmap.c), through
 * the `hetsim` command: bad maps give exit code 2 and one line naming the
 * file, the line and the value; a host name longer than HS_NAME_MAX is
 * refused. */
#include "base/buf.h"
#include "base/inputfile.h"
#include "base/util.h"
#include "tests/support/testing.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A host of the shipped Idgraf platform renamed to HS_NAME_MAX + 1 bytes
 * (SimGrid reads the file; hetsim's inventory of its hosts refuses it). */
static void test_long_host_name(void)
{
    char *text = hs_test_read_file(hs_test_data("idgraf.xml"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *host = strstr(text, "<host id=\"CPU0\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(host);
    char *name = hs_test_repeat('n', HS_NAME_MAX + 1), args[1200], want[256];
    struct hs_buf b = {0};
    hs_buf_addn(&b, text, (size_t)(host - text));
    hs_buf_printf(&b, "<host id=\"%s\"%s", name, host + strlen("<host id=\"CPU0\""));
    char *path = hs_test_tmp_text(".xml", hs_buf_str(&b));
    snprintf(args, sizeof args, "platform %s", path);
    snprintf(want, sizeof want, "a host name of %d bytes, more than the %d bytes hetsim reads in a name",
             HS_NAME_MAX + 1, HS_NAME_MAX);
    hs_test_bad_cli(args, want);
    hs_buf_free(&b);
    free(path);
    free(name);
    free(text);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"bad host maps", test_bad_host_map},
        {"a host name longer than HS_NAME_MAX is refused", test_long_host_name},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("hostmap", tests);
}
