/* boot_el3: the EL3 boot as TF-A does it for the AMU and the DSU, then ERET to EL2 and EL1.
 * Each level checks, from the inside, what the boot gave it:
 *   EL3: the AMU's identification (ID_AA64PFR0_EL1.AMU, AMCFGR_EL0, AMCGCR_EL0) matches the
 *        platform (arm-default: AMUv1p1, no auxiliary counters), the enables read back, the
 *        cycle counter counts;
 *   EL2: Non-secure EL2 (SCR_EL3.NS) reads the AMU (CPTR_EL3.TAM = 0) and writes a CLUSTERPM*
 *        register (ACTLR_EL3.CLUSTERPMUEN = 1);
 *   EL1: reads the AMU (CPTR_EL2.TAM = 0) and writes CLUSTERPMSELR_EL1 (ACTLR_EL2.CLUSTERPMUEN).
 * Expected values come from the Arm ARM's field layouts (D24.6.2/3, D24.2.93) and the platform
 * file, not from the model. */
#include "check.h"
#include "el3_boot.h"
#include "exceptions.h"
#include "semihost.h"
#include "sysreg.h"

static uint8_t el2_stack[4096] __attribute__((aligned(16)));
static uint8_t el1_stack[4096] __attribute__((aligned(16)));

#define EL1_DONE 0xe11
#define EL2_DONE 0xe12

static uint64_t el1_stage(uint64_t unused)
{
	(void)unused;
	fw_check_eq("EL1: CurrentEL", current_el(), 1);
	uint64_t c0 = sysreg_read(AMEVCNTR00_EL0);
	uint64_t c1 = sysreg_read(AMEVCNTR00_EL0);
	fw_check_true("EL1: AMEVCNTR00_EL0 (CPU_CYCLES) advances", c1 > c0);
	sysreg_write(CLUSTERPMSELR_EL1, 3);
	isb();
	fw_check_eq("EL1: CLUSTERPMSELR_EL1 written and read back", sysreg_read(CLUSTERPMSELR_EL1), 3);
	return EL1_DONE;
}

static uint64_t el2_stage(uint64_t unused)
{
	(void)unused;
	fw_check_eq("EL2: CurrentEL", current_el(), 2);
	fw_install_vectors();
	/* EL1 runs AArch64, not as a guest (HCR_EL2.VM = 0), with the AMU untrapped (CPTR_EL2.TAM = 0). */
	__asm__ volatile("msr hcr_el2, %0" :: "r"(HCR_EL2_RW));
	uint64_t cptr;
	__asm__ volatile("mrs %0, cptr_el2" : "=r"(cptr));
	__asm__ volatile("msr cptr_el2, %0" :: "r"(cptr & ~CPTR_EL2_TAM));
	isb();
	uint64_t c0 = sysreg_read(AMEVCNTR00_EL0);
	uint64_t c1 = sysreg_read(AMEVCNTR00_EL0);
	fw_check_true("EL2: AMEVCNTR00_EL0 (CPU_CYCLES) advances", c1 > c0);
	sysreg_write(CLUSTERPMSELR_EL1, 2);
	isb();
	fw_check_eq("EL2: CLUSTERPMSELR_EL1 written and read back", sysreg_read(CLUSTERPMSELR_EL1), 2);
	fw_check_eq("EL2: EL1 stage returned through HVC",
		    fw_run_lower(1, el1_stage, 0, el1_stack + sizeof el1_stack), EL1_DONE);
	return EL2_DONE;
}

int main(void)
{
	fw_check_eq("EL3: CurrentEL", current_el(), 3);

	uint64_t pfr0;
	__asm__ volatile("mrs %0, id_aa64pfr0_el1" : "=r"(pfr0));
	/* arm-default declares amu: v1p1: ID_AA64PFR0_EL1.AMU [47:44] = 0b0010 (Arm ARM D24.2.93). */
	fw_check_eq("ID_AA64PFR0_EL1.AMU", (pfr0 >> 44) & 0xf, 2);
	/* No auxiliary counters: NCG = 0, HDBG [24] = 1, SIZE [13:8] = 63, N [7:0] = 4 - 1
	 * (Arm ARM D24.6.2); AMCGCR_EL0.CG0NC [7:0] = 4, CG1NC = 0 (D24.6.3). */
	fw_check_eq("AMCFGR_EL0", sysreg_read(AMCFGR_EL0), (1ull << 24) | (63ull << 8) | (4 - 1));
	fw_check_eq("AMCGCR_EL0", sysreg_read(AMCGCR_EL0), 4);

	el3_enable_amu();
	el3_enable_dsu_pmu();
	el3_prepare_nonsecure_world();

	fw_check_eq("AMCNTENSET0_EL0 after the boot", sysreg_read(AMCNTENSET0_EL0), AMU_GROUP0_MASK);
	uint64_t cptr, actlr3, actlr2;
	__asm__ volatile("mrs %0, cptr_el3" : "=r"(cptr));
	__asm__ volatile("mrs %0, actlr_el3" : "=r"(actlr3));
	__asm__ volatile("mrs %0, actlr_el2" : "=r"(actlr2));
	fw_check_eq("CPTR_EL3.TAM", cptr & CPTR_EL3_TAM, 0);
	fw_check_eq("ACTLR_EL3.CLUSTERPMUEN", actlr3 & ACTLR_CLUSTERPMUEN, ACTLR_CLUSTERPMUEN);
	fw_check_eq("ACTLR_EL2.CLUSTERPMUEN", actlr2 & ACTLR_CLUSTERPMUEN, ACTLR_CLUSTERPMUEN);
	uint64_t c0 = sysreg_read(AMEVCNTR00_EL0);
	uint64_t c1 = sysreg_read(AMEVCNTR00_EL0);
	fw_check_true("EL3: AMEVCNTR00_EL0 (CPU_CYCLES) advances", c1 > c0);

	fw_check_eq("EL3: EL2 stage returned through SMC",
		    fw_run_lower(2, el2_stage, 0, el2_stack + sizeof el2_stack), EL2_DONE);
	return fw_finish("boot_el3");
}
