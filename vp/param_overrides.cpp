// -C KEY=VALUE parameter overrides (vp/param_overrides.h, docs/platform-config.md).
#include "vp/param_overrides.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "models/input_error.h"
#include "vp/builtin_platforms.h"
#include "vp/platform_listing.h"

namespace pmusim {

const char* const override_option_help =
    "KEY=VALUE: set a platform parameter (repeatable), as an FVP's -C; KEY as `pmusim --list-params` prints it "
    "or short: dsu0.counters, cpu0.features.fgt, cmn0.frequency";

namespace {

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::stringstream ss(path);
    for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
    return parts;
}

std::string join_from(const std::vector<std::string>& parts, size_t first) {
    std::string s;
    for (size_t i = first; i < parts.size(); ++i) s += (s.empty() ? "" : ".") + parts[i];
    return s;
}

template <typename T>
long index_of(const std::vector<T>& items, const std::string& name) {
    for (size_t i = 0; i < items.size(); ++i)
        if (items[i].name == name) return long(i);
    return -1;
}

// The parts of the platform a short key can start with, each with the prefix of its full path.
std::vector<std::string> full_path_candidates(const platform_config& p, const std::string& key) {
    std::vector<std::string> parts = split_path(key);
    std::vector<std::string> out{key};
    if (parts.size() < 2) return out;
    const std::string object = parts[0], rest = join_from(parts, 1);
    if (p.find_unit(object)) out.push_back("units." + object + ".params." + rest);
    if (p.find_cpu(object)) out.push_back("cpus." + object + "." + rest);
    if (p.find_clock(object)) out.push_back("clocks." + object + "." + rest);
    if (p.find_memory(object)) out.push_back("memory." + object + "." + rest);
    return out;
}

// A listing path written the short way: units.dsu0.params.counters -> dsu0.counters.
std::string short_key(const std::string& path) {
    std::vector<std::string> parts = split_path(path);
    if (parts.size() >= 4 && parts[0] == "units" && parts[2] == "params") return parts[1] + "." + join_from(parts, 3);
    if (parts.size() >= 3 && (parts[0] == "cpus" || parts[0] == "clocks" || parts[0] == "memory"))
        return join_from(parts, 1);
    return path;
}

std::string resolve_key(const platform_config& p, const std::vector<param_listing>& listing, const param_override& o) {
    std::set<std::string> known;
    for (const auto& l : listing) known.insert(l.path);
    std::vector<std::string> found;
    for (const auto& c : full_path_candidates(p, o.key))
        if (known.count(c) && std::find(found.begin(), found.end(), c) == found.end()) found.push_back(c);
    if (found.size() == 1) return found.front();
    const std::string where = "(pmusim --list-params --platform " + p.name + " lists them)";
    if (found.size() > 1) {
        std::string list;
        for (const auto& f : found) list += (list.empty() ? "" : " or ") + f;
        throw input_error("", 0, fmt::format("-C {}: '{}' could be {}; expected the full path of one", o.argument,
                                             o.key, list));
    }
    // Unknown: list the keys of the object the key starts with, if it names one.
    const std::string object = split_path(o.key).empty() ? o.key : split_path(o.key).front();
    std::string keys;
    for (const auto& l : listing) {
        const std::string s = short_key(l.path);
        if (s != l.path && split_path(s).front() == object && s.find('.') != std::string::npos)
            keys += (keys.empty() ? "" : ", ") + s.substr(object.size() + 1) + " (" + l.type + ")";
    }
    if (!keys.empty())
        throw input_error("", 0, fmt::format("-C {}: platform {} has no parameter '{}'; {} has: {} {}", o.argument,
                                             p.name, o.key, object, keys, where));
    std::string objects;
    for (const auto& u : p.units) objects += (objects.empty() ? "" : ", ") + u.name;
    for (const auto& c : p.cpus) objects += (objects.empty() ? "" : ", ") + c.name;
    throw input_error("", 0, fmt::format("-C {}: platform {} has no parameter '{}'; expected a path such as "
                                         "units.dsu0.params.counters or firmware.profile, or a unit's or CPU's "
                                         "name and key such as dsu0.counters ({}) {}",
                                         o.argument, p.name, o.key, objects, where));
}

// The path as the platform loader names it in its messages: units.dsu0.params.counters ->
// units[0].params.counters.
std::string loader_path(const platform_config& p, const std::string& path) {
    std::vector<std::string> parts = split_path(path);
    if (parts.size() < 2) return path;
    long i = -1;
    if (parts[0] == "units") i = index_of(p.units, parts[1]);
    else if (parts[0] == "cpus") i = index_of(p.cpus, parts[1]);
    else if (parts[0] == "clocks") i = index_of(p.clocks, parts[1]);
    else if (parts[0] == "memory") i = index_of(p.memory, parts[1]);
    if (i < 0) return path;
    return parts[0] + "[" + std::to_string(i) + "]." + join_from(parts, 2);
}

// The platform text with the first `count` overrides written into it: lists of named maps
// (clocks, cpus, units, memory) are indexed by name, and a map a platform file may leave out
// (a CPU's features, a unit's params, firmware, latency) is created.
std::string edited_yaml(const std::string& yaml_text, const std::vector<param_override>& overrides, size_t count) {
    YAML::Node root = YAML::Load(yaml_text);
    for (size_t i = 0; i < count; ++i) {
        std::vector<std::string> parts = split_path(overrides[i].path);
        // reset() rebinds; `node = x` would overwrite the node it refers to (yaml-cpp semantics).
        YAML::Node node;
        node.reset(root);
        for (size_t k = 0; k + 1 < parts.size(); ++k) {
            if (node.IsSequence()) {
                YAML::Node named;
                for (size_t e = 0; e < node.size(); ++e)
                    if (node[e].IsMap() && node[e]["name"] && node[e]["name"].Scalar() == parts[k]) named.reset(node[e]);
                if (!named.IsDefined())
                    throw model_error("override path " + overrides[i].path + " resolved but has no list entry " + parts[k]);
                node.reset(named);
                continue;
            }
            if (!node[parts[k]] || node[parts[k]].IsNull()) node[parts[k]] = YAML::Node(YAML::NodeType::Map);
            YAML::Node next = node[parts[k]];
            node.reset(next);
        }
        node[parts.back()] = overrides[i].value;
    }
    YAML::Emitter out;
    out << root;
    return std::string(out.c_str()) + "\n";
}

// The loader's message about `o` without its path ("units[0].params.counters: expected ..." ->
// "expected ..."); a message about another key is kept whole, after what the override did.
std::string message_about(const platform_config& p, const param_override& o, const std::string& message) {
    const std::string prefix = loader_path(p, o.path) + ": ";
    if (message.compare(0, prefix.size(), prefix) == 0) return message.substr(prefix.size());
    return "the platform with this value is invalid: " + message;
}

// Lines of the edited text mean nothing to the user: the result keeps the lines of the file
// it came from, and a unit parameter an override set has line 0 (the command line).
void restore_lines(platform_config& p, const platform_config& base, const std::vector<param_override>& overrides) {
    p.file = base.file;
    for (size_t i = 0; i < p.clocks.size() && i < base.clocks.size(); ++i) p.clocks[i].line = base.clocks[i].line;
    for (size_t i = 0; i < p.cpus.size() && i < base.cpus.size(); ++i) p.cpus[i].line = base.cpus[i].line;
    for (size_t i = 0; i < p.memory.size() && i < base.memory.size(); ++i) p.memory[i].line = base.memory[i].line;
    for (size_t i = 0; i < p.irq_lines.size() && i < base.irq_lines.size(); ++i)
        p.irq_lines[i].line = base.irq_lines[i].line;
    p.firmware.line = base.firmware.line;
    p.latency.line = base.latency.line;
    for (size_t i = 0; i < p.units.size() && i < base.units.size(); ++i) {
        unit_config& u = p.units[i];
        u.file = base.units[i].file;
        u.line = base.units[i].line;
        u.key_lines = base.units[i].key_lines;
        u.param_lines = base.units[i].param_lines;
        for (const auto& o : overrides) {
            std::vector<std::string> parts = split_path(o.path);
            if (parts.size() == 4 && parts[0] == "units" && parts[1] == u.name) u.param_lines[parts[3]] = 0;
        }
    }
}

std::string read_platform_text(const std::string& name_or_path) {
    if (const builtin_platform* b = find_builtin_platform(name_or_path)) return std::string(b->yaml);
    std::ifstream in(name_or_path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw input_error(name_or_path, 0, "cannot read platform file");
    return text.str();
}

} // namespace

std::vector<param_override> parse_override_arguments(const std::vector<std::string>& arguments) {
    std::vector<param_override> out;
    for (const auto& a : arguments) {
        const size_t eq = a.find('=');
        if (eq == std::string::npos || eq == 0)
            throw input_error("", 0, "-C " + a + ": expected KEY=VALUE, e.g. -C dsu0.counters=4 (keys: pmusim --list-params)");
        out.push_back({a, a.substr(0, eq), a.substr(eq + 1), ""});
    }
    return out;
}

platform_config apply_param_overrides(const std::string& yaml_text, const std::string& file,
                                      const platform_config& base, std::vector<param_override>& overrides) {
    if (overrides.empty()) return base;
    const std::vector<param_listing> listing = collect_params(base);
    for (auto& o : overrides) o.path = resolve_key(base, listing, o);
    platform_config p;
    try {
        p = parse_platform(edited_yaml(yaml_text, overrides, overrides.size()), file);
    } catch (const input_error& e) {
        // Blame the first override whose addition makes the platform invalid.
        size_t culprit = overrides.size() - 1;
        std::string message = e.message();
        for (size_t k = 1; k < overrides.size(); ++k) {
            try {
                parse_platform(edited_yaml(yaml_text, overrides, k), file);
            } catch (const input_error& first) {
                culprit = k - 1;
                message = first.message();
                break;
            }
        }
        throw input_error("", 0, "-C " + overrides[culprit].argument + ": " +
                                     message_about(base, overrides[culprit], message));
    }
    restore_lines(p, base, overrides);
    return p;
}

platform_config load_platform_with_overrides(const std::string& name_or_path, std::vector<param_override>& overrides) {
    platform_config base = load_platform(name_or_path);
    if (overrides.empty()) return base;
    return apply_param_overrides(read_platform_text(name_or_path), base.file, base, overrides);
}

input_error name_override_in_error(const input_error& e, const platform_config& p,
                                   const std::vector<param_override>& overrides) {
    for (const auto& o : overrides) {
        const std::string prefix = loader_path(p, o.path) + ": ";
        if (e.message().compare(0, prefix.size(), prefix) == 0)
            return input_error("", 0, "-C " + o.argument + ": " + e.message().substr(prefix.size()));
    }
    return e;
}

nlohmann::ordered_json overrides_json(const std::vector<param_override>& overrides) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& o : overrides)
        list.push_back({{"argument", o.argument}, {"parameter", o.path}, {"value", o.value}});
    return list;
}

} // namespace pmusim
