/* analysis/progress.c — the progress bar and progress lines. */
#include "analysis/progress.h"
#include "base/util.h"

#include <stdio.h>
#include <unistd.h>

void hs_progress_start(struct hs_progress *p, long total, bool on)
{
    *p = (struct hs_progress){.total = total, .on = on && total > 0, .t0 = hs_now(),
                              .tty = isatty(STDERR_FILENO) == 1};
}

static void format_time(double s, char *buf, size_t size)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

static void draw(struct hs_progress *p)
{
    double el = hs_now() - p->t0, rate = el > 0 ? (double)p->done / el : 0;
    char eta[32] = "--:--";
    if (rate > 0)
        format_time((double)(p->total - p->done) / rate, eta, sizeof eta);
    char failed[48] = "";
    if (p->failed)
        snprintf(failed, sizeof failed, ", %ld failed", p->failed);
    if (p->tty) {
        char bar[31];
        int fill = (int)(30 * p->done / p->total);
        for (int i = 0; i < 30; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[30] = '\0';
        fprintf(stderr, "\r[%s] %ld/%ld %3d%%  %.1f runs/s  ETA %s%s\033[K", bar, p->done, p->total,
                (int)(100 * p->done / p->total), rate, eta, failed);
    } else {
        fprintf(stderr, "sweep: %ld/%ld runs (%d%%), %.1f runs/s, ETA %s%s\n", p->done, p->total,
                (int)(100 * p->done / p->total), rate, eta, failed);
    }
    fflush(stderr);
    p->last_draw = hs_now();
}

void hs_progress_step(struct hs_progress *p, bool failed)
{
    p->done++;
    p->failed += failed;
    if (!p->on)
        return;
    int tenth = (int)(10 * p->done / p->total);
    if (p->tty ? hs_now() - p->last_draw > 0.1 || p->done == p->total : tenth > p->last_tenth)
        draw(p);
    p->last_tenth = tenth;
}

void hs_progress_tick(struct hs_progress *p)
{
    if (p->on && p->tty && hs_now() - p->last_draw > 0.5)
        draw(p);
}

void hs_progress_end(struct hs_progress *p)
{
    if (p->on && p->tty)
        fputc('\n', stderr);
}
