/* analysis/sweep_pool.c — forked children, pipes, poll, timeouts. The parent
 * never runs a simulation: SimGrid's global state stays out of it, so every
 * child starts clean. */
#define _GNU_SOURCE /* pipe2 */
#include "analysis/sweep_pool.h"
#include "analysis/sweep_exec.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* The row a child sends starts with its status: '0' + enum hs_run_status. */

void hs_pool_init(struct hs_pool *p, int nslots, const struct hs_sweep_ops *ops, double timeout)
{
    memset(p, 0, sizeof *p);
    p->ops = ops;
    p->timeout = timeout;
    p->nslots = nslots;
    p->slots = hs_xcalloc((size_t)nslots, sizeof *p->slots);
}

static int write_all(int fd, const char *text, size_t len)
{
    while (len) {
        ssize_t w = write(fd, text, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        text += w;
        len -= (size_t)w;
    }
    return 0;
}

static _Noreturn void child(const struct hs_sweep_ops *ops, const struct hs_sweep_job *job, int row_fd,
                            int out_fd, pid_t parent)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the sweep */
#endif
    if (getppid() != parent)
        _exit(111);
    signal(SIGINT, SIG_IGN); /* the sweep decides what an interruption means */
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
    close(out_fd);
    double t0 = hs_now();
    cJSON *rec = NULL;
    int rc = ops->run(ops->ctx, job, &rec);
    double t = hs_now() - t0;
    enum hs_run_status st = rc ? HS_RUN_ERROR : HS_RUN_OK;
    char *row = hs_sweep_row(ops, job, st, rc ? hs_last_error() : NULL, rc ? NULL : rec, t);
    char status = (char)('0' + st);
    fflush(NULL);
    int wrc = write_all(row_fd, &status, 1) || write_all(row_fd, row, strlen(row));
    close(row_fd); /* done: the parent goes on while this process exits */
    close(STDOUT_FILENO);
    close(STDERR_FILENO);
    _exit(wrc ? 111 : 0); /* no exit handlers: SimGrid's are slow */
}

int hs_pool_start(struct hs_pool *p, struct hs_sweep_job *job)
{
    return hs_pool_start_of(p, job, p->ops, p->timeout);
}

