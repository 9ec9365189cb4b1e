// The registry of unit types (models/unit_descriptor.h).
#include "models/unit_descriptor.h"

#include <algorithm>
#include <mutex>
#include <set>

#include "models/register_bank.h"

namespace pmusim {

namespace {

struct registry {
    std::mutex mutex;
    std::vector<unit_descriptor> descriptors; // registration order
};

registry& the_registry() {
    static registry* r = new registry; // never destroyed: usable from static destructors too
    return *r;
}

void check_descriptor(unit_descriptor& d) {
    const std::string owner = "register_unit(" + d.type + ")";
    if (!is_identifier(d.type)) throw model_error(owner + ": the type name must be an identifier");
    check_param_schema(d.params, owner);
    std::vector<param_spec> features;
    for (const auto& f : d.cpu_features) features.push_back(f.spec);
    check_param_schema(features, owner + " cpu_features");
    for (size_t i = 0; i < features.size(); ++i) d.cpu_features[i].spec.default_value = features[i].default_value;
    for (const auto& f : d.cpu_features)
        if (!f.needs.empty() && !find_param_spec(features, f.needs))
            throw model_error(owner + ": feature '" + f.spec.name + "' needs an undeclared feature '" + f.needs + "'");
    for (const auto& t : d.tools) {
        if (t.name.empty() || !t.run) throw model_error(owner + ": a tool needs a name and a run function");
        for (const auto& o : t.options)
            if (!is_identifier(o.name) || o.name == "platform" || o.name == "unit" || o.type == param_type::choice)
                throw model_error(owner + ": tool " + t.name + ": bad option '" + o.name +
                                  "' (an identifier other than platform and unit, not a choice)");
    }
}

} // namespace

unsigned unit_origin::param_line(const std::string& name) const {
    auto it = param_lines.find(name);
    if (it != param_lines.end()) return it->second;
    return key_line("params");
}

unsigned unit_origin::key_line(const std::string& key) const {
    auto it = key_lines.find(key);
    return it != key_lines.end() ? it->second : line;
}

input_error unit_origin::param_error(const std::string& param, const std::string& message) const {
    return input_error(file, param_line(param),
                       "units[" + std::to_string(index) + "].params." + param + ": " + message);
}

input_error unit_origin::key_error(const std::string& key, const std::string& message) const {
    return input_error(file, key_line(key), "units[" + std::to_string(index) + "]." + key + ": " + message);
}

input_error unit_origin::error(const std::string& message) const {
    return input_error(file, line, "units[" + std::to_string(index) + "] (" + name + "): " + message);
}

bool platform_view::has_clock(const std::string& name) const {
    return std::find(clocks.begin(), clocks.end(), name) != clocks.end();
}

void register_unit(unit_descriptor descriptor) {
    check_descriptor(descriptor);
    for (const register_table* t : descriptor.tables) register_table_for_docs(*t);
    for (const unit_command& c : descriptor.commands) register_unit_command(descriptor.type, c);
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto& d : r.descriptors)
        if (d.type == descriptor.type) {
            d = std::move(descriptor);
            return;
        }
    r.descriptors.push_back(std::move(descriptor));
}

std::optional<unit_descriptor> find_unit_type(const std::string& type) {
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const auto& d : r.descriptors)
        if (d.type == type) return d;
    return std::nullopt;
}

std::vector<std::string> registered_unit_types() {
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> v;
    for (const auto& d : r.descriptors) v.push_back(d.type);
    std::sort(v.begin(), v.end());
    return v;
}

std::vector<unit_descriptor> unit_descriptors() {
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.descriptors;
}

std::vector<cpu_feature_spec> registered_cpu_features() {
    std::vector<cpu_feature_spec> out;
    for (const auto& d : unit_descriptors())
        for (const auto& f : d.cpu_features) out.push_back(f);
    return out;
}

} // namespace pmusim
