/* tests/fuzz/fuzz_spec.c — parameter specifications ("name:key=value,..."):
 * the input's first line as a workload (parsed, checked, estimated and, when
 * small enough, built), its second as a policy, its third as flat:P (checked,
 * speeds drawn), the same parsers and tables `-w`, `-s`, `-p` and sweeps use. */
#include "policies/registry.h"
#include "base/params.h"
#include "cli/cli.h"
#include "platforms/flat_speeds.h"
#include "tests/fuzz/fuzz.h"
#include "workloads/workload.h"

#include <stdlib.h>
#include <string.h>

static void policy(const char *text)
{
    struct hs_spec spec;
    if (hs_policy_parse(text, &spec)) {
        char *canon = hs_spec_text(&spec);
        free(canon);
        hs_spec_free(&spec);
    }
}

static void flat(const char *text)
{
    struct hs_spec spec;
    if (hs_spec_parse(text, &spec))
        return;
    struct hs_flat_speeds fs;
    if (hs_spec_check(&spec, hs_flat_params(), "platform flat") == 0 &&
        hs_flat_speeds(&spec, 7, &fs) == 0)
        hs_flat_speeds_free(&fs);
    hs_spec_free(&spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_fuzz_setup();
    char *text = hs_fuzz_text(data, size), *lines[3] = {"", "", ""}, *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    for (int i = 0; i < 3 && line; i++, line = strtok_r(NULL, "\n", &save))
        lines[i] = line;
    if (*lines[0] && !strstr(lines[0], "file=") && !strchr(lines[0], '/')) { /* not a file */
        struct hs_dag *dag = hs_workload_build(lines[0]);
        if (dag)
            hs_dag_free(dag);
    }
    policy(lines[1]);
    flat(lines[2]);
    free(text);
    return 0;
}
