/* tests/support/testing.h — what the CUnit tests share: a main that runs one
 * suite and fails on any failed assertion, simulations run in a forked child
 * (SimGrid allows one simulation per process), the `hetsim` binary run as a
 * subprocess, and small file helpers. */
#ifndef HS_TESTING_H
#define HS_TESTING_H

#include <CUnit/CUnit.h>
#include <cjson/cJSON.h>
#include <stdbool.h>

#include "sim/policy.h"
#include "sim/dag.h"
#include "sim/run.h"
#include "analysis/csv.h"

int hs_test_main(const char *suite, const CU_TestInfo *tests);

/* Add a task of kernel "k" with explicit per-worker costs (seconds, -1:
 * cannot run there); returns its id. */
int hs_test_task(struct hs_dag *dag, const char *label, const double *costs, int nworkers);

/* In a DAG read from a file: the task of a label, the handle of a name
 * (-1 if none), the bytes of the dependency between two labelled tasks
 * (-1 if none). */
int hs_test_task_named(const struct hs_dag *dag, const char *label);
int hs_test_handle_named(const struct hs_dag *dag, const char *name);
double hs_test_dep_bytes(const struct hs_dag *dag, const char *src, const char *dst);

/* Platform and timing-table files of the source tree. */
const char *hs_test_data(const char *relative);
/* Files of tests/data/ (four results are valid at once). */
const char *hs_test_datafile(const char *name);

/* Run dag on the platform file under the policy in a child process and return
 * {"makespan", "bytes":[h2d,d2h,p2p], "count":[...], "error",
 *  "tasks":[{"worker","node","start","end","duration","inputs"}],
 *  "xfers":[{"handle","src","dst","bytes","start","end"}]}; NULL if the child
 * died. The caller deletes it. */
cJSON *hs_test_simulate(const struct hs_run_config *cfg, const struct hs_dag *dag,
                        const struct hs_policy *policy, const char *policy_spec);

/* The same on any engine kind (sim/run.h). */
cJSON *hs_test_run_on(const struct hs_engine_kind *engine, const struct hs_run_config *cfg,
                      const struct hs_dag *dag, const struct hs_policy *policy,
                      const char *policy_spec);

/* hs_test_simulate under the registered policy that policy_spec names,
 * asserting that the run gave a result and no error (printed when there is
 * one). */
cJSON *hs_test_simulate_named(const struct hs_run_config *cfg, const struct hs_dag *dag,
                              const char *policy_spec);

/* A flat:P platform file (speeds[q] flop/s per processor, or 1 each if
 * NULL) with 1 B/s links and no latency, so that bytes are time units; the
 * configuration points at it (kept until the test exits). */
struct hs_run_config hs_test_flat_config(int p, const double *speeds);

/* The shipped Idgraf platform (platforms/idgraf.xml) with gpus GPU workers
 * and cpus CPU workers, no timing table, the platform's runtime costs. */
struct hs_run_config hs_test_idgraf_config(int gpus, int cpus);

/* No runtime costs (sim/costs.h) whatever the platform declares: for tests
 * of other mechanisms computed by hand without them. */
void hs_test_no_costs(struct hs_run_config *cfg);

/* A SimGrid platform file of one zone (routing Full) holding body, and a
 * hetsim JSON DAG of n independent tasks of flops each without data (the
 * temporary paths; caller frees). */
char *hs_test_platform_file(const char *body);
char *hs_test_independent_tasks(int n, double flops);

/* hs_test_idgraf_config with Idgraf's timing table (platforms/perf/idgraf.json)
 * and no runtime costs. */
struct hs_run_config hs_test_idgraf_timed(int gpus, int cpus);

/* Add a task that only runs on a GPU, for `seconds`, reading handle rd and
 * writing handle wr (-1: none); returns its id. */
int hs_test_gpu_task(struct hs_dag *dag, double seconds, int rd, int wr);

/* In JSON (a record, a simulation's events): the number at key (asserting
 * there is one; NaN if not), the i-th item of the array at key, a record's
 * results.makespan. */
double hs_test_num(const cJSON *o, const char *key);
const cJSON *hs_test_item(const cJSON *o, const char *key, int i);
double hs_test_makespan(const cJSON *rec);

/* Run `hetsim ARGS` (a shell-quoted string; $HETSIM_TEST_BIN instead of the
 * built hetsim when set), capturing stdout and stderr (caller frees);
 * returns the exit code. */
int hs_test_cli(const char *args, char **out, char **err);

/* Assert that `hetsim ARGS` exits with 2 and prints one line on stderr that
 * holds expect and no backtrace (printing the command and its stderr when
 * not). */
void hs_test_bad_cli(const char *args, const char *expect);
/* Run a shell command (sh -c) in dir (NULL: here), its standard output and
 * error together in *out (caller frees; out may be NULL); returns its exit
 * code (128 when it died on a signal). */
int hs_test_sh(const char *dir, const char *command, char **out);

/* `hetsim run -q ARGS -o RECORD` (asserting exit 0; on failure the command
 * and its stderr are printed): the parsed record, or NULL if it could not be
 * read. The caller deletes it. */
cJSON *hs_test_run_record(const char *args);

/* `hetsim reproduce NAME --quick -j 2 -q -o DIR`, asserting exit 0 within a
 * minute and every row of DIR/results.csv "ok": its standard output (caller
 * frees), with the number of rows in *rows. */
