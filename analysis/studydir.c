/* analysis/studydir.c — listing the shipped studies (every NAME.json of the
 * study directories; a name found in an earlier directory hides later ones). */
#include "analysis/study.h"
#include "base/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_base(const void *a, const void *b)
{
    const char *x = strrchr(*(char *const *)a, '/'), *y = strrchr(*(char *const *)b, '/');
    return strcmp(x ? x + 1 : *(char *const *)a, y ? y + 1 : *(char *const *)b);
}

static bool listed(char **paths, int n, const char *file)
{
    for (int i = 0; i < n; i++)
        if (strcmp(strrchr(paths[i], '/') + 1, file) == 0)
            return true;
    return false;
}

static void add_dir(const char *dir, char ***paths, int *n)
{
    DIR *d = dir && *dir ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 || listed(*paths, *n, e->d_name))
            continue;
        char *path = hs_xmalloc(strlen(dir) + len + 2);
        sprintf(path, "%s/%s", dir, e->d_name);
        HS_GROW_IMPLIED(*paths, *n, *n + 1); /* doubling, not one realloc per file */
        (*paths)[(*n)++] = path;
    }
    closedir(d);
}

int hs_study_paths(char ***paths)
{
    *paths = NULL;
    int n = 0;
    for (const char *const *dir = hs_study_dir_list(); *dir; dir++)
        add_dir(*dir, paths, &n);
    if (n)
        qsort(*paths, (size_t)n, sizeof **paths, by_base);
    return n;
}

void hs_study_paths_free(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}
