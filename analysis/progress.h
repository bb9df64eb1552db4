/* analysis/progress.h — progress of a sweep on stderr: a bar with the rate
 * and the time left on a terminal, a plain line every tenth otherwise. */
#ifndef HS_PROGRESS_H
#define HS_PROGRESS_H

#include <stdbool.h>

struct hs_progress {
    long total, done, failed;
    double t0, last_draw;
    bool on, tty;
    int last_tenth;
};

void hs_progress_start(struct hs_progress *p, long total, bool on);
void hs_progress_step(struct hs_progress *p, bool failed);
/* Redraw the bar (the time left moves even when no run ends). */
void hs_progress_tick(struct hs_progress *p);
void hs_progress_end(struct hs_progress *p);

#endif
