// Platform configuration: unit-type registry, YAML loader, listing.
// See tb/platform_config.h and docs/platform-config.md.
#include "tb/platform_config.h"

#include "models/limits.h"
#include "models/input_file.h"
#include "models/values.h"
#include "tb/unit_factory.h"
#include "tb/yaml_nodes.h"

#include <fmt/format.h>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <string_view>
#include <sstream>

#include "tb/builtin_platforms.h"
#include "models/data_files.h"

namespace pmusim {
namespace {

// Values are read with the one grammar of models/values.h (docs/values.md).
using values::format_duration;
using values::format_frequency;

std::string format_hex(uint64_t v) { return fmt::format("{:#x}", v); }
// Display form of an integer: decimal below 0x10000, hex from there (addresses).
std::string format_int(uint64_t v) { return v < 0x10000 ? std::to_string(v) : format_hex(v); }

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string s;
    for (const auto& x : v) {
        if (!s.empty()) s += sep;
        s += x;
    }
    return s;
}

bool is_identifier(std::string_view s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    return true;
}

bool is_platform_name(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-' || c == '.'))
            return false;
    return true;
}

std::string key_path(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
}

std::string index_path(const std::string& parent, size_t i) {
    return parent + "[" + std::to_string(i) + "]";
}

// "an integer in 1..31", "an integer >= 1", "an integer (decimal or 0x hex)"
std::string expected_integer(uint64_t min, uint64_t max) {
    if (min == 0 && max == UINT64_MAX) return "an integer (decimal or 0x hex)";
    if (max == UINT64_MAX) return "an integer >= " + std::to_string(min);
    return "an integer in " + std::to_string(min) + ".." + std::to_string(max);
}

std::string expected_frequency(uint64_t min, uint64_t max) {
    if (min <= 1 && max == UINT64_MAX) return "a frequency like 2GHz";
    if (max == UINT64_MAX) return "a frequency of at least " + format_frequency(min) + " like 2GHz";
    return "a frequency in " + format_frequency(min) + ".." + format_frequency(max) + " like 2GHz";
}

std::string expected_duration(uint64_t min, uint64_t max) {
    if (min == 0 && max == UINT64_MAX) return "a duration like 10ns";
    if (max == UINT64_MAX) return "a duration of at least " + format_duration(min) + " like 10ns";
    return "a duration in " + format_duration(min) + ".." + format_duration(max) + " like 10ns";
}

std::string expected_choice(const std::vector<std::string>& choices) {
    return "one of " + join(choices);
}

// Validates `text` against `spec`; returns the canonical text, or nullopt and
// sets `expected` to a phrase for "expected ..." messages.
std::optional<std::string> canonical_param(const param_spec& spec, const std::string& text,
                                           std::string& expected) {
    switch (spec.type) {
    case param_type::integer: {
        auto v = values::scan_integer(text);
        expected = expected_integer(spec.min, spec.max);
        if (!v || *v < spec.min || *v > spec.max) return std::nullopt;
        return std::to_string(*v);
    }
    case param_type::boolean: {
        auto v = values::scan_bool(text);
        expected = "true or false";
        if (!v) return std::nullopt;
        return std::string(*v ? "true" : "false");
    }
    case param_type::string:
        return text;
    case param_type::frequency: {
        auto v = values::scan_frequency(text);
        expected = expected_frequency(std::max<uint64_t>(spec.min, 1), spec.max);
        if (!v || *v == 0 || *v < spec.min || *v > spec.max) return std::nullopt;
        return std::to_string(*v);
    }
    case param_type::duration: {
        auto v = values::scan_duration(text);
        expected = expected_duration(spec.min, spec.max);
        if (!v || *v < spec.min || *v > spec.max) return std::nullopt;
        return std::to_string(*v);
    }
    case param_type::choice:
        expected = expected_choice(spec.choices);
        if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end())
            return std::nullopt;
        return text;
    }
    return std::nullopt;
}

// Display form of a canonical parameter value.
std::string display_param(const param_spec& spec, const std::string& canonical) {
    switch (spec.type) {
    case param_type::integer: return format_int(*values::scan_integer(canonical));
    case param_type::frequency: return format_frequency(*values::scan_integer(canonical));
    case param_type::duration: return format_duration(*values::scan_integer(canonical));
    case param_type::string: return canonical.empty() ? "\"\"" : canonical;
    default: return canonical;
    }
}

// ---------------------------------------------------------------------------
// Unit-type registry
// ---------------------------------------------------------------------------

struct registry {
    std::mutex mutex;
    std::map<std::string, unit_type_info> types;
};

unit_type_info make_unit_type(const std::string& type, std::vector<param_spec> params,
                              std::string description) {
    auto bad = [&](const std::string& what) {
        return model_error("register_unit_type(" + type + "): " + what);
    };
    if (!is_identifier(type)) throw bad("the type name must be an identifier");
    std::set<std::string> seen;
    for (auto& p : params) {
        if (!is_identifier(p.name)) throw bad("parameter name '" + p.name + "' is not an identifier");
        if (!seen.insert(p.name).second) throw bad("parameter '" + p.name + "' is declared twice");
        if (p.min > p.max) throw bad("parameter '" + p.name + "' has min > max");
        if (p.type == param_type::choice) {
            if (p.choices.empty()) throw bad("choice parameter '" + p.name + "' has no choices");
            std::set<std::string> cs(p.choices.begin(), p.choices.end());
            if (cs.size() != p.choices.size()) throw bad("parameter '" + p.name + "' repeats a choice");
        } else if (!p.choices.empty()) {
            throw bad("parameter '" + p.name + "' has choices but is not of type choice");
        }
        std::string expected;
        auto canon = canonical_param(p, p.default_value, expected);
        if (!canon)
            throw bad("default '" + p.default_value + "' of parameter '" + p.name + "' is not " + expected);
        p.default_value = *canon;
    }
    unit_type_info info;
    info.type = type;
    info.description = std::move(description);
    info.params = std::move(params);
    return info;
}

