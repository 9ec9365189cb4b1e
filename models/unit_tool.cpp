#include "models/unit_tool.h"

#include "models/values.h"

namespace pmusim {

bool unit_tool_options::flag(const std::string& name) const {
    auto it = given_.find(name);
    return it != given_.end() && it->second == "true";
}

std::optional<uint64_t> unit_tool_options::integer(const std::string& name) const {
    auto it = given_.find(name);
    if (it == given_.end()) return std::nullopt;
    return *values::scan_integer(it->second); // canonical: decimal (canonical_param_value)
}

} // namespace pmusim
