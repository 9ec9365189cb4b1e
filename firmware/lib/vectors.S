/* Vector tables for EL1, EL2 and EL3: 16 entries of 0x80 bytes each, in the Arm ARM's order
 * (Arm ARM DDI0487, the "Vector offsets from vector table base address" table: current EL with SP_EL0 at 0x000, current EL with
 * SP_ELx at 0x200, lower EL AArch64 at 0x400, lower EL AArch32 at 0x600; within each group
 * Synchronous +0x000, IRQ +0x080, FIQ +0x100, SError +0x180). VBAR_ELx must be 2 KB aligned.
 *
 * Each entry saves x0/x1, records its own offset, and branches to the level's common entry,
 * which saves the rest (struct fw_frame in exceptions.h), reads ELR/SPSR/ESR/FAR of that level,
 * calls fw_exception_dispatch(frame, el) and returns with ERET (after writing back ELR/SPSR,
 * which the handler may have changed).
 *
 * An IRQ entry's third instruction reads AMEVCNTR02_EL0 (INST_RETIRED; S3_3_C13_C4_2, Arm ARM
 * D24.6) into frame->irq_inst_retired, so that a test can see at which instruction the
 * interrupt was taken. Every CPU of the pmusim Arm platforms has an AMU. */

#define FRAME_SIZE     304
#define FRAME_ELR      248
#define FRAME_SPSR     256
#define FRAME_ESR      264
#define FRAME_FAR      272
#define FRAME_IRQ_INST 280
#define FRAME_VECTOR   288

.macro ventry el, offset
	.balign 0x80
	sub	sp, sp, #FRAME_SIZE
	stp	x0, x1, [sp, #0]
	.if ((\offset >> 7) & 3) == 1
	mrs	x0, S3_3_C13_C4_2
	.else
	mov	x0, #0
	.endif
	str	x0, [sp, #FRAME_IRQ_INST]
	mov	x0, #\offset
	b	fw_entry_el\el
.endm

.macro vector_table el
	.section .text.vectors_el\el, "ax"
	.balign 0x800
	.global fw_vectors_el\el
fw_vectors_el\el:
	.irp offset, 0x000, 0x080, 0x100, 0x180, 0x200, 0x280, 0x300, 0x380, 0x400, 0x480, 0x500, 0x580, 0x600, 0x680, 0x700, 0x780
	ventry \el, \offset
	.endr

	.balign 4
fw_entry_el\el:
	str	x0, [sp, #FRAME_VECTOR]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	str	x30, [sp, #240]
	mrs	x1, elr_el\el
	mrs	x2, spsr_el\el
	stp	x1, x2, [sp, #FRAME_ELR]
	mrs	x1, esr_el\el
	mrs	x2, far_el\el
	stp	x1, x2, [sp, #FRAME_ESR]
	mov	x0, sp
	mov	x1, #\el
	bl	fw_exception_dispatch
	ldp	x1, x2, [sp, #FRAME_ELR]
	msr	elr_el\el, x1
	msr	spsr_el\el, x2
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	ldr	x30, [sp, #240]
	add	sp, sp, #FRAME_SIZE
	eret
.endm

vector_table 1
vector_table 2
vector_table 3
