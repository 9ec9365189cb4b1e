// pmusim --list-params and the unit-type listing (vp/platform_listing.h).
#include "vp/platform_listing.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/values.h"

namespace pmusim {

namespace {
using values::format_duration;
using values::format_frequency;

std::string format_hex(uint64_t v) { return fmt::format("{:#x}", v); }
// Display form of an integer: decimal below 0x10000, hex from there (addresses).
std::string format_int(uint64_t v) { return v < 0x10000 ? std::to_string(v) : format_hex(v); }
} // namespace

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
    const std::vector<cpu_feature_spec> features = registered_cpu_features();
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
        // The keys the unit descriptors add under features:, in registration order.
        for (const auto& f : features) {
            if (f.arm_only && !arm) continue;
            auto it = c.features.find(f.spec.name);
            const std::string value = it == c.features.end() ? f.spec.default_value : it->second;
            add(b + "features." + f.spec.name, describe_param_type(f.spec), display_param_value(f.spec, value),
                display_param_value(f.spec, f.spec.default_value), f.spec.meaning);
        }
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
        std::optional<unit_descriptor> info = find_unit_type(u.type);
        if (!info) continue; // unregistered after loading; nothing to describe
        for (const auto& s : info->params) {
            auto it = u.params.find(s.name);
            std::string value = it == u.params.end() ? s.default_value : it->second;
            add("units." + u.name + ".params." + s.name, describe_param_type(s), display_param_value(s, value),
                display_param_value(s, s.default_value), s.meaning);
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
        std::optional<unit_descriptor> info = find_unit_type(t);
        if (!info) continue;
        lines.push_back(t + ": " + info->description);
        std::vector<std::vector<std::string>> rows;
        for (const auto& s : info->params)
            rows.push_back({"  " + s.name, describe_param_type(s), "default " + display_param_value(s, s.default_value),
                            s.meaning});
        for (auto& l : format_table(rows)) lines.push_back(std::move(l));
        // Its verbs in the sequence language (`UNIT VERB ARGS`) and its pmusim subcommands.
        for (const auto& c : info->commands) {
            lines.push_back("  command: UNIT " + c.verb + " " + c.usage);
            lines.push_back("           " + c.summary);
        }
        for (const auto& tool : info->tools) {
            lines.push_back("  tool: pmusim " + tool.name + " [--platform P] [--unit U] ... (pmusim " + tool.name +
                            " --help)");
            lines.push_back("        " + tool.summary);
        }
    }
    return lines;
}

} // namespace pmusim
