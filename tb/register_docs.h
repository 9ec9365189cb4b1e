#pragma once
// Generated views of the register tables: Markdown reference (docs/registers/),
// a C header for firmware, and JSON. `pmusim regs --format markdown|c-header|json`.
#include <string>
#include <vector>

#include "models/register_bank.h"

namespace pmusim {

// Every table pmusim models (CPU controls first, then the units').
std::vector<const register_table*> all_register_tables();
std::string registers_markdown(const register_table& t);
// One block per table, each with its own include guard (PMUSIM_REGS_<UNIT>_H) and its macros
// prefixed <UNIT>_, so that any generated headers can be included together (docs/c-headers.md).
std::string registers_c_header(const std::vector<const register_table*>& tables);

// Registers named PREFIX<n>SUFFIX for n = 0..count-1 at offsets first + stride*n: a counter bank
// (PMEVCNTR0..30), for the array macros UNIT_PMEVCNTR_OFFSET(n).
struct register_family {
    std::string prefix, suffix; // "PMEVCNTR", ""
    uint64_t first_offset = 0, stride = 0;
    std::vector<const register_def*> members; // in index order
};
std::vector<register_family> register_families(const register_table& t);

class platform;
// The units of one platform (`pmusim regs --format c-header --platform P`): per instance, a
// guard PMUSIM_<PLATFORM>_<INSTANCE>_H, its base, the absolute address of each memory-mapped
// register and array macros whose banks hold the instance's own number of counters (a unit's
// `counters` parameter). Field macros stay in the unit headers.
std::string platform_c_header(const platform& p);
std::string registers_json(const std::vector<const register_table*>& tables);

} // namespace pmusim
