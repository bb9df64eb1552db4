/* tests/sim/engines/real/test_topology.c — the machine's topology read through hwloc
 * (sim/engines/real/topology.h) against what Linux says without hwloc
 * (sysconf, the thread's affinity, sysfs, /proc/cpuinfo); pinning (pin.h):
 * two indices on two physical cores, wrapping, unpinning, the GPUs' thread
 * near a NUMA node, and on a core with two hyperthreads (hwloc's synthetic
 * topology, in a child) both indices on that core's first PU; the topology in NAME.machine.json round-trips,
 * files without it still load, bad ones are refused; and a measured run
 * refuses a machine file whose topology is not this machine's, or whose
 * kernels were timed with another OpenBLAS (blas_core.h), in one line
 * naming the field. */
#define _GNU_SOURCE /* pthread_getaffinity_np, cpu_set_t */
#include "sim/engines/real/calibrate_run.h"
#include "sim/engines/real/machine.h"
#include "sim/engines/real/pin.h"
#include "sim/engines/real/blas_core.h"
#include "sim/engines/real/topology.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- what Linux says without hwloc ------------------------------------------------ */

static cpu_set_t affinity(pthread_t th)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CU_ASSERT_EQUAL_FATAL(pthread_getaffinity_np(th, sizeof set, &set), 0);
    return set;
}

/* A number in a sysfs file, -1 if it cannot be read. */
static long sysfs_long(const char *path)
{
    FILE *f = fopen(path, "r");
    long v = -1;
    if (f && fscanf(f, "%ld", &v) != 1)
        v = -1;
    if (f)
        fclose(f);
    return v;
}

/* The physical core of CPU c: package * 2^20 + core id; -1 if sysfs does not say. */
static long core_key(int c)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
    long package = sysfs_long(path);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", c);
    long core = sysfs_long(path);
    return package < 0 || core < 0 ? -1 : package * (1L << 20) + core;
}

/* Distinct physical cores among the CPUs of set; -1 if sysfs does not say. */
static int physical_cores(const cpu_set_t *set)
{
    long keys[CPU_SETSIZE];
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        long k = core_key(c);
        if (k < 0)
            return -1;
        bool seen = false;
        for (int i = 0; i < n; i++)
            seen |= keys[i] == k;
        if (!seen)
            keys[n++] = k;
    }
    return n;
}

/* The largest of CPU c's caches in sysfs ("48K", "2048K", "30M"); 0 if none. */
static size_t sysfs_cache(int c)
{
    size_t largest = 0;
    for (int i = 0; i < 16; i++) {
        char path[128], unit = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/size", c, i);
        FILE *f = fopen(path, "r");
        unsigned long v = 0;
        if (!f)
            continue;
        int got = fscanf(f, "%lu%c", &v, &unit);
        fclose(f);
        size_t bytes = got < 1 ? 0 : unit == 'K' ? v << 10 : unit == 'M' ? v << 20 : unit == 'G' ? v << 30 : v;
        largest = bytes > largest ? bytes : largest;
    }
    return largest;
}

/* /proc/cpuinfo's first "model name", blanks around it removed; "" if none. */
static void proc_model(char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon)
            continue;
        colon++;
        while (isspace((unsigned char)*colon))
            colon++;
        size_t len = strlen(colon);
        while (len > 0 && isspace((unsigned char)colon[len - 1]))
            len--;
        snprintf(out, size, "%.*s", (int)len, colon);
        break;
    }
    if (f)
        fclose(f);
}

/* ---- the topology ------------------------------------------------------------------ */

