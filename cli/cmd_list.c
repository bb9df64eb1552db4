/* cli/cmd_list.c — `hetsim policies` and `hetsim workloads`: every
 * policy and workload with its parameters and their defaults. */
#include "policies/registry.h"
#include "base/util.h"
#include "cli/cli.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <string.h>

static int help_or_usage(int argc, char **argv, const char *cmd, const char *what)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: hetsim %s\nList the %s and their parameters (name=default).\n", cmd, what);
        return 1;
    }
    if (argc > 1) {
        fprintf(stderr, "hetsim %s: unexpected argument '%s'\n", cmd, argv[1]);
        return -1;
    }
    return 0;
}

int hs_cmd_policies(int argc, char **argv)
{
    /* --plugin FILE (repeatable): list the plugins' policies too */
    while (argc > 2 && strcmp(argv[1], "--plugin") == 0) {
        if (!hs_policy_load_plugin(argv[2], true))
            hs_die(HS_EXIT_USAGE, "option --plugin: %s", hs_last_error());
        argc -= 2, argv += 2;
    }
    int h = help_or_usage(argc, argv, "policies", "scheduling policies (--plugin FILE: with a plugin's)");
    if (h)
        return h > 0 ? HS_EXIT_OK : HS_EXIT_USAGE;
    for (const struct hs_policy *const *p = hs_policies(); *p; p++) {
        printf("%s\n  %s\n", (*p)->name, (*p)->summary);
        hs_params_print((*p)->params, "    ");
    }
    return HS_EXIT_OK;
}

int hs_cmd_workloads(int argc, char **argv)
{
    int h = help_or_usage(argc, argv, "workloads", "workloads (DAG generators)");
    if (h)
        return h > 0 ? HS_EXIT_OK : HS_EXIT_USAGE;
    for (const struct hs_workload *const *w = hs_workloads(); *w; w++) {
        printf("%s\n  %s\n", (*w)->name, (*w)->summary);
        hs_params_print((*w)->params, "    ");
    }
    printf("every workload also takes SetArch hints (after its own setarch):\n"
           "    cpu-only=K1/K2           the tasks of these kernels run on cores only\n"
           "    gpu-only=K1/K2           the tasks of these kernels run on GPUs only\n");
    return HS_EXIT_OK;
}
