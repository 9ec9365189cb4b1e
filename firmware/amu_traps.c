/* amu_traps: the AMU's trap controls seen from the inside. Each case runs an MRS at a lower
 * level, and the handler of the level the exception is taken to records the syndrome; the
 * expected ESR is computed here from the Arm ARM's ISS layout (exceptions.h), not copied from a
 * model's output. Rules: Arm ARM DDI0487 M.a.a D24.6 (AMEVCNTR0<n>_EL0 access pseudocode):
 *   1. EL0 with AMUSERENR_EL0.EN = 0 -> trap to EL1, EC 0x18 (HCR_EL2.TGE = 0);
 *      with EN = 1 the same read succeeds;
 *   2. EL2 and EL1 with CPTR_EL3.TAM = 1 -> trap to EL3, EC 0x18;
 *   3. a guest at EL1 (HCR_EL2.VM = 1, CPTR_EL2.TAM = 1 as KVM sets it) -> UNDEFINED, EC 0x00,
 *      taken to EL1: KVM answers every trapped AMU access with an injected UNDEFINED
 *      (Linux arch/arm64/kvm/sys_regs.c, AMU_AMEVCNTR0_EL0 descriptors use undef_access).
 * And the DSU's counterpart (DSU-120 TRM IMP_CLUSTERPMSELR_EL1 write pseudocode; Cortex-A76 TRM
 * 100798 B2.6 ACTLR_EL2.CLUSTERPMUEN): 4. an EL1 write of CLUSTERPMSELR_EL1 with ACTLR_EL2.CLUSTERPMUEN = 0 traps to
 * EL2, EC 0x18 with Direction 0 (write). */
#include "check.h"
#include "el3_boot.h"
#include "exceptions.h"
#include "semihost.h"
#include "sysreg.h"
#include "trap_probe.h"

/* Each probe reads one AMU counter into a fixed register (so the syndrome's Rt is known) and
 * returns it; the label marks the MRS for the ELR check. */
#define PROBE(name, reg_enc, rt)                                        \
	uint64_t name(uint64_t);                                        \
	extern const char name##_mrs[];                                 \
	__asm__(".text\n.global " #name "\n.global " #name "_mrs\n"     \
		#name ":\n"                                             \
		"\tmov x" #rt ", xzr\n"                                 \
		#name "_mrs:\n"                                         \
		"\tmrs x" #rt ", " FW_STR(reg_enc) "\n"                 \
		"\tmov x0, x" #rt "\n"                                  \
		"\tret\n")

PROBE(probe_el0_cpu_cycles, AMEVCNTR00_EL0, 5);
PROBE(probe_el2_cnt_cycles, AMEVCNTR01_EL0, 7);
PROBE(probe_el1_cnt_cycles, AMEVCNTR01_EL0, 9);
PROBE(probe_guest_inst_retired, AMEVCNTR02_EL0, 6);

/* Writes x0 to CLUSTERPMSELR_EL1 from x8. */
uint64_t probe_el1_write_pmselr(uint64_t);
extern const char probe_el1_write_pmselr_msr[];
__asm__(".text\n.global probe_el1_write_pmselr\n.global probe_el1_write_pmselr_msr\n"
	"probe_el1_write_pmselr:\n"
	"\tmov x8, x0\n"
	"probe_el1_write_pmselr_msr:\n"
	"\tmsr " FW_STR(CLUSTERPMSELR_EL1) ", x8\n"
	"\tmov x0, xzr\n"
	"\tret\n");

static uint8_t el2_stack[4096] __attribute__((aligned(16)));
static uint8_t el1_stack[4096] __attribute__((aligned(16)));
static uint8_t el0_stack[4096] __attribute__((aligned(16)));

#define STACK_TOP(s) ((s) + sizeof(s))

static uint64_t esr_amevcntr0_read(unsigned n, unsigned rt)
{
	return esr_sysreg_trap(AMU_OP0, AMU_OP1, AMU_CRN, AMEVCNTR0_CRM(n), AMEVCNTR0_OP2(n), rt, 1);
}

/* Case 1, at EL1: EL0 reads CPU_CYCLES with EN = 0, then with EN = 1. */
static uint64_t el1_user_access(uint64_t unused)
{
	(void)unused;
	sysreg_write(AMUSERENR_EL0, 0);
	isb();
	trap_probe_reset();
	uint64_t value = fw_run_lower(0, probe_el0_cpu_cycles, 0, STACK_TOP(el0_stack));
	trap_probe_expect("EL0 AMEVCNTR00_EL0 with AMUSERENR_EL0.EN=0", 1, esr_amevcntr0_read(0, 5),
			  probe_el0_cpu_cycles_mrs);
	fw_check_eq("EL0 read after the trap gives the handler's marker", value, TRAP_MARKER);

	sysreg_write(AMUSERENR_EL0, AMUSERENR_EN);
	isb();
	trap_probe_reset();
	value = fw_run_lower(0, probe_el0_cpu_cycles, 0, STACK_TOP(el0_stack));
	fw_check_eq("EL0 AMEVCNTR00_EL0 with AMUSERENR_EL0.EN=1: no exception", trap_last.count, 0);
	fw_check_true("EL0 AMEVCNTR00_EL0 with EN=1 reads the counter", value != TRAP_MARKER && value != 0);
	sysreg_write(AMUSERENR_EL0, 0);
	return 0;
}

