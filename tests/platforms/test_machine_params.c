/* tests/platforms/test_machine_params.c — the platform's scalar parameters
 * from their one declaration (platforms/machine_params.c with
 * machine_params.def): the defaults the table declares, values read by
 * kind with their source (given or default), the value as text, the first
 * parameter that changes a simulated machine, the listing `hetsim platform`
 * prints, and bad input refused in one line naming the parameter and the
 * value. */
#include "base/params.h"
#include "base/util.h"
#include "platforms/machine_params.h"
#include "tests/support/testing.h"

#include <stdlib.h>
#include <string.h>

/* The defaults as the table declares them: scales 1, copy_engines "file" (0:
 * each GPU's property), no kernel list and no host map, every source default. */
static void test_defaults(void)
{
    struct hs_machine_params m;
    hs_machine_params_defaults(&m);
    CU_ASSERT_DOUBLE_EQUAL(m.bw_scale, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.lat_scale, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.gpu_speed, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.cpu_speed, 1, 0);
    CU_ASSERT_EQUAL(m.copy_engines, 0);
    CU_ASSERT_PTR_NULL(m.gpu_kernels);
    CU_ASSERT_PTR_NULL(m.cpu_kernels);
    CU_ASSERT_PTR_NULL(m.hosts);
    for (int i = 0; i < HS_MP_COUNT; i++)
        CU_ASSERT_EQUAL(m.source[i], HS_MP_DEFAULT);
    CU_ASSERT_EQUAL(hs_machine_params_changed_simulated(&m), -1);
    /* the table base/params.c checks has every parameter, in the struct's order */
    const struct hs_param *t = hs_machine_params_table();
    int n = 0;
    while (t[n].name)
        n++;
    CU_ASSERT_EQUAL(n, HS_MP_COUNT);
    CU_ASSERT_STRING_EQUAL(t[HS_MP_copy_engines].name, "copy_engines");
    CU_ASSERT_STRING_EQUAL(hs_machine_param_info(HS_MP_cpu_speed)->name, "cpu_speed");
}

/* Each kind read from its text, the given ones marked given, the others at
 * their defaults; copy_engines' word "file" is 0. */
static void test_parse(void)
{
    struct hs_machine_params m;
    CU_ASSERT_EQUAL_FATAL(hs_machine_params_parse("bw_scale=0.5,copy_engines=1,cpu_kernels=dpotrf:dsyrk",
                                                  "platform idgraf", &m), 0);
    CU_ASSERT_DOUBLE_EQUAL(m.bw_scale, 0.5, 0);
    CU_ASSERT_EQUAL(m.copy_engines, 1);
    CU_ASSERT_STRING_EQUAL(m.cpu_kernels, "dpotrf:dsyrk");
    CU_ASSERT_DOUBLE_EQUAL(m.lat_scale, 1, 0);
    CU_ASSERT_PTR_NULL(m.hosts);
    CU_ASSERT_EQUAL(m.source[HS_MP_bw_scale], HS_MP_GIVEN);
    CU_ASSERT_EQUAL(m.source[HS_MP_copy_engines], HS_MP_GIVEN);
    CU_ASSERT_EQUAL(m.source[HS_MP_cpu_kernels], HS_MP_GIVEN);
    CU_ASSERT_EQUAL(m.source[HS_MP_lat_scale], HS_MP_DEFAULT);
    CU_ASSERT_EQUAL(m.source[HS_MP_gpu_speed], HS_MP_DEFAULT);
    char v[64];
    CU_ASSERT_STRING_EQUAL(hs_machine_param_text(&m, HS_MP_bw_scale, v, sizeof v), "0.5");
    CU_ASSERT_STRING_EQUAL(hs_machine_param_text(&m, HS_MP_copy_engines, v, sizeof v), "1");
    CU_ASSERT_STRING_EQUAL(hs_machine_param_text(&m, HS_MP_cpu_kernels, v, sizeof v), "dpotrf:dsyrk");
    /* bw_scale is the first (in the table's order) that changes the simulated machine */
    CU_ASSERT_EQUAL(hs_machine_params_changed_simulated(&m), HS_MP_bw_scale);
    hs_machine_params_free(&m);
    CU_ASSERT_PTR_NULL(m.cpu_kernels);

    CU_ASSERT_EQUAL_FATAL(hs_machine_params_parse("copy_engines=file,gpu_speed=1.3333", "platform x", &m), 0);
    CU_ASSERT_EQUAL(m.copy_engines, 0);
    CU_ASSERT_STRING_EQUAL(hs_machine_param_text(&m, HS_MP_copy_engines, v, sizeof v), "file");
    CU_ASSERT_STRING_EQUAL(hs_machine_param_text(&m, HS_MP_gpu_speed, v, sizeof v), "1.3333");
    CU_ASSERT_EQUAL(hs_machine_params_changed_simulated(&m), HS_MP_gpu_speed);
    hs_machine_params_free(&m);

    /* a kernel list alone changes nothing: gpu_speed is still 1 */
    CU_ASSERT_EQUAL_FATAL(hs_machine_params_parse("gpu_kernels=dgemm", "platform x", &m), 0);
    CU_ASSERT_EQUAL(hs_machine_params_changed_simulated(&m), -1);
    hs_machine_params_free(&m);
}

