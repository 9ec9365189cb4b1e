#include "dsu_pmu.h"

#include "sysreg.h"

void dsu_pmu_probe(struct dsu_pmu *pmu)
{
	uint64_t pmcr = sysreg_read(CLUSTERPMCR_EL1);
	pmu->num_counters = (unsigned)(pmcr >> CLUSTERPMCR_N_SHIFT) & CLUSTERPMCR_N_MASK;
	uint64_t ceid0 = sysreg_read(CLUSTERPMCEID0_EL1) & 0xffffffffull;
	uint64_t ceid1 = sysreg_read(CLUSTERPMCEID1_EL1) & 0xffffffffull;
	pmu->event_bitmap = ceid0 | (ceid1 << 32);
}

void dsu_pmu_enable(void)
{
	sysreg_write(CLUSTERPMCR_EL1, sysreg_read(CLUSTERPMCR_EL1) | CLUSTERPMCR_E);
	isb();
}

void dsu_pmu_disable(void)
{
	sysreg_write(CLUSTERPMCR_EL1, sysreg_read(CLUSTERPMCR_EL1) & ~CLUSTERPMCR_E);
	isb();
}

void dsu_pmu_set_event(unsigned idx, unsigned event)
{
	sysreg_write(CLUSTERPMSELR_EL1, idx);
	isb();
	sysreg_write(CLUSTERPMXEVTYPER_EL1, event);
	isb();
}

void dsu_pmu_write_counter(unsigned idx, uint64_t value)
{
	if (idx == DSU_PMU_IDX_CYCLE_COUNTER) {
		sysreg_write(CLUSTERPMCCNTR_EL1, value);
	} else {
		sysreg_write(CLUSTERPMSELR_EL1, idx);
		isb();
		sysreg_write(CLUSTERPMXEVCNTR_EL1, value);
	}
	isb();
}

uint64_t dsu_pmu_read_counter(unsigned idx)
{
	if (idx == DSU_PMU_IDX_CYCLE_COUNTER)
		return sysreg_read(CLUSTERPMCCNTR_EL1);
	sysreg_write(CLUSTERPMSELR_EL1, idx);
	isb();
	return sysreg_read(CLUSTERPMXEVCNTR_EL1);
}