static void test_describe(void)
{
    struct hs_topology t;
    CU_ASSERT_EQUAL_FATAL(hs_topology_describe(&t), 0);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t mine = affinity(pthread_self());
    /* a PU is a CPU Linux lets this thread run on; a core holds one or more */
    CU_ASSERT_EQUAL(t.pus, CPU_COUNT(&mine));
    CU_ASSERT(t.cores >= 1 && t.cores <= t.pus && t.pus <= online);
    int cores = physical_cores(&mine);
    if (cores > 0)
        CU_ASSERT_EQUAL(t.cores, cores);
    CU_ASSERT(t.packages >= 1 && t.packages <= t.cores);
    CU_ASSERT(t.numa_nodes >= 1 && t.numa_nodes <= t.pus);
    /* the largest cache: at least the first usable CPU's largest in sysfs */
    CU_ASSERT(t.largest_cache_bytes > 0);
    int first = 0;
    while (first < CPU_SETSIZE && !CPU_ISSET(first, &mine))
        first++;
    CU_ASSERT(t.largest_cache_bytes >= sysfs_cache(first));
    CU_ASSERT_EQUAL(hs_calibrate_cache_bytes(), t.largest_cache_bytes);
    /* the model: /proc/cpuinfo's where it names one (x86), else a word */
    char model[512];
    proc_model(model, sizeof model);
    CU_ASSERT(t.cpu_model[0] != '\0');
    if (model[0])
        CU_ASSERT_STRING_EQUAL(t.cpu_model, model);
}

/* No GPU is found where there is none; every NUMA node of a PCI device
 * hwloc keeps is the one sysfs gives (-1 there: the machine's only node,
 * else unknown). */
static void test_gpu_place(void)
{
    CU_ASSERT_EQUAL(hs_topology_gpu_numa_node(NULL), -1);
    CU_ASSERT_EQUAL(hs_topology_gpu_numa_node("not a bus id"), -1);
    CU_ASSERT_EQUAL(hs_topology_gpu_numa_node("ffff:fe:1f.7"), -1);
    CU_ASSERT_PTR_NULL(hs_topology_numa_cpuset(-1));
    CU_ASSERT_PTR_NULL(hs_topology_numa_cpuset(1 << 20));
    int nodes = 0;
    char path[256];
    for (int n = 0; n < 1024; n++) {
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d", n);
        nodes += access(path, F_OK) == 0;
    }
    /* network (class 0x02) and display (0x03: GPUs) devices are among those hwloc keeps */
    char *out = NULL;
    if (hs_test_sh(NULL, "cd /sys/bus/pci/devices 2>/dev/null && for d in *; do "
                         "echo \"$d $(cat $d/class) $(cat $d/numa_node)\"; done", &out) == 0) {
        char id[64];
        unsigned long cls;
        long node;
        for (const char *line = out; line && sscanf(line, "%63s %lx %ld", id, &cls, &node) == 3;
             line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
            if ((cls >> 16) != 0x02 && (cls >> 16) != 0x03)
                continue;
            int expect = node >= 0 ? (int)node : nodes == 1 ? 0 : -1;
            CU_ASSERT_EQUAL(hs_topology_gpu_numa_node(id), expect);
            if (expect >= 0) {
                hwloc_bitmap_t near = hs_topology_numa_cpuset(expect);
                CU_ASSERT_PTR_NOT_NULL(near);
                hwloc_bitmap_free(near);
            }
        }
    }
    free(out);
    if (nodes == 1) { /* the only node holds every usable PU */
        hwloc_bitmap_t all = hs_topology_numa_cpuset(0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(all);
        cpu_set_t mine = affinity(pthread_self());
        CU_ASSERT_EQUAL(hwloc_bitmap_weight(all), CPU_COUNT(&mine));
        hwloc_bitmap_free(all);
    }
}

/* ---- pinning ----------------------------------------------------------------------- */

static pthread_barrier_t release;

static void *wait_released(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&release);
    return NULL;
}

/* The one CPU th is pinned to; -1 if it may run on several (no CUnit
 * assertion: smt_child uses it outside the suite). */
