/* cli/outputs.c — output paths checked before any work: a run, a sweep
 * or a plot must not find out at the end that it cannot write its result.
 * A file is opened for writing as the command will open it (created if
 * absent and then removed again, never truncated), so that every reason
 * (missing folder, a folder in its place, no permission, read-only file
 * system) shows up at once. */
#include "cli/cli.h"
#include "sim/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int hs_output_check(const char *path)
{
    if (!*path)
        return hs_fail("an empty file name");
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) { /* it did not exist: leave nothing behind */
        close(fd);
        unlink(path);
        return 0;
    }
    if (errno == EEXIST)
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    return hs_fail("cannot write %s: %s", path, strerror(errno));
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

void hs_output_require(const char *cmd, const char *opt, const char *path, bool dir)
{
    if (!path || (!dir && strcmp(path, "-") == 0))
        return;
    if (dir ? hs_output_dir_check(path) : hs_output_check(path))
        hs_die(HS_EXIT_USAGE, "%s: option %s: %s", cmd, opt, hs_last_error());
}
