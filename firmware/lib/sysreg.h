/* System-register accessors for the bare-metal firmware.
 *
 * Architectural registers the assembler knows by name are accessed by name. The AMU and the
 * DSU CLUSTERPM* registers are accessed by their S3_<op1>_C<n>_C<m>_<op2> encodings so that
 * the firmware needs no -march that knows them and so that every encoding is visible here.
 * Each encoding names its source:
 *   [ARM-D24.6]  Arm ARM DDI0487 M.a.a, D24.6 AArch64 AMU registers (encoding tables)
 *   [LNX-SYSREG] Linux arch/arm64/include/asm/sysreg.h: SYS_AM_EL0(crm, op2) = sys_reg(3, 3, 13, crm, op2),
 *                SYS_AMEVCNTR0_EL0(n) = SYS_AM_EL0(4 + (n >> 3), n & 7)
 *   [LNX-DSU]    Linux arch/arm64/include/asm/arm_dsu_pmu.h (CLUSTERPM*_EL1 = sys_reg(3, 0, 15, 5|6, op2)),
 *                used by drivers/perf/arm_dsu_pmu.c
 *   [TFA-DSU]    TF-A include/drivers/arm/dsu.h / dsu_def.h (CLUSTERPMMDCR_EL3 = S3_6_C15_C6_3,
 *                ACTLR_EL3/EL2 CLUSTERPMUEN bit 12, PWREN bit 7)
 *   [TFA-ARCH]   TF-A include/arch/aarch64/arch.h (CPTR_EL3.TAM bit 30, SCR_EL3 bits, HCR_EL2 bits)
 */
#ifndef PMUSIM_FIRMWARE_SYSREG_H
#define PMUSIM_FIRMWARE_SYSREG_H

#include <stdint.h>

#define FW_STR2(x) #x
#define FW_STR(x) FW_STR2(x)

#define sysreg_read(enc) ({ uint64_t v_; __asm__ volatile("mrs %0, " FW_STR(enc) : "=r"(v_)); v_; })
#define sysreg_write(enc, val) __asm__ volatile("msr " FW_STR(enc) ", %0" :: "r"((uint64_t)(val)) : "memory")
#define isb() __asm__ volatile("isb" ::: "memory")

/* ---- AMU, group 0 and controls [ARM-D24.6] [LNX-SYSREG] ---- */
#define AMCR_EL0          S3_3_C13_C2_0
#define AMCFGR_EL0        S3_3_C13_C2_1
#define AMCGCR_EL0        S3_3_C13_C2_2
#define AMUSERENR_EL0     S3_3_C13_C2_3
#define AMCNTENCLR0_EL0   S3_3_C13_C2_4
#define AMCNTENSET0_EL0   S3_3_C13_C2_5
#define AMCG1IDR_EL0      S3_3_C13_C2_6
#define AMCNTENCLR1_EL0   S3_3_C13_C3_0
#define AMCNTENSET1_EL0   S3_3_C13_C3_1
#define AMEVCNTR00_EL0    S3_3_C13_C4_0   /* CPU_CYCLES   (evtCount 0x0011) [ARM-D16.3.1] */
#define AMEVCNTR01_EL0    S3_3_C13_C4_1   /* CNT_CYCLES   (evtCount 0x4004) */
#define AMEVCNTR02_EL0    S3_3_C13_C4_2   /* INST_RETIRED (evtCount 0x0008) */
#define AMEVCNTR03_EL0    S3_3_C13_C4_3   /* STALL_BACKEND_MEM (evtCount 0x4005) */
#define AMEVTYPER00_EL0   S3_3_C13_C6_0

/* The fields of the encodings above, for syndromes computed by the firmware (same sources). */
#define AMU_OP0 3
#define AMU_OP1 3
#define AMU_CRN 13
#define AMEVCNTR0_CRM(n) (4 + ((n) >> 3))
#define AMEVCNTR0_OP2(n) ((n) & 7)

