/* tests/platforms/test_perf_starpu.c — StarPU's perfmodels as `--perf`
 * (platforms/perf_starpu.c), on real files StarPU wrote
 * (tests/data/starpu-sampling/README.md): a history line's mean is the
 * duration of its kernel at the tile size its size gives, read by hand from
 * the files (awk '/^[0-9a-f]+\t/' with the line numbers below); a folder
 * gives every Cholesky kernel, of the platform file's host (Attila's or
 * Idgraf's) when it holds several; a regression serves the sizes without history within StarPU's
 * range (a file of our own, as no sampled file has a valid one); runs of a
 * 1-task and a 4-task Cholesky on Attila's cores take the hand sum of the
 * means; StarPU's LU example times lunopiv's GETRF, TRSM and GEMM (a run by
 * hand), and the incremental-pivoting lu is refused on it; bad files are
 * refused with the file and line; a history line without a sample is noted,
 * and a run left without its kernel warned, timed as flops / host speed;
 * StarPU 1.4's LU names read as 1.3's; a folder's file named after a codelet
 * that does not parse refused with its line; a kernel no file times warned. */
#include "platforms/perfmodel.h"
#include "tests/support/testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *attila(const char *file)
{
    static char buf[2][1024];
    static int slot;
    slot = !slot;
    snprintf(buf[slot], sizeof buf[slot], "%s", hs_test_datafile("starpu-sampling"));
    if (*file) {
        strncat(buf[slot], "/", sizeof buf[slot] - strlen(buf[slot]) - 1);
        strncat(buf[slot], file, sizeof buf[slot] - strlen(buf[slot]) - 1);
    }
    return buf[slot];
}

/* One file: chol_model_11.attila, POTRF in single precision (size 4·nb²). */
static void test_file(void)
{
    struct hs_perfmodel pm;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(attila("codelets/45/chol_model_11.attila"), &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 6); /* 3 sizes on cpu0, and on the GPUs (cuda0's) */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "cpu", 320, 1), 3.401100e-3, 1e-12); /* line 41 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "cpu", 640, 1), 2.346245e-2, 1e-12); /* line 40 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "gpu", 960, 1), 4.425357e-2, 1e-12); /* line 73, cuda0 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "gpu", 320, 1), 1.130795e-2, 1e-12); /* line 75 */
    CU_ASSERT_FALSE(hs_perf_has(&pm, "dpotrf", "cpu")); /* 4-byte elements: single precision */
    CU_ASSERT_EQUAL(pm.starpu, 1);
    CU_ASSERT_EQUAL(pm.starpu_gpus, 3); /* cuda0 to cuda2 */
    hs_perf_free(&pm);
}

/* A folder: the Cholesky example's three files, 4 kernels (the update
 * times SGEMM and SSYRK) on cpu and gpu at 3 sizes. */
static void test_folder(void)
{
    struct hs_perfmodel pm;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(hs_perf_load_for(attila("codelets/45"), "x/attila.platform.v4.xml", &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 24);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "strsm", "cpu", 320, 1), 2.026126e-3, 1e-12); /* _21 line 42 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "sgemm", "gpu", 960, 1), 2.795670e-3, 1e-12); /* _22 line 74 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "ssyrk", "cpu", 320, 1), 3.432588e-3, 1e-12); /* _22 line 42 */
    CU_ASSERT(pm.nnotes >= 1); /* the update's two kernels */
    hs_perf_free(&pm);
    /* the same folder holds Idgraf's: 8 GPUs, cuda0's line 209 */
    CU_ASSERT_EQUAL_FATAL(hs_perf_load_for(attila("codelets/45"), "idgraf.platform.v4.xml", &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 24);
    CU_ASSERT_EQUAL(pm.starpu_gpus, 8);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "gpu", 960, 1), 5.062446e-2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "cpu", 320, 1), 1.068290e-3, 1e-12); /* line 40 */
    hs_perf_free(&pm);
    CU_ASSERT_EQUAL(hs_perf_load(attila("codelets/45"), &pm, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "codelet files of 2 hosts (attila, idgraf)"));
    /* what Debian's StarPU 1.3.10 wrote here: one core, one size each */
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(attila("debian-run/codelets/45"), &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 4);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "strsm", "cpu", 320, 1), 1.366130e-3, 1e-12); /* line 39 */
    CU_ASSERT_EQUAL(pm.starpu_gpus, 0);
    hs_perf_free(&pm);
}

