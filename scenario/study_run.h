/* scenario/study_run.h — running a study's sweep into a folder (what
 * `reproduce STUDY` and the ledger share): the folder is made if needed and
 * the rows go to FOLDER/results.csv, resumed if there. */
#ifndef HS_STUDY_RUN_H
#define HS_STUDY_RUN_H

#include "analysis/study.h"
#include "analysis/sweep.h"

/* Make a folder and its parents; -1 with hs_fail. */
int hs_make_dirs(const char *path);
/* "dir/file" (caller frees). */
char *hs_path_join(const char *dir, const char *file);

/* Run the study's sweep into dir/results.csv, with `set` (nset settings)
 * replacing or adding to the study's base settings; a study with an
 * analysis writes its rows there instead (set does not apply). so->csv is set here;
 * so->timeout defaults to the study's. Returns the sweep's exit code
 * (0 all ok, 1 some runs failed, 2 bad input with hs_fail). */
int hs_study_execute(const struct hs_study *st, const char *dir, struct hs_sweep_opts *so,
                     const struct hs_study_kv *set, int nset);

/* The title of one of the study's plots (caller frees): the study file's;
 * in the --quick version, which runs other sizes than the title names,
 * "NAME, quick version: KEY VALUE, ..." from the settings it ran with
 * instead, so that no figure says N = 16384 of a run of 8192. */
char *hs_study_plot_title(const struct hs_study *st, const struct hs_study_plot *sp);

#endif