/* ---- DSU cluster PMU [LNX-DSU]; CLUSTERPMMDCR_EL3 [TFA-DSU] ---- */
#define CLUSTERPMCR_EL1        S3_0_C15_C5_0
#define CLUSTERPMCNTENSET_EL1  S3_0_C15_C5_1
#define CLUSTERPMCNTENCLR_EL1  S3_0_C15_C5_2
#define CLUSTERPMOVSSET_EL1    S3_0_C15_C5_3
#define CLUSTERPMOVSCLR_EL1    S3_0_C15_C5_4
#define CLUSTERPMSELR_EL1      S3_0_C15_C5_5
#define CLUSTERPMINTENSET_EL1  S3_0_C15_C5_6
#define CLUSTERPMINTENCLR_EL1  S3_0_C15_C5_7
#define CLUSTERPMCCNTR_EL1     S3_0_C15_C6_0
#define CLUSTERPMXEVTYPER_EL1  S3_0_C15_C6_1
#define CLUSTERPMXEVCNTR_EL1   S3_0_C15_C6_2
#define CLUSTERPMCEID0_EL1     S3_0_C15_C6_4
#define CLUSTERPMCEID1_EL1     S3_0_C15_C6_5
#define CLUSTERPMMDCR_EL3      S3_6_C15_C6_3
#define DSU_OP0 3
#define DSU_OP1 0
#define DSU_CRN 15

/* ---- bits ---- */
#define CPTR_EL3_TAM        (1ull << 30)   /* [TFA-ARCH] TAM_SHIFT 30; Arm ARM D24.2.39 */
#define CPTR_EL2_TAM        (1ull << 30)   /* [TFA-ARCH] CPTR_EL2_TAM_SHIFT 30; Arm ARM D24.2.38 */
#define SCR_EL3_NS          (1ull << 0)    /* [TFA-ARCH] SCR_NS_BIT */
#define SCR_EL3_IRQ         (1ull << 1)    /* [TFA-ARCH] SCR_IRQ_BIT */
#define SCR_EL3_SMD         (1ull << 7)    /* [TFA-ARCH] SCR_SMD_BIT */
#define SCR_EL3_HCE         (1ull << 8)    /* [TFA-ARCH] SCR_HCE_BIT */
#define SCR_EL3_RW          (1ull << 10)   /* [TFA-ARCH] SCR_RW_BIT */
#define SCR_EL3_AMVOFFEN    (1ull << 35)   /* [TFA-ARCH] SCR_AMVOFFEN_SHIFT 35 */
#define HCR_EL2_VM          (1ull << 0)    /* [TFA-ARCH] HCR_VM_BIT */
#define HCR_EL2_IMO         (1ull << 4)    /* [TFA-ARCH] HCR_IMO_BIT */
#define HCR_EL2_TSC         (1ull << 19)   /* [TFA-ARCH] HCR_TSC_BIT */
#define HCR_EL2_TIDCP       (1ull << 20)   /* [TFA-ARCH] HCR_TIDCP_BIT */
#define HCR_EL2_TGE         (1ull << 27)   /* [TFA-ARCH] HCR_TGE_BIT */
#define HCR_EL2_RW          (1ull << 31)   /* [TFA-ARCH] HCR_RW_BIT */
#define HCR_EL2_AMVOFFEN    (1ull << 51)   /* [TFA-ARCH] HCR_AMVOFFEN_SHIFT 51 */
#define ACTLR_CLUSTERPMUEN  (1ull << 12)   /* [TFA-DSU] ACTLR_CLUSTERPMUEN BIT(12) */
#define ACTLR_PWREN         (1ull << 7)    /* [TFA-DSU] ACTLR_PWREN BIT(7) */
#define CLUSTERPMMDCR_SPME  (1ull << 0)    /* [TFA-DSU] CLUSTERPMMDCR_SPME; DSU-120 TRM IMP_CLUSTERPMMDCR_EL3 */
#define AMUSERENR_EN        (1ull << 0)    /* Arm ARM D24.6 AMUSERENR_EL0.EN */

static inline unsigned current_el(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, CurrentEL" : "=r"(v));
	return (unsigned)((v >> 2) & 3);
}

#endif
