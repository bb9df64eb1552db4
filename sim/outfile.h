/* sim/outfile.h — writing an output file so that it appears whole or not at
 * all: into a temporary file beside it, renamed onto it once every byte is
 * written. A run killed mid-write, a full disk or any failure before the end
 * leaves the old file as it was; a path that is not (or no longer) a
 * regular file is refused, never replaced. A process ended by SIGTERM,
 * SIGINT or SIGHUP removes its temporary files first. */
#ifndef HS_OUTFILE_H
#define HS_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct hs_outfile {
    FILE *f;    /* where to write: the temporary file, stdout or the null device */
    char *path; /* the output as named */
    char *dest; /* what the temporary file is renamed onto: path, or the file a symbolic link names */
    char *tmp;  /* the temporary file, "DEST.tmp-XXXXXX" in DEST's folder; NULL if written in place */
    bool is_stdout;
};

/* Open the output PATH: "-" is standard output; the null device is written
 * directly (it replaces nothing); a regular file or a new path is written
 * through a temporary file in its folder, created with mode 0666 less the
 * umask, or with the mode of the file it replaces; a symbolic link to a
 * regular file writes that file (the link stays). Anything else is refused
 * (a folder, a device, a FIFO, a socket, a link to nothing), as is a file
 * the user may not write. 0, or -1 with hs_fail("cannot write PATH: reason")
 * and o->f NULL. */
int hs_outfile_open(struct hs_outfile *o, const char *path);

/* Finish: flush and close (standard output is flushed, not closed), check
 * that no write failed, check again that the destination is absent or a
 * regular file, and rename the temporary file onto it. 0, or -1 with
 * hs_fail("cannot write PATH: reason") and the temporary file removed, the
 * destination untouched. Frees o's strings either way. */
int hs_outfile_commit(struct hs_outfile *o);

/* Give up: close and remove the temporary file, leave the destination as it
 * was. Frees o's strings; does nothing on a zeroed or finished o. */
void hs_outfile_abort(struct hs_outfile *o);

/* For a writer that must write in place (a sweep's CSV, appended row by row
 * so that a long sweep keeps every finished row): 0 if fd is a regular file
 * or the null device, else -1 with hs_fail("cannot write PATH: it is a FIFO,
 * …"). Open it with O_NONBLOCK, so that a FIFO does not block the open. */
int hs_outfile_check_fd(int fd, const char *path);

/* What st is, in a word, when it is not a regular file ("a folder", "a
 * device", "a FIFO", ...), for the refusals of an output path. */
struct stat;
const char *hs_outfile_kind(const struct stat *st);
/* Is st the null device (whatever its path)? */
bool hs_outfile_is_null(const struct stat *st);

/* A file this process writes in place and must not leave behind if a
 * SIGTERM, SIGINT or SIGHUP ends it (removed, as the temporary files are),
 * until hs_outfile_forget(path). */
void hs_outfile_remove_on_signal(const char *path);
void hs_outfile_forget(const char *path);

/* Open, write the len bytes of data, commit: 0, or -1 with hs_fail as above. */
int hs_outfile_write(const char *path, const void *data, size_t len);
/* The same with a JSON document, printed (cJSON_Print) and ended by a line break. */
struct cJSON;
int hs_outfile_write_json(const char *path, const struct cJSON *doc);

/* The file to write into for a writer that opens it by name (gnuplot's `set
 * output`, SimGrid's trace): the temporary file, or the path itself when it
 * is written directly. */
const char *hs_outfile_name(const struct hs_outfile *o);

#endif
