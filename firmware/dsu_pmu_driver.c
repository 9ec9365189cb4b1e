/* dsu_pmu_driver: the DSU cluster PMU driven at Non-secure EL1 the way Linux's arm_dsu_pmu
 * driver does it, after an EL3 boot as TF-A's dsu_driver_init leaves it (ACTLR_EL3/EL2
 * CLUSTERPMUEN). Runs on cpu0 of arm-default (cluster 0, dsu0 at 1 GHz, cpu0 at 2 GHz, one
 * cycle per instruction; dsu0_pmu_irq routed to cpu0's IRQ, docs/firmware.md).
 *   probe:    CLUSTERPMCR_EL1.N = 6 (platforms/arm-default.yaml: counters: 6); every event the
 *             Linux driver names is set in CLUSTERPMCEID0/1;
 *   counting: over a loop, the DSU cycle counter advances by the CPU cycles / 2 (the clocks'
 *             ratio), to the edge;
 *   overflow: counter 0 set to 2^32 - N (32-bit event counters, Linux DSU_PMU_COUNTER_WIDTH) on CYCLES raises nCLUSTERPMUIRQ at the N-th DSU edge;
 *             the handler (Linux dsu_pmu_handle_irq: read PMOVSCLR, write it back) sees bit 0,
 *             and the IRQ is taken at that edge exactly: the vector's INST_RETIRED read, counted
 *             from a read just before the enable, is 2N + 3 when the enable falls on a DSU edge and
 *             2N + 2 when it falls half a DSU cycle after one (the phase is measured by two
 *             consecutive reads of a running DSU counter; the derivation is in
 *             docs/firmware.md, "In-repo firmware examples"). */
#include "check.h"
#include "dsu_pmu.h"
#include "el3_boot.h"
#include "exceptions.h"
#include "semihost.h"
#include "sysreg.h"

static uint8_t el1_stack[8192] __attribute__((aligned(16)));

#define OVERFLOW_PERIOD 1000u /* DSU cycles */

static volatile uint64_t irq_count, irq_ovs, irq_inst, irq_elr;

/* Linux dsu_pmu_handle_irq(): the overflow flags, written back to clear them. */
static void dsu_irq(struct fw_frame *frame, unsigned el)
{
	(void)el;
	uint64_t ovs = sysreg_read(CLUSTERPMOVSCLR_EL1);
	sysreg_write(CLUSTERPMOVSCLR_EL1, ovs);
	isb();
	irq_count++;
	irq_ovs = ovs;
	irq_inst = frame->irq_inst_retired;
	irq_elr = frame->elr;
	frame->x[9] = 1; /* lets the spin loop end */
}

/* The timed part, in assembly so that every instruction is known:
 *   x0 = the phase probe (two consecutive reads of counter 1, selected beforehand), x1 = the
 *   bit to enable. Returns in x0 the INST_RETIRED read before the enable, in x1 whether the two
 *   probe reads differed (a DSU edge fell between them). */
struct overflow_start { uint64_t inst_before_enable, edge_between_probes; };
struct overflow_start dsu_overflow_run(uint64_t enable_bits);
extern const char dsu_overflow_spin[];
__asm__(".text\n.global dsu_overflow_run\n.global dsu_overflow_spin\n"
	"dsu_overflow_run:\n"
	"\tmov x9, xzr\n"
	"\tmrs x2, " FW_STR(CLUSTERPMXEVCNTR_EL1) "\n"    /* t        */
	"\tmrs x3, " FW_STR(CLUSTERPMXEVCNTR_EL1) "\n"    /* t + 1/2  */
	"\tmrs x4, " FW_STR(AMEVCNTR02_EL0) "\n"          /* t + 1    (ns) */
	"\tmsr " FW_STR(CLUSTERPMCNTENSET_EL1) ", x0\n"   /* t + 3/2: counting starts */
	"dsu_overflow_spin:\n"
	"\tcbz x9, dsu_overflow_spin\n"
	"\tmov x0, x4\n"
	"\tcmp x2, x3\n"
	"\tcset x1, ne\n"
	"\tret\n");

static void probe(void)
{
	struct dsu_pmu pmu;
	dsu_pmu_probe(&pmu);
	fw_check_eq("CLUSTERPMCR_EL1.N (counters)", pmu.num_counters, 6);
	static const unsigned linux_events[] = {
		DSU_EVT_CYCLES, DSU_EVT_BUS_ACCESS, DSU_EVT_MEMORY_ERROR, DSU_EVT_BUS_CYCLES,
		DSU_EVT_L3D_CACHE_ALLOCATE, DSU_EVT_L3D_CACHE_REFILL, DSU_EVT_L3D_CACHE,
		DSU_EVT_L3D_CACHE_WB};
	uint64_t wanted = 0;
	for (unsigned i = 0; i < sizeof linux_events / sizeof linux_events[0]; i++)
		wanted |= 1ull << linux_events[i];
	fw_check_eq("CLUSTERPMCEID: the Linux driver's named events implemented",
		    pmu.event_bitmap & wanted, wanted);
}

