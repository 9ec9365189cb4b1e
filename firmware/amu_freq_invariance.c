/* amu_freq_invariance: Linux's arm64 AMU frequency-invariance computation (arch/arm64/kernel/
 * topology.c, amu_scale_freq_tick) across a DVFS change, at Non-secure EL1 on cpu0.
 *   arch_max_freq_scale = (ref_rate << 2 * SCHED_CAPACITY_SHIFT) / max_rate      (freq_inv_set_max_ratio)
 *   scale = ((delta core cycles * arch_max_freq_scale) >> SCHED_CAPACITY_SHIFT) / delta const cycles,
 *           at most SCHED_CAPACITY_SCALE (1024)
 * with core cycles = AMEVCNTR00_EL0 (CPU_CYCLES), const cycles = AMEVCNTR01_EL0 (CNT_CYCLES),
 * ref_rate = the constant clock (arm-default: const, 100 MHz), max_rate = cpu0's maximum
 * (arm-default: 2 GHz). The DVFS change comes from the sequence that runs this image
 * (amu_freq_invariance.seq.in: `freq cpu0 1GHz` at 200 us), so window A (20-120 us) runs at
 * 2 GHz and window B (250-350 us) at 1 GHz, both timed by the constant counter.
 * Expected: scale = 1024 * f / max_rate, to within 1 (Linux truncates arch_max_freq_scale and
 * the quotient; the window's const count is the floor or the ceiling of its length), and the
 * counts themselves in exactly the ratio of the clocks (const = floor or ceiling of
 * core * 100 MHz / f). */
#include "check.h"
#include "el3_boot.h"
#include "exceptions.h"
#include "semihost.h"
#include "sysreg.h"

#include <stdio.h>

#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1u << SCHED_CAPACITY_SHIFT)
#define REF_RATE_HZ 100000000ull   /* platforms/arm-default.yaml: clock const */
#define MAX_RATE_HZ 2000000000ull  /* platforms/arm-default.yaml: clock cpu0 */
#define DVFS_RATE_HZ 1000000000ull /* amu_freq_invariance.seq.in: freq cpu0 1GHz */

static uint8_t el1_stack[8192] __attribute__((aligned(16)));

struct sample { uint64_t core, cnst; };

static struct sample read_counters(void)
{
	struct sample s;
	/* Two consecutive instructions: every sample has the same offset between its reads. */
	__asm__ volatile("mrs %0, " FW_STR(AMEVCNTR00_EL0) "\n\tmrs %1, " FW_STR(AMEVCNTR01_EL0)
			 : "=&r"(s.core), "=&r"(s.cnst));
	return s;
}

/* Polls the constant counter about every 300 ns (a few hundred instructions between reads), so
 * that the access log holds a thousand reads rather than one per few instructions. */
static void wait_const(uint64_t until)
{
	while (sysreg_read(AMEVCNTR01_EL0) < until)
		for (volatile unsigned i = 0; i < 100; i++)
			;
}

static uint64_t linux_scale(struct sample prev, struct sample now, uint64_t max_freq_scale)
{
	uint64_t scale = now.core - prev.core;
	scale *= max_freq_scale;
	scale = (scale >> SCHED_CAPACITY_SHIFT) / (now.cnst - prev.cnst);
	return scale < SCHED_CAPACITY_SCALE ? scale : SCHED_CAPACITY_SCALE;
}

static void check_window(const char *name, struct sample a, struct sample b, uint64_t max_freq_scale,
			 uint64_t rate_hz)
{
	char what[128];
	uint64_t core = b.core - a.core, cnst = b.cnst - a.cnst;
	fw_printf("%s: %llu core cycles, %llu const cycles\n", name, (unsigned long long)core,
		  (unsigned long long)cnst);
	uint64_t ideal_cnst_x = core * REF_RATE_HZ; /* const count times rate_hz */
	snprintf(what, sizeof what, "%s: const cycles = core cycles x 100 MHz / %llu MHz (floor or ceiling)",
		 name, (unsigned long long)(rate_hz / 1000000));
	fw_check_true(what, cnst == ideal_cnst_x / rate_hz || cnst == (ideal_cnst_x + rate_hz - 1) / rate_hz);
	uint64_t scale = linux_scale(a, b, max_freq_scale);
	uint64_t expected = SCHED_CAPACITY_SCALE * rate_hz / MAX_RATE_HZ;
	fw_printf("%s: Linux scale %llu, clock ratio x 1024 = %llu\n", name, (unsigned long long)scale,
		  (unsigned long long)expected);
	snprintf(what, sizeof what, "%s: scale within 1 of 1024 x %llu MHz / 2000 MHz", name,
		 (unsigned long long)(rate_hz / 1000000));
	fw_check_true(what, scale + 1 >= expected && scale <= expected + 1);
}

static uint64_t el1_freq_invariance(uint64_t unused)
{
	(void)unused;
	uint64_t max_freq_scale = (REF_RATE_HZ << (2 * SCHED_CAPACITY_SHIFT)) / MAX_RATE_HZ;
	wait_const(2000);                  /* 20 us */
	struct sample a0 = read_counters();
	wait_const(12000);                 /* 120 us */
	struct sample a1 = read_counters();
	wait_const(25000);                 /* 250 us: after the change at 200 us */
	struct sample b0 = read_counters();
	wait_const(35000);                 /* 350 us */
	struct sample b1 = read_counters();
	check_window("window A (2 GHz)", a0, a1, max_freq_scale, MAX_RATE_HZ);
	check_window("window B (1 GHz)", b0, b1, max_freq_scale, DVFS_RATE_HZ);
	return 0;
}

int main(void)
{
	el3_enable_amu();
	el3_prepare_nonsecure_world();
	__asm__ volatile("msr hcr_el2, %0" :: "r"(HCR_EL2_RW));
	__asm__ volatile("msr cptr_el2, xzr");
	isb();
	fw_run_lower(1, el1_freq_invariance, 0, el1_stack + sizeof el1_stack);
	return fw_finish("amu_freq_invariance");
}
