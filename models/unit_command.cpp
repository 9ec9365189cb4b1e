#include "models/unit_command.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace pmusim {

namespace {
struct registration {
    std::string unit_type;
    unit_command command;
};
// By verb: one grammar each.
std::map<std::string, registration, std::less<>>& registry() {
    static std::map<std::string, registration, std::less<>> r;
    return r;
}
} // namespace

void register_unit_command(const std::string& unit_type, unit_command command) {
    auto it = registry().find(command.verb);
    if (it != registry().end()) {
        if (it->second.unit_type == unit_type) return; // registered again (register_all_units is idempotent)
        throw std::logic_error("unit command '" + command.verb + "' of " + unit_type + " is already a command of " +
                               it->second.unit_type + ": a verb has one grammar");
    }
    std::string verb = command.verb;
    registry().emplace(std::move(verb), registration{unit_type, std::move(command)});
}

const unit_command* find_unit_command(const std::string& unit_type, std::string_view verb) {
    auto it = registry().find(verb);
    return it != registry().end() && it->second.unit_type == unit_type ? &it->second.command : nullptr;
}

const unit_command* find_command_verb(std::string_view verb) {
    auto it = registry().find(verb);
    return it == registry().end() ? nullptr : &it->second.command;
}

std::string unit_command_verbs(const std::string& unit_type) {
    std::string out;
    for (const auto& [verb, r] : registry()) // std::map: sorted
        if (unit_type.empty() || r.unit_type == unit_type) out += (out.empty() ? "" : ", ") + verb;
    return out;
}

} // namespace pmusim
