/* analysis/plot_style.c — what makes hetsim's figures readable: a palette a
 * colour-blind reader tells apart on a white background (Okabe and Ito's),
 * curves that also differ by marker and dash, and units chosen from the
 * data (GiB, ms) instead of raw bytes and seconds in exponent notation. */
#include "analysis/plot.h"

#include <math.h>
#include <string.h>

void hs_gnuplot_palette(struct hs_buf *b)
{
    /* Okabe & Ito (2008), yellow replaced by grey, which reads on white */
    static const char *colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#000000", "#999999"};
    for (int i = 0; i < 8; i++)
        hs_buf_printf(b, "set linetype %d lc rgb '%s' lw 1.5\n", i + 1, colours[i]);
    hs_buf_add(b, "set linetype cycle 8\n");
}

int hs_plot_point_type(int curve)
{
    /* filled circle, square, triangle, inverted triangle, diamond, pentagon,
     * then their open forms: 12 curves before a marker repeats */
    static const int types[] = {7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14};
    return types[curve % 12];
}

int hs_plot_dash_type(int curve)
{
    /* solid, dash-dot, dotted, dash-dot-dot; plain dashes (2) are kept for
     * overlays (the analysis beside simulated curves) */
    static const int types[] = {1, 4, 3, 5};
    return types[curve % 4];
}

static bool is_bytes(const char *column)
{
    return strncmp(column, "bytes", 5) == 0;
}

static bool is_seconds(const char *column)
{
    static const char *const seconds[] = {"makespan", "predicted_makespan", "cp_min", "cpic",
                                          "sequential_time", "sim_seconds", "policy_seconds",
                                          "run_seconds", "time", NULL};
    for (int i = 0; seconds[i]; i++)
        if (strcmp(column, seconds[i]) == 0)
            return true;
    return false;
}

struct hs_unit hs_unit_for(const char *column, double max_abs)
{
    if (is_bytes(column)) {
        static const struct hs_unit bytes[] = {{"GiB", 1073741824.0}, {"MiB", 1048576.0},
                                               {"KiB", 1024.0}, {"B", 1}};
        for (int i = 0; i < 3; i++)
            if (max_abs >= bytes[i].div)
                return bytes[i];
        return bytes[3];
    }
    if (is_seconds(column)) {
        static const struct hs_unit times[] = {{"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}, {"ns", 1e-9}};
        for (int i = 0; i < 3; i++)
            if (max_abs >= times[i].div)
                return times[i];
        return times[max_abs > 0 ? 3 : 0];
    }
    return (struct hs_unit){NULL, 1};
}

void hs_unit_label(struct hs_buf *b, const char *label, struct hs_unit u)
{
    if (!u.name) {
        hs_buf_add(b, label);
        return;
    }
    /* a label that already names seconds ("makespan (s)") gets the unit chosen instead */
    size_t n = strlen(label);
    if (n >= 4 && strcmp(label + n - 4, " (s)") == 0)
        n -= 4;
    hs_buf_printf(b, "%.*s [%s]", (int)n, label, u.name);
}
