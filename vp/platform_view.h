#pragma once
// From the loader's record (platform_config) to what a unit's factory receives
// (models/unit_descriptor.h): its entry with typed values and CPUs by index, and the narrow view
// of the platform around it.
#include <string>

#include "models/unit_descriptor.h"
#include "vp/platform_config.h"

namespace pmusim {

platform_view platform_view_of(const platform_config& p);
// `u` must be an entry of `p` whose type is registered.
unit_entry unit_entry_of(const platform_config& p, const unit_config& u);
// The `units:` entry of type `type` named `name` (empty: the first of the type); an input_error
// naming the platform file when there is none.
const unit_config& unit_of_type(const platform_config& p, const std::string& type, const std::string& name);

} // namespace pmusim