/* A folder of two hosts' files gives the platform file's host's. */
static void test_hosts(void)
{
    char *dir = hs_test_tmp_dir(".sampling"), cmd[4096], err[512];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' '%s'", attila("codelets/45/chol_model_11.attila"),
             attila("debian-run/codelets/45/chol_model_11.vm"), dir);
    CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, cmd, NULL), 0);
    struct hs_perfmodel pm;
    CU_ASSERT_EQUAL_FATAL(hs_perf_load_for(dir, "/x/bus/attila.platform.v4.xml", &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 6);
    hs_perf_free(&pm);
    CU_ASSERT_EQUAL_FATAL(hs_perf_load_for(dir, "vm.platform.v4.xml", &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 1);
    hs_perf_free(&pm);
    CU_ASSERT_EQUAL(hs_perf_load(dir, &pm, err, sizeof err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "codelet files of 2 hosts (attila, vm)"));
    free(dir);
}

/* A CPU model of our own in StarPU's layout: one history line at 409600 B
 * (nb = 320, 4-byte), 1000 µs, and a non-linear regression 2e-3·size + 100
 * µs on 20 samples between 409600 and 3686400 B. */
static const char *regression_text(int version, int samples)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "##################\n# Performance Model Version\n%d\n\n# COMBs\n# number of combinations\n1\n"
             "# number of types devices\n1\n# device type\n0\n# device id\n0\n# number of cores\n1\n"
             "# number of implementations\n1\n# number of entries\n1\n# sumlnx ...\n"
             "0\t0\t0\t0\tnan\tnan\t%d\t409600\t3686400\n# a b c\n2e-3\t1\t100\n%s"
             "# hash size flops mean dev sum sum2 n\ncea37d6d\t409600\t1.097392e+07\t1000\t1\t20000\t1\t20\n",
             version, samples, version == 45 ? "# not multiple-regression-base\n0\n" : "");
    return text;
}

static void test_regression(void)
{
    char err[512];
    for (int version = 44; version <= 45; version++) {
        char *dir = hs_test_tmp_dir(".codelets"), path[4096];
        snprintf(path, sizeof path, "%s/chol_model_11.host", dir);
        hs_test_write_file(path, regression_text(version, 20));
        struct hs_perfmodel pm;
        CU_ASSERT_EQUAL_FATAL(hs_perf_load(path, &pm, err, sizeof err), 0);
        CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "cpu", 320, 1), 1e-3, 1e-15); /* history */
        /* nb = 640: 1638400 B, (2e-3 · 1638400 + 100) µs = 3376.8 µs */
        CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "cpu", 640, 1), 3.3768e-3, 1e-12);
        CU_ASSERT_PTR_NOT_NULL(hs_perf_regression_for(&pm, "spotrf", "cpu", 640));
        /* nb = 2000: 16e6 B, past 1.1 · maxx: the history's rate, flops as nb³: 1 ms · 6.25³ */
        CU_ASSERT_PTR_NULL(hs_perf_regression_for(&pm, "spotrf", "cpu", 2000));
        CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "spotrf", "cpu", 2000, 5), 0.244140625, 1e-12);
        hs_perf_free(&pm);
        /* 9 samples: fewer than StarPU trusts a regression with */
        hs_test_write_file(path, regression_text(version, 9));
        CU_ASSERT_EQUAL_FATAL(hs_perf_load(path, &pm, err, sizeof err), 0);
        CU_ASSERT_PTR_NULL(hs_perf_regression_for(&pm, "spotrf", "cpu", 640));
        hs_perf_free(&pm);
        remove(path);
        free(dir);
    }
}

static void expect_refused(const char *path, const char *expect)
{
    struct hs_perfmodel pm;
    char err[1024];
    CU_ASSERT_EQUAL(hs_perf_load(path, &pm, err, sizeof err), -1);
    if (!strstr(err, expect)) {
        fprintf(stderr, "\n%s: got '%s', expected '%s'\n", path, err, expect);
        CU_FAIL("wrong message");
    }
}

