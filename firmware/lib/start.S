/* Minimal start-up: the ELF entry point. Works at whichever EL the platform starts the CPU in
 * (EL3 on pmusim's Arm platforms): stack, FP/SIMD access for picolibc (CPACR_EL1.FPEN = 0b11,
 * Arm ARM D24.2.36), .bss cleared, picolibc's TLS block (errno) set up, vector tables
 * installed, then main(); main's return value is the semihosting exit status. */
	.section .text.start, "ax"
	.global _start
_start:
	ldr	x0, =__stack_top
	mov	sp, x0
	mrs	x0, CurrentEL
	lsr	x0, x0, #2
	cbz	x0, 1f
	mov	x1, #(3 << 20)
	msr	cpacr_el1, x1
	isb
1:	ldr	x0, =__bss_start
	ldr	x1, =__bss_end
2:	cmp	x0, x1
	b.hs	3f
	str	xzr, [x0], #8
	b	2b
3:	ldr	x0, =__tls_base
	bl	_init_tls
	ldr	x0, =__tls_base
	bl	_set_tls
	bl	fw_install_vectors
	bl	main
	bl	fw_exit
4:	b	4b

/* uint64_t fw_run_lower(unsigned target_el, uint64_t (*fn)(uint64_t), uint64_t arg, void *stack_top)
 * Saves the callee-saved registers, SP and DAIF in fw_lower_ctx[caller EL], then ERETs to
 * fw_lower_entry at target_el (EL0t, or ELxh with its own SP) with all interrupts masked. */
	.text
	.global fw_run_lower
fw_run_lower:
	mrs	x9, CurrentEL
	lsr	x9, x9, #2
	ldr	x10, =fw_lower_ctx
	add	x10, x10, x9, lsl #7
	stp	x19, x20, [x10, #0]
	stp	x21, x22, [x10, #16]
	stp	x23, x24, [x10, #32]
	stp	x25, x26, [x10, #48]
	stp	x27, x28, [x10, #64]
	stp	x29, x30, [x10, #80]
	mov	x11, sp
	mrs	x12, daif
	stp	x11, x12, [x10, #96]
	lsl	x13, x0, #2            /* SPSR.M[3:2] = target EL */
	cbz	x0, 5f
	orr	x13, x13, #1           /* M[0] = 1: ELxh, the target EL's own SP */
5:	orr	x13, x13, #0x3c0       /* D, A, I, F masked */
	ldr	x14, =fw_lower_entry
	mov	x4, x9
	mov	x0, x2
	cmp	x9, #3
	b.eq	6f
	cmp	x9, #2
	b.eq	7f
	msr	spsr_el1, x13
	msr	elr_el1, x14
	eret
6:	msr	spsr_el3, x13
	msr	elr_el3, x14
	eret
7:	msr	spsr_el2, x13
	msr	elr_el2, x14
	eret

/* x0 = arg, x1 = fn, x3 = stack top, x4 = caller EL. */
fw_lower_entry:
	mov	sp, x3
	mov	x19, x4
	blr	x1
	cmp	x19, #3
	b.eq	9f
	cmp	x19, #2
	b.eq	8f
	svc	#0x5eed
	b	.
8:	hvc	#0x5eed
	b	.
9:	smc	#0x5eed
	b	.

/* void fw_lower_return(unsigned el, uint64_t value): from the handler of the return call at
 * EL `el`, resume fw_run_lower's caller with `value`. */
	.global fw_lower_return
fw_lower_return:
	ldr	x10, =fw_lower_ctx
	add	x10, x10, x0, lsl #7
	ldp	x19, x20, [x10, #0]
	ldp	x21, x22, [x10, #16]
	ldp	x23, x24, [x10, #32]
	ldp	x25, x26, [x10, #48]
	ldp	x27, x28, [x10, #64]
	ldp	x29, x30, [x10, #80]
	ldp	x11, x12, [x10, #96]
	mov	sp, x11
	msr	daif, x12
	mov	x0, x1
	ret

	.bss
	.balign 16
	.global fw_lower_ctx
fw_lower_ctx:
	.space 128 * 4
