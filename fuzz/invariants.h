#pragma once
// State invariants every unit must satisfy after any access, checked by the register and serve
// fuzz targets (docs/reliability.md). Generic checks come from the register tables, so a new
// unit (CMN-600, POWER9 IMC) is covered the moment it is in a platform; unit-specific checks
// (enable bits only where implemented, interrupt line == its defining expression) are keyed by
// unit type in invariants.cpp, one function per type.
#include <string>
#include <vector>

#include "vp/platform.h"

namespace pmusim::fuzzing {

// Every violation found in `u` (empty: none). Reads registers the way firmware at EL3 and a
// Secure debugger would; memory-mapped registers the unit refuses to a debugger are skipped.
std::vector<std::string> check_unit(platform& p, unit& u);
std::vector<std::string> check_all(platform& p);

// The offsets of a unit's registers inside one of its windows, for the fuzzers to aim at: the
// table's offsets, and for units whose registers repeat (the CMN-600's nodes, each with the table
// of its kind at its own offset; the IMC's SCOMs of every core) every instance.
std::vector<uint64_t> register_offsets(unit& u, const address_window& w);

// Aborts (a libFuzzer crash) with every violation printed, when there is one.
void require_invariants(platform& p, unit* only = nullptr, const char* after = "");

// A register read behind the gate: system register (cpu, EL3, Secure) or memory-mapped
// (Secure debugger). False when the unit refuses.
bool read_sysreg(unit& u, unsigned cpu, const register_def& def, uint64_t& value);
bool read_mmio(unit& u, uint64_t address, unsigned bytes, uint64_t& value);

} // namespace pmusim::fuzzing