int hs_pool_start_of(struct hs_pool *p, struct hs_sweep_job *job, const struct hs_sweep_ops *ops,
                     double timeout)
{
    struct hs_pool_slot *s = NULL;
    for (int i = 0; i < p->nslots && !s; i++)
        if (!p->slots[i].pid)
            s = &p->slots[i];
    int rowp[2], outp[2];
    if (!s || pipe2(rowp, O_CLOEXEC))
        return hs_fail("cannot start a run: %s", s ? strerror(errno) : "no free slot");
    if (pipe2(outp, O_CLOEXEC)) {
        close(rowp[0]), close(rowp[1]);
        return hs_fail("cannot start a run: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        hs_sweep_child_release();
        close(rowp[0]), close(outp[0]);
        child(ops, job, rowp[1], outp[1], parent);
    }
    close(rowp[1]), close(outp[1]);
    if (pid < 0) {
        close(rowp[0]), close(outp[0]);
        return hs_fail("cannot start a run: fork: %s", strerror(errno));
    }
    s->pid = pid;
    s->fd[0] = rowp[0];
    s->fd[1] = outp[0];
    s->job = *job;
    s->ops = ops;
    memset(job, 0, sizeof *job);
    s->start = hs_now();
    s->timeout = timeout;
    s->deadline = timeout > 0 ? s->start + timeout : 0;
    s->timed_out = false;
    p->busy++;
    return 0;
}

/* Read what is there; close the pipe at its end. Keep the last 8 KiB of output. */
static void drain(struct hs_pool_slot *s, int which)
{
    char chunk[16384];
    ssize_t n = read(s->fd[which], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        close(s->fd[which]);
        s->fd[which] = -1;
        return;
    }
    struct hs_buf *b = which == 0 ? &s->row : &s->out;
    hs_buf_addn(b, chunk, (size_t)n);
    if (which == 1 && b->len > 65536) {
        memmove(b->s, b->s + b->len - 8192, 8192);
        b->len = 8192;
        b->s[b->len] = '\0';
    }
}

/* The last non-empty line the child printed, to explain a crash. */
static void last_line(struct hs_buf *out, char *buf, size_t size)
{
    const char *s = hs_buf_str(out);
    size_t end = strlen(s);
    while (end && (s[end - 1] == '\n' || s[end - 1] == '\r' || s[end - 1] == ' '))
        end--;
    size_t begin = end;
    while (begin && s[begin - 1] != '\n')
        begin--;
    snprintf(buf, size, "%.*s", (int)(end - begin > 300 ? 300 : end - begin), s + begin);
}

static void crash_message(struct hs_pool_slot *s, int status, char *msg, size_t size)
{
    char line[320];
    last_line(&s->out, line, sizeof line);
    int n;
    if (s->timed_out)
        n = snprintf(msg, size, "timed out after %g s", s->timeout);
    else if (WIFSIGNALED(status))
        n = snprintf(msg, size, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        n = snprintf(msg, size, "exited with status %d without a result", WEXITSTATUS(status));
    if (line[0] && n > 0 && (size_t)n < size)
        snprintf(msg + n, size - (size_t)n, ": %s", line);
}

/* Reap the children that have finished exiting (all of them if wait). */
static void reap(struct hs_pool *p, bool wait)
{
    for (int i = 0; i < p->nexiting;) {
        pid_t r = waitpid(p->exiting[i], NULL, wait ? 0 : WNOHANG);
        if (r == 0 || (r < 0 && errno == EINTR)) {
            i += r == 0;
            continue;
        }
        p->exiting[i] = p->exiting[--p->nexiting];
    }
}

static void finish(struct hs_pool *p, struct hs_pool_slot *s, hs_pool_done_fn done, void *ctx)
{
    const char *row = hs_buf_str(&s->row);
    bool complete = s->row.len > 1 && row[s->row.len - 1] == '\n' && !s->timed_out &&
                    (row[0] == '0' + HS_RUN_OK || row[0] == '0' + HS_RUN_ERROR);
    int status = 0;
    if (complete) { /* it may still be exiting: reaped later */
        HS_GROW_IMPLIED(p->exiting, p->nexiting, p->nexiting + 1); /* doubling, not one per realloc */
        p->exiting[p->nexiting++] = s->pid;
        done(ctx, &s->job, (enum hs_run_status)(row[0] - '0'), row + 1);
    } else {
        while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
            ;
        char msg[512];
        crash_message(s, status, msg, sizeof msg);
        enum hs_run_status st = s->timed_out ? HS_RUN_TIMEOUT : HS_RUN_CRASH;
        char *r = hs_sweep_row(s->ops, &s->job, st, msg, NULL, hs_now() - s->start);
        done(ctx, &s->job, st, r);
        free(r);
    }
    hs_sweep_job_free(&s->job, s->ops->nparams);
    hs_buf_free(&s->row);
    hs_buf_free(&s->out);
    s->pid = 0;
    p->busy--;
}

/* Milliseconds until the first deadline, or max_ms. */
static int wait_ms(const struct hs_pool *p, int max_ms)
{
    double first = 0, now = hs_now();
    for (int i = 0; i < p->nslots; i++) {
        const struct hs_pool_slot *s = &p->slots[i];
        if (s->pid && s->deadline > 0 && !s->timed_out && (first == 0 || s->deadline < first))
            first = s->deadline;
    }
    if (first == 0)
        return max_ms;
    int ms = first <= now ? 0 : (int)((first - now) * 1000) + 1;
    return max_ms >= 0 && max_ms < ms ? max_ms : ms;
}

int hs_pool_wait(struct hs_pool *p, int max_ms, hs_pool_done_fn done, void *ctx)
{
    struct pollfd fds[2 * p->nslots + 1];
    int owner[2 * p->nslots + 1], nfds = 0;
    for (int i = 0; i < p->nslots; i++)
        for (int k = 0; k < 2; k++)
            if (p->slots[i].pid && p->slots[i].fd[k] >= 0) {
                fds[nfds] = (struct pollfd){.fd = p->slots[i].fd[k], .events = POLLIN};
                owner[nfds++] = 2 * i + k;
            }
    int rc = poll(fds, (nfds_t)nfds, wait_ms(p, max_ms));
    if (rc < 0)
        return errno == EINTR ? -1 : 0;
    for (int f = 0; f < nfds; f++)
        if (fds[f].revents)
            drain(&p->slots[owner[f] / 2], owner[f] % 2);
    reap(p, false);
    double now = hs_now();
    int finished = 0;
    for (int i = 0; i < p->nslots; i++) {
        struct hs_pool_slot *s = &p->slots[i];
        if (s->pid && s->deadline > 0 && !s->timed_out && now >= s->deadline) {
            kill(s->pid, SIGKILL);
            s->timed_out = true;
        }
        if (s->pid && s->fd[0] < 0 && s->fd[1] < 0) {
            finish(p, s, done, ctx);
            finished++;
        }
    }
    return finished;
}

void hs_pool_kill(struct hs_pool *p)
{
    for (int i = 0; i < p->nslots; i++) {
        struct hs_pool_slot *s = &p->slots[i];
        if (!s->pid)
            continue;
        kill(s->pid, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        for (int k = 0; k < 2; k++)
            if (s->fd[k] >= 0)
                close(s->fd[k]);
        hs_sweep_job_free(&s->job, s->ops->nparams);
        hs_buf_free(&s->row);
        hs_buf_free(&s->out);
        s->pid = 0;
        p->busy--;
    }
}

void hs_pool_free(struct hs_pool *p)
{
    hs_pool_kill(p);
    reap(p, true);
    free(p->exiting);
    free(p->slots);
    memset(p, 0, sizeof *p);
}