void install_builtin_unit_types(registry& r) {
    auto add = [&](const std::string& type, std::vector<param_spec> params, std::string desc) {
        r.types[type] = make_unit_type(type, std::move(params), std::move(desc));
    };
    using pt = param_type;
    add("dsu_clusterpmu",
        {
            {"variant", pt::choice, "dsu-110",
             "DSU generation: original DynamIQ Shared Unit, DSU-110 or DSU-120",
             {"original", "dsu-110", "dsu-120"}},
            {"counters", pt::integer, "6", "number of CLUSTERPMU event counters (CLUSTERPMCR_EL1.N)",
             {}, 1, 31},
        },
        "Arm DynamIQ Shared Unit cluster PMU (CLUSTERPMU); placeholder schema");
    add("cmn600",
        {
            {"mesh_x", pt::integer, "3", "mesh width (crosspoints in X)", {}, 1, 8},
            {"mesh_y", pt::integer, "3", "mesh height (crosspoints in Y)", {}, 1, 8},
            {"periphbase", pt::integer, "0", "PERIPHBASE: base address of the configuration space"},
            {"root_node_offset", pt::integer, "0",
             "offset of the root configuration node (ROOTNODEBASE) from periphbase"},
        },
        "Arm CoreLink CMN-600 coherent mesh network PMU (DTC/DTM); placeholder schema");
    add("power9_imc",
        {
            {"chips", pt::integer, "1", "number of POWER9 chips whose IMC counters are modelled", {},
             1, 16},
        },
        "IBM POWER9 In-Memory Collection counters (nest/core/thread IMC); placeholder schema");
}

registry& the_registry() {
    static registry* r = [] {
        auto* p = new registry; // never destroyed: usable from static destructors too
        install_builtin_unit_types(*p);
        return p;
    }();
    return *r;
}

// ---------------------------------------------------------------------------
// The YAML loader
// ---------------------------------------------------------------------------

struct map_entry {
    std::string key;
    unsigned key_line = 0;
    YAML::Node value;
};

struct map_view {
    std::string path; // "" for the top level
    unsigned line = 0;
    std::vector<map_entry> entries;

    const map_entry* find(const std::string& key) const {
        for (const auto& e : entries)
            if (e.key == key) return &e;
        return nullptr;
    }
    // Line of the value if present (else of the key, else of the map).
    unsigned line_for(const map_entry& e) const {
        unsigned l = e.value.IsNull() ? 0 : yaml_line(e.value);
        return l ? l : (e.key_line ? e.key_line : line);
    }
};

class loader {
public:
    explicit loader(std::string file) : file_(std::move(file)) {}

    platform_config load(std::string_view text);

private:
    std::string file_;
    platform_config p_;
    std::map<std::string, unsigned> unit_name_lines_;

    [[noreturn]] void fail(unsigned line, const std::string& msg) const {
        throw input_error(file_, line, msg);
    }
    [[noreturn]] void expected(const YAML::Node& n, unsigned fallback_line, const std::string& path,
                               const std::string& what) const {
        // A null value's mark points past it (often the next line): blame the key.
        unsigned l = (n.IsDefined() && !n.IsNull()) ? yaml_line(n) : 0;
        fail(l ? l : fallback_line, path + ": " + values::expected_found(what, {}, yaml_found(n)));
    }

