#include "tb/demo_scenario.h"

namespace pmusim {

const char* demo_scenario() {
    return R"(# pmusim demo: what boot firmware, Linux and perf see on the arm-default platform.
platform arm-default
echo == Boot firmware (tf-a profile, run before this sequence) left the AMU untrapped and enabled ==
as cpu0 el3
print CPTR_EL3
print AMCNTENSET0_EL0
echo == Linux at EL1: feature register, then the four AMU group-0 counters after 1 us ==
as cpu0 el1
print ID_AA64PFR0_EL1
workload cpu0 inst=3/2 mem_stall=1/10
run 2000 cycles of cpu0
read AMEVCNTR00_EL0 == 2000     # CPU_CYCLES: 2 GHz for 1 us
read AMEVCNTR01_EL0 == 100      # CNT_CYCLES: the 100 MHz constant clock
read AMEVCNTR02_EL0 == 3000     # INST_RETIRED: IPC 3/2
read AMEVCNTR03_EL0 == 200      # STALL_BACKEND_MEM: 1 in 10 cycles
echo == DVFS to 1 GHz: the core counter slows, the constant counter does not ==
freq cpu0 1GHz
run 1000 cycles of cpu0
read AMEVCNTR00_EL0 == 3000
read AMEVCNTR01_EL0 == 200
echo == A KVM guest gets UNDEFINED; EL0 traps to EL1 until AMUSERENR_EL0.EN is set ==
as cpu0 el1 guest
read AMEVCNTR00_EL0 -> undefined
as cpu0 el0
read AMEVCNTR00_EL0 -> trap el1
echo == perf on the DSU: L3 accesses of cluster 0 and an overflow interrupt at the exact cycle ==
workload cpu1 l3_access_rd=1/4
as cpu0 el1
write CLUSTERPMSELR_EL1 0
write CLUSTERPMXEVTYPER_EL1 0x2B          # L3D_CACHE
write CLUSTERPMSELR_EL1 3
write CLUSTERPMXEVTYPER_EL1 0x11          # CYCLES
write CLUSTERPMXEVCNTR_EL1 0xFFFF_FFFF_FFFF_FC18   # 1000 DSU cycles to the wrap
write CLUSTERPMINTENSET_EL1 0x8
write CLUSTERPMCNTENSET_EL1 0x9
write CLUSTERPMCR_EL1 1
run 999 cycles of dsu0
expect irq dsu0 low
run 1 cycles of dsu0
expect irq dsu0 high
read CLUSTERPMOVSCLR_EL1 == 0x8
write CLUSTERPMSELR_EL1 0
read CLUSTERPMXEVCNTR_EL1 == 500          # 2000 cpu1 cycles at 1/4
write CLUSTERPMOVSCLR_EL1 0x8             # the interrupt handler
expect irq dsu0 low
)";
}

} // namespace pmusim
