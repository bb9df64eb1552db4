/* platforms/machine_params.c — the scalar parameters of a platform from their
 * one declaration (platforms/machine_params.def): the table base/params.c
 * checks, and one generic reader, printer and comparison over the struct's
 * fields by their kind, so that a new parameter needs no code here. */
#include "platforms/machine_params.h"
#include "base/params.h"
#include "base/util.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_DOUBLE, K_INT, K_TEXT };

struct desc {
    struct hs_machine_param_info info;
    enum kind kind;
    size_t offset; /* of the field in struct hs_machine_params */
};

static const struct desc descs[] = {
#define HS_MACHINE_PARAM(NAME, KIND, PTYPE, DEF, CHOICES, RANGE, UNIT, SIM, SOURCE, HELP) \
    {{#NAME, UNIT, SOURCE, SIM}, K_##KIND, offsetof(struct hs_machine_params, NAME)},
#include "platforms/machine_params.def"
#undef HS_MACHINE_PARAM
};

static const struct hs_param table[] = {
#define HS_MACHINE_PARAM(NAME, KIND, PTYPE, DEF, CHOICES, RANGE, UNIT, SIM, SOURCE, HELP) \
    {.name = #NAME, .type = PTYPE, .defval = DEF, .help = HELP, .choices = CHOICES, .range = RANGE},
#include "platforms/machine_params.def"
#undef HS_MACHINE_PARAM
    {0},
};

const struct hs_param *hs_machine_params_table(void)
{
    return table;
}

const struct hs_machine_param_info *hs_machine_param_info(enum hs_machine_param_id id)
{
    return &descs[id].info;
}

static void *field(struct hs_machine_params *m, int id)
{
    return (char *)m + descs[id].offset;
}

static const void *cfield(const struct hs_machine_params *m, int id)
{
    return (const char *)m + descs[id].offset;
}

/* The value of parameter id from its checked text: an INT given as a word of
 * its choices ("file") is 0; an empty TEXT is NULL, else a copy m owns. */
static void set_value(struct hs_machine_params *m, int id, const char *text)
{
    void *f = field(m, id);
    char *end;
    switch (descs[id].kind) {
    case K_DOUBLE: *(double *)f = strtod(text, NULL); break;
    case K_INT: {
        long v = strtol(text, &end, 10);
        *(int *)f = end == text || *end ? 0 : (int)v;
        break;
    }
    case K_TEXT: *(char **)f = *text ? hs_xstrdup(text) : NULL; break;
    }
}

void hs_machine_params_defaults(struct hs_machine_params *m)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < HS_MP_COUNT; i++)
        if (descs[i].kind != K_TEXT) /* a TEXT's default is empty: NULL */
            set_value(m, i, table[i].defval);
}

void hs_machine_params_free(struct hs_machine_params *m)
{
    for (int i = 0; i < HS_MP_COUNT; i++)
        if (descs[i].kind == K_TEXT) {
            free(*(char **)field(m, i));
            *(char **)field(m, i) = NULL;
        }
}

int hs_machine_params_parse(const char *text, const char *what, struct hs_machine_params *m)
{
    struct hs_spec spec;
    char *full = hs_xmalloc(strlen(text) + 3);
    sprintf(full, "p:%s", text);
    int rc = hs_spec_parse(full, &spec);
    free(full);
    if (rc)
        return -1;
    unsigned char given[HS_MP_COUNT];
    for (int i = 0; i < HS_MP_COUNT; i++) /* before hs_spec_check adds the defaults */
        given[i] = hs_spec_get(&spec, table[i].name) ? HS_MP_GIVEN : HS_MP_DEFAULT;
    if (!(rc = hs_spec_check(&spec, table, what))) {
        hs_machine_params_defaults(m);
        for (int i = 0; i < HS_MP_COUNT; i++)
            set_value(m, i, hs_spec_get(&spec, table[i].name));
        memcpy(m->source, given, sizeof given);
    }
    hs_spec_free(&spec);
    return rc;
}

const char *hs_machine_param_text(const struct hs_machine_params *m, enum hs_machine_param_id id,
                                  char *buf, size_t size)
{
    const void *f = cfield(m, id);
    switch (descs[id].kind) {
    case K_DOUBLE: /* the shortest text that reads back as the same double */
        for (int digits = 6; digits <= 17; digits++) {
            snprintf(buf, size, "%.*g", digits, *(const double *)f);
            if (strtod(buf, NULL) == *(const double *)f)
                break;
        }
        break;
    case K_INT:
        if (*(const int *)f == 0 && table[id].choices) /* the word that means 0 */
            snprintf(buf, size, "%.*s", (int)strcspn(table[id].choices, "|"), table[id].choices);
        else
            snprintf(buf, size, "%d", *(const int *)f);
        break;
    case K_TEXT: snprintf(buf, size, "%s", *(char *const *)f ? *(char *const *)f : ""); break;
    }
    return buf;
}

int hs_machine_params_changed_simulated(const struct hs_machine_params *m)
{
    struct hs_machine_params def;
    hs_machine_params_defaults(&def);
    for (int i = 0; i < HS_MP_COUNT; i++) {
        char a[64], b[64];
        if (descs[i].info.simulated &&
            strcmp(hs_machine_param_text(m, i, a, sizeof a), hs_machine_param_text(&def, i, b, sizeof b)))
            return i;
    }
    return -1;
}

void hs_machine_params_print(const struct hs_machine_params *m, const char *indent, FILE *out)
{
    for (int i = 0; i < HS_MP_COUNT; i++) {
        char v[1024];
        hs_machine_param_text(m, i, v, sizeof v);
        const struct hs_machine_param_info *in = &descs[i].info;
        if (m->source[i] == HS_MP_GIVEN)
            fprintf(out, "%s%-13s %-12s %-16s given in the platform's name\n", indent, in->name, v, in->unit);
        else
            fprintf(out, "%s%-13s %-12s %-16s default: %s\n", indent, in->name, *v ? v : "-", in->unit,
                    in->source);
    }
}
