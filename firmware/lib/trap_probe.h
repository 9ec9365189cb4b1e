/* Recording the synchronous exceptions a test provokes on purpose: the handler keeps the level,
 * ESR and ELR, steps over the faulting instruction and writes a marker into its target register,
 * so the code that trapped goes on and the test compares the record with what the Arm ARM says. */
#ifndef PMUSIM_FIRMWARE_TRAP_PROBE_H
#define PMUSIM_FIRMWARE_TRAP_PROBE_H

#include <stdint.h>

#include "exceptions.h"

#define TRAP_MARKER 0x7ab0000000000000ull

struct trap_record {
	unsigned count;
	unsigned el;
	uint64_t esr, elr;
};

extern volatile struct trap_record trap_last;

/* Installs the recording handler for synchronous exceptions taken to `el`. */
void trap_probe_install(unsigned el);
void trap_probe_reset(void);

/* Checks that exactly one exception was recorded since the reset, taken to `el` with `esr`
 * at the instruction `pc`. */
void trap_probe_expect(const char *what, unsigned el, uint64_t esr, const void *pc);

#endif