static int pinned_cpu(pthread_t th)
{
    cpu_set_t set;
    if (pthread_getaffinity_np(th, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1)
        return -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            return c;
    return -1;
}

static void test_pinning(void)
{
    struct hs_topology t;
    CU_ASSERT_EQUAL_FATAL(hs_topology_describe(&t), 0);
    struct hs_cores *cores = hs_cores_get();
    CU_ASSERT_PTR_NOT_NULL_FATAL(cores);
    enum { N = 4 };
    pthread_t th[N];
    pthread_barrier_init(&release, NULL, N + 1);
    for (int i = 0; i < N; i++)
        CU_ASSERT_EQUAL_FATAL(pthread_create(&th[i], NULL, wait_released, NULL), 0);
    cpu_set_t before = affinity(th[0]);
    hs_cores_pin(cores, th[0], 0);
    hs_cores_pin(cores, th[1], 1);
    hs_cores_pin(cores, th[2], t.cores); /* wraps around to index 0 */
    int c0 = pinned_cpu(th[0]), c1 = pinned_cpu(th[1]);
    CU_ASSERT(c0 >= 0 && c1 >= 0);
    CU_ASSERT(CPU_ISSET(c0, &before) && CPU_ISSET(c1, &before));
    CU_ASSERT_EQUAL(pinned_cpu(th[2]), c0);
    if (t.cores >= 2) { /* two physical cores: never two hyperthreads of one */
        CU_ASSERT_NOT_EQUAL(c0, c1);
        if (core_key(c0) >= 0)
            CU_ASSERT_NOT_EQUAL(core_key(c0), core_key(c1));
    } else {
        CU_ASSERT_EQUAL(c0, c1);
    }
    /* unpinned: every one of the cores again */
    hs_cores_unpin(cores, th[0]);
    cpu_set_t after = affinity(th[0]);
    CU_ASSERT_TRUE(CPU_EQUAL(&before, &after));
    /* near a NUMA node not known: index 0, as before; near the node of the
     * first core: that core, and index 1 still another one */
    hs_cores_pin_near(cores, th[3], -1);
    CU_ASSERT_EQUAL(pinned_cpu(th[3]), c0);
    hs_cores_free(cores);

    cores = hs_cores_get();
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/node0", c0);
    if (access(path, F_OK) == 0) {
        hs_cores_pin_near(cores, th[3], 0);
        CU_ASSERT_EQUAL(pinned_cpu(th[3]), c0);
        hs_cores_pin(cores, th[1], 1);
        if (t.cores >= 2)
            CU_ASSERT_NOT_EQUAL(pinned_cpu(th[1]), c0);
    }
    hs_cores_free(cores);
    pthread_barrier_wait(&release);
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&release);
}

/* In a child whose hwloc sees one core with two hyperthreads (a synthetic
 * topology, pack:1 core:1 pu:2, on CPUs 0 and 1, bound for real): the line
 * "cores C pus P cpus A B" of what it counts and where indices 0 and 1 go. */
static int smt_child(void)
{
    struct hs_topology t;
    hs_topology_describe(&t);
    struct hs_cores *cores = hs_cores_get();
    pthread_t th[2];
    pthread_barrier_init(&release, NULL, 3);
    for (int i = 0; i < 2; i++) {
        pthread_create(&th[i], NULL, wait_released, NULL);
        hs_cores_pin(cores, th[i], i);
    }
    printf("cores %d pus %d cpus %d %d\n", t.cores, t.pus, pinned_cpu(th[0]), pinned_cpu(th[1]));
    pthread_barrier_wait(&release);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    hs_cores_free(cores);
    return 0;
}

/* Two indices on a machine of one core with two hyperthreads: both on the
 * core's first PU (index 1 wraps around to the only core), never one on
 * each hyperthread. */
static void test_smt(void)
{
    cpu_set_t mine = affinity(pthread_self());
    char exe[2048], cmd[4096], *out = NULL;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (!CPU_ISSET(0, &mine) || !CPU_ISSET(1, &mine) || n <= 0)
        return; /* needs CPUs 0 and 1 */
    exe[n] = '\0';
    snprintf(cmd, sizeof cmd, "HWLOC_SYNTHETIC='pack:1 core:1 pu:2' HWLOC_THISSYSTEM=1 HS_TEST_SMT_CHILD=1 '%s'",
             exe);
    CU_ASSERT_EQUAL(hs_test_sh(NULL, cmd, &out), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "cores 1 pus 2 cpus 0 0"));
    free(out);
}

/* ---- the machine file ------------------------------------------------------------- */

