/* analysis/gnuplot.c — running gnuplot on a script: terminal from the file
 * extension, quoting, the subprocess and its error message. gnuplot draws
 * into a temporary file beside the output, renamed onto it only when gnuplot
 * succeeded (sim/outfile.h): a failed plot leaves the old picture. */
#define _DEFAULT_SOURCE /* mkstemp */
#include "analysis/plot.h"
#include "base/util.h"
#include "sim/outfile.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void hs_gnuplot_quote(struct hs_buf *b, const char *text)
{
    /* gnuplot's single quotes: a quote is doubled, nothing else is special; a
       line break would end the command, so it becomes a space */
    hs_buf_add(b, "'");
    for (const char *p = text; *p; p++)
        hs_buf_add(b, *p == '\'' ? "''" : *p == '\n' || *p == '\r' ? " " : (char[]){*p, '\0'});
    hs_buf_add(b, "'");
}

void hs_gnuplot_quote_lines(struct hs_buf *b, const char *text)
{
    for (const char *p = text;;) {
        size_t n = strcspn(p, "\n");
        char *line = hs_xmalloc(n + 1);
        memcpy(line, p, n);
        line[n] = '\0';
        hs_gnuplot_quote(b, line);
        free(line);
        if (!p[n])
            break;
        hs_buf_add(b, ".\"\\n\"."); /* gnuplot's string concatenation, a double-quoted line break */
        p += n + 1;
    }
}

int hs_gnuplot_preamble(struct hs_buf *b, const char *output, int width, int height)
{
    const char *dot = strrchr(output, '.');
    const char *ext = dot ? dot + 1 : "";
    if (strcmp(ext, "png") == 0)
        hs_buf_printf(b, "set terminal pngcairo noenhanced size %d,%d font 'Sans,10' background rgb 'white'\n",
                      width, height);
    else if (strcmp(ext, "svg") == 0) /* without a background an SVG is transparent: black once converted */
        hs_buf_printf(b, "set terminal svg noenhanced size %d,%d dynamic font 'Sans,10' background rgb 'white'\n",
                      width, height);
    else if (strcmp(ext, "pdf") == 0)
        hs_buf_printf(b, "set terminal pdfcairo noenhanced size %.2fin,%.2fin font 'Sans,8' background rgb 'white'\n",
                      width / 150.0, height / 150.0);
    else
        return hs_fail("%s: unknown image format '%s' (use .png, .svg or .pdf)", output, ext);
    hs_buf_add(b, "set encoding utf8\nset output ");
    hs_gnuplot_quote(b, output);
    hs_buf_add(b, "\n");
    hs_gnuplot_palette(b);
    return 0;
}

/* The first line gnuplot printed that says what went wrong. */
static void first_error(FILE *err, char *msg, size_t size)
{
    char line[512];
    msg[0] = '\0';
    rewind(err);
    while (fgets(line, sizeof line, err)) {
        line[strcspn(line, "\n")] = '\0';
        char *p = line + strspn(line, " \t^");
        if (*p && !msg[0])
            snprintf(msg, size, "%s", p);
        if (strstr(p, "rror") || strstr(p, "arning")) {
            snprintf(msg, size, "%s", p);
            break;
        }
    }
}

static int spawn(const char *script, FILE *err, int *status)
{
    int in[2];
    if (pipe(in))
        return hs_fail("cannot run gnuplot: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(fileno(err), STDOUT_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        close(in[0]), close(in[1]);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    if (pid < 0) {
        close(in[1]);
        return hs_fail("cannot run gnuplot: %s", strerror(errno));
    }
    void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* gnuplot may stop reading early */
    size_t len = strlen(script), off = 0;
    while (off < len) {
        ssize_t w = write(in[1], script + off, len - off);
        if (w <= 0 && errno != EINTR)
            break;
        off += w > 0 ? (size_t)w : 0;
    }
    close(in[1]);
    signal(SIGPIPE, old);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    return 0;
}

/* The script gnuplot runs: the preamble's `set output 'OUTPUT'` made to
 * name the temporary file instead (the saved script keeps OUTPUT); NULL if
 * the script has no such line. */
static char *retarget(const char *script, const char *output, const char *tmp)
{
    struct hs_buf from = {0}, to = {0};
    hs_buf_add(&from, "set output ");
    hs_gnuplot_quote(&from, output);
    hs_buf_add(&from, "\n");
    const char *at = strstr(script, hs_buf_str(&from));
    if (at) {
        hs_buf_printf(&to, "%.*s", (int)(at - script), script);
        hs_buf_add(&to, "set output ");
        hs_gnuplot_quote(&to, tmp);
        hs_buf_printf(&to, "\n%s", at + from.len);
    }
    hs_buf_free(&from);
    char *text = at ? hs_xstrdup(hs_buf_str(&to)) : NULL;
    hs_buf_free(&to);
    return text;
}

static int run(const char *script)
{
    FILE *err = tmpfile();
    if (!err)
        return hs_fail("cannot run gnuplot: %s", strerror(errno));
    int status = 0;
    if (spawn(script, err, &status)) {
        fclose(err);
        return -1;
    }
    char msg[512];
    first_error(err, msg, sizeof msg);
    fclose(err);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return hs_fail("gnuplot not found (install gnuplot-nox)");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || strstr(msg, "rror"))
        return hs_fail("gnuplot failed: %s", msg[0] ? msg : "no message");
    return 0;
}

int hs_gnuplot_run(const char *script, const char *output, const char *script_path)
{
    if (script_path && hs_outfile_write(script_path, script, strlen(script)))
        return -1;
    struct hs_outfile out; /* gnuplot writes the temporary file, renamed onto output if it succeeds */
    if (hs_outfile_open(&out, output))
        return -1;
    char *text = retarget(script, output, hs_outfile_name(&out));
    int rc = text ? run(text) : hs_fail("%s: the gnuplot script sets no output (hs_gnuplot_preamble)", output);
    free(text);
    if (rc) {
        hs_outfile_abort(&out);
        return -1;
    }
    return hs_outfile_commit(&out);
}
