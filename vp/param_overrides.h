#pragma once
// Parameter overrides on the command line, as Arm FVPs take them (`-C cluster0.NUM_CORES=2`):
//   pmusim run my.seq -C dsu0.counters=4 -C cpu0.features.fgt=true
// A key is a path `pmusim --list-params` prints (units.dsu0.params.counters) or its short form:
// the first part names a unit (dsu0.counters = units.dsu0.params.counters), a CPU
// (cpu0.features.fgt), a clock (cmn0.frequency) or a memory region (dram.size), and the rest is
// that object's key. The key and the value are checked against the platform's schema; the
// platform is then loaded again with the values in place, so every check a platform file gets
// applies to them too. Errors name the -C argument and say what was expected (docs/platform-config.md,
// "Overrides on the command line").
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "vp/platform_config.h"

namespace pmusim {

struct param_override {
    std::string argument; // as given after -C: "dsu0.counters=4"
    std::string key;      // "dsu0.counters"
    std::string value;    // "4", as written
    std::string path;     // the --list-params path it resolved to: "units.dsu0.params.counters"
};

// Splits each "KEY=VALUE" (syntax only; keys are resolved against a platform later). A missing
// '=' or an empty key is an input_error naming the argument.
std::vector<param_override> parse_override_arguments(const std::vector<std::string>& arguments);

// Applies `overrides` to the platform written as `yaml_text` (loaded from `file`, already parsed
// as `base`): resolves each key to its path (filling `path`), refuses unknown keys and values
// the schema does not accept (input_error naming the -C argument), and returns the platform with
// the values in place. Line numbers and file names stay those of `file`, so later errors about
// parameters nobody overrode still point into it.
platform_config apply_param_overrides(const std::string& yaml_text, const std::string& file,
                                      const platform_config& base, std::vector<param_override>& overrides);

// load_platform(name_or_path) with `overrides` applied (no overrides: load_platform itself).
platform_config load_platform_with_overrides(const std::string& name_or_path,
                                             std::vector<param_override>& overrides);

// An error a unit raises while it is built from the platform (a DSU-120 with more than 8
// counters) about a parameter that an override set is restated as about that -C argument;
// any other error is returned unchanged.
input_error name_override_in_error(const input_error& e, const platform_config& p,
                                   const std::vector<param_override>& overrides);

// The record of the overrides for logs: [{"argument": "dsu0.counters=4", "parameter":
// "units.dsu0.params.counters", "value": "4"}, ...] in the order given.
nlohmann::ordered_json overrides_json(const std::vector<param_override>& overrides);

// The -C option's help text and its examples, shared by every command that takes it.
extern const char* const override_option_help;

} // namespace pmusim
