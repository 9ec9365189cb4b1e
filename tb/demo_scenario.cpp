#include "tb/demo_scenario.h"

namespace pmusim {

const char* demo_scenario() {
    return R"(# pmusim demo: what boot firmware and Linux see on the arm-default platform.
platform arm-default
echo == Firmware: EL3 controls after the tf-a profile's boot ==
as cpu0 el3
print SCR_EL3
print CPTR_EL3
print ID_AA64PFR0_EL1
echo == Linux at EL1 (Non-secure) reads the feature register; an EL2 register is UNDEFINED ==
as cpu0 el1
read ID_AA64PFR0_EL1 == 0x0000_2000_0000_0000 mask 0xF000_0000_0000
read HCR_EL2 -> undefined
echo == A KVM guest sees no AMU in ID_AA64PFR0_EL1 ==
as cpu0 el1 guest
read ID_AA64PFR0_EL1 == 0 mask 0xF000_0000_0000
echo == Time: 2000 cycles of cpu0 at 2 GHz, then DVFS to 1 GHz and 1000 more ==
as cpu0 el1
workload cpu0 inst=3/2 mem_stall=1/10
run 2000 cycles of cpu0
freq cpu0 1GHz
run 1000 cycles of cpu0
)";
}

} // namespace pmusim
