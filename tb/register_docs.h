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
std::string registers_c_header(const std::vector<const register_table*>& tables);
std::string registers_json(const std::vector<const register_table*>& tables);

} // namespace pmusim
