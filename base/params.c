/* base/params.c — parsing and validation of "name:key=value,…" specifications. */
#include "base/params.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int hs_spec_parse(const char *text, struct hs_spec *out)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text)
        return hs_fail("empty specification");
    const char *colon = strchr(text, ':');
    size_t namelen = colon ? (size_t)(colon - text) : strlen(text);
    if (namelen == 0)
        return hs_fail("'%s': missing name before ':'", text);
    out->name = hs_xmalloc(namelen + 1);
    memcpy(out->name, text, namelen);
    out->name[namelen] = '\0';
    if (!colon)
        return 0;
    char *rest = hs_xstrdup(colon + 1);
    char *save = NULL;
    for (char *item = strtok_r(rest, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        HS_GROW_IMPLIED(out->kv, out->n, out->n + 1);
        if (eq) {
            *eq = '\0';
            if (!*item) {
                free(rest);
                hs_spec_free(out);
                return hs_fail("'%s': empty parameter name", text);
            }
            out->kv[out->n].key = hs_xstrdup(item);
            out->kv[out->n].value = hs_xstrdup(eq + 1);
        } else {
            out->kv[out->n].key = hs_xstrdup("");
            out->kv[out->n].value = hs_xstrdup(item);
        }
        out->n++;
    }
    free(rest);
    return 0;
}

void hs_spec_free(struct hs_spec *spec)
{
    for (int i = 0; i < spec->n; i++) {
        free(spec->kv[i].key);
        free(spec->kv[i].value);
    }
    free(spec->kv);
    free(spec->name);
    memset(spec, 0, sizeof *spec);
}

void hs_params_names(const struct hs_param *params, char *buf, int size)
{
    int len = 0;
    buf[0] = '\0';
    for (const struct hs_param *p = params; p && p->name && len < size; p++)
        len += snprintf(buf + len, (size_t)(size - len), "%s%s", len ? ", " : "", p->name);
    if (!params || !params->name)
        snprintf(buf, (size_t)size, "(none)");
}

static const struct hs_param *find_param(const struct hs_param *params, const char *key)
{
    for (const struct hs_param *p = params; p && p->name; p++)
        if (strcmp(p->name, key) == 0)
            return p;
    return NULL;
}

static const struct hs_param *first_positional(const struct hs_param *params)
{
    for (const struct hs_param *p = params; p && p->name; p++)
        if (p->positional)
            return p;
    return NULL;
}

/* Check v against a range text like "[0,1]" or "(0,inf)". */
static bool in_range(double v, const char *range)
{
    if (!range)
        return true;
    char lo_br = range[0];
    double lo, hi;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", range + 1);
    char *comma = strchr(buf, ',');
    if (!comma)
        return true;
    *comma = '\0';
    char *hi_text = comma + 1;
    size_t hl = strlen(hi_text);
    char hi_br = hl ? hi_text[hl - 1] : ']';
    if (hl)
        hi_text[hl - 1] = '\0';
    lo = strcmp(buf, "-inf") == 0 ? -INFINITY : atof(buf);
    hi = strcmp(hi_text, "inf") == 0 ? INFINITY : atof(hi_text);
    if (lo_br == '[' ? v < lo : v <= lo)
        return false;
    if (hi_br == ']' ? v > hi : v >= hi)
        return false;
    return true;
}

