#pragma once
// A pmusim subcommand a unit type brings with it (`pmusim imc-dt`), declared in its descriptor
// (models/unit_descriptor.h) like its unit commands, so tb/main.cpp names no unit. The command
// line is `pmusim NAME [--platform P] [--unit U] [OPTIONS]`: the testbench loads the platform,
// picks the unit of the descriptor's type (the named one, else the first) and calls `run` with
// its entry, as the factory receives it, and the options given, validated against their schema.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/param_schema.h"

namespace pmusim {

struct unit_entry;
struct platform_view;

// The options given on the command line, in canonical form (canonical_param_value).
class unit_tool_options {
public:
    explicit unit_tool_options(std::map<std::string, std::string> canonical) : given_(std::move(canonical)) {}
    bool flag(const std::string& name) const;                     // a boolean option given
    std::optional<uint64_t> integer(const std::string& name) const; // an integer option, if given

private:
    std::map<std::string, std::string> given_;
};

struct unit_tool {
    std::string name;             // the subcommand, `pmusim NAME`
    std::string summary;          // its line in `pmusim --help`
    std::string default_platform; // --platform when not given
    // Its options, `--NAME` (an '_' in the name is written '-'): a boolean is a flag, any other
    // type takes a value in the one value grammar (docs/values.md). Defaults are not applied:
    // an option not given is absent from unit_tool_options.
    std::vector<param_spec> options;
    std::string examples; // the --help footer, one "  pmusim NAME ..." per line
    // The tool's output, printed to stdout. Throws input_error for bad input.
    std::function<std::string(const unit_entry&, const platform_view&, const unit_tool_options&)> run;
};

} // namespace pmusim