static void test_bad(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", hs_test_datafile("bad/starpu/chol_model_11.version"));
    expect_refused(path, "chol_model_11.version:3: perfmodel format version 46");
    snprintf(path, sizeof path, "%s", hs_test_datafile("bad/starpu/chol_model_21.truncated"));
    expect_refused(path, "chol_model_21.truncated:42: a history line has 3 fields");
    expect_refused(hs_test_datafile("bad"), "no StarPU codelet file (SYMBOL.HOST");
    /* cut at a line's end: the file ends where the history should be */
    char *dir = hs_test_tmp_dir(".codelets"), cmd[8300];
    snprintf(path, sizeof path, "%s/chol_model_11.host", dir);
    snprintf(cmd, sizeof cmd, "head -n 38 '%s' > '%s'", attila("codelets/45/chol_model_11.attila"), path);
    CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, cmd, NULL), 0);
    expect_refused(path, "chol_model_11.host:39: the file ends where StarPU writes a history line");
    snprintf(path, sizeof path, "%s/cl_update.host", dir);
    hs_test_write_file(path, regression_text(45, 20));
    expect_refused(path, "cl_update.host: not a StarPU codelet file hetsim reads");
    free(dir);
}

/* Runs on Attila's cores alone (host memory: no transfer), by hand from the
 * files' means: one SPOTRF at nb = 320, 3401.100 µs; then the 2×2-tile
 * chain SPOTRF, STRSM, SSYRK (the update, 3 tiles), SPOTRF:
 * 2 · 3401.100 + 2026.126 + 3432.588 = 12260.914 µs. */
static void test_runs(void)
{
    char args[4096];
    const char *chains[] = {"n=320", "n=640"};
    const double want[] = {3.401100e-3, 1.2260914e-2};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "-p %s --perf %s -w cholesky:%s,nb=320,precision=s -s dmda --gpus 0",
                 attila("bus/attila.platform.v4.xml"), attila("codelets/45"), chains[i]);
        cJSON *rec = hs_test_run_record(args);
        CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
        const cJSON *res = cJSON_GetObjectItem(rec, "results");
        CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(res, "makespan")->valuedouble, want[i], 1e-12);
        const cJSON *notes = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "inputs"), "perf_notes");
        CU_ASSERT(cJSON_GetArraySize(notes) >= 1);
        cJSON_Delete(rec);
    }
    /* a size without history: noted in the record */
    snprintf(args, sizeof args, "-p %s --perf %s -w cholesky:n=400,nb=400,precision=s -s dmda --gpus 0",
             attila("bus/attila.platform.v4.xml"), attila("codelets/45"));
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    char *text = cJSON_PrintUnformatted(rec);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "spotrf on cpu at nb=400: no history line"));
    free(text);
    cJSON_Delete(rec);
    /* the workload's precision differs from the files' */
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=640,nb=320", attila("bus/attila.platform.v4.xml"),
             attila("codelets/45"));
    hs_test_bad_cli(args, "add precision=s to the workload");
}

/* StarPU's LU example on Attila (lu/codelets/45, 8 files: d and s, 11 12 21
 * 22): GETRF, TRSM, GEMM in two precisions, cpu and gpu, 3 sizes each: 36
 * entries. Sizes by hand: 819200 B = 8·320² (one double tile), 1638400 =
 * 2·8·320², 1228800 = 3·4·320². TRSM is 12's where 12 and 21 both time a
 * size (lunopiv has one TRSM kernel). */