    // Opens a map, rejecting non-map values, non-scalar and duplicate keys, and
    // keys not in `allowed`. `other` lists keys valid elsewhere (hint text).
    map_view open_map(const YAML::Node& n, unsigned fallback_line, const std::string& path,
                      const std::string& what, const std::vector<std::string>& allowed,
                      const std::map<std::string, std::string>& hints = {},
                      const std::string& unknown_noun = "key",
                      const std::string& allowed_label = "allowed keys") const {
        if (!n.IsMap()) expected(n, fallback_line, path.empty() ? "top level" : path, what);
        map_view v;
        v.path = path;
        v.line = yaml_line(n) ? yaml_line(n) : fallback_line;
        for (auto it = n.begin(); it != n.end(); ++it) {
            // A copy: yaml-cpp's iterator hands out a temporary pair, so a reference to its
            // `first` dangles at the end of this statement (found by ASan via fuzz_platform_yaml).
            const YAML::Node k = it->first;
            unsigned kl = yaml_line(k) ? yaml_line(k) : v.line;
            if (!k.IsScalar())
                fail(kl, (path.empty() ? "top level" : path) + ": expected a key name, found " + yaml_found(k));
            std::string key = k.Scalar();
            if (const map_entry* prev = v.find(key))
                fail(kl, key_path(path, key) + ": duplicate key (first at line " +
                             std::to_string(prev->key_line) + ")");
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::string where = path.empty() ? "unknown top-level " + unknown_noun
                                                 : path + ": unknown " + unknown_noun;
                std::string msg = where + " '" + key + "'; ";
                msg += allowed.empty() ? "there are none" : allowed_label + ": " + join(allowed);
                auto h = hints.find(key);
                if (h != hints.end()) msg += " (" + h->second + ")";
                fail(kl, msg);
            }
            v.entries.push_back({key, kl, it->second});
        }
        return v;
    }

    std::vector<YAML::Node> open_list(const map_entry* e, const map_view& parent, const std::string& what) const {
        std::vector<YAML::Node> items;
        if (!e || e->value.IsNull()) return items;
        const std::string path = key_path(parent.path, e->key);
        if (!e->value.IsSequence()) expected(e->value, e->key_line, path, what);
        for (auto it = e->value.begin(); it != e->value.end(); ++it) items.push_back(*it);
        return items;
    }

    const map_entry& required(const map_view& m, const std::string& key, const std::string& what) const {
        const map_entry* e = m.find(key);
        if (!e) fail(m.line, (m.path.empty() ? "top level" : m.path) + ": missing required key '" + key +
                                 "' (" + what + ")");
        return *e;
    }

    std::string scalar(const map_view& m, const map_entry& e, const std::string& what) const {
        if (!e.value.IsScalar()) expected(e.value, e.key_line, key_path(m.path, e.key), what);
        return e.value.Scalar();
    }

    std::string identifier(const map_view& m, const map_entry& e, const std::string& what) const {
        std::string s = scalar(m, e, what);
        if (!is_identifier(s)) expected(e.value, e.key_line, key_path(m.path, e.key), what);
        return s;
    }

    uint64_t integer(const map_view& m, const map_entry& e, uint64_t min, uint64_t max) const {
        const std::string what = expected_integer(min, max);
        std::string s = scalar(m, e, what);
        auto v = values::scan_integer(s);
        if (!v || *v < min || *v > max) expected(e.value, e.key_line, key_path(m.path, e.key), what);
        return *v;
    }

    uint64_t size(const map_view& m, const map_entry& e) const {
        const std::string what = "a size above 0 like 0x10000 or 16MiB";
        std::string s = scalar(m, e, what);
        auto v = values::scan_size(s);
        if (!v || *v == 0) expected(e.value, e.key_line, key_path(m.path, e.key), what);
        return *v;
    }

    uint64_t frequency(const map_view& m, const map_entry& e) const {
        std::string s = scalar(m, e, "a frequency like 2GHz");
        auto v = values::scan_frequency(s);
        if (!v) expected(e.value, e.key_line, key_path(m.path, e.key), "a frequency like 2GHz");
        if (*v == 0) expected(e.value, e.key_line, key_path(m.path, e.key), "a frequency above 0Hz like 2GHz");
        if (*v > limits::max_clock_hz)
            expected(e.value, e.key_line, key_path(m.path, e.key), "a frequency of at most 1000GHz (docs/reliability.md)");
        return *v;
    }

    uint64_t duration(const map_view& m, const map_entry& e) const {
        std::string s = scalar(m, e, "a duration like 10ns");
        auto v = values::scan_duration(s);
        if (!v) expected(e.value, e.key_line, key_path(m.path, e.key), "a duration like 10ns");
        return *v;
    }

    bool boolean(const map_view& m, const map_entry& e) const {
        std::string s = scalar(m, e, "true or false");
        auto v = values::scan_bool(s);
        if (!v) expected(e.value, e.key_line, key_path(m.path, e.key), "true or false");
        return *v;
    }

    size_t choice(const map_view& m, const map_entry& e, const std::vector<std::string>& choices) const {
        std::string s = scalar(m, e, expected_choice(choices));
        auto it = std::find(choices.begin(), choices.end(), s);
        if (it == choices.end()) expected(e.value, e.key_line, key_path(m.path, e.key), expected_choice(choices));
        return size_t(it - choices.begin());
    }

    std::string names_of_clocks() const {
        std::vector<std::string> v;
        for (const auto& c : p_.clocks) v.push_back(c.name);
        return v.empty() ? "none are defined" : "clocks are: " + join(v);
    }
    std::string names_of_cpus() const {
        std::vector<std::string> v;
        for (const auto& c : p_.cpus) v.push_back(c.name);
        return v.empty() ? "none are defined" : "CPUs are: " + join(v);
    }

    std::string clock_ref(const map_view& m, const map_entry& e) const {
        std::string s = scalar(m, e, "a clock name");
        if (!p_.find_clock(s))
            fail(m.line_for(e), key_path(m.path, e.key) + ": no clock named '" + s + "'; " + names_of_clocks());
        return s;
    }

    void parse_clocks(const map_view& top);
    void parse_cpus(const map_view& top);
    void parse_features(const map_view& cpu, const map_entry& e, cpu_config& c);
    void parse_firmware(const map_view& top);
    void parse_latency(const map_view& top);
    void parse_irq_lines(const map_view& top);
    void parse_units(const map_view& top);
    void parse_params(const map_view& unit, const map_entry* e, const unit_type_info& info, unit_config& u);
    void parse_memory(const map_view& top);
    void check_overlaps() const;
    // A list longer than `limit` (models/limits.h) is refused at its key's line.
    void check_count(const map_entry* list, const std::string& path, size_t count, uint64_t limit,
                     const char* what) const {
        if (list && count > limit)
            fail(list->key_line, fmt::format("{}: {} {}; expected at most {} (docs/reliability.md)", path, count, what,
                                             limit));
    }
};

platform_config loader::load(std::string_view text) {
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        unsigned l = e.mark.is_null() ? 0 : unsigned(e.mark.line) + 1;
        fail(l, "malformed YAML: " + e.msg);
    }
    p_ = platform_config{};
    p_.file = file_;
    static const std::vector<std::string> top_keys = {"name",     "description", "arch",   "clocks",
                                                      "cpus",     "firmware",    "units",  "memory",
                                                      "irq_lines", "latency"};
    map_view top = open_map(root, 1, "", "a map of platform keys (" + join(top_keys) + ")", top_keys);

    const map_entry& name = required(top, "name", "the platform's name");
    p_.name = scalar(top, name, "a platform name");
    if (!is_platform_name(p_.name))
        expected(name.value, name.key_line, "name", "a platform name (letters, digits, '_', '-', '.')");
    if (const map_entry* d = top.find("description")) p_.description = scalar(top, *d, "a text");
    const map_entry& arch = required(top, "arch", "arm or power");
    p_.arch = choice(top, arch, {"arm", "power"}) == 0 ? arch_kind::arm : arch_kind::power;

    parse_clocks(top);
    parse_cpus(top);
    parse_firmware(top);
    parse_latency(top);
    parse_irq_lines(top);
    parse_units(top);
    parse_memory(top);
    check_overlaps();
    // A set, not find_irq_line: 1024 CPUs may each list 4096 lines.
    std::set<std::string_view> lines;
    for (const auto& l : p_.irq_lines) lines.insert(l.name);
    for (const auto& c : p_.cpus)
        for (const auto& l : c.irq)
            if (!lines.count(l))
                fail(c.irq_line, "cpus[" + std::to_string(c.index) + "].irq: no interrupt line named '" + l +
                                     "' (a unit's irq or an irq_lines entry)");
    return std::move(p_);
}