static struct hs_machine_gpu gpus[2] = {
    {8e10, 5e13, {2.5e10, 8e-6}, {2.6e10, 9e-6}},
    {8e10, 5e13, {2.5e10, 8e-6}, {2.6e10, 9e-6}},
};
static struct hs_machine_place places[2] = {{"0000:65:00.0", 1}, {"0000:b3:00.0", -1}};

static struct hs_machine two_socket(void)
{
    return (struct hs_machine){.name = "box", .gpu_model = "Test GPU", .cores = 30, .ngpus = 2,
                               .core_speed = 4e10, .gpus = gpus, .places = places, .task_overhead = {NAN, NAN},
                               .topology = {2, 2, 32, 64, (size_t)48 << 20, "Test CPU 9000"},
                               .blas = "OpenBLAS 9.9 Test"};
}

static void test_machine_file(void)
{
    struct hs_machine m = two_socket(), back;
    char *path = hs_test_tmp(".machine.json");
    CU_ASSERT_EQUAL_FATAL(hs_machine_save(path, &m), 0);
    CU_ASSERT_EQUAL_FATAL(hs_machine_load(path, &back), 0);
    CU_ASSERT_STRING_EQUAL(back.file, path);
    CU_ASSERT_EQUAL(back.cores, 30);
    CU_ASSERT_EQUAL(back.topology.packages, 2);
    CU_ASSERT_EQUAL(back.topology.numa_nodes, 2);
    CU_ASSERT_EQUAL(back.topology.cores, 32);
    CU_ASSERT_EQUAL(back.topology.pus, 64);
    CU_ASSERT_EQUAL(back.topology.largest_cache_bytes, 50331648); /* 48 × 2^20 */
    CU_ASSERT_STRING_EQUAL(back.topology.cpu_model, "Test CPU 9000");
    CU_ASSERT_STRING_EQUAL(back.places[0].pci_bus_id, "0000:65:00.0");
    CU_ASSERT_EQUAL(back.places[0].numa_node, 1);
    CU_ASSERT_STRING_EQUAL(back.places[1].pci_bus_id, "0000:b3:00.0");
    CU_ASSERT_EQUAL(back.places[1].numa_node, -1);
    CU_ASSERT_STRING_EQUAL(back.blas, "OpenBLAS 9.9 Test");
    hs_machine_free(&back);
    /* a node not known is not written */
    char *text = hs_test_read_file(path);
    cJSON *root = cJSON_Parse(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 1);
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItem(g, "numa_node"));
    CU_ASSERT_EQUAL(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "topology"), "cores")->valueint, 32);
    cJSON_Delete(root);
    free(text);

    /* the platform written beside it escapes what the names hold (libxml2's writer): a quote,
       markup and "--" (which may not appear in a comment) in the name and the GPU's model */
    char *xml = hs_test_tmp(".xml"), args[1024], *out;
    struct hs_machine odd = two_socket();
    odd.name = "my \"node\" <&> -- 1-";
    odd.gpu_model = "GPU --> <!-- x";
    CU_ASSERT_EQUAL_FATAL(hs_machine_write_platform(&odd, xml), 0);
    snprintf(args, sizeof args, "platform %s", xml);
    CU_ASSERT_EQUAL(hs_test_cli(args, &out, NULL), 0);
    CU_ASSERT(out && strstr(out, "GPU1"));
    free(out);
    char *x = hs_test_read_file(xml);
    CU_ASSERT_PTR_NOT_NULL(strstr(x, "<zone id=\"my &quot;node&quot; &lt;&amp;&gt; -- 1-\""));
    CU_ASSERT_PTR_NULL(strstr(x, "GPU -->"));
    free(x);
    unlink(xml);
    free(xml);

    /* a file written before the topology was: none, GPUs not placed */
    hs_test_write_file(path, "{\"cores\": 4, \"core_speed\": 1e9, \"gpus\": [{\"memsize\": 1, \"speed\": 1, "
                             "\"h2d\": {\"bandwidth\": 1, \"latency\": 0}, \"d2h\": {\"bandwidth\": 1, "
                             "\"latency\": 0}}]}");
    CU_ASSERT_EQUAL_FATAL(hs_machine_load(path, &back), 0);
    CU_ASSERT_EQUAL(back.topology.cores, 0);
    CU_ASSERT_STRING_EQUAL(back.places[0].pci_bus_id, "");
    CU_ASSERT_EQUAL(back.places[0].numa_node, -1);
    CU_ASSERT_STRING_EQUAL(back.blas, "");
    CU_ASSERT_EQUAL(hs_blas_check_same(back.blas, path), 0); /* not recorded: nothing to compare */
    CU_ASSERT_EQUAL(hs_machine_check_topology(&back), 0); /* nothing to compare */
    hs_machine_free(&back);

    /* bad topologies and places: refused in one line */
    static const char *const bad_topology[] = {
        "\"topology\": 3",
        "\"topology\": {\"packages\": 1, \"numa_nodes\": 1, \"cores\": 0, \"pus\": 1, "
        "\"largest_cache_bytes\": 0, \"cpu_model\": \"x\"}",
        "\"topology\": {\"packages\": 1, \"numa_nodes\": 1, \"cores\": 4, \"pus\": 2, "
        "\"largest_cache_bytes\": 0, \"cpu_model\": \"x\"}", /* fewer PUs than cores */
        "\"topology\": {\"packages\": 1, \"numa_nodes\": 1, \"cores\": 2.5, \"pus\": 4, "
        "\"largest_cache_bytes\": 0, \"cpu_model\": \"x\"}",
        "\"topology\": {\"packages\": 1, \"numa_nodes\": 1, \"cores\": 2, \"pus\": 4, "
        "\"largest_cache_bytes\": 0, \"cpu_model\": 7}",
    };
    char doc[1024];
    for (size_t i = 0; i < sizeof bad_topology / sizeof *bad_topology; i++) {
        snprintf(doc, sizeof doc, "{\"cores\": 4, \"core_speed\": 1e9, \"gpus\": [], %s}", bad_topology[i]);
        hs_test_write_file(path, doc);
        CU_ASSERT_EQUAL(hs_machine_load(path, &back), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "topology needs packages"));
        CU_ASSERT_PTR_NULL(strchr(hs_last_error(), '\n'));
    }
    static const char *const bad_place[] = {"\"numa_node\": 0", "\"pci_bus_id\": 5",
                                            "\"pci_bus_id\": \"0000:65:00.0\", \"numa_node\": -1"};
    for (size_t i = 0; i < sizeof bad_place / sizeof *bad_place; i++) {
        snprintf(doc, sizeof doc, "{\"cores\": 4, \"core_speed\": 1e9, \"gpus\": [{\"memsize\": 1, \"speed\": 1, "
                 "\"h2d\": {\"bandwidth\": 1, \"latency\": 0}, \"d2h\": {\"bandwidth\": 1, \"latency\": 0}, %s}]}",
                 bad_place[i]);
        hs_test_write_file(path, doc);
        CU_ASSERT_EQUAL(hs_machine_load(path, &back), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "pci_bus_id"));
    }
    free(path);
}