static void test_lu(void)
{
    struct hs_perfmodel pm;
    char err[512];
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(attila("lu/codelets/45"), &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 36);
    CU_ASSERT_EQUAL(pm.starpu_nopiv, 1);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "dgetrf", "cpu", 320, 1), 9.586125e-3, 1e-12); /* d_11 line 41 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "dgetrf", "gpu", 960, 1), 6.990473e-2, 1e-12); /* d_11 line 73 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "dtrsm", "cpu", 640, 1), 2.736718e-2, 1e-12); /* d_12 line 41 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "strsm", "gpu", 960, 1), 6.450199e-3, 1e-12); /* s_12 line 75 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "sgemm", "gpu", 320, 1), 1.924610e-4, 1e-12); /* s_22 line 76 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "sgetrf", "cpu", 960, 1), 1.431791e-1, 1e-12); /* s_11 line 40 */
    hs_perf_free(&pm);
    /* beside the Cholesky example's files: its TRSM and GEMM come first, GETRF is the LU's */
    char *dir = hs_test_tmp_dir(".sampling"), cmd[4096];
    snprintf(cmd, sizeof cmd, "cp '%s'/* '%s'/*.attila '%s'", attila("lu/codelets/45"), attila("codelets/45"), dir);
    CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, cmd, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(dir, &pm, err, sizeof err), 0);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "strsm", "cpu", 320, 1), 2.026126e-3, 1e-12); /* chol_model_21 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "sgetrf", "cpu", 320, 1), 4.839229e-3, 1e-12); /* s_11 line 41 */
    hs_perf_free(&pm);
    free(dir);
    /* a 2×2-tile lunopiv on Attila's cores, by hand: SGETRF, the two STRSMs side by side, SGEMM, SGETRF:
     * 2 · 4839.229 + 1978.198 + 3265.838 = 14922.494 µs */
    char args[4096];
    snprintf(args, sizeof args, "-p %s --perf %s -w lunopiv:n=640,nb=320,precision=s -s dmda --gpus 0",
             attila("bus/attila.platform.v4.xml"), attila("lu/codelets/45"));
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_DOUBLE_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "results"), "makespan")->valuedouble,
                           1.4922494e-2, 1e-12);
    cJSON_Delete(rec);
    /* PLASMA's incremental-pivoting LU pivots in its GETRF: refused, pointing to lunopiv */
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w lu:n=640,nb=320,precision=s",
             attila("bus/attila.platform.v4.xml"), attila("lu/codelets/45"));
    hs_test_bad_cli(args, "times GETRF without pivoting");
}

/* StarPU 1.4's names of the LU example's codelets (lu14/codelets/45:
 * starpu_slu_lu_model_getrf, _trsm_ll, _trsm_ru, _gemm, byte-identical to
 * 1.3's _11, _12, _21, _22 in lu/codelets/45): the same 18 entries, the
 * same means (the lines test_lu reads by hand), and the same 2×2-tile
 * lunopiv on Attila's cores, 14922.494 µs by hand. */
static void test_lu14(void)
{
    struct hs_perfmodel pm;
    char err[512];
    int rc = hs_perf_load(attila("lu14/codelets/45"), &pm, err, sizeof err);
    if (rc)
        fprintf(stderr, "\n%s\n", err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(pm.n, 18);
    CU_ASSERT_EQUAL(pm.starpu_nopiv, 1);
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "sgetrf", "cpu", 320, 1), 4.839229e-3, 1e-12); /* getrf line 41 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "sgetrf", "cpu", 960, 1), 1.431791e-1, 1e-12); /* getrf line 40 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "strsm", "gpu", 960, 1), 6.450199e-3, 1e-12);  /* trsm_ll line 75 */
    CU_ASSERT_DOUBLE_EQUAL(hs_perf_time(&pm, "sgemm", "gpu", 320, 1), 1.924610e-4, 1e-12);  /* gemm line 76 */
    hs_perf_free(&pm);
    char args[4096];
    snprintf(args, sizeof args, "-p %s --perf %s -w lunopiv:n=640,nb=320,precision=s -s dmda --gpus 0",
             attila("bus/attila.platform.v4.xml"), attila("lu14/codelets/45"));
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_makespan(rec), 1.4922494e-2, 1e-12);
    cJSON_Delete(rec);
}

/* A folder holding a file named after a codelet of its host that does not
 * parse (garbage, empty, version 'abc'): refused with the file and line,
 * where the file was left out and its kernel timed as flops / speed. */
