/* tests/base/test_nearest.c — "did you mean" (base/nearest.c): the optimal
 * string alignment distance, worked by hand, and the nearest name it picks
 * from a refusal's list. */
#include "base/nearest.h"
#include "tests/support/testing.h"

#include <string.h>

/* By hand: hfet to heft swaps two neighbours (1); HEFT to heft differs in
 * case only (0); dada-choleski to dada-cholesky one substitution (1);
 * kitten to sitting 3 (two substitutions, one insertion); ca to abc 3
 * under the restricted distance (Damerau's unrestricted would say 2). */
static void test_distance(void)
{
    CU_ASSERT_EQUAL(hs_name_distance("hfet", "heft"), 1);
    CU_ASSERT_EQUAL(hs_name_distance("HEFT", "heft"), 0);
    CU_ASSERT_EQUAL(hs_name_distance("dada-choleski", "dada-cholesky"), 1);
    CU_ASSERT_EQUAL(hs_name_distance("kitten", "sitting"), 3);
    CU_ASSERT_EQUAL(hs_name_distance("ca", "abc"), 3);
    CU_ASSERT_EQUAL(hs_name_distance("", "abc"), 3);
    CU_ASSERT_EQUAL(hs_name_distance("dmda", "dmda"), 0);
}

/* The nearest of the list, within 1 edit up to 4 characters, 2 up to 8,
 * 3 beyond; the first of equals; nothing when none is near. */
static void test_did_you_mean(void)
{
    const char *policies = "eager, random, dmda, heft, cpop, peft, ws, lws, heftnc, dada";
    CU_ASSERT_STRING_EQUAL(hs_did_you_mean("hfet", policies), "; did you mean 'heft'?");
    CU_ASSERT_STRING_EQUAL(hs_did_you_mean("HEFT", policies), "; did you mean 'heft'?");
    CU_ASSERT_STRING_EQUAL(hs_did_you_mean("eagr", policies), "; did you mean 'eager'?");
    CU_ASSERT_STRING_EQUAL(hs_did_you_mean("xyzzy", policies), "");
    CU_ASSERT_STRING_EQUAL(hs_did_you_mean("wss", policies), "; did you mean 'ws'?");
    CU_ASSERT_STRING_EQUAL(hs_did_you_mean("dada-choleski", "dada-alpha, dada-cholesky, dada-lu"),
                           "; did you mean 'dada-cholesky'?");
    CU_ASSERT_STRING_EQUAL(hs_did_you_mean("peft", "heft, peft"), "; did you mean 'peft'?");
    CU_ASSERT_STRING_EQUAL(hs_did_you_mean("x", ""), "");
}

int main(void)
{
    static const CU_TestInfo tests[] = {
        {"name distance, by hand", test_distance},
        {"did you mean: the nearest name, or none", test_did_you_mean},
        CU_TEST_INFO_NULL,
    };
    return hs_test_main("nearest", tests);
}
