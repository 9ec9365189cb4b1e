#pragma once
// The unit and device types pmusim knows. Each unit folder (any top-level folder, or folder under
// devices/, with a register.cpp) registers its unit_descriptor (models/unit_descriptor.h) in one
// function it defines with PMUSIM_REGISTER_UNITS; CMake finds those functions and generates
// register_all_units() from them (cmake/unit_list.cmake), so a new unit touches its own folder only.

namespace pmusim {

// Registers every unit type pmusim knows (idempotent).
void register_all_units();

} // namespace pmusim

// Defines a unit folder's registration function (inside namespace pmusim). `order` places the
// folder among the others: the order of `pmusim regs`, of the `cpus[N].features` keys and of the
// units built from CPU features (counter units 10..99, devices 100..199). CMake reads both
// arguments from the text, so write them literally, at the start of one line.
#define PMUSIM_REGISTER_UNITS(function, order) void function()