static void test_folder_bad_file(void)
{
    const char *texts[] = {"garbage, not a perfmodel\n", "", "# Performance Model Version\nabc\n"};
    const char *expect[] = {"chol_model_22.attila:1: the format version: 'garbage,'",
                            "chol_model_22.attila:1: the file ends where StarPU writes the format version",
                            "chol_model_22.attila:2: the format version: 'abc'"};
    for (int i = 0; i < 3; i++) {
        char *dir = hs_test_tmp_dir(".codelets"), cmd[8300], path[4200];
        snprintf(cmd, sizeof cmd, "cp '%s'/*.attila '%s'", attila("codelets/45"), dir);
        CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, cmd, NULL), 0);
        snprintf(path, sizeof path, "%s/chol_model_22.attila", dir);
        hs_test_write_file(path, texts[i]);
        expect_refused(dir, expect[i]);
        free(dir);
    }
}

/* Kernels the files do not time at all: refused, in one line, exit 2, as
 * nothing StarPU measured would time their tasks. A single file,
 * chol_model_11.attila (POTRF), for a 3×3-tile Cholesky: STRSM named (the
 * first kernel of the workload without a file); a folder without
 * chol_model_21: STRSM; a folder of StarPU's LU files for a Cholesky: SPOTRF. */
static void test_untimed_kernels(void)
{
    char args[8400];
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=960,nb=320,precision=s -s dmda",
             attila("bus/attila.platform.v4.xml"), attila("codelets/45/chol_model_11.attila"));
    char want[8400];
    snprintf(want, sizeof want, "hetsim: %s: StarPU's perfmodels time no strsm (no codelet file of it), so nothing "
             "StarPU measured times its tasks", attila("codelets/45/chol_model_11.attila"));
    hs_test_bad_cli(args, want);
    char *dir = hs_test_tmp_dir(".codelets"), cmd[8300];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' '%s'", attila("codelets/45/chol_model_11.attila"),
             attila("codelets/45/chol_model_22.attila"), dir);
    CU_ASSERT_EQUAL_FATAL(hs_test_sh(NULL, cmd, NULL), 0);
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=960,nb=320,precision=s -s eager",
             attila("bus/attila.platform.v4.xml"), dir);
    hs_test_bad_cli(args, "StarPU's perfmodels time no strsm (no codelet file of it)");
    free(dir);
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=960,nb=320,precision=s -s dmda",
             attila("bus/attila.platform.v4.xml"), attila("lu/codelets/45"));
    hs_test_bad_cli(args, "StarPU's perfmodels time no spotrf (no codelet file of it)");
    /* POTRF timed on CUDA device 0 alone (regression_text's model as a CUDA combination), for a run
     * on Attila's cores alone */
    char *gdir = hs_test_tmp_dir(".codelets"), path[4200], text[1024];
    snprintf(path, sizeof path, "%s/chol_model_11.attila", gdir);
    snprintf(text, sizeof text, "%s", regression_text(45, 20));
    char *type = strstr(text, "# device type\n0\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(type);
    type[strlen("# device type\n")] = '1';
    hs_test_write_file(path, text);
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=320,nb=320,precision=s -s dmda --gpus 0",
             attila("bus/attila.platform.v4.xml"), path);
    hs_test_bad_cli(args, "StarPU's perfmodels time spotrf on gpu workers only, and this run on platform");
    snprintf(args, sizeof args, "-p %s --perf %s -w cholesky:n=320,nb=320,precision=s -s dmda --gpus 1",
             attila("bus/attila.platform.v4.xml"), path);
    cJSON *rec = hs_test_run_record(args); /* on the GPU: the history line's 1000 µs, and the tile's copies */
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT(hs_test_makespan(rec) > 1e-3 && hs_test_makespan(rec) < 1.2e-3);
    cJSON_Delete(rec);
    free(gdir);
}

/* Perfmodels and a platform StarPU wrote on different machines: the bus
 * sampling's name (HOST.platform.v4.xml) says its host, the codelet files'
 * names theirs. The 2-core VM's platform with Attila's folder, Attila's
 * one file, and a folder of Attila's and Idgraf's files: refused in one
 * line; hetsim's own platform file says no host, so Attila's files run on
 * it. */
