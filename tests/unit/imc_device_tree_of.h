#pragma once
// imc_device_tree_text for a platform's power9_imc unit (the first when `unit` is empty), with the
// options its entry gives, as `pmusim imc-dt` computes them (imc/device_tree_command.cpp).
#include <optional>
#include <string>

#include "imc/imc.h"
#include "vp/platform_view.h"

inline std::string imc_device_tree_of(const pmusim::platform_config& p, const std::string& unit, bool linux_view,
                                      std::optional<uint64_t> avl_override) {
    const pmusim::unit_entry entry = pmusim::unit_entry_of(p, pmusim::unit_of_type(p, "power9_imc", unit));
    return pmusim::imc::imc_device_tree_text(pmusim::imc::read_imc_options(entry, pmusim::platform_view_of(p)),
                                             linux_view, avl_override);
}
