/* tests/sim/test_outfile.c — outputs written whole or not at all
 * (sim/outfile.h): an existing file is replaced only when every byte was
 * written (a write that fails, or a writer that gives up, leaves the old
 * content), a folder, FIFO, link to either or to nothing is refused and left
 * as it is, also when it appears between the open and the commit, no
 * temporary file stays behind, and a new file has mode 0666 less the umask
 * (a replaced one keeps its own). `hetsim dag -o` under a file size limit
 * once left a truncated file where the old one was. */
#include "sim/outfile.h"
#include "base/util.h"
#include "tests/support/testing.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Entries of dir (but . and ..); with prefix: those whose name starts so. */
static int entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
            (!prefix || strncmp(e->d_name, prefix, strlen(prefix)) == 0))
            n++;
    closedir(d);
    return n;
}

static char *join(const char *dir, const char *name)
{
    char *p = hs_xmalloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

static void assert_text(const char *path, const char *text)
{
    char *got = hs_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, text);
    free(got);
}

static void test_replaced_on_commit_only(void)
{
    char *dir = hs_test_tmp_dir(".d"), *path = join(dir, "out.txt");
    hs_test_write_file(path, "old\n");
    struct hs_outfile o;
    CU_ASSERT_EQUAL_FATAL(hs_outfile_open(&o, path), 0);
    fputs("new\n", o.f);
    fflush(o.f);
    assert_text(path, "old\n"); /* written beside it, in its folder */
    CU_ASSERT_EQUAL(entries(dir, "out.txt.tmp-"), 1);
    CU_ASSERT_STRING_EQUAL(hs_outfile_name(&o), o.tmp);
    CU_ASSERT_EQUAL(hs_outfile_commit(&o), 0);
    assert_text(path, "new\n");
    CU_ASSERT_EQUAL(entries(dir, NULL), 1);
    CU_ASSERT_PTR_NULL(o.f); /* finished: abort does nothing */
    hs_outfile_abort(&o);
    assert_text(path, "new\n");
    /* a writer that gives up: the old file stays, the temporary file goes */
    CU_ASSERT_EQUAL_FATAL(hs_outfile_open(&o, path), 0);
    fputs("half", o.f);
    hs_outfile_abort(&o);
    assert_text(path, "new\n");
    CU_ASSERT_EQUAL(entries(dir, NULL), 1);
    CU_ASSERT_EQUAL(hs_outfile_write(path, "whole\n", 6), 0);
    assert_text(path, "whole\n");
    CU_ASSERT_EQUAL(entries(dir, NULL), 1);
    unlink(path), rmdir(dir), free(path), free(dir);
}

/* A full disk, as a file size limit: the write fails, commit says why. */
static void test_failed_write_keeps_old(void)
{
    char *dir = hs_test_tmp_dir(".d"), *path = join(dir, "out.txt");
    hs_test_write_file(path, "old\n");
    fflush(NULL);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {1024, 1024};
        if (setrlimit(RLIMIT_FSIZE, &rl))
            _exit(3);
        struct hs_outfile o;
        if (hs_outfile_open(&o, path))
            _exit(4);
        for (int i = 0; i < 1000; i++)
            fputs("0123456789", o.f);
        int rc = hs_outfile_commit(&o);
        _exit(rc == -1 && strstr(hs_last_error(), "cannot write") && strstr(hs_last_error(), path) ? 0 : 5);
    }
    int status = 0;
    CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
    CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_text(path, "old\n");
    CU_ASSERT_EQUAL(entries(dir, NULL), 1);
    unlink(path), rmdir(dir), free(path), free(dir);
}

/* Refused at the open, left as it is, nothing created beside it. */
static void refused(const char *dir, const char *path, const char *why)
{
    struct stat before, after;
    CU_ASSERT_EQUAL_FATAL(lstat(path, &before), 0);
    int n = entries(dir, NULL);
    struct hs_outfile o;
    CU_ASSERT_EQUAL(hs_outfile_open(&o, path), -1);
    CU_ASSERT_PTR_NULL(o.f);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), path));
    if (!strstr(hs_last_error(), why))
        fprintf(stderr, "\n%s: '%s' lacks '%s'\n", path, hs_last_error(), why);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), why));
    CU_ASSERT_EQUAL_FATAL(lstat(path, &after), 0);
    CU_ASSERT_EQUAL(before.st_mode, after.st_mode);
    CU_ASSERT_EQUAL(before.st_ino, after.st_ino);
    CU_ASSERT_EQUAL(entries(dir, NULL), n);
}

