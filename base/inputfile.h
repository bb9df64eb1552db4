/* base/inputfile.h — reading what the user gives hetsim: input files are
 * opened only if they are regular files (a FIFO, a device such as /dev/zero
 * or a folder would block, never end or fail late) and read only up to a
 * bound; JSON documents are parsed strictly (a key given twice in an object
 * is an error: cJSON would keep the first silently). It sits in the lowest
 * library, hetsim_base, so that every reader can use it. */
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

/* 0 if the len bytes of text hold no NUL byte; else -1 with "PATH: a NUL
 * byte at offset N ..." in err. A text format's reader sees its text as a C
 * string, which would end at the first NUL: cJSON, for one, would accept
 * the document before it and ignore the rest. */
int hs_input_no_nul(const char *path, const char *text, size_t len, char *err, size_t errlen);

/* The longest name hetsim reads from a file, in bytes: a task's id, label
 * or kernel, a file, datum or handle name, a job reference, a DAG's name.
 * Readers refuse a longer one in one line that names the file, the field
 * and the name's length (not the name: it may be long, or hold line
 * breaks). A file of N bytes then never makes names of more than N bytes
 * in all, whatever copies a reader keeps of each. */
#define HS_NAME_MAX 65536 /* 64 KiB: ids are short, but a kernel may be a shell script (Nextflow) */

/* 0 if name is at most HS_NAME_MAX bytes long, else its length; it reads
 * no further than HS_NAME_MAX + 1 bytes in the common case. */
size_t hs_name_too_long(const char *name);

/* The text (len bytes, as hs_input_read gives it) as one JSON document:
 * hs_input_no_nul, then cJSON_ParseWithOpts on the whole document (nothing
 * may follow it), then the duplicate-key check: NULL with "PATH: a NUL byte
 * at offset N", "PATH: malformed JSON near line N" or "PATH: KEY: given
 * twice" in err. Caller deletes. */
cJSON *hs_json_parse_strict(const char *path, const char *text, size_t len, char *err, size_t errlen);

#endif
