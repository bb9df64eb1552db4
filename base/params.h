/* base/params.h — "name:key=value,key=value" specifications and their documented
 * parameters. Policies, workloads and parametric platforms all describe their
 * parameters with a table of struct hs_param; hs_spec_check validates a parsed
 * spec against it (unknown keys, bad values, ranges) and fills in the defaults. */
#ifndef HS_PARAMS_H
#define HS_PARAMS_H

#include <stdbool.h>

enum hs_ptype {
    HS_P_INT,    /* integer */
    HS_P_DOUBLE, /* real number, "inf" allowed when the range allows it; with
                    choices, also one of those words ("auto") */
    HS_P_SI,     /* real number with an optional SI suffix: 6G, 2Mi */
    HS_P_BOOL,   /* 0/1, on/off, yes/no, true/false */
    HS_P_CHOICE, /* one of the '|'-separated words in choices */
    HS_P_STRING, /* free text (no ',' inside) */
};

struct hs_param {
    const char *name;
    enum hs_ptype type;
    const char *defval;  /* NULL: the parameter is required */
    const char *help;
    const char *choices; /* HS_P_CHOICE: "a|b|c"; HS_P_DOUBLE: words allowed besides numbers */
    const char *range;   /* numeric: "[0,1]", "(0,inf)", "[1,inf)"; NULL: any */
    bool positional;     /* may be given without "key=" (first bare value) */
};

struct hs_kv {
    char *key;
    char *value;
};

struct hs_spec {
    char *name;  /* the part before ':' */
    int n;
    struct hs_kv *kv;
};

/* Split "name:k=v,k=v" (the ':' part is optional). Returns 0, or -1 with hs_fail. */
int hs_spec_parse(const char *text, struct hs_spec *out);

/* Validate against a NULL-name-terminated table; `what` names the thing in
 * messages ("policy dmda"). Adds defaults for missing keys. Returns 0 or -1. */
int hs_spec_check(struct hs_spec *spec, const struct hs_param *params, const char *what);

const char *hs_spec_get(const struct hs_spec *spec, const char *key);
double hs_spec_double(const struct hs_spec *spec, const char *key);
long hs_spec_int(const struct hs_spec *spec, const char *key);
bool hs_spec_bool(const struct hs_spec *spec, const char *key);

/* Canonical text "name:k=v,..." in table order (after hs_spec_check). Caller frees. */
char *hs_spec_text(const struct hs_spec *spec);

void hs_spec_free(struct hs_spec *spec);

/* "a, b, c" list of the parameter names of a table (for error messages). */
void hs_params_names(const struct hs_param *params, char *buf, int size);

/* Print a parameter table, one line per parameter, with defaults and help. */
void hs_params_print(const struct hs_param *params, const char *indent);

#endif
