/* tests/cli/test_names.c — kernel and task names go into the CSV trace, the
 * Paje trace and the Gantt chart's legend as each format's rules say, however
 * hostile they are: a kernel name that is a multi-line shell script (as
 * Nextflow's WfFormat files give), names with commas, quotes and spaces.
 * The CSV trace reads back (RFC 4180) to the same names, the Paje trace has
 * one event per line with the name as one quoted field, gnuplot draws the
 * chart. */
#include "analysis/csv.h"
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* As written in the JSON file (escapes) and as the names really are. */
#define KERNEL_JSON "#!/bin/bash\\nset -e\\necho \\\"a, b\\\" > 'out file'\\n"
#define KERNEL "#!/bin/bash\nset -e\necho \"a, b\" > 'out file'\n"
#define LABEL "task \"one\", two"

static char *hostile_dag(void)
{
    char *path = hs_test_tmp(".json");
    hs_test_write_file(path,
        "{\"handles\": [{\"name\":\"data, \\\"x\\\"\",\"bytes\":1000}],\n \"tasks\": [\n"
        "  {\"label\":\"" "task \\\"one\\\", two" "\",\"kernel\":\"" KERNEL_JSON "\",\"costs\":[1,2],"
        "\"accesses\":[{\"handle\":0,\"mode\":\"W\"}]},\n"
        "  {\"label\":\"second task\",\"kernel\":\"k 2\",\"costs\":[2,1],\"accesses\":[{\"handle\":0,\"mode\":\"R\"}]}\n"
        " ]}\n");
    return path;
}

static void test_csv_trace(void)
{
    char *dag = hostile_dag(), *trace = hs_test_tmp(".csv"), args[2048];
    snprintf(args, sizeof args, "-p flat:2 -w %s -s heft --trace %s", dag, trace);
    cJSON_Delete(hs_test_run_record(args));
    char *text = hs_test_read_file(trace);
    struct hs_csv csv;
    CU_ASSERT_EQUAL_FATAL(hs_csv_parse(text, strlen(text), trace, &csv), 0);
    CU_ASSERT_FALSE(csv.partial);
    int name = hs_csv_col(&csv, "name"), what = hs_csv_col(&csv, "what");
    int seen = 0;
    for (long r = 0; r < csv.nrows; r++)
        if (strcmp(csv.rows[r][0], "task") == 0 && strcmp(csv.rows[r][name], LABEL) == 0) {
            CU_ASSERT_STRING_EQUAL(csv.rows[r][what], KERNEL);
            seen++;
        } else if (strcmp(csv.rows[r][0], "transfer") == 0) {
            CU_ASSERT_STRING_EQUAL(csv.rows[r][name], "data, \"x\"");
        }
    CU_ASSERT_EQUAL(seen, 1);
    hs_csv_free(&csv);
    free(text);
    remove(trace), remove(dag), free(trace), free(dag);
}

static void test_paje_trace(void)
{
    char *dag = hostile_dag(), *paje = hs_test_tmp(".trace"), args[2048];
    snprintf(args, sizeof args, "-p flat:2 -w %s -s heft --paje %s", dag, paje);
    cJSON_Delete(hs_test_run_record(args));
    char *text = hs_test_read_file(paje);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    /* the state value: one quoted field, its quotes and line breaks made harmless */
    CU_ASSERT_PTR_NOT_NULL(strstr(text, " \"#!/bin/bash set -e echo 'a, b' > 'out file' \" "));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, " \"k 2\" "));
    CU_ASSERT_PTR_NULL(strstr(text, "\nset -e"));
    free(text);
    remove(paje), remove(dag), free(paje), free(dag);
}

static void test_gantt_legend(void)
{
    char *dag = hostile_dag(), *rec = hs_test_tmp(".json"), *png = hs_test_tmp(".png");
    char *script = hs_test_tmp(".gp"), args[2048];
    snprintf(args, sizeof args, "run -q -p flat:2 -w %s -s heft --events -o %s", dag, rec);
    CU_ASSERT_EQUAL(hs_test_cli(args, NULL, NULL), 0);
    char *err;
    snprintf(args, sizeof args, "gantt %s -o %s --script %s", rec, png, script);
    int rc = hs_test_cli(args, NULL, &err);
    if (rc)
        fprintf(stderr, "\n`hetsim %s` -> %d: %s", args, rc, err);
    CU_ASSERT_EQUAL(rc, 0);
    char *text = hs_test_read_file(script), *png_text = hs_test_read_file(png);
    CU_ASSERT_PTR_NOT_NULL(png_text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "title '#!/bin/bash set -e echo \"a, b\" > ''out file'' '"));
    free(text), free(png_text), free(err);
    remove(rec), remove(png), remove(script), remove(dag);
    free(rec), free(png), free(script), free(dag);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"CSV trace: RFC 4180, names read back whole", test_csv_trace},
        {"Paje trace: a name is one quoted field", test_paje_trace},
        {"Gantt chart: gnuplot's quoting in the legend", test_gantt_legend},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("names", tests);
}
