// Registers this folder's unit types with the platform builder.
#include "tb/unit_factory.h"

namespace pmusim {

void register_imc_units() {
    // Not implemented yet: the platform carries no imc unit.
}

} // namespace pmusim
