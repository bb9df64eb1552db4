/* sim/engines/real/pin.h — pinning threads to cores, so that a CPU worker of a
 * measured run (or of a calibration) is one core, as in the model, and a
 * run does not depend on where the operating system moves its threads. */
#ifndef HS_REAL_PIN_H
#define HS_REAL_PIN_H

#include <pthread.h>

struct hs_cores;

/* The cores the calling thread may use now; NULL if they cannot be read. */
struct hs_cores *hs_cores_get(void);
/* Pin th to the index-th of those cores (modulo their number). */
void hs_cores_pin(const struct hs_cores *cores, pthread_t th, int index);
/* Give th every one of those cores back. */
void hs_cores_unpin(const struct hs_cores *cores, pthread_t th);
void hs_cores_free(struct hs_cores *cores);

#endif
