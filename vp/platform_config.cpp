// The platform configuration: lookups, loading a file or a built-in platform, names.
// The YAML sections are read by vp/platform_loader.h; listing is vp/platform_listing.cpp.
#include "vp/platform_config.h"

#include <fmt/format.h>

#include <filesystem>

#include "models/data_files.h"
#include "models/input_file.h"
#include "models/limits.h"
#include "vp/builtin_platforms.h"
#include "vp/did_you_mean.h"
#include "vp/platform_loader.h"
#include "vp/unit_list.h"

namespace pmusim {

const char* to_string(arch_kind a) { return a == arch_kind::arm ? "arm" : "power"; }
const char* to_string(firmware_profile f) {
    return f == firmware_profile::tf_a ? "tf-a" : f == firmware_profile::opal ? "opal" : "none";
}
const char* to_string(endianness e) { return e == endianness::little ? "little" : "big"; }

param_values unit_config::typed_params() const {
    std::optional<unit_descriptor> type = find_unit_type(this->type);
    if (!type) throw model_error("unit '" + name + "' has the unregistered type " + this->type);
    return param_values(type->params, params);
}

// ---------------------------------------------------------------------------
// platform_config lookups
// ---------------------------------------------------------------------------

namespace {
template <typename T>
const T* find_named(const std::vector<T>& v, const std::string& name) {
    for (const auto& x : v)
        if (x.name == name) return &x;
    return nullptr;
}
} // namespace

const clock_config* platform_config::find_clock(const std::string& n) const { return find_named(clocks, n); }
const cpu_config* platform_config::find_cpu(const std::string& n) const { return find_named(cpus, n); }
const unit_config* platform_config::find_unit(const std::string& n) const { return find_named(units, n); }
const memory_region_config* platform_config::find_memory(const std::string& n) const {
    return find_named(memory, n);
}
const irq_line_config* platform_config::find_irq_line(const std::string& n) const {
    return find_named(irq_lines, n);
}

std::vector<const unit_config*> platform_config::units_of_type(const std::string& t) const {
    std::vector<const unit_config*> v;
    for (const auto& u : units)
        if (u.type == t) v.push_back(&u);
    return v;
}

// ---------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------

platform_config parse_platform(std::string_view yaml_text, const std::string& file) {
    register_all_units(); // the unit descriptors the loader validates against
    if (yaml_text.size() > limits::max_platform_file_bytes)
        throw input_error(file, 0, fmt::format("platform file of {} bytes; expected at most {} (docs/reliability.md)",
                                               yaml_text.size(), limits::max_platform_file_bytes));
    return platform_loader(file).load(yaml_text);
}

std::string platform_config::resolve_path(const std::string& written) const {
    return resolve_platform_path(file, written);
}

std::string resolve_platform_path(const std::string& file, const std::string& written) {
    namespace fs = std::filesystem;
    const fs::path w = written;
    if (w.is_absolute() || file.empty() || file.front() == '<') return written;
    const fs::path from_folder = (fs::path(file).parent_path() / w).lexically_normal();
    for (const auto& b : builtin_platforms())
        if (file == b.source_path) return data_file(from_folder.string());
    return from_folder.string();
}

std::string platform_reference(const std::string& name, const std::string& from_file, unsigned line) {
    if (find_builtin_platform(name)) return name;
    namespace fs = std::filesystem;
    fs::path p = name;
    if (p.is_relative() && !from_file.empty() && from_file.front() != '<') p = fs::path(from_file).parent_path() / p;
    std::error_code ec;
    if (!fs::exists(p, ec)) {
        // Before 2026-12, relative paths were read from the current directory: say how to fix an old file.
        const std::string hint =
            p != fs::path(name) && fs::exists(name, ec)
                ? "; '" + name + "' exists from the current directory, but relative paths have been read from the "
                               "sequence file's folder since 2026-12: write it as '" +
                      fs::proximate(fs::absolute(name), fs::absolute(fs::path(from_file).parent_path() / ".")).string() +
                      "'"
                : "";
        throw input_error(from_file, line,
                          "platform '" + name + "': expected a built-in platform (" + builtin_platform_names() +
                              ") or a YAML file (relative paths are read from this file's folder: " + p.string() +
                              " does not exist)" + hint);
    }
    return p.lexically_normal().string();
}

platform_config load_platform(const std::string& name_or_path) {
    if (const builtin_platform* b = find_builtin_platform(name_or_path))
        return parse_platform(b->yaml, std::string(b->source_path));

    const std::string builtins = builtin_platform_names();
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool exists = fs::exists(name_or_path, ec);
    const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                                 name_or_path.find('.') != std::string::npos;
    if (!exists && !looks_like_path) {
        std::vector<std::string> names;
        for (const builtin_platform& b : builtin_platforms()) names.emplace_back(b.name);
        throw input_error("", 0, "unknown platform '" + name_or_path + "'; expected a built-in platform (" +
                                     builtins + ") or the path of a YAML file" + did_you_mean(name_or_path, names));
    }
    if (exists && fs::is_directory(name_or_path, ec))
        throw input_error(name_or_path, 0, "cannot read platform file: it is a directory; built-in platforms: " +
                                               builtins);
    if (exists && fs::is_regular_file(name_or_path, ec) && fs::file_size(name_or_path, ec) > limits::max_platform_file_bytes)
        throw input_error(name_or_path, 0, fmt::format("platform file larger than {} bytes (docs/reliability.md)",
                                                       limits::max_platform_file_bytes));
    if (!exists)
        throw input_error(name_or_path, 0, "cannot open platform file: no such file; built-in platforms: " + builtins);
    return parse_platform(read_input_file(name_or_path, limits::max_platform_file_bytes, "platform file"), name_or_path);
}

} // namespace pmusim