char *hs_test_quick_study(const char *name, long *rows);

/* DAGs and DAG files (testing_dag.c). */
/* hs_workload_build of fmt with %s a file of tests/data/ (the error on
 * stderr when it fails). */
struct hs_dag *hs_test_build_file(const char *fmt, const char *file);
/* The same with %d the seed (a generator's spec). */
struct hs_dag *hs_test_build_seeded(const char *fmt, int seed);
/* The makespan of `hetsim run -q ARGS` (asserting it ran). */
double hs_test_run_makespan(const char *args);
/* Write text to a file, then hs_test_bad_cli on `hetsim dag
 * WORKLOAD:file=PATH`. */
void hs_test_bad_workload_file(const char *workload, const char *text, const char *expect);
/* Write text to a file with that suffix, then hs_test_bad_cli on `hetsim
 * dag PATH` and `hetsim run -w PATH`. */
void hs_test_bad_dag_file(const char *suffix, const char *text, const char *expect);
/* The DAG as the writer of that format (DOT or hetsim JSON) prints it
 * (caller frees). */
char *hs_test_dag_text(const struct hs_dag *dag, bool dot);
/* Write the DAG to a temporary file and build it back from the path. */
struct hs_dag *hs_test_dag_reread(const struct hs_dag *dag, bool dot);
/* The bytes of the edge src -> dst of a DAG (-1 if none). */
double hs_test_edge_bytes(const struct hs_dag *dag, int src, int dst);
/* The value of a task's kept attribute (NULL if none). */
const char *hs_test_extra(const struct hs_task *t, const char *key);
/* A hand-written hetsim JSON DAG of 3 tasks (a -> b -> c, explicit edges,
 * per-processor costs, an architecture list, a kept attribute), the DAG
 * read from it, and the checks of what it says (with_handles: its 4 handles
 * too, which a DOT round trip does not keep). */
extern const char hs_test_handmade_json[];
struct hs_dag *hs_test_handmade_dag(void);
void hs_test_check_handmade(const struct hs_dag *dag, bool with_handles);
/* Assert that building the workload spec fails with one line that holds
 * needle (printed when it does not). */
void hs_test_bad_workload(const char *spec, const char *needle);
/* Topcuoglu, Hariri and Wu 2002's example (Fig. 2, Table 1): tasks n1..n10
 * (ids 0..9) with their costs on 3 processors and 15 edges whose bytes are
 * their communication costs (a byte takes one time unit on flat:P,bw=1). */
struct hs_dag *hs_test_topcuoglu(void);
/* A random DAG of v tasks with explicit positive costs on p <= 8 processors
 * and about 3 successors each (GSL's MT19937 seeded with seed). */
struct hs_dag *hs_test_random_costs_dag(unsigned long seed, int v, int p);
/* c repeated n times, and the same cut into DOT quoted pieces of 10,000
 * joined by '+' (Graphviz's scanner takes at most 16,384 bytes between two
 * quotes; the opening and closing quotes are the caller's). Caller frees. */
char *hs_test_repeat(char c, size_t n);
char *hs_test_dot_pieces(char c, size_t n);
/* CPU seconds that building the workload spec takes, the least of five
 * readings; *read: whether it built a DAG (else it refused the file). */
double hs_test_read_seconds(const char *spec, bool *read);

/* Sweeps (testing_sweep.c). */
/* `hetsim sweep -q ARGS -o CSV`'s exit code; its stderr in *err (if not NULL). */
int hs_test_sweep(const char *args, const char *csv, char **err);
/* A sweep's CSV file read (empty, with the error on stderr, if it cannot
 * be); the caller frees it with hs_csv_free. */
struct hs_csv hs_test_load_csv(const char *path);
/* The two CSV files hold expect rows each, the same ones whatever their
 * order and wall-clock columns, and no row twice. */
void hs_test_assert_same_rows(const char *a, const char *b, long expect);

/* The number of '\n' in s; the lines of a file. */
int hs_test_count_lines(const char *s);
int hs_test_lines_of(const char *path);

char *hs_test_read_file(const char *path);
/* A page of the source tree (README.md, docs/NAME.md) with every run of
 * blanks and line breaks made one space (caller frees). */
char *hs_test_doc_text(const char *doc);
/* Assert that the page quotes phrase (as hs_test_doc_text reads it); when
 * not, say so on stderr: the phrase is what this build gives. */
void hs_test_doc_quotes(const char *doc, const char *phrase);
/* A JSON file parsed (NULL if it cannot be read or parsed; caller deletes). */
cJSON *hs_test_read_json(const char *path);
/* Everything left on a file descriptor, as a string (caller frees). */
char *hs_test_read_fd(int fd);
/* A fresh temporary path with the given suffix (the file does not exist). */
char *hs_test_tmp(const char *suffix);
/* The same, made a folder (mode 0755; the test stops if it cannot be). */
char *hs_test_tmp_dir(const char *suffix);
void hs_test_write_file(const char *path, const char *text);
/* A fresh temporary file with the given suffix holding text (caller frees the path). */
char *hs_test_tmp_text(const char *suffix, const char *text);

#define HS_ASSERT_NEAR_REL(a, b, rel)                                                              \
    CU_ASSERT_DOUBLE_EQUAL((a), (b), (rel) * fabs((double)(b)) + 1e-300)

#endif
