/* Compiled by tests/docs/check_c_headers.py with gcc -std=c11 -Wall -Werror and run: the generated
 * headers included together (each unit header, the all-in-one header and one platform header), their
 * values checked against the sources the register tables cite. BOARD_HEADER is the platform header,
 * BOARD_DSU7 is defined for tests/docs/dsu7-board.yaml. */
#include <stdio.h>
#include <string.h>

#include "pmusim_registers.h" /* every table, one guard per table */
#include "dsu_clusterpmu.h"   /* the same tables again, one file each: the guards make this a no-op */
#include "dsu_clusterpmu_dsu120.h"
#include "amu.h"
#include "amu_ext64.h"
#include "amu_ext32.h"
#include "cmn600_xp.h"
#include "cpu_controls.h"
#include "imc.h"
#include BOARD_HEADER
#include BOARD_HEADER /* twice: its guards too */

static int failures;
#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            ++failures;                                                    \
        }                                                                  \
    } while (0)

/* Linux drivers/perf/arm_dsu_pmu.c: CLUSTERPMCR_E BIT(0), CLUSTERPMCR_N_SHIFT 11, CLUSTERPMCR_N_MASK 0x1f. */
_Static_assert(DSU_CLUSTERPMU_CLUSTERPMCR_EL1_E_MASK == 0x1, "CLUSTERPMCR.E");
_Static_assert(DSU_CLUSTERPMU_CLUSTERPMCR_EL1_N_SHIFT == 11, "CLUSTERPMCR.N shift");
_Static_assert(DSU_CLUSTERPMU_CLUSTERPMCR_EL1_N_MASK == (0x1full << 11), "CLUSTERPMCR.N mask");
/* DSU-110 memory-mapped frame (Marvell CN10K cavm-csrs-cst_apc.h, tests/facts/dsu.tsv): PMEVCNTRn at 0x000 + 8n, PMEVTYPERn at 0x400 + 4n, PMCR at 0xE04. */
_Static_assert(DSU_CLUSTERPMU_PMEVCNTR_OFFSET(0) == 0x000 && DSU_CLUSTERPMU_PMEVCNTR_OFFSET(5) == 0x028, "PMEVCNTRn");
_Static_assert(DSU_CLUSTERPMU_PMEVTYPER_OFFSET(0) == 0x400 && DSU_CLUSTERPMU_PMEVTYPER_OFFSET(5) == 0x414, "PMEVTYPERn");
_Static_assert(DSU_CLUSTERPMU_PMEVCNTR_OFFSET(3) == DSU_CLUSTERPMU_PMEVCNTR3_OFFSET, "array = element");
_Static_assert(DSU_CLUSTERPMU_PMCR_OFFSET == 0xE04, "PMCR");
/* CLUSTERPMCR.N is 5 bits: at most 31 event counters (index 31 is the cycle counter,
 * Linux DSU_PMU_IDX_CYCLE_CNTR 31), so the table's bank holds 31. */
_Static_assert(DSU_CLUSTERPMU_PMEVCNTR_COUNT == 31, "31 event counters in the table");
/* Event numbers by name (issue 32 item 5), Linux 6.1 drivers/perf/arm_dsu_pmu.c lines 177-183:
 * DSU_EVENT_ATTR(cycles, 0x11), (bus_access, 0x19), (l3d_cache_refill, 0x2a), (l3d_cache, 0x2b). */
_Static_assert(DSU_CLUSTERPMU_EVENT_CYCLES == 0x11, "event cycles");
_Static_assert(DSU_CLUSTERPMU_EVENT_BUS_ACCESS == 0x19, "event bus_access");
_Static_assert(DSU_CLUSTERPMU_EVENT_L3D_CACHE_REFILL == 0x2a, "event l3d_cache_refill");
_Static_assert(DSU_CLUSTERPMU_EVENT_L3D_CACHE == 0x2b, "event l3d_cache");
/* Arm ARM (DDI0487) Table I5-162, FEAT_AMU_EXT64: AMEVCNTR0<n> at 0x000 + 8n, n = 0..3. */
_Static_assert(AMU_EXT64_AMEVCNTR0_OFFSET(0) == 0x000 && AMU_EXT64_AMEVCNTR0_OFFSET(3) == 0x018, "AMEVCNTR0<n>");
_Static_assert(AMU_EXT64_AMEVCNTR0_COUNT == 4, "four architected AMU counters");

#ifdef BOARD_DSU7
/* tests/docs/dsu7-board.yaml: dsu0 at 0x2C000000 with counters: 7. */
_Static_assert(DSU0_BASE == 0x2C000000ull, "base");
_Static_assert(DSU0_COUNTERS == 7, "counters");
_Static_assert(DSU0_PMEVCNTR_COUNT == 7 && DSU0_PMEVTYPER_COUNT == 7, "a board with 7 counters gets banks of 7");
_Static_assert(DSU0_PMEVCNTR(6) == 0x2C000000ull + 8 * 6, "PMEVCNTR6");
_Static_assert(DSU0_PMEVTYPER(6) == 0x2C000000ull + 0x400 + 4 * 6, "PMEVTYPER6");
_Static_assert(DSU0_PMEVCNTR6_ADDR == DSU0_PMEVCNTR(6), "element = array");
_Static_assert(DSU0_PMCR_ADDR == 0x2C000E04ull, "PMCR");
#ifdef DSU0_PMEVCNTR7_ADDR
#error "counter 7 does not exist on a board with 7 counters"
#endif
#ifdef DSU1_BASE
#error "the board has one DSU"
#endif
#else
/* platforms/arm-default.yaml: dsu0 at 0x2A000000, dsu1 at 0x2A010000, counters: 6 each. */
_Static_assert(DSU0_BASE == 0x2A000000ull && DSU1_BASE == 0x2A010000ull, "bases");
_Static_assert(DSU0_PMEVCNTR_COUNT == 6 && DSU1_PMEVCNTR_COUNT == 6, "6 counters each");
_Static_assert(DSU1_PMCR_ADDR == 0x2A010E04ull, "dsu1 PMCR");
_Static_assert(DSU1_PMEVCNTR(5) == 0x2A010028ull, "dsu1 PMEVCNTR5");
#ifdef DSU0_PMEVCNTR6_ADDR
#error "counter 6 does not exist with 6 counters"
#endif
#endif

int main(void) {
    /* Linux arch/arm64/include/asm/arm_dsu_pmu.h: CLUSTERPMCR_EL1 sys_reg(3, 0, 15, 5, 0). */
    CHECK(strcmp(DSU_CLUSTERPMU_CLUSTERPMCR_EL1_SYSREG, "S3_0_C15_C5_0") == 0);
    /* Linux arch/arm64/include/asm/sysreg.h: SYS_AMCNTENSET0_EL0 SYS_AM_EL0(2, 5) = sys_reg(3, 3, 13, 2, 5). */
    CHECK(strcmp(AMU_AMCNTENSET0_EL0_SYSREG, "S3_3_C13_C2_5") == 0);
    /* The array macros walk a bank as firmware does. */
    unsigned long long sum = 0;
    for (unsigned n = 0; n < DSU0_PMEVCNTR_COUNT; ++n) sum += DSU0_PMEVCNTR(n) - DSU0_BASE;
    CHECK(sum == 8ull * (DSU0_PMEVCNTR_COUNT * (DSU0_PMEVCNTR_COUNT - 1) / 2));
    if (failures) return 1;
    printf("headers ok (%s)\n", BOARD_HEADER);
    return 0;
}
