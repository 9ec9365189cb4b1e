// The platform loader's sections but `units:` (vp/platform_loader.h).
#include "vp/platform_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "models/limits.h"
#include "vp/yaml_nodes.h"

namespace pmusim {

std::string platform_loader::names_of_clocks() const {
    std::vector<std::string> v;
    for (const auto& c : p_.clocks) v.push_back(c.name);
    return v.empty() ? "none are defined" : "clocks are: " + join_names(v);
}

std::string platform_loader::names_of_cpus() const {
    std::vector<std::string> v;
    for (const auto& c : p_.cpus) v.push_back(c.name);
    return v.empty() ? "none are defined" : "CPUs are: " + join_names(v);
}

std::string platform_loader::clock_ref(const map_view& m, const map_entry& e) const {
    std::string s = scalar(m, e, "a clock name");
    if (!p_.find_clock(s))
        fail(m.line_for(e), key_path(m.path, e.key) + ": no clock named '" + s + "'; " + names_of_clocks());
    return s;
}

namespace {
bool is_platform_name(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-' || c == '.'))
            return false;
    return true;
}
} // namespace

platform_config platform_loader::load(std::string_view text) {
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        unsigned l = e.mark.is_null() ? 0 : unsigned(e.mark.line) + 1;
        fail(l, "malformed YAML: " + e.msg);
    }
    p_ = platform_config{};
    p_.file = file();
    static const std::vector<std::string> top_keys = {"name",     "description", "arch",   "clocks",
                                                      "cpus",     "firmware",    "units",  "memory",
                                                      "irq_lines", "latency"};
    map_view top = open_map(root, 1, "", "a map of platform keys (" + join_names(top_keys) + ")", top_keys);

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

void platform_loader::parse_clocks(const map_view& top) {
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
        claim_name(seen, c.name, m, n, path, "clock");
        c.frequency_hz = frequency(m, required(m, "frequency", "a frequency like 2GHz"));
        p_.clocks.push_back(c);
    }
}

void platform_loader::parse_cpus(const map_view& top) {
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
        map_view m = open_map(items[i], top.find("cpus")->key_line, path, "a CPU map {" + join_names(allowed) + "}",
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
        parse_features(m, m.find("features"), c);
        p_.cpus.push_back(c);
    }
}

// The keys under `cpus[N].features` are those the registered unit descriptors declare
// (registered_cpu_features()), checked in their declaration order.
void platform_loader::parse_features(const map_view& cpu, const map_entry* e, cpu_config& c) {
    const std::vector<cpu_feature_spec> features = registered_cpu_features();
    for (const auto& f : features) c.features[f.spec.name] = f.spec.default_value;
    if (!e || e->value.IsNull()) return;
    const std::string path = key_path(cpu.path, "features");
    std::vector<std::string> keys;
    for (const auto& f : features) keys.push_back(f.spec.name);
    map_view m = open_map(e->value, e->key_line, path, "a map of CPU features", keys);
    auto is_default = [&](const std::string& key) {
        for (const auto& f : features)
            if (f.spec.name == key) return c.features[key] == f.spec.default_value;
        return true;
    };
    for (const auto& f : features) {
        const map_entry* fe = m.find(f.spec.name);
        if (!fe) continue;
        c.features[f.spec.name] = param(m, *fe, f.spec);
        if (is_default(f.spec.name)) continue;
        if (!f.power_expected.empty() && p_.arch == arch_kind::power)
            expected(fe->value, fe->key_line, key_path(path, f.spec.name), f.power_expected);
        if (!f.needs.empty() && is_default(f.needs))
            fail(m.line_for(*fe), key_path(path, f.spec.name) + ": " + f.needs_message);
    }
}

void platform_loader::parse_firmware(const map_view& top) {
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

void platform_loader::parse_latency(const map_view& top) {
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

void platform_loader::parse_irq_lines(const map_view& top) {
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

void platform_loader::parse_memory(const map_view& top) {
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
        claim_name(seen, r.name, m, n, path, "memory region");
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

void platform_loader::claim_name(std::map<std::string, unsigned>& seen, const std::string& name, const map_view& m,
                                 const map_entry& n, const std::string& path, const char* what) const {
    if (auto it = seen.find(name); it != seen.end())
        fail(m.line_for(n), path + ".name: duplicate " + what + " name '" + name + "' (first defined at line " +
                                std::to_string(it->second) + ")");
    seen[name] = m.line;
}

void platform_loader::check_count(const map_entry* list, const std::string& path, size_t count, uint64_t limit,
                                  const char* what) const {
    if (list && count > limit)
        fail(list->key_line,
             fmt::format("{}: {} {}; expected at most {} (docs/reliability.md)", path, count, what, limit));
}

void platform_loader::check_overlaps() const {
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

} // namespace pmusim