void loader::parse_clocks(const map_view& top) {
    std::map<std::string, unsigned> seen;
    auto items = open_list(top.find("clocks"), top, "a list of clocks ({name, frequency})");
    check_count(top.find("clocks"), "clocks", items.size(), limits::max_clocks, "clocks");
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string path = index_path("clocks", i);
        map_view m = open_map(items[i], top.find("clocks")->key_line, path, "a clock map {name, frequency}",
                              {"name", "frequency"});
        clock_config c;
        c.line = m.line;
        const map_entry& n = required(m, "name", "the clock's name");
        c.name = identifier(m, n, "a clock name (letters, digits, '_', not starting with a digit)");
        if (auto it = seen.find(c.name); it != seen.end())
            fail(m.line_for(n), path + ".name: duplicate clock name '" + c.name + "' (first defined at line " +
                                    std::to_string(it->second) + ")");
        seen[c.name] = m.line;
        c.frequency_hz = frequency(m, required(m, "frequency", "a frequency like 2GHz"));
        p_.clocks.push_back(c);
    }
}

void loader::parse_cpus(const map_view& top) {
    const bool arm = p_.arch == arch_kind::arm;
    const std::vector<std::string> allowed = arm ? std::vector<std::string>{"name", "clock", "cluster", "features",
                                                                          "cycles_per_instruction", "irq"}
                                                 : std::vector<std::string>{"name",  "clock",   "chip",
                                                                            "core",  "threads", "features"};
    std::map<std::string, std::string> hints;
    if (arm) {
        for (const char* k : {"chip", "core", "threads"}) hints[k] = std::string(k) + " is only for arch power";
    } else {
        hints["cluster"] = "cluster is only for arch arm; POWER CPUs use chip and core";
    }
    struct core_use {
        unsigned threads;
        unsigned used;
        std::string first_cpu;
    };
    std::map<std::pair<unsigned, unsigned>, core_use> cores;

    auto items = open_list(top.find("cpus"), top, "a list of CPUs");
    if (items.size() > limits::max_cpus)
        fail(top.find("cpus")->key_line, fmt::format("cpus: {} CPUs; expected at most {} (docs/reliability.md)",
                                                     items.size(), limits::max_cpus));
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string path = index_path("cpus", i);
        map_view m = open_map(items[i], top.find("cpus")->key_line, path, "a CPU map {" + join(allowed) + "}",
                              allowed, hints);
        cpu_config c;
        c.line = m.line;
        c.index = unsigned(i);
        const std::string want = "cpu" + std::to_string(i);
        const map_entry& n = required(m, "name", "'" + want + "'");
        c.name = scalar(m, n, "'" + want + "'");
        if (c.name != want)
            expected(n.value, n.key_line, path + ".name",
                     "'" + want + "' (a CPU is named cpu followed by its index in the cpus list)");
        c.clock = clock_ref(m, required(m, "clock", "a clock name"));
        if (arm) {
            if (auto* e = m.find("cluster")) c.cluster = unsigned(integer(m, *e, 0, 0xFFFF));
            if (auto* e = m.find("cycles_per_instruction")) c.cycles_per_instruction = unsigned(integer(m, *e, 1, 1000));
            if (auto* e = m.find("irq")) {
                const std::string ipath = key_path(path, "irq");
                if (!e->value.IsSequence()) expected(e->value, e->key_line, ipath, "a list of interrupt line names like [dsu0_pmu_irq]");
                check_count(e, ipath, e->value.size(), limits::max_irq_lines, "interrupt lines");
                c.irq_line = e->key_line;
                for (const auto& item : e->value) {
                    if (!item.IsScalar()) expected(item, e->key_line, ipath, "an interrupt line name");
                    c.irq.push_back(item.Scalar());
                }
            }
        } else {
            if (auto* e = m.find("chip")) c.chip = unsigned(integer(m, *e, 0, 0xFF));
            c.core = unsigned(integer(m, required(m, "core", "the core number within the chip"), 0, 0xFF));
            const map_entry* te = m.find("threads");
            if (te) c.threads = unsigned(integer(m, *te, 1, 4));
            auto key = std::make_pair(c.chip, c.core);
            auto it = cores.find(key);
            if (it == cores.end()) {
                cores[key] = {c.threads, 1, c.name};
                c.thread = 0;
            } else {
                core_use& u = it->second;
                const std::string core_name =
                    "chip " + std::to_string(c.chip) + " core " + std::to_string(c.core);
                if (u.threads != c.threads) {
                    unsigned l = te ? m.line_for(*te) : m.line;
                    fail(l, path + ".threads: expected " + std::to_string(u.threads) +
                                " like the other threads of " + core_name + " (" + u.first_cpu + "), found '" +
                                std::to_string(c.threads) + "'" + (te ? "" : " (the default)"));
                }
                if (u.used >= u.threads)
                    fail(m.line, path + ": " + core_name + " already has its " + std::to_string(u.threads) +
                                     " thread(s) (threads: " + std::to_string(u.threads) + ")");
                c.thread = u.used++;
            }
        }
        if (auto* e = m.find("features")) parse_features(m, *e, c);
        p_.cpus.push_back(c);
    }
}

void loader::parse_features(const map_view& cpu, const map_entry& e, cpu_config& c) {
    const std::string path = key_path(cpu.path, "features");
    if (e.value.IsNull()) return;
    map_view m = open_map(e.value, e.key_line, path, "a map of CPU features",
                          {"amu", "amu_aux_counters", "amu_external_view", "fgt"});
    const map_entry* amu = m.find("amu");
    if (amu) {
        size_t v = choice(m, *amu, {"none", "v1", "v1p1"});
        c.features.amu = v == 0 ? amu_version::none : v == 1 ? amu_version::v1 : amu_version::v1p1;
        if (p_.arch == arch_kind::power && c.features.amu != amu_version::none)
            expected(amu->value, amu->key_line, path + ".amu", "none for arch power (the AMU is an Arm feature)");
    }
    const std::string needs_amu = " (amu is none; set amu: v1 or v1p1)";
    if (auto* a = m.find("amu_aux_counters")) {
        c.features.amu_aux_counters = unsigned(integer(m, *a, 0, 16));
        if (c.features.amu_aux_counters > 0 && c.features.amu == amu_version::none)
            fail(m.line_for(*a), path + ".amu_aux_counters: auxiliary AMU counters need an AMU" + needs_amu);
    }
    if (auto* x = m.find("amu_external_view")) {
        c.features.amu_external_view = boolean(m, *x);
        if (c.features.amu_external_view && c.features.amu == amu_version::none)
            fail(m.line_for(*x), path + ".amu_external_view: the external AMU view needs an AMU" + needs_amu);
    }
    if (auto* g = m.find("fgt")) {
        c.features.fgt = boolean(m, *g);
        if (c.features.fgt && p_.arch == arch_kind::power)
            expected(g->value, g->key_line, path + ".fgt", "false for arch power (FEAT_FGT is an Arm feature)");
    }
}

