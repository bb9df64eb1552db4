/* workloads/archhints.h — SetArch hints any workload takes: cpu-only=K1/K2 and
 * gpu-only=K3 restrict every task of the named kernels to cores or to GPUs
 * (XKaapi's ka::SetArch(ArchHost) / SetArch(ArchCUDA), Lima 2014, §5.1). */
#ifndef HS_ARCHHINTS_H
#define HS_ARCHHINTS_H

#include "sim/dag.h"
#include "base/params.h"

/* The two hint keys, taken out of a workload spec before its own keys are
 * checked: values are kernel names separated by '/' (',' separates keys). */
struct hs_archhints {
    char *only[HS_NARCH]; /* per architecture, the list as given, or NULL */
};

/* Move the hint keys of spec into hints (spec keeps the rest); -1 with
 * hs_fail if a key is repeated or empty. */
int hs_archhints_take(struct hs_spec *spec, struct hs_archhints *hints);

/* Restrict the tasks of the named kernels; -1 with hs_fail naming the
 * workload if a kernel is unknown to the DAG or named in both lists. */
int hs_archhints_apply(const struct hs_archhints *hints, struct hs_dag *dag, const char *workload);

/* spec_text (a canonical spec, malloc'd) with the hints appended as keys;
 * takes spec_text over and returns the string to free. */
char *hs_archhints_append(const struct hs_archhints *hints, char *spec_text);

void hs_archhints_free(struct hs_archhints *hints);

#endif
