#pragma once
// What the embeddable models alone (embed/units.cpp, embed/devices.cpp) share to describe their
// one-unit platforms in code (vp/platform_builder.h): the clocks and CPUs of an Arm platform and
// the parameter texts as a platform file's values give them.
#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <string>

#include "vp/platform_builder.h"

namespace pmusim {

// The clocks and CPUs of an Arm platform with `cpus` CPUs in cluster 0 ("const", "cpuN").
inline platform_builder arm_platform(const std::string& name, const std::string& source, unsigned cpus, uint64_t cpu_hz,
                                     uint64_t const_hz, const std::map<std::string, std::string>& features) {
    platform_builder b(name, source, arch_kind::arm);
    b.clock("const", const_hz);
    for (unsigned i = 0; i < cpus; ++i) b.clock(fmt::format("cpu{}", i), cpu_hz);
    for (unsigned i = 0; i < cpus; ++i) b.arm_cpu(fmt::format("cpu{}", i), 0, features);
    return b;
}

// Fixed parameters over the user's further ones.
inline std::map<std::string, std::string> with(std::map<std::string, std::string> more,
                                               const std::map<std::string, std::string>& fixed) {
    for (const auto& [k, v] : fixed) more[k] = v;
    for (auto& [k, v] : more) // a text of lines ends with its newline, as a YAML block scalar's does
        if (v.find('\n') != std::string::npos && v.back() != '\n') v += '\n';
    return more;
}

} // namespace pmusim
