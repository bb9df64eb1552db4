/* tests/cli/test_bad_inputs.c — the corpus of bad inputs in tests/data/bad:
 * every case of cases.txt (hetsim arguments, and a text) must exit with code
 * 2 and print exactly one line on stderr, containing the text, which names
 * the culprit (file, field, value). Run in the sanitizer build too, so a
 * crash, a leak or undefined behaviour on any of them fails. */
#include "tests/support/testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BAD_DIR HETSIM_SOURCE_DIR "/tests/data/bad"

/* args with every '@' replaced by the corpus folder (caller frees). */
static char *expand(const char *args)
{
    size_t n = 0;
    for (const char *p = args; *p; p++)
        n += *p == '@' ? strlen(BAD_DIR) : 1;
    char *out = malloc(n + 1), *q = out;
    for (const char *p = args; *p; p++)
        q = *p == '@' ? strcpy(q, BAD_DIR) + strlen(BAD_DIR) : (*q = *p, q + 1);
    *q = '\0';
    return out;
}

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
        s[--n] = '\0';
}

static void run_case(const char *line, int lineno)
{
    char *copy = strdup(line), *bar = strstr(copy, " | ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bar);
    *bar = '\0';
    char *expect = bar + 3, *args = expand(copy), *err = NULL;
    trim(expect);
    int rc = hs_test_cli(args, NULL, &err);
    bool ok = rc == 2 && hs_test_count_lines(err) == 1 && strstr(err, expect);
    if (!ok)
        fprintf(stderr, "\ncases.txt:%d: `hetsim %s` -> exit %d, stderr:\n%s(expected one line with: %s)\n",
                lineno, args, rc, err, expect);
    CU_ASSERT(ok);
    free(err);
    free(args);
    free(copy);
}

static void test_corpus(void)
{
    FILE *f = fopen(BAD_DIR "/cases.txt", "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[2048];
    int lineno = 0, cases = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        run_case(line, lineno);
        cases++;
    }
    fclose(f);
    CU_ASSERT(cases >= 20);
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"every bad input of tests/data/bad: exit 2, one line naming it", test_corpus},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("bad_inputs", tests);
}
