/* platforms/inputfile.h — reading what the user gives hetsim: input files are
 * opened only if they are regular files (a FIFO, a device such as /dev/zero
 * or a folder would block, never end or fail late) and read only up to a
 * bound; JSON documents are parsed strictly (a key given twice in an object
 * is an error: cJSON would keep the first silently). It sits in the lowest
 * library, hetsim_platforms, so that every reader can use it. */
#ifndef HS_INPUTFILE_H
#define HS_INPUTFILE_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

/* The largest input file hetsim reads (DAG files, timing tables, sweep CSV,
 * run records, platform files): 1 GiB. */
#define HS_INPUT_MAX_BYTES ((size_t)1 << 30)

/* Open path for reading if it is a regular file of at most max bytes; NULL
 * with "PATH: reason" in err otherwise. */
FILE *hs_input_open(const char *path, size_t max, char *err, size_t errlen);

/* The whole file, NUL-terminated (*len bytes before the NUL, len may be
 * NULL), read through hs_input_open; NULL with err set. Caller frees. */
char *hs_input_read(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* 0 if no object in the tree gives a key twice; else -1 with the key path
 * ("tasks[3].flops") of the second occurrence in where (prefix: the path of
 * item itself, "" at the top). */
int hs_json_unique_keys(const cJSON *item, const char *prefix, char *where, size_t wherelen);

/* cJSON_ParseWithOpts on a whole document (nothing may follow it), then the
 * duplicate-key check: NULL with "PATH: malformed JSON near line N" or
 * "PATH: KEY: given twice" in err. Caller deletes. */
cJSON *hs_json_parse_strict(const char *path, const char *text, char *err, size_t errlen);

#endif
