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
}

} // namespace pmusim
