#pragma once
// What `pmusim --list-params` and `pmusim params` print: every knob of a platform with its value,
// type, default and meaning, and every registered unit type with its parameters.
#include <string>
#include <vector>

#include "vp/platform_config.h"

namespace pmusim {

struct param_listing {
    std::string path;          // "clocks.cpu0.frequency", "units.dsu0.params.counters"
    std::string type;          // describe_param_type() style
    std::string value;         // resolved value, display form ("2GHz", "6", "0x2a000000")
    std::string default_value; // display form; "(required)" when there is none
    std::string meaning;
};

// Every knob of the platform with its resolved value: clock frequencies, CPU
// clocks/topology/features, firmware profile, latency, memory regions, and
// each unit's parameters (declared schema order).
std::vector<param_listing> collect_params(const platform_config& p);
// The same as aligned text lines, a header line first.
std::vector<std::string> list_params(const platform_config& p);
// Every registered unit type with its parameters (type, default, meaning).
std::vector<std::string> list_unit_types();

} // namespace pmusim
