#pragma once
// Platforms compiled into pmusim (pmusim --platform NAME). Their source of truth
// is platforms/NAME.yaml; vp/builtin_platforms.cpp holds verbatim copies and the
// unit test "config: embedded built-in platforms equal platforms/*.yaml" keeps
// the two identical.
#include <string>
#include <string_view>
#include <vector>

namespace pmusim {

struct builtin_platform {
    std::string_view name;        // "arm-default"
    std::string_view source_path; // "platforms/arm-default.yaml", relative to the source tree
    std::string_view yaml;        // the file's text
};

const std::vector<builtin_platform>& builtin_platforms(); // in name order
const builtin_platform* find_builtin_platform(std::string_view name); // nullptr if none
std::string builtin_platform_names(); // "arm-default, power9-default"

} // namespace pmusim
