/* cli/cli.h — the `hetsim` command: subcommands and what they share
 * (reading options, options.c). */
#ifndef HS_CLI_H
#define HS_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "scenario/scenario.h" /* exit codes, scenarios, platform names */

int hs_cmd_run(int argc, char **argv);
int hs_cmd_platform(int argc, char **argv);
int hs_cmd_policies(int argc, char **argv);
int hs_cmd_workloads(int argc, char **argv);
int hs_cmd_dag(int argc, char **argv);
int hs_cmd_calibrate(int argc, char **argv);
int hs_cmd_calibrate_sim(int argc, char **argv);
int hs_cmd_compare(int argc, char **argv);
int hs_cmd_sweep(int argc, char **argv);
int hs_cmd_merge(int argc, char **argv);
int hs_cmd_summarize(int argc, char **argv);
int hs_cmd_plot(int argc, char **argv);
int hs_cmd_gantt(int argc, char **argv);
int hs_cmd_reproduce(int argc, char **argv);
int hs_cmd_beta(int argc, char **argv);

/* Split a comma-separated option value in place: its items go to (*out)[0],
 * (*out)[1], ... (*out reallocated to hold them); returns their number. */
int hs_split_list(char *text, char ***out);

/* getopt_long with one-line errors: returns like getopt_long, but on an
 * unknown option or a missing argument prints "hetsim CMD: …" and exits 2. */
int hs_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
              const struct option *longopts);

/* --shard I/N (0 <= I < N) into *shard and *nshards, or exit 2 with one
 * line (cmd_sweep.c; also `reproduce --ledger`). */
void hs_opt_shard(const char *text, int *shard, int *nshards);

/* Join sweep results with the same columns into path, the first row of each
 * key (cmd_merge.c; also `reproduce --ledger --merge`); rows of different
 * sweeps are refused unless mixed. *rows, *dups: rows written, dropped.
 * 0, -1 with hs_fail for bad input, 1 when path could not be written. */
int hs_merge_files(char **files, int n, bool mixed, const char *path, long *rows, long *dups);

/* Print the summary tables of sweep results and write them as CSV on
 * request (cmd_summarize.c, also used by `reproduce`); returns the exit code. */
struct hs_csv;
struct hs_summary_opts;
int hs_summarize_report(const struct hs_csv *csv, const char *file, const struct hs_summary_opts *o,
                        const char *csv_out, const char *pairs_out, bool quiet);

/* ---- the scenario options `run` and `sweep` share (options.c) ---- */

struct hs_scenario;
struct hs_param;

#define HS_SCENARIO_SHORTOPTS "p:w:s:"
enum { HS_OPT_SCENARIO = 1000 }; /* codes of the shared long options: 1000.. */
enum { HS_OPT_PLUGIN = 1099 };    /* --plugin FILE: load a policy plugin */

/* The shared long options followed by a command's own (terminated by a zero
 * entry); caller frees. */
struct option *hs_scenario_options(const struct option *extra);
/* If option c is a shared one, the parameter it sets and its value. */
bool hs_scenario_option(int c, const char *arg, const char **name, const char **value);
/* The option that sets a parameter ("gpu_order" -> "gpu-order"). */
const char *hs_scenario_option_name(const char *param);
void hs_scenario_usage(FILE *out);
/* Set a shared option's parameter, or exit 2 with "option --gpus: …". */
void hs_scenario_apply_option(struct hs_scenario *sc, int c, const char *arg);

/* ---- output paths, checked before any work (options.c) ---- */

/* Can the file be written (created if absent, never truncated; an existing
 * path that is not a regular file is refused, but for the null device)? 0,
 * or -1 with hs_fail("cannot write PATH: reason"). _renamed: for an output
 * renamed into place, which refuses the null device too. */
int hs_output_check(const char *path);
int hs_output_check_renamed(const char *path);
/* Can files be written into the folder (existing, or creatable in an
 * existing folder)? 0 or -1 with hs_fail. */
int hs_output_dir_check(const char *path);
/* Either check, or exit 2 with "CMD: option OPT: cannot write PATH: reason".
 * NULL passes; so does "-" (standard output) for a file. */
void hs_output_require(const char *cmd, const char *opt, const char *path, bool dir);
void hs_output_require_renamed(const char *cmd, const char *opt, const char *path);
/* Exit 2 when two of the n output paths (NULL: not given) name one file. */
void hs_output_distinct(const char *cmd, const char *const *opts, const char *const *paths, int n);

/* Parse an integer / real option value or exit 2 with a message naming it. */
long hs_opt_long(const char *opt, const char *value, long min, long max);
/* --max-memory BYTES (SI suffixes: 8G): the limit workloads are checked
 * against before their DAG is built; exit 2 for a bad value. */
void hs_opt_max_memory(const char *value);
#define HS_MAX_MEMORY_HELP \
    "      --max-memory B    refuse a workload whose DAG needs more (default: this\n" \
    "                        machine's memory; SI suffixes: 8G)\n"
double hs_opt_double(const char *opt, const char *value, double min, double max);

#endif