/* Unknown, of the wrong type, out of range, not one of its words: -1 and one
 * line naming the platform, the parameter and the value. */
static void test_bad(void)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"bw_scal=0.5", "platform idgraf: unknown parameter 'bw_scal' (valid: bw_scale, lat_scale, gpu_speed, "},
        {"gpu_speed=fast", "platform idgraf: parameter gpu_speed: 'fast' is not a number"},
        {"bw_scale=0", "platform idgraf: parameter bw_scale: 0 is outside the allowed range (0,inf)"},
        {"lat_scale=-1", "platform idgraf: parameter lat_scale: -1 is outside the allowed range [0,inf)"},
        {"copy_engines=3", "platform idgraf: parameter copy_engines: '3' is not one of file|1|2"},
        {"cpu_speed=2,cpu_speed=3", "platform idgraf: parameter cpu_speed given twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hs_machine_params m;
        hs_machine_params_defaults(&m);
        CU_ASSERT_EQUAL(hs_machine_params_parse(cases[i].text, "platform idgraf", &m), -1);
        /* the message whole (the list of valid names: its start, so that a new parameter leaves it) */
        CU_ASSERT_EQUAL(strncmp(hs_last_error(), cases[i].message, strlen(cases[i].message)), 0);
        CU_ASSERT(strlen(hs_last_error()) == strlen(cases[i].message) || strstr(cases[i].message, "(valid: "));
        CU_ASSERT_PTR_NULL(strchr(hs_last_error(), '\n'));
        CU_ASSERT_DOUBLE_EQUAL(m.bw_scale, 1, 0); /* untouched */
    }
}

/* `hetsim platform`'s listing: one line per parameter, with its value, unit
 * and source: "given" or the table's default with what that default is. */
static void test_print(void)
{
    struct hs_machine_params m;
    CU_ASSERT_EQUAL_FATAL(hs_machine_params_parse("lat_scale=0", "platform mapuche", &m), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hs_machine_params_print(&m, "  ", f);
    fclose(f);
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    CU_ASSERT_EQUAL(lines, HS_MP_COUNT);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "  lat_scale     0            factor           given in the platform's name\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "  bw_scale      1            factor           default: every link's bandwidth as "
                                        "the platform file gives it\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "  copy_engines  file         engines per GPU  default: each GPU host's"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "  hosts         -            file             default: no host map"));
    free(text);
    hs_machine_params_free(&m);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"the table's defaults", test_defaults},
        {"values by kind, with their source", test_parse},
        {"bad values refused in one line, named", test_bad},
        {"the listing of hetsim platform", test_print},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("machine_params", tests);
}
