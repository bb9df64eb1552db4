/* tests/platforms/test_resolve.c — platform names resolved to files
 * (platforms/resolve.c): the parameters a shipped name or a file takes that
 * change the machine, lat_scale= and copy_engines=, read with their defaults
 * (1, and 0 for "each GPU's property": nothing changed), and their bad
 * values refused with one line naming the platform, the parameter and the
 * value. What they do to a run is test_engine_simgrid's. */
#include "base/util.h"
#include "platforms/resolve.h"
#include "tests/support/testing.h"

#include <string.h>

/* Unset, the machine is the file's: latencies times 1, each GPU's own
 * copy engines (0). */
static void test_defaults(void)
{
    struct hs_platform_ref ref;
    CU_ASSERT_EQUAL_FATAL(hs_resolve_platform("mapuche", NULL, &ref), 0);
    CU_ASSERT_DOUBLE_EQUAL(ref.machine.lat_scale, 1, 0);
    CU_ASSERT_EQUAL(ref.machine.copy_engines, 0);
    CU_ASSERT_DOUBLE_EQUAL(ref.machine.bw_scale, 1, 0);
    hs_platform_ref_free(&ref);
    CU_ASSERT_EQUAL_FATAL(hs_resolve_platform("mapuche:copy_engines=file", NULL, &ref), 0);
    CU_ASSERT_EQUAL(ref.machine.copy_engines, 0);
    hs_platform_ref_free(&ref);
}

/* The values as given, beside the other parameters. */
static void test_values(void)
{
    static const struct {
        const char *text;
        double lat_scale;
        int copy_engines;
    } cases[] = {
        {"mapuche:copy_engines=2", 1, 2},
        {"mapuche:lat_scale=0", 0, 0},
        {"mapuche:copy_engines=2,lat_scale=0", 0, 2},
        {"idgraf:lat_scale=2.5,copy_engines=1,bw_scale=0.5", 2.5, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hs_platform_ref ref;
        CU_ASSERT_EQUAL_FATAL(hs_resolve_platform(cases[i].text, NULL, &ref), 0);
        CU_ASSERT_DOUBLE_EQUAL(ref.machine.lat_scale, cases[i].lat_scale, 0);
        CU_ASSERT_EQUAL(ref.machine.copy_engines, cases[i].copy_engines);
        hs_platform_ref_free(&ref);
    }
}

/* Out of range or not a number: -1, and the message names the platform,
 * the parameter and the value. */
static void test_bad_values(void)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"mapuche:copy_engines=3", "platform mapuche: parameter copy_engines: '3' is not one of file|1|2"},
        {"mapuche:copy_engines=0", "platform mapuche: parameter copy_engines: '0' is not one of file|1|2"},
        {"mapuche:lat_scale=-1", "platform mapuche: parameter lat_scale: -1 is outside the allowed range [0,inf)"},
        {"mapuche:lat_scale=abc", "platform mapuche: parameter lat_scale: 'abc' is not a number"},
        {"idgraf:cpu_speed=0", "platform idgraf: parameter cpu_speed: 0 is outside the allowed range (0,inf)"},
        {"idgraf:cpu_speed=abc", "platform idgraf: parameter cpu_speed: 'abc' is not a number"},
        {"idgraf:cpu_speed=2,cpu_kernels=dpotrf:nosuch",
         "cpu_kernels names kernel 'nosuch', which"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hs_platform_ref ref;
        CU_ASSERT_EQUAL(hs_resolve_platform(cases[i].text, NULL, &ref), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), cases[i].message));
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"lat_scale and copy_engines unset: the file's machine", test_defaults},
        {"lat_scale and copy_engines as given", test_values},
        {"bad lat_scale and copy_engines refused, named", test_bad_values},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("resolve", tests);
}
