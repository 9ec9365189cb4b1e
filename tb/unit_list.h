#pragma once
// The unit types pmusim knows: each unit folder registers its unit_descriptor
// (models/unit_descriptor.h) in its own register_<unit>_units() (amu/register.cpp, ...), and
// register_all_units() calls them all once. A new unit adds one line here and one in unit_list.cpp.

namespace pmusim {

// Registers every unit type pmusim knows (idempotent).
void register_all_units();

// Defined in each unit folder's register.cpp.
void register_amu_units();
void register_dsu_units();
void register_cmn_units();
void register_imc_units();
void register_cspmu_units();
// Defined in each device folder's register.cpp (devices/, docs/devices.md).
void register_gic_devices();
void register_generic_timer_devices();
void register_pl011_devices();
void register_psci_devices();

} // namespace pmusim
