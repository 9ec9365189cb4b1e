/* Exception handling seen from the inside: one vector table per exception level (EL1, EL2,
 * EL3; all 16 entries each), an entry path that saves x0-x30 and reads ESR/ELR/FAR/SPSR of the
 * level the exception was taken to, and C handlers registered per level and kind.
 *
 * Syndrome layout (ESR_ELx) from the Arm ARM DDI0487 M.a.a D24.2.45: EC [31:26], IL [25],
 * ISS [24:0]. Exception class values from the same page (and TF-A arch.h EC_* constants). */
#ifndef PMUSIM_FIRMWARE_EXCEPTIONS_H
#define PMUSIM_FIRMWARE_EXCEPTIONS_H

#include <stdint.h>

#define ESR_EC_SHIFT   26
#define ESR_IL         (1u << 25)
#define ESR_ISS_MASK   0x1ffffffu
#define EC_UNKNOWN     0x00   /* UNDEFINED instruction */
#define EC_SVC64       0x15
#define EC_HVC64       0x16
#define EC_SMC64       0x17
#define EC_SYSREG      0x18   /* trapped MSR, MRS or System instruction */
#define EC_DABT_LOWER  0x24
#define EC_DABT_CUR    0x25

/* What the vector entry saves; the handler may change elr (and x[]) before the return. */
struct fw_frame {
	uint64_t x[31];
	uint64_t elr, spsr, esr, far;
	uint64_t irq_inst_retired; /* AMEVCNTR02_EL0 read by an IRQ entry's third instruction */
	uint64_t vector;           /* offset of the entry in the vector table (0x000..0x780) */
	uint64_t padding;          /* keeps the frame (304 bytes, vectors.S) 16-byte aligned */
};

_Static_assert(sizeof(struct fw_frame) == 304, "vectors.S FRAME_SIZE");

enum fw_vector_kind { FW_SYNC = 0, FW_IRQ = 1, FW_FIQ = 2, FW_SERROR = 3 };

/* A handler returns normally to resume at frame->elr (ERET). */
typedef void (*fw_handler)(struct fw_frame *frame, unsigned el);

void fw_install_vectors(void);                          /* VBAR of the current EL */
void fw_set_handler(unsigned el, enum fw_vector_kind kind, fw_handler handler);

static inline unsigned esr_ec(uint64_t esr) { return (unsigned)(esr >> ESR_EC_SHIFT) & 0x3f; }

/* ESR_ELx of a trapped AArch64 MSR/MRS (EC 0x18), computed from the Arm ARM's ISS layout
 * (DDI0487 M.a.a D24.2.45, "ISS encoding for an exception because of MSR, MRS or System
 * instruction execution in AArch64 state"): Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10],
 * Rt [9:5], CRm [4:1], Direction [0] (1 = read, MRS). IL = 1 (32-bit instruction). */
static inline uint64_t esr_sysreg_trap(unsigned op0, unsigned op1, unsigned crn, unsigned crm,
				       unsigned op2, unsigned rt, int is_read)
{
	uint64_t iss = ((uint64_t)op0 << 20) | ((uint64_t)op2 << 17) | ((uint64_t)op1 << 14) |
		       ((uint64_t)crn << 10) | ((uint64_t)rt << 5) | ((uint64_t)crm << 1) |
		       (is_read ? 1u : 0u);
	return ((uint64_t)EC_SYSREG << ESR_EC_SHIFT) | ESR_IL | iss;
}

/* ESR of an UNDEFINED 32-bit instruction: EC 0x00, IL = 1, ISS 0 (D24.2.45). */
static inline uint64_t esr_undefined(void) { return ((uint64_t)EC_UNKNOWN << ESR_EC_SHIFT) | ESR_IL; }

/* Run fn(arg) at a lower exception level on its own stack, and return what it returns.
 * The callee returns through SVC (caller at EL1), HVC (EL2) or SMC (EL3) with the immediate
 * FW_RETURN_IMM, which the caller's handler turns into the return of fw_run_lower. */
#define FW_RETURN_IMM 0x5eed
uint64_t fw_run_lower(unsigned target_el, uint64_t (*fn)(uint64_t), uint64_t arg, void *stack_top);

#endif
