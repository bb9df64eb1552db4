/* platforms/flat_speeds.c — given or drawn speeds of flat:P (flat_speeds.h). */
#include "platforms/flat_speeds.h"
#include "base/rng.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPEED_STREAM 3

/* Beaumont and Marchal's scenarios as settings of the other parameters. */
static const struct {
    const char *name, *speed, *spread, *choices;
    double drift;
} scenarios[] = {
    {"u10-100", "55G", "45G", "", 0},   {"unif.1", "100G", "20G", "", 0},
    {"unif.2", "100G", "50G", "", 0},   {"set.3", "", "", "80G:100G:150G", 0},
    {"set.5", "", "", "40G:80G:100G:150G:200G", 0},
    {"dyn.5", "100G", "20G", "", 0.05}, {"dyn.20", "100G", "20G", "", 0.20},
};

/* A ':'-separated list of positive speeds (at least one); its length in *n. */
static int parse_list(const char *text, const char *key, double **out, int *n)
{
    *n = 0;
    *out = NULL;
    char *copy = hs_xstrdup(text), *save = NULL;
    for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
        double v;
        if (hs_parse_si(tok, &v) || !(v > 0) || isinf(v)) {
            hs_fail("platform flat: %s: '%s' is not a positive speed", key, tok);
            free(copy), free(*out);
            *out = NULL;
            return -1;
        }
        HS_GROW_IMPLIED(*out, *n, *n + 1);
        (*out)[(*n)++] = v;
    }
    free(copy);
    if (*n == 0)
        return hs_fail("platform flat: %s: '%s' lists no speed", key, text);
    return 0;
}

static int draw_uniform(struct hs_flat_speeds *fs, double speed, double spread, gsl_rng *r)
{
    if (spread > speed)
        return hs_fail("platform flat: spread %g exceeds speed %g (speeds would be negative)", spread,
                       speed);
    for (int k = 0; k < fs->p; k++) /* a speed of 0 (spread = speed) would never finish a task */
        fs->speeds[k] = fmax(speed + spread * (2 * gsl_rng_uniform(r) - 1), 1e-9 * speed);
    return 0;
}

static int draw_choices(struct hs_flat_speeds *fs, const char *choices, gsl_rng *r)
{
    double *v;
    int n;
    if (parse_list(choices, "choices", &v, &n))
        return -1;
    for (int k = 0; k < fs->p; k++)
        fs->speeds[k] = v[gsl_rng_uniform_int(r, (unsigned long)n)];
    free(v);
    return 0;
}

static int given_list(struct hs_flat_speeds *fs, const char *text)
{
    double *v;
    int n;
    if (parse_list(text, "speeds", &v, &n))
        return -1;
    if (n != fs->p) {
        free(v);
        return hs_fail("platform flat: speeds lists %d values but p=%d", n, fs->p);
    }
    memcpy(fs->speeds, v, (size_t)n * sizeof *v);
    free(v);
    return 0;
}

static int apply_scenario(const char *name, const char **speed, const char **spread, const char **choices,
                          double *drift)
{
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        if (strcmp(scenarios[i].name, name) == 0) {
            if (strcmp(*spread, "0") || **choices || *drift > 0)
                return hs_fail("platform flat: scenario=%s sets the speeds: drop spread, choices and "
                               "drift", name);
            *speed = scenarios[i].speed;
            *spread = scenarios[i].spread;
            *choices = scenarios[i].choices;
            *drift = scenarios[i].drift;
            return 0;
        }
    return 0; /* "none" */
}

int hs_flat_speeds(const struct hs_spec *flat, unsigned long seed, struct hs_flat_speeds *out)
{
    const char *speed = hs_spec_get(flat, "speed"), *spread = hs_spec_get(flat, "spread");
    const char *choices = hs_spec_get(flat, "choices"), *list = hs_spec_get(flat, "speeds");
    memset(out, 0, sizeof *out);
    out->p = (int)hs_spec_int(flat, "p");
    out->bw = hs_spec_double(flat, "bw");
    out->lat = hs_spec_double(flat, "lat");
    out->drift = hs_spec_double(flat, "drift");
    if (apply_scenario(hs_spec_get(flat, "scenario"), &speed, &spread, &choices, &out->drift))
        return -1;
    if (*list && (strcmp(spread, "0") || *choices || strcmp(hs_spec_get(flat, "scenario"), "none")))
        return hs_fail("platform flat: speeds lists the speeds: drop spread, choices and scenario");
    out->speeds = hs_xmalloc((size_t)out->p * sizeof *out->speeds);
    double s, sp;
    hs_parse_si(speed, &s);
    hs_parse_si(spread, &sp);
    gsl_rng *r = hs_rng(seed, SPEED_STREAM);
    int rc = *list ? given_list(out, list) : *choices ? draw_choices(out, choices, r)
                                                      : draw_uniform(out, s, sp, r);
    gsl_rng_free(r);
    if (rc)
        hs_flat_speeds_free(out);
    return rc;
}

void hs_flat_speeds_free(struct hs_flat_speeds *fs)
{
    free(fs->speeds);
    fs->speeds = NULL;
}