/* ---- a machine file that is not this machine -------------------------------------- */

/* A cores-only machine with this machine's topology, t changed by the
 * caller; its files at BASE.machine.json and BASE.xml. */
static void write_here(const char *base, const struct hs_topology *t)
{
    struct hs_machine m = {.name = "here", .gpu_model = "", .cores = 1, .core_speed = 1e10,
                           .task_overhead = {NAN, NAN}, .topology = *t};
    char path[1024];
    snprintf(path, sizeof path, "%s.machine.json", base);
    CU_ASSERT_EQUAL_FATAL(hs_machine_save(path, &m), 0);
    snprintf(path, sizeof path, "%s.xml", base);
    CU_ASSERT_EQUAL_FATAL(hs_machine_write_platform(&m, path), 0);
}

/* Load BASE.machine.json and check it against this machine. */
static int check_file(const char *base)
{
    char path[1024];
    snprintf(path, sizeof path, "%s.machine.json", base);
    struct hs_machine m;
    CU_ASSERT_EQUAL_FATAL(hs_machine_load(path, &m), 0);
    int rc = hs_machine_check_topology(&m);
    hs_machine_free(&m);
    return rc;
}

static void test_mismatch(void)
{
    struct hs_topology here, t;
    CU_ASSERT_EQUAL_FATAL(hs_topology_describe(&here), 0);
    char *base = hs_test_tmp(""), args[2048];
    write_here(base, &here);
    CU_ASSERT_EQUAL(check_file(base), 0);
    t = here;
    t.cores = 1; /* fewer cores than here: a run fits */
    t.pus = 1;
    write_here(base, &t);
    CU_ASSERT_EQUAL(check_file(base), 0);

    t = here;
    t.cores = t.pus = 999;
    write_here(base, &t);
    CU_ASSERT_EQUAL(check_file(base), -1);
    char expect[256];
    snprintf(expect, sizeof expect, "topology.cores is 999, but this machine has %d physical core", here.cores);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), expect));
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), base));
    CU_ASSERT_PTR_NULL(strchr(hs_last_error(), '\n'));
    /* a measured run refuses it in that line */
    snprintf(args, sizeof args, "run --engine real -p %s.xml -w cholesky:n=128,nb=64 --gpus 0 --cpus 1 --no-costs",
             base);
    hs_test_bad_cli(args, "topology.cores is 999");

    t = here;
    snprintf(t.cpu_model, sizeof t.cpu_model, "Another CPU 1");
    write_here(base, &t);
    CU_ASSERT_EQUAL(check_file(base), -1);
    snprintf(expect, sizeof expect, "topology.cpu_model is \"Another CPU 1\", but this machine's is \"%s\"",
             here.cpu_model);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), expect));
    hs_test_bad_cli(args, "topology.cpu_model is \"Another CPU 1\"");

    /* timed with another OpenBLAS (or another choice of its kernels) */
    struct hs_machine m = {.name = "here", .gpu_model = "", .cores = 1, .core_speed = 1e10,
                           .task_overhead = {NAN, NAN}, .topology = here,
                           .blas = "OpenBLAS 0.0.1 DYNAMIC_ARCH Imaginary"};
    char path[1024];
    snprintf(path, sizeof path, "%s.machine.json", base);
    CU_ASSERT_EQUAL_FATAL(hs_machine_save(path, &m), 0);
    snprintf(expect, sizeof expect, "blas is \"OpenBLAS 0.0.1 DYNAMIC_ARCH Imaginary\", but this process runs "
             "\"%s\"", hs_blas_config());
    hs_test_bad_cli(args, expect);
    snprintf(m.blas, sizeof m.blas, "%s", hs_blas_config()); /* the one here: goes through */
    CU_ASSERT_EQUAL_FATAL(hs_machine_save(path, &m), 0);
    CU_ASSERT_EQUAL(hs_blas_check_same(m.blas, path), 0);

    /* this machine's: the measured run goes through */
    write_here(base, &here);
    snprintf(args, sizeof args, "--engine real -p %s.xml -w cholesky:n=128,nb=64 --gpus 0 --cpus 1 --no-costs",
             base);
    cJSON *r = hs_test_run_record(args);
    CU_ASSERT_PTR_NOT_NULL(r);
    cJSON_Delete(r);
    free(base);
}

int main(void)
{
    if (getenv("HS_TEST_SMT_CHILD"))
        return smt_child();
    static const CU_TestInfo tests[] = {
        {"the topology: cores, PUs, caches and model as Linux says without hwloc", test_describe},
        {"where a PCI device sits; no GPU where there is none", test_gpu_place},
        {"pinning: one physical core per index, wrapping, unpinning, near a NUMA node", test_pinning},
        {"pinning with hyperthreads: never two indices on one core's two PUs", test_smt},
        {"the topology in the machine file: round trip, absent, refused when bad", test_machine_file},
        {"a machine file of another machine is refused, in one line naming the field", test_mismatch},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("topology", tests);
}
