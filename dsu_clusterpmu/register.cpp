// Registers this folder's unit types with the platform builder.
#include "tb/unit_factory.h"

namespace pmusim {

void register_dsu_units() {
    // Not implemented yet: the platform carries no dsu_clusterpmu unit.
}

} // namespace pmusim
