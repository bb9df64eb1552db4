/* tests/fuzz/fuzz.c — the fuzz targets' helpers (fuzz.h). */
#define _DEFAULT_SOURCE /* mkstemps */
#include "tests/fuzz/fuzz.h"
#include "analysis/dagstats.h"
#include "base/util.h"
#include "workloads/dagio.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct slot {
    char suffix[16];
    char path[256];
};

static struct slot slots[4];

const char *hs_fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
    struct slot *s = NULL;
    for (int i = 0; i < 4 && !s; i++)
        if (!slots[i].path[0] || strcmp(slots[i].suffix, suffix) == 0)
            s = &slots[i];
    if (!s->path[0]) {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(s->suffix, sizeof s->suffix, "%s", suffix);
        snprintf(s->path, sizeof s->path, "%s/hetsim-fuzz-XXXXXX%s", dir, suffix);
        int fd = mkstemps(s->path, (int)strlen(suffix));
        if (fd < 0)
            abort();
        close(fd);
    }
    FILE *f = fopen(s->path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    return s->path;
}

char *hs_fuzz_text(const uint8_t *data, size_t size)
{
    char *t = hs_xmalloc(size + 1);
    if (size)
        memcpy(t, data, size);
    t[size] = '\0';
    return t;
}

static void remove_files(void)
{
    for (int i = 0; i < 4; i++)
        if (slots[i].path[0])
            unlink(slots[i].path);
}

void hs_fuzz_setup(void)
{
    static int done;
    if (done++)
        return;
    hs_set_memory_limit(48 << 20); /* 40 MiB of process and about 8 MiB of DAG */
    atexit(remove_files);
}

void hs_fuzz_dag_file(const uint8_t *data, size_t size, const char *reader, const char *suffix)
{
    hs_fuzz_setup();
    char spec[512];
    snprintf(spec, sizeof spec, "%s:file=%s", reader, hs_fuzz_file(data, size, suffix));
    struct hs_dag *dag = hs_workload_build(spec);
    if (dag)
        hs_fuzz_use_dag(dag);
}

void hs_fuzz_use_dag(struct hs_dag *dag)
{
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    hs_dag_write_json(dag, null);
    hs_dag_write_dot(dag, null);
    fclose(null);
    struct hs_dagstats st;
    hs_dag_stats(dag, 1e9, 1e9, &st, NULL);
    hs_dag_free(dag);
}
