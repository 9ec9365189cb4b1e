#pragma once
// The built-in demo scenario that `pmusim` runs with no arguments.
namespace pmusim {
// Sequence text (runs on arm-default).
const char* demo_scenario();
} // namespace pmusim
