/* sim/outfile.c — an output written whole or not at all.
 *
 * hs_outfile_open creates DEST.tmp-XXXXXX in the destination's own folder
 * (same file system, so that rename replaces the file in one step) with
 * open(O_CREAT | O_EXCL) and mode 0666, which the kernel narrows by the
 * umask and the folder's default ACL, as fopen would; mkstemp's 0600 would
 * need the umask, which a process can only read by changing it (a race with
 * any thread creating a file meanwhile). A file that is replaced keeps its
 * permission bits (not its owner or its hard links: the new file is a new
 * inode). A symbolic link to a regular file is followed, as fopen follows
 * it: the temporary file goes beside the file it names and replaces that,
 * and the link stays a link to it. The null device is written directly,
 * standard output ("-") too; anything else that is not a regular file is
 * refused, at the open and again just before the rename, since it may have
 * appeared between the two (rename would put a file in a FIFO's place, and
 * the up-front check in cli/options.c ran earlier still).
 *
 * hs_outfile_commit does not fsync: what it guards against is a run that
 * dies or fails to write (a full disk, a file size limit, a late error), and
 * after either the page cache still holds what was written; only a crash of
 * the machine could lose it, and for that ext4 (auto_da_alloc) and XFS flush
 * a file renamed over another before the rename is committed. An fsync per
 * output costs milliseconds on an SSD and tens of them on a disk or NFS,
 * which a sweep writing its records and plots would pay thousands of times. */
#define _DEFAULT_SOURCE /* realpath */
#include "sim/outfile.h"
#include "base/util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *hs_outfile_kind(const struct stat *st)
{
    return S_ISDIR(st->st_mode)                               ? "a folder"
           : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
           : S_ISFIFO(st->st_mode)                          ? "a FIFO"
           : S_ISSOCK(st->st_mode)                          ? "a socket"
           : S_ISLNK(st->st_mode)                           ? "a symbolic link"
                                                           : "not a regular file";
}

bool hs_outfile_is_null(const struct stat *st)
{
    struct stat dn;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &dn) == 0 && S_ISCHR(dn.st_mode) && dn.st_rdev == st->st_rdev;
}

static void untrack(const char *tmp);

static void clear(struct hs_outfile *o)
{
    untrack(o->tmp);
    free(o->path), free(o->dest), free(o->tmp);
    memset(o, 0, sizeof *o);
}

static int refuse(struct hs_outfile *o, const char *path, const char *kind)
{
    hs_fail("cannot write %s: it is %s, and an output replaces only a regular file", path, kind);
    clear(o);
    return -1;
}

/* err: an errno, or -1 for a write that failed earlier (its errno is gone). */
static int failed(struct hs_outfile *o, const char *path, int err)
{
    hs_fail("cannot write %s: %s", path, err < 0 ? "a write failed" : strerror(err));
    clear(o);
    return -1;
}

/* The temporary files open, removed when a signal that ends the process
 * arrives (SIGTERM, as timeout(1) sends; SIGINT; SIGHUP), before it ends it
 * as it would have: a run killed that way leaves no DEST.tmp-XXXXXX. Each
 * slot keeps the process that made it, so that a forked child killed so
 * removes only its own. The handler makes only async-signal-safe calls. */
#define HS_PENDING_MAX 32
static struct {
    volatile sig_atomic_t used;
    pid_t pid;
    char path[4096];
} pending[HS_PENDING_MAX];
static const int end_signals[] = {SIGTERM, SIGINT, SIGHUP};
static struct sigaction end_before[3];

static void on_end_signal(int sig)
{
    pid_t self = getpid();
    for (int i = 0; i < HS_PENDING_MAX; i++)
        if (pending[i].used && pending[i].pid == self)
            unlink(pending[i].path);
    for (int k = 0; k < 3; k++)
        if (end_signals[k] == sig)
            sigaction(sig, &end_before[k], NULL);
    raise(sig);
}

static void track(const char *tmp)
{
    static bool installed;
    if (!installed) {
        installed = true;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_end_signal;
        sigemptyset(&sa.sa_mask);
        for (int k = 0; k < 3; k++) {
            sigaction(end_signals[k], &sa, &end_before[k]);
            if (end_before[k].sa_handler == SIG_IGN) /* nohup's SIGHUP stays ignored */
                sigaction(end_signals[k], &end_before[k], NULL);
        }
    }
    if (strlen(tmp) >= sizeof pending[0].path)
        return;
    for (int i = 0; i < HS_PENDING_MAX; i++)
        if (!pending[i].used) {
            pending[i].pid = getpid();
            strcpy(pending[i].path, tmp);
            pending[i].used = 1;
            return;
        }
}

static void untrack(const char *tmp)
{
    for (int i = 0; tmp && i < HS_PENDING_MAX; i++)
        if (pending[i].used && pending[i].pid == getpid() && strcmp(pending[i].path, tmp) == 0)
            pending[i].used = 0;
}

