#pragma once
// The pmusim subcommands that unit types declare (models/unit_tool.h, `pmusim imc-dt`): one CLI11
// subcommand per registered tool, and running the one selected.
#include <deque>
#include <map>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "models/unit_tool.h"

namespace pmusim {

class unit_tool_commands {
public:
    // Adds a subcommand for every tool of every registered unit type (register_all_units first).
    explicit unit_tool_commands(CLI::App& app);
    bool selected() const;
    // Runs the selected tool and prints its output; input_error for a bad platform, unit or option.
    int run() const;

private:
    struct tool_command {
        std::string type; // the unit type that declares it
        unit_tool tool;
        CLI::App* command = nullptr;
        std::string platform, unit;
        std::map<std::string, std::string> values; // option name -> text as given
        std::map<std::string, bool> flags;
    };
    std::deque<tool_command> tools_; // CLI11 keeps pointers into these
};

} // namespace pmusim
