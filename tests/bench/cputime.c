/* tests/bench/cputime.c — runs a command and prints the CPU seconds (user +
 * system) and the peak resident memory (MiB) of it and its children, from
 * wait4's rusage, as "cpu_s rss_mib" on stderr. GNU time rounds CPU time to
 * 10 ms, too coarse for a 20 ms start-up; perf is not on every machine.
 * Usage: cputime COMMAND [ARG...]; exits with the command's status. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cputime COMMAND [ARG...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("cputime: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("cputime: wait4");
        return 2;
    }
    double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
                 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
    fprintf(stderr, "%.6f %.1f\n", cpu, ru.ru_maxrss / 1024.0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
