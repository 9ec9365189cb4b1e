#include "exceptions.h"

#include "semihost.h"
#include "sysreg.h"

extern char fw_vectors_el1[], fw_vectors_el2[], fw_vectors_el3[];
void fw_lower_return(unsigned el, uint64_t value) __attribute__((noreturn));
void fw_exception_dispatch(struct fw_frame *frame, unsigned el);

static fw_handler handlers[4][4];

void fw_install_vectors(void)
{
	/* A level writes its own VBAR and those of the levels below it. */
	switch (current_el()) {
	case 3:
		__asm__ volatile("msr vbar_el3, %0" :: "r"(fw_vectors_el3));
		/* fall through */
	case 2:
		__asm__ volatile("msr vbar_el2, %0" :: "r"(fw_vectors_el2));
		/* fall through */
	case 1:
		__asm__ volatile("msr vbar_el1, %0" :: "r"(fw_vectors_el1));
		isb();
		break;
	default:
		break;
	}
}

void fw_set_handler(unsigned el, enum fw_vector_kind kind, fw_handler handler)
{
	handlers[el & 3][kind & 3] = handler;
}

void fw_exception_dispatch(struct fw_frame *frame, unsigned el)
{
	unsigned kind = (unsigned)(frame->vector >> 7) & 3;
	if (kind == FW_SYNC) {
		unsigned ec = esr_ec(frame->esr);
		if ((ec == EC_SVC64 || ec == EC_HVC64 || ec == EC_SMC64) &&
		    (frame->esr & 0xffff) == FW_RETURN_IMM)
			fw_lower_return(el, frame->x[0]);
	}
	if (handlers[el][kind]) {
		handlers[el][kind](frame, el);
		return;
	}
	static const char *const kinds[] = {"synchronous", "IRQ", "FIQ", "SError"};
	fw_printf("FAIL: unexpected %s exception taken to EL%u (vector +0x%03llx): ESR=0x%08llx "
		  "ELR=0x%llx FAR=0x%llx SPSR=0x%llx\n",
		  kinds[kind], el, (unsigned long long)frame->vector,
		  (unsigned long long)frame->esr, (unsigned long long)frame->elr,
		  (unsigned long long)frame->far, (unsigned long long)frame->spsr);
	fw_exit(1);
}