/* Create DEST.tmp-XXXXXX, a name no file has (O_EXCL), mode 0666 & ~umask. */
static int create_tmp(struct hs_outfile *o)
{
    static unsigned counter;
    static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t len = strlen(o->dest);
    o->tmp = hs_xmalloc(len + 12);
    uint64_t seed = ((uint64_t)getpid() << 32) ^ (uint64_t)(hs_now() * 1e9) ^ (uintptr_t)o;
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t x = hs_fnv1a64(&seed, sizeof seed, HS_FNV_OFFSET + counter++);
        memcpy(o->tmp, o->dest, len);
        memcpy(o->tmp + len, ".tmp-", 5);
        for (int i = 0; i < 6; i++, x /= 36)
            o->tmp[len + 5 + i] = chars[x % 36];
        o->tmp[len + 11] = '\0';
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0)
            track(o->tmp);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

int hs_outfile_open(struct hs_outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (!*path)
        return hs_fail("an empty file name");
    o->path = hs_xstrdup(path);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        o->is_stdout = true;
        return 0;
    }
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    if (!exists && errno != ENOENT)
        return failed(o, path, errno);
    if (exists && S_ISLNK(st.st_mode)) { /* write the file it names, if it is one */
        if (stat(path, &st) != 0)
            return errno == ENOENT ? refuse(o, path, "a symbolic link to nothing") : failed(o, path, errno);
        if (S_ISREG(st.st_mode)) {
            o->dest = realpath(path, NULL);
            if (!o->dest)
                return failed(o, path, errno);
        }
    }
    if (exists && hs_outfile_is_null(&st)) {
        o->f = fopen(path, "w");
        return o->f ? 0 : failed(o, path, errno);
    }
    if (exists && !S_ISREG(st.st_mode))
        return refuse(o, path, hs_outfile_kind(&st));
    if (!o->dest)
        o->dest = hs_xstrdup(path);
    if (exists) { /* fopen would refuse a file we may not write: so does renaming onto it */
        int fd = open(o->dest, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            return failed(o, path, errno);
        close(fd);
    }
    int fd = create_tmp(o);
    if (fd < 0)
        return failed(o, path, errno);
    if (exists && (st.st_mode & 0777) != 0666 && fchmod(fd, st.st_mode & 0777) != 0) {
        int err = errno;
        close(fd), unlink(o->tmp);
        return failed(o, path, err);
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int err = errno;
        close(fd), unlink(o->tmp);
        return failed(o, path, err);
    }
    return 0;
}

int hs_outfile_check_fd(int fd, const char *path)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return hs_fail("cannot write %s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode) && !hs_outfile_is_null(&st))
        return hs_fail("cannot write %s: it is %s, and an output replaces only a regular file", path,
                       hs_outfile_kind(&st));
    return 0;
}

int hs_outfile_write(const char *path, const void *data, size_t len)
{
    struct hs_outfile o;
    if (hs_outfile_open(&o, path))
        return -1;
    fwrite(data, 1, len, o.f); /* a failed write shows at the commit */
    return hs_outfile_commit(&o);
}

int hs_outfile_write_json(const char *path, const struct cJSON *doc)
{
    char *text = cJSON_Print(doc);
    if (!text)
        return hs_fail("cannot write %s: out of memory", path);
    size_t n = strlen(text);
    text[n] = '\n'; /* over its terminating NUL: written by length */
    int rc = hs_outfile_write(path, text, n + 1);
    free(text);
    return rc;
}

const char *hs_outfile_name(const struct hs_outfile *o)
{
    return o->tmp ? o->tmp : o->path;
}

int hs_outfile_commit(struct hs_outfile *o)
{
    if (!o->f)
        return hs_fail("cannot write %s: it was not opened", o->path ? o->path : "an output");
    errno = 0;
    int err = fflush(o->f) != 0 ? (errno ? errno : EIO) : ferror(o->f) ? -1 : 0;
    if (o->is_stdout) {
        o->f = NULL;
        if (err)
            return failed(o, "standard output", err);
        clear(o);
        return 0;
    }
    if (fclose(o->f) != 0 && !err)
        err = errno;
    o->f = NULL;
    if (!err && o->tmp) {
        struct stat st;
        if (lstat(o->dest, &st) == 0 && !S_ISREG(st.st_mode)) {
            unlink(o->tmp);
            return refuse(o, o->path, hs_outfile_kind(&st));
        }
        if (rename(o->tmp, o->dest) != 0)
            err = errno;
    }
    if (err) {
        if (o->tmp)
            unlink(o->tmp);
        return failed(o, o->path, err);
    }
    clear(o);
    return 0;
}

void hs_outfile_abort(struct hs_outfile *o)
{
    if (o->f && !o->is_stdout)
        fclose(o->f);
    else if (o->f)
        fflush(o->f);
    if (o->tmp)
        unlink(o->tmp);
    clear(o);
}

void hs_outfile_remove_on_signal(const char *path)
{
    track(path);
}

void hs_outfile_forget(const char *path)
{
    untrack(path);
}