void loader::parse_firmware(const map_view& top) {
    const bool arm = p_.arch == arch_kind::arm;
    p_.firmware.profile = arm ? firmware_profile::tf_a : firmware_profile::opal;
    const map_entry* e = top.find("firmware");
    if (!e || e->value.IsNull()) return;
    map_view m = open_map(e->value, e->key_line, "firmware", "a firmware map {profile}", {"profile"});
    p_.firmware.line = m.line;
    if (const map_entry* pe = m.find("profile")) {
        p_.firmware.line = m.line_for(*pe);
        size_t v = choice(m, *pe, {"tf-a", "opal", "none"});
        p_.firmware.profile = v == 0 ? firmware_profile::tf_a : v == 1 ? firmware_profile::opal : firmware_profile::none;
        if (arm && p_.firmware.profile == firmware_profile::opal)
            expected(pe->value, pe->key_line, "firmware.profile", "tf-a or none for arch arm");
        if (!arm && p_.firmware.profile == firmware_profile::tf_a)
            expected(pe->value, pe->key_line, "firmware.profile", "opal or none for arch power");
    }
}

void loader::parse_latency(const map_view& top) {
    const map_entry* e = top.find("latency");
    if (!e || e->value.IsNull()) return;
    map_view m = open_map(e->value, e->key_line, "latency", "a latency map {register_access}", {"register_access"});
    p_.latency.line = m.line;
    if (const map_entry* r = m.find("register_access")) {
        p_.latency.line = m.line_for(*r);
        p_.latency.register_access_fs = duration(m, *r);
        // Every access advances time by it: 2^64-1 fs wrapped simulated time (a crash, or a run
        // that silently never happened).
        if (p_.latency.register_access_fs > limits::max_register_access_latency_fs)
            expected(r->value, r->key_line, "latency.register_access", "a duration of at most 1s (docs/reliability.md)");
    }
}

void loader::parse_irq_lines(const map_view& top) {
    const map_entry* e = top.find("irq_lines");
    auto items = open_list(e, top, "a list of interrupt line names");
    check_count(e, "irq_lines", items.size(), limits::max_irq_lines, "interrupt lines");
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string path = index_path("irq_lines", i);
        const std::string what = "an interrupt line name (letters, digits, '_', not starting with a digit)";
        if (!items[i].IsScalar() || !is_identifier(items[i].Scalar())) expected(items[i], e->key_line, path, what);
        irq_line_config l;
        l.name = items[i].Scalar();
        l.line = yaml_line(items[i]) ? yaml_line(items[i]) : e->key_line;
        if (const irq_line_config* prev = p_.find_irq_line(l.name))
            fail(l.line, path + ": duplicate interrupt line '" + l.name + "' (first at line " +
                             std::to_string(prev->line) + ")");
        p_.irq_lines.push_back(l);
    }
}

void loader::parse_units(const map_view& top) {
    const map_entry* list = top.find("units");
    auto items = open_list(list, top, "a list of units");
    check_count(list, "units", items.size(), limits::max_units, "units");
    const std::vector<std::string> allowed = {"name", "type", "base", "size", "clock", "cpus", "irq", "params"};
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string path = index_path("units", i);
        map_view m = open_map(items[i], list->key_line, path, "a unit map {" + join(allowed) + "}", allowed,
                              {{"cpu", "did you mean cpus?"}, {"parameters", "did you mean params?"}});
        unit_config u;
        u.file = file_;
        u.line = m.line;
        u.index = unsigned(i);
        for (const auto& e : m.entries) u.key_lines[e.key] = e.key_line;

        const map_entry& n = required(m, "name", "the unit's name");
        u.name = identifier(m, n, "a unit name (letters, digits, '_', not starting with a digit)");
        if (auto it = unit_name_lines_.find(u.name); it != unit_name_lines_.end())
            fail(m.line_for(n), path + ".name: duplicate unit name '" + u.name + "' (first defined at line " +
                                    std::to_string(it->second) + ")");
        unit_name_lines_[u.name] = m.line;

        const map_entry& t = required(m, "type", "a unit type: " + join(registered_unit_types()));
        u.type = scalar(m, t, "a unit type");
        std::optional<unit_type_info> info = find_unit_type(u.type);
        if (!info)
            fail(m.line_for(t), path + ".type: unknown unit type '" + u.type + "'; registered types: " +
                                    join(registered_unit_types()));

        const map_entry* be = m.find("base");
        const map_entry* se = m.find("size");
        if (be) u.base = integer(m, *be, 0, UINT64_MAX);
        if (se) u.size = size(m, *se);
        if (be && !se) fail(m.line_for(*be), path + ": 'base' needs 'size' too (the MMIO window)");
        if (se && !be) fail(m.line_for(*se), path + ": 'size' needs 'base' too (the MMIO window)");
        u.has_mmio = be && se;
        if (u.has_mmio && u.size - 1 > UINT64_MAX - u.base)
            fail(m.line_for(*se), path + ".size: the MMIO window " + format_hex(u.base) + " + " +
                                      format_hex(u.size) + " goes past the end of the 64-bit address space");

        if (const map_entry* c = m.find("clock")) u.clock = clock_ref(m, *c);

        if (const map_entry* c = m.find("cpus")) {
            const std::string cpath = key_path(path, "cpus");
            if (!c->value.IsSequence()) expected(c->value, c->key_line, cpath, "a list of CPU names like [cpu0, cpu1]");
            size_t j = 0;
            for (auto it = c->value.begin(); it != c->value.end(); ++it, ++j) {
                const YAML::Node& item = *it;
                const std::string ipath = index_path(cpath, j);
                if (!item.IsScalar()) expected(item, c->key_line, ipath, "a CPU name");
                const std::string name = item.Scalar();
                unsigned l = yaml_line(item) ? yaml_line(item) : c->key_line;
                if (!p_.find_cpu(name)) fail(l, ipath + ": no CPU named '" + name + "'; " + names_of_cpus());
                if (std::find(u.cpus.begin(), u.cpus.end(), name) != u.cpus.end())
                    fail(l, ipath + ": CPU '" + name + "' is listed twice");
                u.cpus.push_back(name);
            }
        }

        if (const map_entry* q = m.find("irq")) {
            u.irq = identifier(m, *q, "an interrupt line name (letters, digits, '_', not starting with a digit)");
            unsigned l = m.line_for(*q);
            auto it = std::find_if(p_.irq_lines.begin(), p_.irq_lines.end(),
                                   [&](const irq_line_config& x) { return x.name == u.irq; });
            if (it == p_.irq_lines.end()) {
                p_.irq_lines.push_back({u.irq, u.name, l});
            } else if (!it->driver.empty()) {
                fail(l, path + ".irq: interrupt line '" + u.irq + "' is already driven by unit '" + it->driver +
                            "'; each line has one driver");
            } else {
                it->driver = u.name;
            }
        }

        parse_params(m, m.find("params"), *info, u);
        p_.units.push_back(std::move(u));
    }
}

