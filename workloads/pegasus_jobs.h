/* workloads/pegasus_jobs.h — what the two Pegasus readers share (DAX in dax.c,
 * Pegasus 5 YAML in pegasus_yaml.c): jobs and the files they use written as a
 * WfFormat tree (workflow.tasks[] {name, category, runtimeInSeconds,
 * parents, files}) for hs_wfformat_build, the parent -> child links and the
 * file catalogue gathered while reading, and their resolution once the whole
 * file is read. */
#ifndef HS_PEGASUS_JOBS_H
#define HS_PEGASUS_JOBS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

struct hs_dag;

/* Add a job to workflow.tasks: id is its name (how links name it), name its
 * kernel ("task" if NULL or empty), runtime in seconds. */
cJSON *hs_pegasus_job(cJSON *tasks, const char *id, const char *name, double runtime);

/* The files a job uses: link is Pegasus's type (input, output, inout, none,
 * checkpoint; inout gives both, none nothing), bytes its size, or < 0 for the
 * catalogue's (hs_pegasus_refs_resolve). *first (if not NULL) is set to the
 * first file entry added, or NULL. -1 (without hs_fail) if link is none of
 * the five. */
int hs_pegasus_uses(cJSON *job, const char *lfn, const char *link, double bytes, cJSON **first);

/* Links and catalogue sizes, in the order read; strings are copied. */
struct hs_pegasus_link {
    char *child, *parent;
    int line;
};
struct hs_pegasus_size {
    char *name;
    double bytes;
    size_t seq; /* the first entry of a name gives its size */
};
struct hs_pegasus_refs {
    struct hs_pegasus_link *links;
    size_t nlinks, caplinks;
    struct hs_pegasus_size *sizes;
    size_t nsizes, capsizes;
};
void hs_pegasus_link(struct hs_pegasus_refs *r, const char *child, const char *parent, int line);
void hs_pegasus_size(struct hs_pegasus_refs *r, const char *name, double bytes);
void hs_pegasus_refs_free(struct hs_pegasus_refs *r);

/* Once every job is read: two jobs with one id are refused, every link must
 * name two jobs (else hs_fail("PATH:LINE: 'X' is not the id of a job")) and
 * adds its parent to its child's parents, and a file of size < 0 takes the
 * catalogue's (its first entry), or 0. 0, or -1 with hs_fail. */
int hs_pegasus_refs_resolve(const char *path, cJSON *tasks, struct hs_pegasus_refs *r);

/* Pegasus 5's YAML workflows (pegasus_yaml.c, the "pegasus" workload). Does
 * text look like one (not XML; a line starting with "pegasus:" or
 * "jobs:")? The DAX reader hands such a file over. And read one into an
 * empty DAG, runtimes becoming runtime × speed flops: 0, or -1 with
 * hs_fail("PATH:LINE: ..."). */
bool hs_pegasus_yaml_like(const char *text);
int hs_pegasus_yaml_read(const char *path, double speed, struct hs_dag *dag);

#endif
