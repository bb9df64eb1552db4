/* sim/cli/cli.h — the `hetsim` command: subcommands and what they share
 * (resolving platform names, exit codes). */
#ifndef HS_CLI_H
#define HS_CLI_H

#include <getopt.h>

/* Exit codes: 0 success, 1 a run failed, 2 usage error or bad input. */
enum { HS_EXIT_OK = 0, HS_EXIT_FAIL = 1, HS_EXIT_USAGE = 2 };

int hs_cmd_run(int argc, char **argv);
int hs_cmd_platform(int argc, char **argv);
int hs_cmd_policies(int argc, char **argv);
int hs_cmd_workloads(int argc, char **argv);
int hs_cmd_dag(int argc, char **argv);
int hs_cmd_calibrate(int argc, char **argv);
int hs_cmd_compare(int argc, char **argv);

/* A platform named on the command line, resolved to files. */
struct hs_platform_ref {
    char *name;    /* as given */
    char *file;    /* SimGrid XML to load */
    char *perf;    /* timing table, or NULL */
    char *perf_label; /* how the record names it: "perf/idgraf.json" (shipped) or the path */
    char *tmpfile; /* generated file to remove, or NULL */
};

/* "idgraf" (shipped), "flat:8,bw=inf" (generated) or a path to an XML file.
 * perf_override (--perf) wins over the shipped timing table. Returns 0, or -1
 * with hs_fail. */
int hs_resolve_platform(const char *text, const char *perf_override, struct hs_platform_ref *ref);
void hs_platform_ref_free(struct hs_platform_ref *ref);

/* Print the parameters of flat:P (for help texts). */
void hs_print_flat_params(const char *indent);

/* getopt_long with one-line errors: returns like getopt_long, but on an
 * unknown option or a missing argument prints "hetsim CMD: …" and exits 2. */
int hs_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
              const struct option *longopts);

/* Parse an integer / real option value or exit 2 with a message naming it. */
long hs_opt_long(const char *opt, const char *value, long min, long max);
double hs_opt_double(const char *opt, const char *value, double min, double max);

#endif
