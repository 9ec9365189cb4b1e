#include "el3_boot.h"

#include "sysreg.h"

uint64_t amu_group1_mask(void)
{
	uint64_t cfgr = sysreg_read(AMCFGR_EL0);
	if (((cfgr >> 28) & 0xf) != 1) /* AMCFGR_EL0.NCG [31:28], Arm ARM D24.6.2 */
		return 0;
	uint64_t cg1nc = (sysreg_read(AMCGCR_EL0) >> 8) & 0xff; /* AMCGCR_EL0.CG1NC [15:8] */
	return (1ull << cg1nc) - 1;
}

void el3_enable_amu(void)
{
	uint64_t cptr;
	__asm__ volatile("mrs %0, cptr_el3" : "=r"(cptr));
	__asm__ volatile("msr cptr_el3, %0" :: "r"(cptr & ~CPTR_EL3_TAM));
	isb();
	sysreg_write(AMCNTENSET0_EL0, AMU_GROUP0_MASK);
	uint64_t group1 = amu_group1_mask();
	if (group1)
		sysreg_write(AMCNTENSET1_EL0, group1);
	isb();
}

void el3_enable_dsu_pmu(void)
{
	sysreg_write(CLUSTERPMMDCR_EL3, sysreg_read(CLUSTERPMMDCR_EL3) & ~CLUSTERPMMDCR_SPME);
	uint64_t actlr;
	__asm__ volatile("mrs %0, actlr_el3" : "=r"(actlr));
	__asm__ volatile("msr actlr_el3, %0" :: "r"(actlr | ACTLR_PWREN | ACTLR_CLUSTERPMUEN));
	__asm__ volatile("mrs %0, actlr_el2" : "=r"(actlr));
	__asm__ volatile("msr actlr_el2, %0" :: "r"(actlr | ACTLR_CLUSTERPMUEN));
	isb();
}

void el3_prepare_nonsecure_world(void)
{
	uint64_t scr = SCR_EL3_NS | SCR_EL3_RW | SCR_EL3_HCE;
	uint64_t pfr0;
	__asm__ volatile("mrs %0, id_aa64pfr0_el1" : "=r"(pfr0));
	if (((pfr0 >> 44) & 0xf) >= 2) /* ID_AA64PFR0_EL1.AMU [47:44] = 0b0010: FEAT_AMUv1p1 */
		scr |= SCR_EL3_AMVOFFEN;
	__asm__ volatile("msr scr_el3, %0" :: "r"(scr));
	isb();
}
