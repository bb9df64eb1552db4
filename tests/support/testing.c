/* tests/support/testing.c — helpers shared by the CUnit tests. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "tests/support/testing.h"
#include "platforms/flat.h"
#include "policies/registry.h"
#include "sim/util.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef HETSIM_SOURCE_DIR
#error "HETSIM_SOURCE_DIR must be defined"
#endif
#ifndef HETSIM_BIN
#error "HETSIM_BIN must be defined"
#endif

int hs_test_main(const char *suite, const CU_TestInfo *tests)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_SuiteInfo suites[] = {{(char *)suite, NULL, NULL, NULL, NULL, (CU_TestInfo *)tests},
                             CU_SUITE_INFO_NULL};
    if (CU_register_suites(suites) != CUE_SUCCESS)
        return 1;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}

const char *hs_test_data(const char *relative)
{
    static char buf[4][1024];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(buf[slot], sizeof buf[slot], "%s/platforms/%s", HETSIM_SOURCE_DIR, relative);
    return buf[slot];
}

static cJSON *events_json(const struct hs_run *run)
{
    const struct hs_sched *rt = run->rt;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "makespan", rt->makespan);
    cJSON_AddNumberToObject(o, "predicted", isfinite(rt->predicted_makespan) ? rt->predicted_makespan : -1);
    cJSON *bytes = cJSON_AddArrayToObject(o, "bytes"), *count = cJSON_AddArrayToObject(o, "count");
    for (int d = 0; d < HS_NDIR; d++) {
        cJSON_AddItemToArray(bytes, cJSON_CreateNumber(rt->bytes[d]));
        cJSON_AddItemToArray(count, cJSON_CreateNumber((double)rt->count[d]));
    }
    cJSON_AddNumberToObject(o, "audit", (double)rt->audit_violations);
    cJSON_AddNumberToObject(o, "evictions", (double)rt->evictions);
    cJSON_AddNumberToObject(o, "writebacks", (double)rt->writebacks);
    cJSON *tasks = cJSON_AddArrayToObject(o, "tasks");
    for (int i = 0; i < rt->dag->ntasks; i++) {
        const struct hs_task_event *ev = &rt->ts[i].ev;
        cJSON *t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "worker", ev->worker);
        cJSON_AddNumberToObject(t, "node", ev->worker >= 0 ? run->pf.workers[ev->worker].node : -1);
        cJSON_AddNumberToObject(t, "start", ev->start);
        cJSON_AddNumberToObject(t, "end", ev->end);
        cJSON_AddNumberToObject(t, "duration", ev->duration);
        cJSON_AddNumberToObject(t, "inputs", ev->inputs);
        cJSON_AddItemToArray(tasks, t);
    }
    cJSON *xfers = cJSON_AddArrayToObject(o, "xfers");
    for (size_t i = 0; i < rt->nxfers; i++) {
        const struct hs_xfer_event *ev = &rt->xfers[i].ev;
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "handle", ev->handle);
        cJSON_AddNumberToObject(x, "src", ev->src);
        cJSON_AddNumberToObject(x, "dst", ev->dst);
        cJSON_AddNumberToObject(x, "bytes", ev->bytes);
        cJSON_AddNumberToObject(x, "start", ev->start);
        cJSON_AddNumberToObject(x, "end", ev->end);
        cJSON_AddItemToArray(xfers, x);
    }
    return o;
}

static char *read_all(int fd)
{
    size_t len = 0, cap = 65536;
    char *buf = hs_xmalloc(cap);
    ssize_t r;
    while ((r = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)r;
        if (cap - len < 4096)
            buf = hs_xrealloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    return buf;
}

cJSON *hs_test_simulate(const struct hs_run_config *cfg, const struct hs_dag *dag,
                        const struct hs_policy *policy, const char *policy_spec)
{
    int fds[2];
    if (pipe(fds))
        return NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        struct hs_spec spec;
        hs_spec_parse(policy_spec, &spec);
        hs_spec_check(&spec, policy->params, "policy");
        struct hs_run run;
        int rc = hs_run_simgrid(cfg, dag, policy, &spec, &run);
        cJSON *o = rc == 0 ? events_json(&run) : cJSON_CreateObject();
        if (rc)
            cJSON_AddStringToObject(o, "error", rc == 1 ? run.rt->error : hs_last_error());
        char *text = cJSON_PrintUnformatted(o);
        size_t len = strlen(text), off = 0;
        while (off < len) {
            ssize_t w = write(fds[1], text + off, len - off);
            if (w <= 0)
                break;
            off += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    char *text = read_all(fds[0]);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    cJSON *o = cJSON_Parse(text);
    free(text);
    return o;
}

struct hs_run_config hs_test_flat_config(int p, const double *speeds)
{
    static char paths[8][512]; /* the configuration points at it while the test runs */
    static int slot;
    char *tmp = hs_test_tmp(".xml"), err[128], *xml = paths[slot++ % 8];
    snprintf(xml, sizeof paths[0], "%s", tmp);
    free(tmp);
    FILE *f = fopen(xml, "w");
    struct hs_flat flat = {.p = p, .speeds = speeds, .speed = 1, .bw = 1, .lat = 0};
    CU_ASSERT_FATAL(f && hs_flat_write(f, &flat, err, sizeof err) == 0);
    fclose(f);
    struct hs_run_config cfg;
    hs_run_config_defaults(&cfg);
    cfg.platform_file = xml;
    cfg.platform_name = "flat";
    return cfg;
}

int hs_test_cli(const char *args, char **out, char **err)
{
    char *o = hs_test_tmp(".out"), *e = hs_test_tmp(".err");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s >%s 2>%s </dev/null", HETSIM_BIN, args, o, e);
    int status = system(cmd);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    char *so = hs_test_read_file(o), *se = hs_test_read_file(e);
    unlink(o);
    unlink(e);
    free(o);
    free(e);
    if (out)
        *out = so;
    else
        free(so);
    if (err)
        *err = se;
    else
        free(se);
    return rc;
}

char *hs_test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return hs_xstrdup("");
    char *buf = read_all(fileno(f));
    fclose(f);
    return buf;
}

char *hs_test_tmp(const char *suffix)
{
    static char dir[256];
    static int counter;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/hetsim-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(1);
        }
    }
    char *path = hs_xmalloc(strlen(dir) + 64);
    sprintf(path, "%s/f%d-%d%s", dir, (int)getpid(), counter++, suffix);
    return path;
}

void hs_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    fclose(f);
}
