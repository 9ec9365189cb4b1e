#include "tb/unit_tools_cli.h"

#include <iostream>

#include "models/input_error.h"
#include "models/unit_descriptor.h"
#include "vp/platform_config.h"
#include "vp/platform_view.h"

namespace pmusim {

namespace {
std::string option_flag(const std::string& name) {
    std::string flag = "--" + name;
    for (char& c : flag)
        if (c == '_') c = '-';
    return flag;
}
} // namespace

unit_tool_commands::unit_tool_commands(CLI::App& app) {
    for (const unit_descriptor& d : unit_descriptors())
        for (const unit_tool& t : d.tools) {
            tool_command& c = tools_.emplace_back();
            c.type = d.type;
            c.tool = t;
            c.platform = t.default_platform;
            c.command = app.add_subcommand(t.name, t.summary);
            c.command->add_option("--platform", c.platform, "built-in platform name or YAML file")
                ->default_val(t.default_platform);
            c.command->add_option("--unit", c.unit, "the " + d.type + " unit (default: the first)");
            for (const param_spec& o : t.options) {
                if (o.type == param_type::boolean)
                    c.command->add_flag(option_flag(o.name), c.flags[o.name], o.meaning);
                else
                    c.command->add_option(option_flag(o.name), c.values[o.name], o.meaning)
                        ->type_name(param_type_name(o.type));
            }
            if (!t.examples.empty()) c.command->footer("Examples:\n" + t.examples);
        }
}

bool unit_tool_commands::selected() const {
    for (const auto& c : tools_)
        if (c.command->parsed()) return true;
    return false;
}

int unit_tool_commands::run() const {
    for (const auto& c : tools_) {
        if (!c.command->parsed()) continue;
        std::map<std::string, std::string> given;
        for (const param_spec& o : c.tool.options) {
            const std::string flag = option_flag(o.name);
            if (o.type == param_type::boolean) {
                if (c.flags.at(o.name)) given[o.name] = "true";
                continue;
            }
            if (c.command->count(flag) == 0) continue;
            std::string expected;
            auto canonical = canonical_param_value(o, c.values.at(o.name), expected);
            if (!canonical)
                throw input_error("", 0, flag + ": expected " + expected + ", found '" + c.values.at(o.name) + "'");
            given[o.name] = *canonical;
        }
        const platform_config p = load_platform(c.platform);
        const unit_entry entry = unit_entry_of(p, unit_of_type(p, c.type, c.unit));
        std::cout << c.tool.run(entry, platform_view_of(p), unit_tool_options(std::move(given)));
        return 0;
    }
    return 0;
}

} // namespace pmusim