void loader::parse_params(const map_view& unit, const map_entry* e, const unit_type_info& info, unit_config& u) {
    const std::string path = key_path(unit.path, "params");
    if (e && !e->value.IsNull()) {
        std::vector<std::string> declared;
        for (const auto& s : info.params) declared.push_back(s.name);
        map_view m = open_map(e->value, e->key_line, path, "a map of parameters of unit type " + info.type, declared,
                              {}, "parameter", "parameters of unit type " + info.type);
        for (const auto& pe : m.entries) {
            const param_spec& spec = *info.find_param(pe.key);
            std::string expected_what;
            std::string text;
            if (pe.value.IsScalar()) {
                text = pe.value.Scalar();
            } else {
                canonical_param(spec, "", expected_what); // sets the phrase for every non-string type
                expected(pe.value, pe.key_line, key_path(path, pe.key),
                         spec.type == param_type::string ? "a text" : expected_what);
            }
            auto canon = canonical_param(spec, text, expected_what);
            if (!canon) expected(pe.value, pe.key_line, key_path(path, pe.key), expected_what);
            u.params[pe.key] = *canon;
            u.param_lines[pe.key] = m.line_for(pe);
        }
    }
    for (const auto& s : info.params)
        if (!u.params.count(s.name)) u.params[s.name] = s.default_value;
}

void loader::parse_memory(const map_view& top) {
    const map_entry* list = top.find("memory");
    auto items = open_list(list, top, "a list of memory regions");
    check_count(list, "memory", items.size(), limits::max_memory_regions, "memory regions");
    std::map<std::string, unsigned> seen;
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string path = index_path("memory", i);
        map_view m = open_map(items[i], list->key_line, path, "a memory region map {name, base, size, endianness}",
                              {"name", "base", "size", "endianness"});
        memory_region_config r;
        r.line = m.line;
        const map_entry& n = required(m, "name", "the region's name");
        r.name = identifier(m, n, "a region name (letters, digits, '_', not starting with a digit)");
        if (auto it = seen.find(r.name); it != seen.end())
            fail(m.line_for(n), path + ".name: duplicate memory region name '" + r.name +
                                    "' (first defined at line " + std::to_string(it->second) + ")");
        seen[r.name] = m.line;
        r.base = integer(m, required(m, "base", "an address"), 0, UINT64_MAX);
        const map_entry& se = required(m, "size", "a size like 16MiB");
        r.size = size(m, se);
        if (r.size - 1 > UINT64_MAX - r.base)
            fail(m.line_for(se), path + ".size: the region " + format_hex(r.base) + " + " + format_hex(r.size) +
                                     " goes past the end of the 64-bit address space");
        if (const map_entry* ee = m.find("endianness"))
            r.endianness = choice(m, *ee, {"little", "big"}) == 0 ? endianness::little : endianness::big;
        p_.memory.push_back(r);
    }
}

void loader::check_overlaps() const {
    struct window {
        std::string what; // "unit 'dsu0' MMIO window" / "memory region 'dram'"
        std::string path;
        uint64_t first, last;
        unsigned line;
    };
    std::vector<window> w;
    for (const auto& u : p_.units)
        if (u.has_mmio)
            w.push_back({"the MMIO window of unit '" + u.name + "'", "units[" + std::to_string(u.index) + "]", u.base,
                         u.base + (u.size - 1), u.key_line("base")});
    for (size_t i = 0; i < p_.memory.size(); ++i) {
        const auto& r = p_.memory[i];
        w.push_back({"memory region '" + r.name + "'", index_path("memory", i), r.base, r.base + (r.size - 1), r.line});
    }
    auto range = [](const window& x) { return "[" + format_hex(x.first) + ", " + format_hex(x.last) + "]"; };
    // Blame the later of the two in the file.
    std::vector<size_t> order(w.size());
    for (size_t i = 0; i < w.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return w[a].line < w[b].line; });
    for (size_t jj = 0; jj < order.size(); ++jj)
        for (size_t ii = 0; ii < jj; ++ii) {
            const window& a = w[order[ii]];
            const window& b = w[order[jj]];
            if (a.first <= b.last && b.first <= a.last)
                fail(b.line, b.path + ": " + b.what + " " + range(b) + " overlaps " + a.what + " " + range(a) +
                                 " (line " + std::to_string(a.line) + ")");
        }
}

} // namespace

std::string display_param_value(const param_spec& p, const std::string& canonical) {
    return display_param(p, canonical);
}