static void test_not_regular_refused(void)
{
    char *dir = hs_test_tmp_dir(".d");
    char *fifo = join(dir, "fifo"), *sub = join(dir, "sub"), *to_fifo = join(dir, "to-fifo"),
         *to_sub = join(dir, "to-sub"), *dangling = join(dir, "dangling");
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0644), 0);
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0755), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("fifo", to_fifo), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("sub", to_sub), 0);
    CU_ASSERT_EQUAL_FATAL(symlink("nothing", dangling), 0);
    refused(dir, fifo, "it is a FIFO, and an output replaces only a regular file");
    refused(dir, sub, "it is a folder");
    refused(dir, to_fifo, "it is a FIFO");
    refused(dir, to_sub, "it is a folder");
    refused(dir, dangling, "a symbolic link to nothing");
    CU_ASSERT_EQUAL(entries(sub, NULL), 0);
    if (geteuid() != 0) { /* fopen would refuse a file the user may not write: so does the rename */
        char *ro = join(dir, "ro");
        hs_test_write_file(ro, "old\n");
        CU_ASSERT_EQUAL_FATAL(chmod(ro, 0444), 0);
        refused(dir, ro, "Permission denied");
        assert_text(ro, "old\n");
        unlink(ro), free(ro);
    }
    struct hs_outfile o;
    CU_ASSERT_EQUAL(hs_outfile_open(&o, ""), -1);
    /* the fd check of the sweep's CSV, appended in place */
    int fd = open(fifo, O_RDWR | O_NONBLOCK);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(hs_outfile_check_fd(fd, fifo), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "it is a FIFO"));
    close(fd);
    fd = open("/dev/null", O_WRONLY);
    CU_ASSERT_EQUAL(hs_outfile_check_fd(fd, "/dev/null"), 0);
    close(fd);
    unlink(fifo), rmdir(sub), unlink(to_fifo), unlink(to_sub), unlink(dangling), rmdir(dir);
    free(fifo), free(sub), free(to_fifo), free(to_sub), free(dangling), free(dir);
}

/* A FIFO or folder put at the path after the open: commit refuses to
 * rename onto it, leaves it, and removes the temporary file. */
static void test_recheck_at_commit(void)
{
    char *dir = hs_test_tmp_dir(".d"), *path = join(dir, "out");
    struct hs_outfile o;
    CU_ASSERT_EQUAL_FATAL(hs_outfile_open(&o, path), 0);
    fputs("text\n", o.f);
    CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0644), 0);
    CU_ASSERT_EQUAL(hs_outfile_commit(&o), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "it is a FIFO"));
    struct stat st;
    CU_ASSERT(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    CU_ASSERT_EQUAL(entries(dir, NULL), 1);
    unlink(path);
    CU_ASSERT_EQUAL_FATAL(hs_outfile_open(&o, path), 0);
    CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
    CU_ASSERT_EQUAL(hs_outfile_commit(&o), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(hs_last_error(), "it is a folder"));
    CU_ASSERT(lstat(path, &st) == 0 && S_ISDIR(st.st_mode));
    CU_ASSERT_EQUAL(entries(dir, NULL), 1);
    rmdir(path), rmdir(dir), free(path), free(dir);
}

/* A link to a regular file writes that file, as fopen would: the link stays. */
static void test_symlink_to_file(void)
{
    char *dir = hs_test_tmp_dir(".d"), *sub = join(dir, "sub"), *target = join(sub, "target"),
         *link = join(dir, "link");
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0755), 0);
    hs_test_write_file(target, "old\n");
    CU_ASSERT_EQUAL_FATAL(symlink("sub/target", link), 0);
    CU_ASSERT_EQUAL(hs_outfile_write(link, "new\n", 4), 0);
    struct stat st;
    CU_ASSERT(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    assert_text(target, "new\n");
    CU_ASSERT_EQUAL(entries(dir, NULL), 2);
    CU_ASSERT_EQUAL(entries(sub, NULL), 1);
    unlink(link), unlink(target), rmdir(sub), rmdir(dir);
    free(link), free(target), free(sub), free(dir);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
    return st.st_mode & 07777;
}

static void test_modes(void)
{
    char *dir = hs_test_tmp_dir(".d"), *path = join(dir, "out");
    mode_t old = umask(022);
    CU_ASSERT_EQUAL(hs_outfile_write(path, "a\n", 2), 0);
    CU_ASSERT_EQUAL(mode_of(path), 0644); /* not mkstemp's 0600 */
    unlink(path);
    umask(027);
    CU_ASSERT_EQUAL(hs_outfile_write(path, "a\n", 2), 0);
    CU_ASSERT_EQUAL(mode_of(path), 0640);
    /* a replaced file keeps its mode, whatever the umask */
    CU_ASSERT_EQUAL_FATAL(chmod(path, 0664), 0);
    CU_ASSERT_EQUAL(hs_outfile_write(path, "b\n", 2), 0);
    CU_ASSERT_EQUAL(mode_of(path), 0664);
    CU_ASSERT_EQUAL_FATAL(chmod(path, 0600), 0);
    CU_ASSERT_EQUAL(hs_outfile_write(path, "c\n", 2), 0);
    CU_ASSERT_EQUAL(mode_of(path), 0600);
    assert_text(path, "c\n");
    umask(old);
    unlink(path), rmdir(dir), free(path), free(dir);
}

