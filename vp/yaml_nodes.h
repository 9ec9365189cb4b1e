#pragma once
// What the YAML readers (platform, scenario, sweep) say about a node in their messages.
#include <string>

#include <yaml-cpp/yaml.h>

namespace pmusim {

// The node's 1-based line, 0 when it has none (an absent node).
unsigned yaml_line(const YAML::Node& n);
// The node as "found ..." names it: 'text', a list, a map or nothing.
std::string yaml_found(const YAML::Node& n);

} // namespace pmusim