// ---------------------------------------------------------------------------
// Registry API
// ---------------------------------------------------------------------------

const param_spec* unit_type_info::find_param(const std::string& name) const {
    for (const auto& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

void register_unit_type(const std::string& type, std::vector<param_spec> params, std::string description) {
    unit_type_info info = make_unit_type(type, std::move(params), std::move(description));
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.types[type] = std::move(info);
}

void register_builtin_unit_types() {
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    install_builtin_unit_types(r);
}

std::optional<unit_type_info> find_unit_type(const std::string& type) {
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.types.find(type);
    if (it == r.types.end()) return std::nullopt;
    return it->second;
}

std::vector<std::string> registered_unit_types() {
    registry& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> v;
    for (const auto& [name, info] : r.types) v.push_back(name);
    return v;
}

const char* param_type_name(param_type t) {
    switch (t) {
    case param_type::integer: return "integer";
    case param_type::boolean: return "boolean";
    case param_type::string: return "string";
    case param_type::frequency: return "frequency";
    case param_type::duration: return "duration";
    case param_type::choice: return "choice";
    }
    return "?";
}

std::string describe_param_type(const param_spec& p) {
    switch (p.type) {
    case param_type::integer:
        if (p.min == 0 && p.max == UINT64_MAX) return "integer";
        if (p.max == UINT64_MAX) return "integer >= " + std::to_string(p.min);
        return "integer " + std::to_string(p.min) + ".." + std::to_string(p.max);
    case param_type::frequency:
        if (p.min <= 1 && p.max == UINT64_MAX) return "frequency";
        if (p.max == UINT64_MAX) return "frequency >= " + format_frequency(p.min);
        return "frequency " + format_frequency(std::max<uint64_t>(p.min, 1)) + ".." + format_frequency(p.max);
    case param_type::duration:
        if (p.min == 0 && p.max == UINT64_MAX) return "duration";
        if (p.max == UINT64_MAX) return "duration >= " + format_duration(p.min);
        return "duration " + format_duration(p.min) + ".." + format_duration(p.max);
    case param_type::choice: return "choice " + join(p.choices, "|");
    default: return param_type_name(p.type);
    }
}

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

const char* to_string(arch_kind a) { return a == arch_kind::arm ? "arm" : "power"; }
const char* to_string(amu_version v) {
    return v == amu_version::none ? "none" : v == amu_version::v1 ? "v1" : "v1p1";
}
const char* to_string(firmware_profile f) {
    return f == firmware_profile::tf_a ? "tf-a" : f == firmware_profile::opal ? "opal" : "none";
}
const char* to_string(endianness e) { return e == endianness::little ? "little" : "big"; }

// ---------------------------------------------------------------------------
// unit_config
// ---------------------------------------------------------------------------

std::string unit_config::param(const std::string& name) const {
    auto it = params.find(name);
    if (it != params.end()) return it->second;
    // A platform parsed before its unit type's schema was registered (register_all_units()) lacks
    // the parameters the schema added: they take the registered default.
    if (auto info = find_unit_type(type))
        if (const param_spec* spec = info->find_param(name)) return spec->default_value;
    throw model_error("unit '" + this->name + "' (type " + type + ") has no parameter '" + name + "'");
}

uint64_t unit_config::param_int(const std::string& name) const {
    const std::string v = param(name);
    auto n = values::scan_integer(v);
    if (!n) throw model_error("parameter '" + name + "' of unit '" + this->name + "' is not an integer: " + v);
    return *n;
}

bool unit_config::param_bool(const std::string& name) const {
    const std::string v = param(name);
    if (auto b = values::scan_bool(v)) return *b;
    throw model_error("parameter '" + name + "' of unit '" + this->name + "' is not a boolean: " + v);
}

std::string unit_config::param_string(const std::string& name) const { return param(name); }

uint64_t unit_config::param_frequency_hz(const std::string& name) const { return param_int(name); }
uint64_t unit_config::param_duration_fs(const std::string& name) const { return param_int(name); }

unsigned unit_config::param_line(const std::string& name) const {
    auto it = param_lines.find(name);
    if (it != param_lines.end()) return it->second;
    auto k = key_lines.find("params");
    return k != key_lines.end() ? k->second : line;
}

unsigned unit_config::key_line(const std::string& key) const {
    auto it = key_lines.find(key);
    return it != key_lines.end() ? it->second : line;
}

input_error unit_config::param_error(const std::string& name, const std::string& message) const {
    return input_error(file, param_line(name),
                       "units[" + std::to_string(index) + "].params." + name + ": " + message);
}

input_error unit_config::key_error(const std::string& key, const std::string& message) const {
    return input_error(file, key_line(key), "units[" + std::to_string(index) + "]." + key + ": " + message);
}

input_error unit_config::error(const std::string& message) const {
    return input_error(file, line, "units[" + std::to_string(index) + "] (" + name + "): " + message);
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
    register_all_units(); // the units' own parameter schemas replace the placeholders first
    if (yaml_text.size() > limits::max_platform_file_bytes)
        throw input_error(file, 0, fmt::format("platform file of {} bytes; expected at most {} (docs/reliability.md)",
                                               yaml_text.size(), limits::max_platform_file_bytes));
    return loader(file).load(yaml_text);
}

std::string platform_config::resolve_path(const std::string& written) const {
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
    if (!exists && !looks_like_path)
        throw input_error("", 0, "unknown platform '" + name_or_path + "'; expected a built-in platform (" +
                                     builtins + ") or the path of a YAML file");
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

// ---------------------------------------------------------------------------
// Listing
// ---------------------------------------------------------------------------

std::vector<param_listing> collect_params(const platform_config& p) {
    std::vector<param_listing> out;
    auto add = [&](std::string path, std::string type, std::string value, std::string def, std::string meaning) {
        out.push_back({std::move(path), std::move(type), std::move(value), std::move(def), std::move(meaning)});
    };
    const std::string required = "(required)";
    for (const auto& c : p.clocks)
        add("clocks." + c.name + ".frequency", "frequency", format_frequency(c.frequency_hz), required,
            "frequency of clock domain " + c.name);
    const bool arm = p.arch == arch_kind::arm;
    for (const auto& c : p.cpus) {
        const std::string b = "cpus." + c.name + ".";
        add(b + "clock", "clock name", c.clock, required, "clock domain of " + c.name);
        if (arm) {
            add(b + "cluster", "integer 0..65535", std::to_string(c.cluster), "0", "cluster (DSU) of " + c.name);
            add(b + "cycles_per_instruction", "integer 1..1000", std::to_string(c.cycles_per_instruction), "1",
                "CPU cycles per instruction under the ISS (docs/firmware.md)");
            std::string lines;
            for (const auto& l : c.irq) lines += (lines.empty() ? "" : ",") + l;
            add(b + "irq", "list of interrupt lines", "[" + lines + "]", "[]", "lines ORed into the CPU's IRQ input (ISS)");
        } else {
            add(b + "chip", "integer 0..255", std::to_string(c.chip), "0", "chip of hardware thread " + c.name);
            add(b + "core", "integer 0..255", std::to_string(c.core), required, "core within the chip");
            add(b + "threads", "integer 1..4", std::to_string(c.threads), "4",
                "SMT width of the core (thread " + std::to_string(c.thread) + " of it)");
        }
        if (!arm) continue; // the AMU is an Arm feature; POWER CPUs always have none
        add(b + "features.amu", "choice none|v1|v1p1", to_string(c.features.amu), "none",
            "Activity Monitors extension version");
        add(b + "features.amu_aux_counters", "integer 0..16", std::to_string(c.features.amu_aux_counters), "0",
            "auxiliary AMU counters (group 1)");
        add(b + "features.amu_external_view", "boolean", c.features.amu_external_view ? "true" : "false", "false",
            "memory-mapped (external) view of the AMU");
        add(b + "features.fgt", "boolean", c.features.fgt ? "true" : "false", "false",
            "FEAT_FGT fine-grained traps (with an AMU: HAFGRTR_EL2)");
    }
    add("firmware.profile", arm ? "choice tf-a|none" : "choice opal|none", to_string(p.firmware.profile),
        arm ? "tf-a" : "opal", "firmware that enables the counters at boot; none leaves them disabled");
    add("latency.register_access", "duration", format_duration(p.latency.register_access_fs), "0ns",
        "extra delay of every PMU register access");
    for (const auto& r : p.memory) {
        const std::string b = "memory." + r.name + ".";
        add(b + "base", "integer", format_hex(r.base), required, "base address of memory region " + r.name);
        add(b + "size", "size", format_int(r.size), required, "size of memory region " + r.name);
        add(b + "endianness", "choice little|big", to_string(r.endianness), "little",
            "byte order of memory region " + r.name);
    }
    for (const auto& u : p.units) {
        std::optional<unit_type_info> info = find_unit_type(u.type);
        if (!info) continue; // unregistered after loading; nothing to describe
        for (const auto& s : info->params) {
            auto it = u.params.find(s.name);
            std::string value = it == u.params.end() ? s.default_value : it->second;
            add("units." + u.name + ".params." + s.name, describe_param_type(s), display_param(s, value),
                display_param(s, s.default_value), s.meaning);
        }
    }
    return out;
}

namespace {
std::vector<std::string> format_table(const std::vector<std::vector<std::string>>& rows) {
    std::vector<size_t> width;
    for (const auto& r : rows)
        for (size_t i = 0; i + 1 < r.size(); ++i) {
            if (width.size() <= i) width.resize(i + 1, 0);
            width[i] = std::max(width[i], r[i].size());
        }
    std::vector<std::string> lines;
    for (const auto& r : rows) {
        std::string l;
        for (size_t i = 0; i < r.size(); ++i) {
            l += r[i];
            if (i + 1 < r.size()) l += std::string(width[i] - r[i].size() + 2, ' ');
        }
        while (!l.empty() && l.back() == ' ') l.pop_back();
        lines.push_back(l);
    }
    return lines;
}
} // namespace

namespace {
// A multi-line value (a CMN `nodes` layout) would break the table: its row shows how many lines it
// has, and the lines follow the row, indented, exactly as they are in the platform.
std::vector<std::string> split_value_lines(const std::string& value) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= value.size()) {
        size_t end = value.find('\n', start);
        if (end == std::string::npos) end = value.size();
        std::string line = value.substr(start, end - start);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
        if (!line.empty()) out.push_back(line);
        start = end + 1;
    }
    return out;
}

std::string table_cell(const std::string& value) {
    if (value.find('\n') == std::string::npos) return value;
    return fmt::format("({} lines, below)", split_value_lines(value).size());
}
} // namespace

std::vector<std::string> list_params(const platform_config& p) {
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"PARAMETER", "VALUE", "TYPE", "DEFAULT", "MEANING"});
    std::vector<param_listing> params = collect_params(p);
    for (const auto& x : params)
        rows.push_back({x.path, table_cell(x.value), x.type, table_cell(x.default_value), x.meaning});
    std::vector<std::string> table = format_table(rows);
    std::vector<std::string> lines;
    lines.push_back("# platform " + p.name + " (arch " + to_string(p.arch) + ") from " + p.file);
    lines.push_back(std::move(table[0]));
    for (size_t i = 0; i < params.size(); ++i) {
        lines.push_back(std::move(table[i + 1]));
        if (params[i].value.find('\n') != std::string::npos)
            for (const auto& l : split_value_lines(params[i].value)) lines.push_back("    " + l);
    }
    return lines;
}

std::vector<std::string> list_unit_types() {
    std::vector<std::string> lines;
    for (const auto& t : registered_unit_types()) {
        std::optional<unit_type_info> info = find_unit_type(t);
        if (!info) continue;
        lines.push_back(t + ": " + info->description);
        std::vector<std::vector<std::string>> rows;
        for (const auto& s : info->params)
            rows.push_back({"  " + s.name, describe_param_type(s), "default " + display_param(s, s.default_value),
                            s.meaning});
        for (auto& l : format_table(rows)) lines.push_back(std::move(l));
    }
    return lines;
}

} // namespace pmusim
