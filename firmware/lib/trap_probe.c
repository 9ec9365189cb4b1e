#include "trap_probe.h"

#include "check.h"
#include "semihost.h"

#include <stdio.h>

volatile struct trap_record trap_last;

static void record(struct fw_frame *frame, unsigned el)
{
	trap_last.count++;
	trap_last.el = el;
	trap_last.esr = frame->esr;
	trap_last.elr = frame->elr;
	/* A trapped MRS names its target register in ISS.Rt [9:5] (Arm ARM D24.2.45). */
	if (esr_ec(frame->esr) == EC_SYSREG && (frame->esr & 1)) {
		unsigned rt = (unsigned)(frame->esr >> 5) & 31;
		if (rt < 31)
			frame->x[rt] = TRAP_MARKER;
	}
	frame->elr += 4;
}

void trap_probe_install(unsigned el) { fw_set_handler(el, FW_SYNC, record); }

void trap_probe_reset(void) { trap_last.count = 0; trap_last.el = 0; trap_last.esr = 0; trap_last.elr = 0; }

void trap_probe_expect(const char *what, unsigned el, uint64_t esr, const void *pc)
{
	char line[160];
	snprintf(line, sizeof line, "%s: one exception", what);
	fw_check_eq(line, trap_last.count, 1);
	snprintf(line, sizeof line, "%s: taken to EL", what);
	fw_check_eq(line, trap_last.el, el);
	snprintf(line, sizeof line, "%s: ESR", what);
	fw_check_eq(line, trap_last.esr, esr);
	snprintf(line, sizeof line, "%s: ELR = the trapping instruction", what);
	fw_check_eq(line, trap_last.elr, (uint64_t)(uintptr_t)pc);
}
