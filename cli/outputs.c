/* cli/outputs.c — output paths checked before any work: a run, a sweep
 * or a plot must not find out at the end that it cannot write its result.
 * A file is opened for writing as the command will open it (created if
 * absent and then removed again, never truncated), so that every reason
 * (missing folder, a folder in its place, no permission, read-only file
 * system) shows up at once. An output replaces only a regular file: a
 * device (/dev/full, a disk), a FIFO, a socket or a folder in its place is
 * refused before any work, since a writer that finishes with a rename
 * would put a file in the device's place, and one that reads its output
 * back (the Paje trimming) never ends on /dev/full. The null device is the
 * one exception, the usual way to discard an output (the docs, tests and
 * benchmarks use it): writing into it replaces nothing. Only an output
 * that is renamed into place (--paje) refuses it too. */
#include "cli/cli.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What st is, in a word, when it is not a regular file. */
static const char *not_regular(const struct stat *st)
{
    return S_ISDIR(st->st_mode)                               ? "a folder"
           : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
           : S_ISFIFO(st->st_mode)                          ? "a FIFO"
           : S_ISSOCK(st->st_mode)                          ? "a socket"
                                                           : "not a regular file";
}

/* Is st the null device (whatever its path)? */
static bool null_device(const struct stat *st)
{
    struct stat dn;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &dn) == 0 && S_ISCHR(dn.st_mode) && dn.st_rdev == st->st_rdev;
}

static int check_file(const char *path, bool null_ok)
{
    if (!*path)
        return hs_fail("an empty file name");
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !(null_ok && null_device(&st)))
        return hs_fail("cannot write %s: it is %s, and an output replaces only a regular file (name a "
                       "file, or leave the option out)", path, not_regular(&st));
    /* Several processes may check one path at once (the ranks of an MPI
     * sweep): one that finds the file created by another may then find it
     * removed again, so try a few times before calling the path unwritable. */
    int fd = -1;
    for (int attempt = 0; attempt < 8; attempt++) {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) { /* it did not exist: leave nothing behind */
            close(fd);
            unlink(path);
            return 0;
        }
        if (errno != EEXIST)
            break;
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0 || errno != ENOENT)
            break;
    }
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    return hs_fail("cannot write %s: %s", path, strerror(errno));
}

int hs_output_check(const char *path)
{
    return check_file(path, true);
}

int hs_output_check_renamed(const char *path)
{
    return check_file(path, false);
}

int hs_output_dir_check(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return hs_fail("cannot write into %s: not a folder", path);
        if (access(path, W_OK | X_OK) != 0)
            return hs_fail("cannot write into %s: %s", path, strerror(errno));
        return 0;
    }
    if (errno != ENOENT)
        return hs_fail("cannot write into %s: %s", path, strerror(errno));
    char *parent = hs_xstrdup(path);
    char *slash = strrchr(parent, '/');
    while (slash && slash > parent && slash[1] == '\0') { /* "dir/" */
        *slash = '\0';
        slash = strrchr(parent, '/');
    }
    const char *dir = !slash ? "." : slash == parent ? "/" : (*slash = '\0', parent);
    int rc = 0;
    if (stat(dir, &st) != 0 || (S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) != 0))
        rc = hs_fail("cannot create the folder %s: %s", path, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = hs_fail("cannot create the folder %s: %s is not a folder", path, dir);
    free(parent);
    return rc;
}

void hs_output_distinct(const char *cmd, const char *const *opts, const char *const *paths, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; paths[i] && j < i; j++) {
            if (!paths[j] || strcmp(paths[i], "-") == 0)
                continue;
            struct stat a, b;
            bool same = strcmp(paths[i], paths[j]) == 0 ||
                        (stat(paths[i], &a) == 0 && stat(paths[j], &b) == 0 && a.st_dev == b.st_dev &&
                         a.st_ino == b.st_ino);
            if (same)
                hs_die(HS_EXIT_USAGE, "%s: options %s and %s name the same file %s: one would overwrite the "
                       "other (give each its own)", cmd, opts[j], opts[i], paths[i]);
        }
}

void hs_output_require(const char *cmd, const char *opt, const char *path, bool dir)
{
    if (!path || (!dir && strcmp(path, "-") == 0))
        return;
    if (dir ? hs_output_dir_check(path) : hs_output_check(path))
        hs_die(HS_EXIT_USAGE, "%s: option %s: %s", cmd, opt, hs_last_error());
}

void hs_output_require_renamed(const char *cmd, const char *opt, const char *path)
{
    if (path && hs_output_check_renamed(path))
        hs_die(HS_EXIT_USAGE, "%s: option %s: %s", cmd, opt, hs_last_error());
}
