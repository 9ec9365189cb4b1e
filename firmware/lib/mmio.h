/* Memory-mapped register accessors (64-bit, little-endian, as arm-cmn's readq/writeq).
 *
 * Each access is the first instruction of its own translation block: a `b 1f` to the very next
 * instruction ends the block before it. Why: pmusim's ISS (Unicorn 2.0.1) stops at a load or
 * store to a unit window with the PC on the *start of the block* that holds it, not on the
 * access itself, after the instructions before it in that block have already executed; the ISS
 * then executes the access from that PC and so executes those instructions twice (seen as a
 * doubled register, a lost string pointer). With the access first in its block the two PCs are
 * the same. The branch costs one instruction per access; the counted loops of amu_exact and the
 * timed code elsewhere make no MMIO access. */
#ifndef PMUSIM_FIRMWARE_MMIO_H
#define PMUSIM_FIRMWARE_MMIO_H

#include <stdint.h>

static inline uint64_t mmio_read64(uint64_t address)
{
	uint64_t value;
	__asm__ volatile("b 1f\n1:\tldr %0, [%1]" : "=r"(value) : "r"(address) : "memory");
	return value;
}

static inline void mmio_write64(uint64_t address, uint64_t value)
{
	__asm__ volatile("b 1f\n1:\tstr %0, [%1]" :: "r"(value), "r"(address) : "memory");
}

#endif
