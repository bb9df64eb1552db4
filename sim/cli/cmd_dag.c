/* sim/cli/cmd_dag.c — `hetsim dag`: write the DAG a workload generates. */
#include "sim/cli/cli.h"
#include "sim/util.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: hetsim dag WORKLOAD [--format json|dot] [-o FILE]\n"
                 "Write the DAG of WORKLOAD (name:key=value,..., see `hetsim workloads`):\n"
                 "json keeps handles and accesses; dot is the task graph with SimGrid's\n"
                 "size attributes (flops on tasks, bytes on edges). Default: json on stdout.\n");
}

int hs_cmd_dag(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'}, {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
    };
    const char *format = "json", *output = NULL;
    int c;
    optind = 1;
    while ((c = hs_getopt("dag", argc, argv, "f:o:h", opts)) != -1) {
        switch (c) {
        case 'f': format = optarg; break;
        case 'o': output = optarg; break;
        case 'h': usage(stdout); return HS_EXIT_OK;
        default: return HS_EXIT_USAGE;
        }
    }
    if (strcmp(format, "json") && strcmp(format, "dot"))
        hs_die(HS_EXIT_USAGE, "dag: --format '%s' is not json or dot", format);
    if (optind != argc - 1)
        hs_die(HS_EXIT_USAGE, "dag: give one workload (see `hetsim dag --help`)");
    struct hs_dag *dag = hs_workload_build(argv[optind]);
    if (!dag)
        hs_die(HS_EXIT_USAGE, "%s", hs_last_error());
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        hs_dag_free(dag);
        hs_die(HS_EXIT_FAIL, "cannot write %s", output);
    }
    int rc = format[0] == 'j' ? hs_dag_write_json(dag, out) : hs_dag_write_dot(dag, out);
    if (output && fclose(out))
        rc = hs_fail("cannot write %s", output);
    hs_dag_free(dag);
    if (rc)
        hs_die(HS_EXIT_FAIL, "%s", hs_last_error());
    return HS_EXIT_OK;
}