static void test_other_machine(void)
{
    char args[8400];
    const char *vm = hs_test_datafile("starpu/vm.platform.v4.xml");
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=960,nb=320,precision=s -s dmda", vm,
             attila("lu/codelets/45"));
    hs_test_bad_cli(args, "StarPU's perfmodels of host attila, but the platform");
    hs_test_bad_cli(args, "is StarPU's bus sampling of host vm: the two were measured on different machines");
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=320,nb=320,precision=s -s dmda", vm,
             attila("codelets/45/chol_model_11.attila"));
    hs_test_bad_cli(args, "chol_model_11.attila: StarPU's perfmodels of host attila, but the platform");
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=960,nb=320,precision=s -s dmda", vm,
             attila("codelets/45"));
    hs_test_bad_cli(args, "codelet files of 2 hosts (attila, idgraf), none of host vm");
    struct hs_perfmodel pm;
    char err[1024];
    CU_ASSERT_EQUAL(hs_perf_load_for(attila("codelets/45"), "/x/bus/mapuche.platform.xml", &pm, err, sizeof err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "none of host mapuche"));
    CU_ASSERT_EQUAL_FATAL(hs_perf_load_for(attila("lu/codelets/45"), "platforms/attila.xml", &pm, err, sizeof err),
                          0);
    hs_perf_free(&pm);
}

/* A history line without a sample: after 20 calibrating runs of StarPU's
 * cholesky_implicit on a 2-core VM (debian-run-20), chol_model_11.vm has one
 * line, line 39, with n = 0 and mean 0 (POTRF, 409600 B = 4·320²), TRSM 130
 * samples and the update 350. The line is kept out of the table and noted;
 * a run's SPOTRF then has no timing on any core, and nothing StarPU measured
 * would time it: refused in one line naming the line, exit 2 (it used to
 * last flops / StarPU's nominal 2 Gflop/s, 5.487 ms, a figure of nothing
 * measured). */
static void test_no_sample(void)
{
    char dir[4096], err[512];
    snprintf(dir, sizeof dir, "%s/debian-run-20/codelets/45", attila(""));
    struct hs_perfmodel pm;
    CU_ASSERT_EQUAL_FATAL(hs_perf_load(dir, &pm, err, sizeof err), 0);
    CU_ASSERT_EQUAL(pm.n, 3); /* strsm, sgemm, ssyrk at nb = 320 */
    CU_ASSERT_FALSE(hs_perf_has(&pm, "spotrf", "cpu"));
    bool noted = false;
    for (int i = 0; i < pm.nnotes; i++)
        noted |= strstr(pm.notes[i], "chol_model_11.vm line 39 (cpu0_impl0): spotrf at nb = 320 has no sample "
                                     "(n = 0)") != NULL;
    CU_ASSERT(noted);
    hs_perf_free(&pm);
    char args[8400];
    snprintf(args, sizeof args, "run -q -p %s --perf %s -w cholesky:n=640,nb=320,precision=s -s dmda",
             hs_test_datafile("starpu/vm.platform.v4.xml"), dir);
    hs_test_bad_cli(args, "StarPU's perfmodels have no sample of spotrf (");
    hs_test_bad_cli(args, "chol_model_11.vm line 39 (cpu0_impl0): n = 0, StarPU flushed the line");
    /* a workload without POTRF runs on the lines that hold samples: a one-tile GEMM, one SGEMM of
     * chol_model_22.vm's line 39, 6002.939 µs (its mean, read with awk) */
    snprintf(args, sizeof args, "-p %s --perf %s -w gemm:n=320,nb=320,precision=s -s dmda",
             hs_test_datafile("starpu/vm.platform.v4.xml"), dir);
    cJSON *rec = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
    CU_ASSERT_DOUBLE_EQUAL(hs_test_makespan(rec), 6.002939e-3, 1e-12);
    cJSON_Delete(rec);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"one codelet file: means by tile size", test_file},
        {"a folder: every Cholesky kernel", test_folder},
        {"a folder of two hosts", test_hosts},
        {"regressions where no history", test_regression},
        {"bad files: file and line", test_bad},
        {"runs: hand sums of the means", test_runs},
        {"StarPU's LU example: lunopiv's kernels", test_lu},
        {"StarPU 1.4's LU names: the same as 1.3's", test_lu14},
        {"a folder's codelet file that does not parse: file and line", test_folder_bad_file},
        {"kernels the files do not time: refused", test_untimed_kernels},
        {"perfmodels and platform of different machines: refused", test_other_machine},
        {"a history line without a sample: noted, and a run that needs it refused", test_no_sample},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("perf_starpu", tests);
}
