#include "tb/unit_list.h"

namespace pmusim {

void register_all_units() {
    static bool done = false;
    if (done) return;
    done = true;
    // The order is that of `pmusim regs` and of the units built from CPU features.
    register_amu_units();
    register_dsu_units();
    register_cmn_units();
    register_imc_units();
    register_cspmu_units();
    // The devices Linux needs (devices/): interrupt controller, generic timer, UART, PSCI.
    register_gic_devices();
    register_generic_timer_devices();
    register_pl011_devices();
    register_psci_devices();
}

} // namespace pmusim