static void counting(void)
{
	dsu_pmu_write_counter(DSU_PMU_IDX_CYCLE_COUNTER, 0);
	sysreg_write(CLUSTERPMCNTENSET_EL1, 1ull << DSU_PMU_IDX_CYCLE_COUNTER);
	dsu_pmu_enable();
	uint64_t cpu0, dsu0, cpu1, dsu1;
	/* Each pair of reads is two consecutive instructions: both intervals have the same length. */
	__asm__ volatile("mrs %0, " FW_STR(AMEVCNTR00_EL0) "\n\tmrs %1, " FW_STR(CLUSTERPMCCNTR_EL1)
			 : "=&r"(cpu0), "=&r"(dsu0));
	for (volatile unsigned i = 0; i < 5000; i++)
		;
	__asm__ volatile("mrs %0, " FW_STR(AMEVCNTR00_EL0) "\n\tmrs %1, " FW_STR(CLUSTERPMCCNTR_EL1)
			 : "=&r"(cpu1), "=&r"(dsu1));
	uint64_t cpu_cycles = cpu1 - cpu0, dsu_cycles = dsu1 - dsu0;
	fw_printf("counting: %llu CPU cycles (2 GHz), %llu DSU cycles (1 GHz)\n",
		  (unsigned long long)cpu_cycles, (unsigned long long)dsu_cycles);
	/* The DSU edges in an interval of cpu_cycles / 2 ns: its floor or its ceiling. */
	fw_check_true("DSU cycles = CPU cycles / 2 (floor or ceiling)",
		      dsu_cycles == cpu_cycles / 2 || dsu_cycles == (cpu_cycles + 1) / 2);
	fw_check_true("the loop ran (CPU cycles > 10000)", cpu_cycles > 10000);
}

static void overflow_interrupt(void)
{
	fw_set_handler(1, FW_IRQ, dsu_irq);
	/* Counter 1 counts CYCLES freely: the phase probe. Counter 0 overflows after N cycles. */
	dsu_pmu_set_event(1, DSU_EVT_CYCLES);
	sysreg_write(CLUSTERPMCNTENSET_EL1, 1u << 1);
	dsu_pmu_set_event(0, DSU_EVT_CYCLES);
	dsu_pmu_write_counter(0, 0 - (uint64_t)OVERFLOW_PERIOD);
	sysreg_write(CLUSTERPMINTENSET_EL1, 1u << 0);
	sysreg_write(CLUSTERPMSELR_EL1, 1); /* the probe reads counter 1 */
	isb();
	__asm__ volatile("msr daifclr, #2" ::: "memory"); /* PSTATE.I = 0 */
	struct overflow_start start = dsu_overflow_run(1u << 0);
	__asm__ volatile("msr daifset, #2" ::: "memory");

	fw_check_eq("one overflow interrupt", irq_count, 1);
	fw_check_eq("handler's CLUSTERPMOVSCLR_EL1: counter 0 overflowed", irq_ovs, 1);
	fw_check_eq("interrupted instruction: the spin loop", irq_elr,
		    (uint64_t)(uintptr_t)dsu_overflow_spin);
	fw_check_eq("CLUSTERPMOVSCLR_EL1 after the handler", sysreg_read(CLUSTERPMOVSCLR_EL1), 0);
	/* The probe reads were at t - 1 and t - 1/2 ns (t: the INST_RETIRED read), the enable at
	 * t + 1/2. An access sees the edges of its own instant (the ISS lets everything due at an
	 * instant act before the instruction, iss/aarch64_iss.cpp sync()), so the two reads differ
	 * exactly when an edge falls at t - 1/2, i.e. on the enable; otherwise the edges are at
	 * t - 1, t, t + 1 and the enable is half a DSU cycle after one. */
	const int enable_on_edge = start.edge_between_probes != 0;
	uint64_t expected = 2ull * OVERFLOW_PERIOD + (enable_on_edge ? 3 : 2);
	fw_printf("enable %s a DSU edge\n", enable_on_edge ? "on" : "half a cycle after");
	fw_check_eq("instructions from the enable to the IRQ vector's read", irq_inst - start.inst_before_enable,
		    expected);
	sysreg_write(CLUSTERPMINTENCLR_EL1, 1u << 0);
	sysreg_write(CLUSTERPMCNTENCLR_EL1, 3u);
	isb();
}

static uint64_t el1_driver(uint64_t unused)
{
	(void)unused;
	probe();
	counting();
	overflow_interrupt();
	dsu_pmu_disable();
	return 0;
}

int main(void)
{
	el3_enable_amu();
	el3_enable_dsu_pmu();
	el3_prepare_nonsecure_world();
	__asm__ volatile("msr hcr_el2, %0" :: "r"(HCR_EL2_RW));
	__asm__ volatile("msr cptr_el2, xzr");
	isb();
	fw_run_lower(1, el1_driver, 0, el1_stack + sizeof el1_stack);
	return fw_finish("dsu_pmu_driver");
}
