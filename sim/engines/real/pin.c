/* sim/engines/real/pin.c — pinning threads to cores (see pin.h), with glibc's
 * pthread affinity calls. */
#define _GNU_SOURCE /* pthread_setaffinity_np, cpu_set_t */
#include "sim/engines/real/pin.h"
#include "sim/util.h"

#include <sched.h>
#include <stdlib.h>

struct hs_cores {
    cpu_set_t set;
};

struct hs_cores *hs_cores_get(void)
{
    struct hs_cores *c = hs_xmalloc(sizeof *c);
    if (pthread_getaffinity_np(pthread_self(), sizeof c->set, &c->set) == 0 && CPU_COUNT(&c->set) > 0)
        return c;
    free(c);
    return NULL;
}

void hs_cores_pin(const struct hs_cores *cores, pthread_t th, int index)
{
    if (!cores)
        return;
    index %= CPU_COUNT(&cores->set);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &cores->set) && index-- == 0) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            pthread_setaffinity_np(th, sizeof one, &one);
            return;
        }
}

void hs_cores_unpin(const struct hs_cores *cores, pthread_t th)
{
    if (cores)
        pthread_setaffinity_np(th, sizeof cores->set, &cores->set);
}

void hs_cores_free(struct hs_cores *cores)
{
    free(cores);
}