static int parse_bool(const char *s, bool *out)
{
    static const char *yes[] = {"1", "on", "yes", "true"}, *no[] = {"0", "off", "no", "false"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    return -1;
}

static bool choice_ok(const char *choices, const char *value)
{
    size_t n = strlen(value);
    for (const char *c = choices; c && *c;) {
        const char *bar = strchr(c, '|');
        size_t len = bar ? (size_t)(bar - c) : strlen(c);
        if (len == n && strncmp(c, value, n) == 0)
            return true;
        c = bar ? bar + 1 : c + len;
    }
    return false;
}

static int check_value(const struct hs_param *p, const char *value, const char *what)
{
    double d;
    long l;
    bool b;
    switch (p->type) {
    case HS_P_INT:
        if (hs_parse_long(value, &l))
            return hs_fail("%s: parameter %s: '%s' is not an integer", what, p->name, value);
        d = (double)l;
        break;
    case HS_P_DOUBLE:
        if (p->choices && choice_ok(p->choices, value))
            return 0; /* a number or one of these words */
        if (hs_parse_double(value, &d) && p->choices)
            return hs_fail("%s: parameter %s: '%s' is not a number or one of %s", what, p->name,
                           value, p->choices);
        if (hs_parse_double(value, &d))
            return hs_fail("%s: parameter %s: '%s' is not a number", what, p->name, value);
        break;
    case HS_P_SI:
        if (hs_parse_si(value, &d))
            return hs_fail("%s: parameter %s: '%s' is not a number (SI suffixes k, M, G, T allowed)",
                           what, p->name, value);
        break;
    case HS_P_BOOL:
        if (parse_bool(value, &b))
            return hs_fail("%s: parameter %s: '%s' is not a boolean (use 0/1, on/off)", what,
                           p->name, value);
        return 0;
    case HS_P_CHOICE:
        if (!choice_ok(p->choices, value))
            return hs_fail("%s: parameter %s: '%s' is not one of %s", what, p->name, value,
                           p->choices);
        return 0;
    case HS_P_STRING:
        return 0;
    }
    if (!in_range(d, p->range))
        return hs_fail("%s: parameter %s: %s is outside the allowed range %s", what, p->name,
                       value, p->range);
    return 0;
}

int hs_spec_check(struct hs_spec *spec, const struct hs_param *params, const char *what)
{
    char names[512];
    for (int i = 0; i < spec->n; i++) {
        struct hs_kv *kv = &spec->kv[i];
        if (!*kv->key) {
            const struct hs_param *pos = first_positional(params);
            if (!pos || hs_spec_get(spec, pos->name)) {
                hs_params_names(params, names, sizeof names);
                return hs_fail("%s: '%s' must be written key=value (parameters: %s)", what,
                               kv->value, names);
            }
            free(kv->key);
            kv->key = hs_xstrdup(pos->name);
        }
        const struct hs_param *p = find_param(params, kv->key);
        if (!p) {
            hs_params_names(params, names, sizeof names);
            return hs_fail("%s: unknown parameter '%s' (valid: %s)", what, kv->key, names);
        }
        for (int j = 0; j < i; j++)
            if (strcmp(spec->kv[j].key, kv->key) == 0)
                return hs_fail("%s: parameter %s given twice", what, kv->key);
        if (check_value(p, kv->value, what))
            return -1;
    }
    for (const struct hs_param *p = params; p && p->name; p++) {
        if (hs_spec_get(spec, p->name))
            continue;
        if (!p->defval)
            return hs_fail("%s: parameter %s is required (%s)", what, p->name, p->help);
        HS_GROW_IMPLIED(spec->kv, spec->n, spec->n + 1);
        spec->kv[spec->n].key = hs_xstrdup(p->name);
        spec->kv[spec->n].value = hs_xstrdup(p->defval);
        spec->n++;
    }
    return 0;
}

const char *hs_spec_get(const struct hs_spec *spec, const char *key)
{
    for (int i = 0; i < spec->n; i++)
        if (strcmp(spec->kv[i].key, key) == 0)
            return spec->kv[i].value;
    return NULL;
}

double hs_spec_double(const struct hs_spec *spec, const char *key)
{
    const char *v = hs_spec_get(spec, key);
    double d = NAN;
    if (v && hs_parse_si(v, &d) != 0)
        hs_parse_double(v, &d);
    return d;
}

long hs_spec_int(const struct hs_spec *spec, const char *key)
{
    const char *v = hs_spec_get(spec, key);
    long l = 0;
    if (v)
        hs_parse_long(v, &l);
    return l;
}

bool hs_spec_bool(const struct hs_spec *spec, const char *key)
{
    const char *v = hs_spec_get(spec, key);
    bool b = false;
    if (v)
        parse_bool(v, &b);
    return b;
}

char *hs_spec_text(const struct hs_spec *spec)
{
    size_t len = strlen(spec->name) + 2;
    for (int i = 0; i < spec->n; i++)
        len += strlen(spec->kv[i].key) + strlen(spec->kv[i].value) + 2;
    char *s = hs_xmalloc(len);
    char *p = s + sprintf(s, "%s", spec->name);
    for (int i = 0; i < spec->n; i++)
        p += sprintf(p, "%c%s=%s", i ? ',' : ':', spec->kv[i].key, spec->kv[i].value);
    return s;
}

void hs_params_print(const struct hs_param *params, const char *indent)
{
    for (const struct hs_param *p = params; p && p->name; p++) {
        char def[96];
        snprintf(def, sizeof def, "%s=%s", p->name, p->defval ? p->defval : "(required)");
        printf("%s%-24s %s", indent, def, p->help);
        if (p->type == HS_P_CHOICE)
            printf(" [%s]", p->choices);
        else if (p->choices)
            printf(" [a number or %s]", p->choices);
        if (p->range)
            printf(" %s", p->range);
        printf("\n");
    }
}
