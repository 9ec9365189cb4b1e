// Registers this folder's unit types with the platform builder.
#include "tb/unit_factory.h"

namespace pmusim {

void register_amu_units() {
    // Not implemented yet: the platform carries no amu unit.
}

} // namespace pmusim
