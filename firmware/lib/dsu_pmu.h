/* The DSU cluster PMU as Linux's driver drives it (drivers/perf/arm_dsu_pmu.c and
 * arch/arm64/include/asm/arm_dsu_pmu.h): CLUSTERPMCR_EL1 E [0], P [1], C [2], N [15:11];
 * counter n selected by CLUSTERPMSELR_EL1 and reached through CLUSTERPMXEVTYPER/XEVCNTR; the
 * cycle counter is index 31 (DSU_PMU_IDX_CYCLE_COUNTER) in the set/clear/overflow registers. */
#ifndef PMUSIM_FIRMWARE_DSU_PMU_H
#define PMUSIM_FIRMWARE_DSU_PMU_H

#include <stdint.h>

#define CLUSTERPMCR_E       (1ull << 0)
#define CLUSTERPMCR_N_SHIFT 11
#define CLUSTERPMCR_N_MASK  0x1f
#define DSU_PMU_IDX_CYCLE_COUNTER 31

/* Named events of the Linux driver (DSU_EVENT_ATTR list in arm_dsu_pmu.c). */
#define DSU_EVT_CYCLES             0x11
#define DSU_EVT_BUS_ACCESS         0x19
#define DSU_EVT_MEMORY_ERROR       0x1a
#define DSU_EVT_BUS_CYCLES         0x1d
#define DSU_EVT_L3D_CACHE_ALLOCATE 0x29
#define DSU_EVT_L3D_CACHE_REFILL   0x2a
#define DSU_EVT_L3D_CACHE          0x2b
#define DSU_EVT_L3D_CACHE_WB       0x2c

struct dsu_pmu {
	unsigned num_counters;   /* CLUSTERPMCR_EL1.N */
	uint64_t event_bitmap;   /* CLUSTERPMCEID1:CLUSTERPMCEID0, bit e = common event e */
};

/* dsu_pmu_probe_pmu(): the counter count and the implemented-event bitmap. */
void dsu_pmu_probe(struct dsu_pmu *pmu);

void dsu_pmu_enable(void);                           /* RMW CLUSTERPMCR_EL1.E = 1 */
void dsu_pmu_disable(void);
void dsu_pmu_set_event(unsigned idx, unsigned event);  /* PMSELR = idx, PMXEVTYPER = event */
void dsu_pmu_write_counter(unsigned idx, uint64_t value);
uint64_t dsu_pmu_read_counter(unsigned idx);

#endif
