/* The EL3 part of a boot, as TF-A's BL31 does it for the AMU and the DSU cluster PMU. */
#ifndef PMUSIM_FIRMWARE_EL3_BOOT_H
#define PMUSIM_FIRMWARE_EL3_BOOT_H

#include <stdint.h>

/* TF-A lib/extensions/amu/aarch64/amu.c (amu_enable, amu_enable_per_world, amu_init_el3):
 * CPTR_EL3.TAM = 0, AMCNTENSET0_EL0 = the four architected counters, AMCNTENSET1_EL0 = every
 * auxiliary counter when AMCFGR_EL0.NCG says group 1 exists.
 * TF-A drivers/arm/dsu/dsu.c (dsu_driver_init): CLUSTERPMMDCR_EL3.SPME = 0 (no Secure counting),
 * ACTLR_EL3 |= PWREN | CLUSTERPMUEN, ACTLR_EL2 |= CLUSTERPMUEN. */
void el3_enable_amu(void);
void el3_enable_dsu_pmu(void);

/* SCR_EL3 for a Non-secure AArch64 lower world with EL2 (TF-A context_mgmt.c: NS, RW, HCE;
 * SCR_EL3.AMVOFFEN in the NS context with FEAT_AMUv1p1, amu_enable). */
void el3_prepare_nonsecure_world(void);

/* Group-0 and group-1 counter masks as TF-A computes them (AMU_GROUP0_COUNTERS_MASK = 0xf;
 * group 1: (1 << AMCGCR_EL0.CG1NC) - 1 when AMCFGR_EL0.NCG = 1; Arm ARM D24.6.2/3). */
#define AMU_GROUP0_MASK 0xfull
uint64_t amu_group1_mask(void);

#endif