/* Case 3, at EL2: run EL1 as a guest, as KVM does. */
static uint64_t el2_run_guest(uint64_t unused)
{
	(void)unused;
	uint64_t cptr;
	__asm__ volatile("mrs %0, cptr_el2" : "=r"(cptr));
	__asm__ volatile("msr cptr_el2, %0" :: "r"(cptr | CPTR_EL2_TAM));
	__asm__ volatile("msr hcr_el2, %0" :: "r"(HCR_EL2_RW | HCR_EL2_VM));
	isb();
	trap_probe_reset();
	uint64_t value = fw_run_lower(1, probe_guest_inst_retired, 0, STACK_TOP(el1_stack));
	trap_probe_expect("guest EL1 AMEVCNTR02_EL0", 1, esr_undefined(), probe_guest_inst_retired_mrs);
	fw_check_eq("guest read after UNDEFINED keeps the probe's zero", value, 0);
	__asm__ volatile("msr hcr_el2, %0" :: "r"(HCR_EL2_RW));
	__asm__ volatile("msr cptr_el2, %0" :: "r"(cptr & ~CPTR_EL2_TAM));
	isb();
	return 0;
}

int main(void)
{
	el3_enable_amu();
	el3_enable_dsu_pmu();
	el3_prepare_nonsecure_world();
	__asm__ volatile("msr hcr_el2, %0" :: "r"(HCR_EL2_RW)); /* EL1 is AArch64, not a guest */
	__asm__ volatile("msr cptr_el2, xzr");                    /* CPTR_EL2.TAM = 0 */
	isb();
	trap_probe_install(1);
	trap_probe_install(3);

	fw_run_lower(1, el1_user_access, 0, STACK_TOP(el1_stack));

	/* Case 2: CPTR_EL3.TAM = 1 traps EL2 and EL1 reads to EL3. */
	uint64_t cptr;
	__asm__ volatile("mrs %0, cptr_el3" : "=r"(cptr));
	__asm__ volatile("msr cptr_el3, %0" :: "r"(cptr | CPTR_EL3_TAM));
	isb();
	trap_probe_reset();
	uint64_t value = fw_run_lower(2, probe_el2_cnt_cycles, 0, STACK_TOP(el2_stack));
	trap_probe_expect("EL2 AMEVCNTR01_EL0 with CPTR_EL3.TAM=1", 3, esr_amevcntr0_read(1, 7),
			  probe_el2_cnt_cycles_mrs);
	fw_check_eq("EL2 read after the trap gives the handler's marker", value, TRAP_MARKER);
	trap_probe_reset();
	value = fw_run_lower(1, probe_el1_cnt_cycles, 0, STACK_TOP(el1_stack));
	trap_probe_expect("EL1 AMEVCNTR01_EL0 with CPTR_EL3.TAM=1", 3, esr_amevcntr0_read(1, 9),
			  probe_el1_cnt_cycles_mrs);
	__asm__ volatile("msr cptr_el3, %0" :: "r"(cptr & ~CPTR_EL3_TAM));
	isb();
	trap_probe_reset();
	value = fw_run_lower(1, probe_el1_cnt_cycles, 0, STACK_TOP(el1_stack));
	fw_check_eq("EL1 AMEVCNTR01_EL0 with CPTR_EL3.TAM=0: no exception", trap_last.count, 0);

	fw_run_lower(2, el2_run_guest, 0, STACK_TOP(el2_stack));

	/* Case 4: ACTLR_EL2.CLUSTERPMUEN = 0 (ACTLR_EL3's still set) traps EL1 writes to EL2. */
	uint64_t actlr2;
	__asm__ volatile("mrs %0, actlr_el2" : "=r"(actlr2));
	__asm__ volatile("msr actlr_el2, %0" :: "r"(actlr2 & ~ACTLR_CLUSTERPMUEN));
	isb();
	trap_probe_install(2);
	trap_probe_reset();
	fw_run_lower(1, probe_el1_write_pmselr, 4, STACK_TOP(el1_stack));
	trap_probe_expect("EL1 CLUSTERPMSELR_EL1 write with ACTLR_EL2.CLUSTERPMUEN=0", 2,
			  esr_sysreg_trap(DSU_OP0, DSU_OP1, DSU_CRN, 5, 5, 8, 0),
			  probe_el1_write_pmselr_msr);
	__asm__ volatile("msr actlr_el2, %0" :: "r"(actlr2));
	isb();
	trap_probe_reset();
	fw_run_lower(1, probe_el1_write_pmselr, 4, STACK_TOP(el1_stack));
	fw_check_eq("EL1 CLUSTERPMSELR_EL1 write with CLUSTERPMUEN=1: no exception", trap_last.count, 0);
	fw_check_eq("CLUSTERPMSELR_EL1 holds the EL1 write", sysreg_read(CLUSTERPMSELR_EL1), 4);
	return fw_finish("amu_traps");
}