/* "-" is standard output (left open), the null device is written directly. */
static void test_stdout_and_null(void)
{
    struct hs_outfile o;
    CU_ASSERT_EQUAL_FATAL(hs_outfile_open(&o, "-"), 0);
    CU_ASSERT_PTR_EQUAL(o.f, stdout);
    CU_ASSERT_EQUAL(hs_outfile_commit(&o), 0);
    CU_ASSERT_NOT_EQUAL(fflush(stdout), EOF);
    CU_ASSERT_EQUAL_FATAL(hs_outfile_open(&o, "/dev/null"), 0);
    CU_ASSERT_PTR_NULL(o.tmp);
    CU_ASSERT_STRING_EQUAL(hs_outfile_name(&o), "/dev/null");
    fputs("discarded\n", o.f);
    CU_ASSERT_EQUAL(hs_outfile_commit(&o), 0);
    struct stat st;
    CU_ASSERT(lstat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
}

/* `hetsim dag -o` whose write fails (a file size limit: a full disk) keeps
 * the old file and leaves nothing beside it; before, the file was
 * truncated to the limit. */
static void test_cli_failed_write(void)
{
    char *dir = hs_test_tmp_dir(".d"), *path = join(dir, "dag.json"), cmd[4096], *out = NULL;
    hs_test_write_file(path, "{\"old\": true}\n");
    const char *bin = getenv("HETSIM_TEST_BIN");
    snprintf(cmd, sizeof cmd, "trap '' XFSZ; ulimit -f 2; %s dag random:v=100 -o %s", bin ? bin : HETSIM_BIN, path);
    int rc = hs_test_sh(NULL, cmd, &out);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "cannot write"));
    assert_text(path, "{\"old\": true}\n");
    CU_ASSERT_EQUAL(entries(dir, NULL), 1);
    free(out);
    /* without the limit it is replaced, with the file's mode */
    CU_ASSERT_EQUAL_FATAL(chmod(path, 0640), 0);
    snprintf(cmd, sizeof cmd, "dag random:v=100 -o %s", path);
    CU_ASSERT_EQUAL(hs_test_cli(cmd, NULL, NULL), 0);
    char *text = hs_test_read_file(path);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"tasks\""));
    CU_ASSERT_EQUAL(mode_of(path), 0640);
    CU_ASSERT_EQUAL(entries(dir, NULL), 1);
    free(text);
    unlink(path), rmdir(dir), free(path), free(dir);
}

/* A process ended by SIGTERM (timeout(1)), SIGINT or SIGHUP while an output
 * is open leaves no DEST.tmp-XXXXXX (issue 54: a run with --paje killed so
 * left NAME.tmp-XXXXXX), the old file as it was, and still dies of the
 * signal. */
static void test_signal_removes_tmp(void)
{
    const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (int k = 0; k < 3; k++) {
        char *dir = hs_test_tmp_dir(".sig"), path[4200];
        snprintf(path, sizeof path, "%s/out.trace", dir);
        hs_test_write_file(path, "old\n");
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            struct hs_outfile o;
            if (hs_outfile_open(&o, path))
                _exit(3);
            fputs("half a trace", o.f);
            fflush(o.f);
            raise(sigs[k]);
            _exit(4); /* not reached */
        }
        int status = 0;
        CU_ASSERT_EQUAL_FATAL(waitpid(pid, &status, 0), pid);
        CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == sigs[k]);
        DIR *d = opendir(dir);
        int files = 0;
        for (struct dirent *e; (e = readdir(d));)
            files += e->d_name[0] != '.';
        closedir(d);
        CU_ASSERT_EQUAL(files, 1); /* out.trace alone */
        char *text = hs_test_read_file(path);
        CU_ASSERT_STRING_EQUAL(text, "old\n");
        free(text);
        free(dir);
    }
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"an existing file is replaced at the commit only", test_replaced_on_commit_only},
        {"a failed write keeps the old file", test_failed_write_keeps_old},
        {"a folder, FIFO or link to either or to nothing is refused", test_not_regular_refused},
        {"a FIFO or folder put there after the open is not replaced", test_recheck_at_commit},
        {"a link to a regular file writes that file", test_symlink_to_file},
        {"new files have mode 0666 less the umask, replaced ones keep theirs", test_modes},
        {"- is standard output, /dev/null is written directly", test_stdout_and_null},
        {"hetsim dag -o: a failed write keeps the old file", test_cli_failed_write},
        {"SIGTERM, SIGINT, SIGHUP: no temporary file left", test_signal_removes_tmp},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("outfile", tests);
}
