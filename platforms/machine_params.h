/* platforms/machine_params.h — the scalar parameters of a run's machine in
 * one typed struct (struct hs_machine_params), declared once in
 * platforms/machine_params.def, each value with where it came from. A
 * platform name's parameters are read into it by platforms/resolve.c; the
 * scenario hands it whole to the run's configuration (sim/run.h: cfg->machine)
 * and the runtime's options (sim/runtime.h: opts.machine); the one file that
 * applies a parameter reads its field. Nothing copies them one by one. */
#ifndef HS_MACHINE_PARAMS_H
#define HS_MACHINE_PARAMS_H

#include <stdbool.h>
#include <stdio.h>

struct hs_param;
struct hs_spec;

#define HS_MP_CTYPE_DOUBLE double
#define HS_MP_CTYPE_INT int
#define HS_MP_CTYPE_TEXT char *

/* HS_MP_bw_scale, ...: a parameter's index in the table. */
enum hs_machine_param_id {
#define HS_MACHINE_PARAM(name, ...) HS_MP_##name,
#include "platforms/machine_params.def"
#undef HS_MACHINE_PARAM
    HS_MP_COUNT
};

/* Where a value came from. */
enum hs_mp_source {
    HS_MP_DEFAULT, /* the table's default: its SOURCE column says what that is */
    HS_MP_GIVEN,   /* the platform's text (-p, a study, --vary): NAME:key=value */
};

struct hs_machine_params {
#define HS_MACHINE_PARAM(name, kind, ...) HS_MP_CTYPE_##kind name;
#include "platforms/machine_params.def"
#undef HS_MACHINE_PARAM
    unsigned char source[HS_MP_COUNT]; /* enum hs_mp_source of each */
};

/* One parameter as the table declares it. */
struct hs_machine_param_info {
    const char *name, *unit, *source; /* source: where the default comes from */
    bool simulated;                   /* changes a simulated machine (the real engine refuses it) */
};

/* Every parameter at its default (texts NULL, sources HS_MP_DEFAULT). */
void hs_machine_params_defaults(struct hs_machine_params *m);
/* Read "key=value,..." (a platform's parameters, the text after its ':'),
 * checked against the table: an unknown key, a value out of range or of the
 * wrong type is refused in one line naming `what` ("platform idgraf"), the
 * parameter and the value. m is filled (its texts owned) only on success.
 * 0, or -1 with hs_fail. */
int hs_machine_params_parse(const char *text, const char *what, struct hs_machine_params *m);
/* Free the texts m owns (after hs_machine_params_parse). */
void hs_machine_params_free(struct hs_machine_params *m);

/* The table as base/params.h reads it ({0}-terminated): for help texts and
 * sweeps over the parameters. */
const struct hs_param *hs_machine_params_table(void);
const struct hs_machine_param_info *hs_machine_param_info(enum hs_machine_param_id id);
/* The value of parameter id as text ("0.5", "dgemm:dsyrk", "file"): buf. */
const char *hs_machine_param_text(const struct hs_machine_params *m, enum hs_machine_param_id id,
                                  char *buf, size_t size);
/* The first parameter that changes a simulated machine and is not at its
 * default, or -1. */
int hs_machine_params_changed_simulated(const struct hs_machine_params *m);
/* One line per parameter: name, value, unit and where it came from. */
void hs_machine_params_print(const struct hs_machine_params *m, const char *indent, FILE *out);

#endif
