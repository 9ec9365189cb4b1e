#pragma once
// How the platform finds the code of each unit type. Each unit folder registers
// its factories in its own register_<unit>_units() (amu/register.cpp, ...);
// tb/unit_factory.cpp calls them all once.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/unit.h"
#include "tb/platform_config.h"

namespace pmusim {

// A unit listed under `units:` in the platform file.
using unit_factory = std::function<std::unique_ptr<unit>(soc&, const unit_config&, const platform_config&)>;
// Units that come with CPU features rather than `units:` entries (the AMU).
using feature_factory = std::function<std::vector<std::unique_ptr<unit>>(soc&, const platform_config&)>;

void register_unit_factory(const std::string& type, unit_factory factory);
void register_feature_factory(const std::string& name, feature_factory factory);
const unit_factory* find_unit_factory(const std::string& type);
const std::vector<std::pair<std::string, feature_factory>>& feature_factories();

// Registers every unit type pmusim knows (idempotent).
void register_all_units();

// Defined in each unit folder.
void register_amu_units();
void register_dsu_units();
void register_cmn_units();
void register_imc_units();

} // namespace pmusim
