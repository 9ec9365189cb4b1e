/* amu_exact: the AMU counts exactly what the firmware executes. Between two reads of
 * AMEVCNTR02_EL0 (INST_RETIRED, Arm ARM D16.3.1) a loop of a known number of instructions runs;
 * the count between the reads is that number plus the instructions around it, all retired by
 * the second read (the first read itself included). CPU_CYCLES (AMEVCNTR00_EL0) advances by the
 * same number times the platform's cycles per instruction (arm-default: 1, docs/firmware.md).
 * The timed code is assembly so that every instruction is counted here:
 *   mrs x1, INST_RETIRED      <- first read (retires before the second)
 *   mrs x4, CPU_CYCLES
 *   mov x2, x0                   1 instruction
 *   1: subs x2, x2, #1           2 instructions per iteration, x0 iterations (x0 >= 1)
 *      b.ne 1b
 *   mrs x3, INST_RETIRED      <- second read: sees 2 + 1 + 2n instructions since the first
 *   mrs x5, CPU_CYCLES        <- also 2n + 3 after the first CPU_CYCLES read */
#include "check.h"
#include "el3_boot.h"
#include "semihost.h"
#include "sysreg.h"

#include <stdio.h>

#define CYCLES_PER_INSTRUCTION 1 /* arm-default: cpus[].cycles_per_instruction defaults to 1 */

struct loop_counts { uint64_t inst_retired, cpu_cycles; };
struct loop_counts counted_loop(uint64_t iterations);
__asm__(".text\n.global counted_loop\ncounted_loop:\n"
	"\tmrs x1, " FW_STR(AMEVCNTR02_EL0) "\n"
	"\tmrs x4, " FW_STR(AMEVCNTR00_EL0) "\n"
	"\tmov x2, x0\n"
	"1:\tsubs x2, x2, #1\n"
	"\tb.ne 1b\n"
	"\tmrs x3, " FW_STR(AMEVCNTR02_EL0) "\n"
	"\tmrs x5, " FW_STR(AMEVCNTR00_EL0) "\n"
	"\tsub x0, x3, x1\n"
	"\tsub x1, x5, x4\n"
	"\tret\n");

int main(void)
{
	el3_enable_amu();
	static const uint64_t iterations[] = {1, 2, 10, 1000, 12345};
	for (unsigned i = 0; i < sizeof iterations / sizeof iterations[0]; i++) {
		uint64_t n = iterations[i];
		struct loop_counts counts = counted_loop(n);
		uint64_t expected = 2 * n + 3;
		char what[96];
		snprintf(what, sizeof what, "INST_RETIRED across a %llu-iteration loop (2n+3)",
			 (unsigned long long)n);
		fw_check_eq(what, counts.inst_retired, expected);
		snprintf(what, sizeof what, "CPU_CYCLES across a %llu-iteration loop", (unsigned long long)n);
		fw_check_eq(what, counts.cpu_cycles, expected * CYCLES_PER_INSTRUCTION);
	}
	return fw_finish("amu_exact");
}
