/* tests/platforms/test_prop_source.c — the source a platform file writes
 * beside a property (platforms/prop_source.c): the comment just before its
 * <prop> (or a run of <prop>s), on one line; a comment with "--" (which
 * SimGrid reads and strict XML forbids) read too; none when something else
 * stands between them, when the property has no comment, or when the file
 * cannot be read. */
#include "platforms/prop_source.h"
#include "tests/support/testing.h"

#include <stdlib.h>
#include <string.h>

static const char platform[] =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    " <zone id=\"z\" routing=\"Full\">\n"
    "  <!--   MEASURED: 2 us, a source with spaces around it   -->\n"
    "\n"
    "  <prop id=\"runtime/task_cpu\" value=\"2us\"/>\n"
    "  <prop id=\"runtime/task_gpu\" value=\"3us\"/>\n"
    "  <!-- a comment about the host, not the property -->\n"
    "  <host id=\"CPU0\" speed=\"1Gf\"/>\n"
    "  <prop id=\"runtime/decide_push\" value=\"1us\"/>\n"
    "  <!-- READING: on two lines\n"
    "       -- with dashes -->\n"
    "  <prop id=\"runtime/transfer_issue\" value=\"0\"/>\n"
    "  <host id=\"CPU1\" speed=\"1Gf\">\n"
    "   <!-- DATASHEET: nested -->\n"
    "   <prop id=\"memsize\" value=\"8\"/>\n"
    "  </host>\n"
    " </zone>\n"
    "</platform>\n";

static void test_sources(void)
{
    char *file = hs_test_tmp_text(".xml", platform);
    char *s = hs_prop_source(file, "runtime/task_cpu");
    CU_ASSERT_STRING_EQUAL(s, "MEASURED: 2 us, a source with spaces around it");
    free(s);
    s = hs_prop_source(file, "memsize"); /* inside a host */
    CU_ASSERT_STRING_EQUAL(s, "DATASHEET: nested");
    free(s);
    s = hs_prop_source(file, "runtime/task_gpu"); /* a run of properties: the comment before it */
    CU_ASSERT_STRING_EQUAL(s, "MEASURED: 2 us, a source with spaces around it");
    free(s);
    s = hs_prop_source(file, "runtime/transfer_issue"); /* several lines, on one */
    CU_ASSERT_STRING_EQUAL(s, "READING: on two lines -- with dashes");
    free(s);
    CU_ASSERT_PTR_NULL(hs_prop_source(file, "runtime/decide_push")); /* a host between */
    CU_ASSERT_PTR_NULL(hs_prop_source(file, "runtime/nosuch"));
    free(file);
    CU_ASSERT_PTR_NULL(hs_prop_source("/nonexistent/platform.xml", "runtime/task_cpu"));
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"the comment just before a property", test_sources},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("prop_source", tests);
}
