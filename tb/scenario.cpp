// Scenario loader (tb/scenario.h, docs/whatif.md).
#include "tb/scenario.h"

// GCC 12 reports a false -Wdangling-pointer inside yaml-cpp 0.7's inline node code (as in platform_config.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

#include "models/input_file.h"
#include "models/limits.h"
#include "models/values.h"
#include "cspmu/arm_cspmu.h"
#include "dsu_clusterpmu/dsu_clusterpmu.h"
#include "vp/builtin_platforms.h"
#include "tb/perf_stat.h"
#include "vp/yaml_nodes.h"

namespace pmusim {

void parse_event_stream(std::string_view text, const std::string& path, unsigned file_index, fs_t duration,
                        std::vector<replayed_event>& out) {
    // Lines are views into `text`: the loader holds the file once, plus the events it keeps
    // (docs/reliability.md, "Limits").
    unsigned n = 0;
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string_view l(text.data() + start, end - start);
        start = end + 1;
        ++n;
        if (l.find_first_not_of(" \t\r") == std::string::npos) continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(l);
        } catch (const nlohmann::json::exception& e) { // also out_of_range: a number like 1e400
            throw input_error(path, n, std::string("expected a JSON object per line: ") + e.what());
        }
        auto bad = [&](const std::string& m) { throw input_error(path, n, m); };
        if (!j.is_object()) bad("expected a JSON object like {\"time\": \"1ms\", \"unit\": \"dsu0\", \"event\": \"l3d_cache\", \"count\": 100}");
        static const std::set<std::string> keys = {"time", "time_fs", "unit", "node", "event", "count", "over"};
        for (auto it = j.begin(); it != j.end(); ++it)
            if (!keys.count(it.key())) bad("unknown key '" + it.key() + "'; allowed keys: time, time_fs, unit, node, event, count, over");
        replayed_event e;
        e.file = file_index;
        e.line = n;
        if (j.contains("time_fs")) {
            if (!j["time_fs"].is_number_unsigned()) bad("time_fs: expected an unsigned integer (femtoseconds)");
            e.at = j["time_fs"].get<uint64_t>();
        } else if (j.contains("time")) {
            if (!j["time"].is_string()) bad("time: expected a duration string like \"1.5ms\"");
            e.at = values::parse_duration_fs(j["time"].get<std::string>(), path, n, "for 'time'");
        } else {
            bad("missing 'time' (a duration like \"1.5ms\") or 'time_fs'");
        }
        for (const char* k : {"unit", "event"}) {
            if (!j.contains(k) || !j[k].is_string()) bad(std::string("missing '") + k + "' (a string)");
        }
        e.unit = j["unit"].get<std::string>();
        e.event = j["event"].get<std::string>();
        if (j.contains("node")) {
            if (!j["node"].is_string()) bad("node: expected a string");
            e.node = j["node"].get<std::string>();
        }
        if (!j.contains("count") || !j["count"].is_number_unsigned()) bad("count: expected an unsigned integer");
        e.count = j["count"].get<uint64_t>();
        if (j.contains("over")) {
            if (!j["over"].is_string()) bad("over: expected a duration string like \"10us\"");
            e.over = values::parse_duration_fs(j["over"].get<std::string>(), path, n, "for 'over'");
        }
        if (e.at > duration) bad("time " + format_time(e.at) + " is after the scenario's end (" + format_time(duration) + ")");
        out.push_back(std::move(e));
    }
}

namespace {

std::string read_text(const std::string& path, const std::string& from_file, unsigned from_line,
                      const std::string& what, uint64_t max_bytes) {
    return read_input_file(path, max_bytes, what, from_file, from_line);
}

// A path written in the scenario, relative to the scenario's folder.
std::string relative_to(const std::string& scenario_file, const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty() || fs::path(path).is_absolute()) return path;
    return (fs::path(scenario_file).parent_path() / path).lexically_normal().string();
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
}

// ${NAME} substitution over the raw text: lines do not move.
std::string substitute(const std::string& text, const std::map<std::string, std::string>& values,
                       const std::string& file) {
    std::string out;
    unsigned line = 1;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') ++line;
        if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
            size_t end = text.find('}', i + 2);
            if (end == std::string::npos || text.find('\n', i) < end)
                throw input_error(file, line, "expected ${NAME} with a closing '}'");
            std::string name = text.substr(i + 2, end - i - 2);
            auto it = values.find(name);
            if (it == values.end()) {
                std::vector<std::string> known;
                for (const auto& [k, _] : values) known.push_back(k);
                throw input_error(file, line, "${" + name + "}: unknown parameter; declared in params: " +
                                                  (known.empty() ? std::string("none") : join(known)));
            }
            // Bounded like the file: a short value used many times (or a long one) could expand a
            // file under the limit to gigabytes before yaml-cpp saw it (docs/reliability.md "Limits").
            if (out.size() + it->second.size() > limits::max_scenario_file_bytes)
                throw input_error(file, line, "${" + name + "}: the text after substitution exceeds " +
                                                  std::to_string(limits::max_scenario_file_bytes) +
                                                  " bytes, the limit for a scenario file; expected shorter parameter "
                                                  "values or fewer uses");
            out += it->second;
            i = end;
            continue;
        }
        out += text[i];
    }
    return out;
}

class scenario_loader {
public:
    scenario_loader(std::string file, std::string text) : file_(std::move(file)), text_(std::move(text)) {}
    scenario load(const std::map<std::string, std::string>& param_values);

private:
    std::string file_;
    std::string text_;
    scenario s_;
    std::vector<std::pair<std::string, std::string>> command_line_overrides_; // --set set.PATH=VALUE

    [[noreturn]] void fail(unsigned line, const std::string& msg) const { throw input_error(file_, line, msg); }
    [[noreturn]] void expected(const YAML::Node& n, unsigned fallback, const std::string& path,
                               const std::string& what) const {
        unsigned l = (n.IsDefined() && !n.IsNull()) ? yaml_line(n) : 0;
        fail(l ? l : fallback, path + ": " + values::expected_found(what, {}, yaml_found(n)));
    }
    // Keys of a map, checked against `allowed` (unknown or repeated keys are errors).
    std::map<std::string, YAML::Node> open_map(const YAML::Node& n, unsigned fallback, const std::string& path,
                                               const std::vector<std::string>& allowed) const {
        if (!n.IsMap()) expected(n, fallback, path.empty() ? "top level" : path, "a map");
        std::map<std::string, YAML::Node> out;
        for (auto it = n.begin(); it != n.end(); ++it) {
            unsigned kl = yaml_line(it->first);
            if (!it->first.IsScalar()) fail(kl, path + ": expected a key name, found " + yaml_found(it->first));
            std::string key = it->first.Scalar();
            std::string where = path.empty() ? key : path + "." + key;
            if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), key) == allowed.end())
                fail(kl, (path.empty() ? "unknown top-level key '" : path + ": unknown key '") + key +
                             "'; allowed keys: " + join(allowed));
            if (out.count(key)) fail(kl, where + ": duplicate key");
            out[key] = it->second;
        }
        return out;
    }
    std::string scalar(const YAML::Node& n, unsigned fallback, const std::string& path, const std::string& what) const {
        if (!n.IsScalar()) expected(n, fallback, path, what);
        return n.Scalar();
    }
    fs_t duration(const YAML::Node& n, unsigned fallback, const std::string& path) const {
        const auto v = values::scan_duration(scalar(n, fallback, path, "a duration like 10ms"));
        if (!v) expected(n, fallback, path, "a duration like 10ms");
        return v.value;
    }
    uint64_t number(const YAML::Node& n, unsigned fallback, const std::string& path) const {
        const auto v = values::scan_integer(scalar(n, fallback, path, "a number"));
        if (!v) expected(n, fallback, path, "a number (decimal or 0x hex)");
        return v.value;
    }
    unsigned cpu_index(const YAML::Node& n, unsigned fallback, const std::string& path) const {
        std::string t = scalar(n, fallback, path, "a CPU name like cpu0");
        const cpu_config* c = s_.platform.find_cpu(t);
        if (!c) {
            std::vector<std::string> names;
            for (const auto& cpu : s_.platform.cpus) names.push_back(cpu.name);
            fail(yaml_line(n), path + ": expected a CPU of platform " + s_.platform.name + " (" + join(names) +
                                 "), found '" + t + "'");
        }
        return c->index;
    }
    const YAML::Node* get(const std::map<std::string, YAML::Node>& m, const std::string& k) const {
        auto it = m.find(k);
        return it == m.end() ? nullptr : &it->second;
    }
    const YAML::Node& need(const std::map<std::string, YAML::Node>& m, const std::string& k, unsigned line,
                           const std::string& path) const {
        auto it = m.find(k);
        if (it == m.end()) fail(line, path + ": missing required key '" + k + "'");
        return it->second;
    }
    template <class F> void each(const YAML::Node& list, unsigned fallback, const std::string& path, F f) {
        if (!list.IsSequence()) expected(list, fallback, path, "a list");
        for (size_t i = 0; i < list.size(); ++i) f(list[i], path + "[" + std::to_string(i) + "]");
    }

    void load_platform_part(const std::map<std::string, YAML::Node>& top, unsigned top_line);
    std::vector<seq::statement> sequence_body(const YAML::Node& n, bool is_file, const std::string& path);
    void load_events_file(const std::string& path, unsigned line);
    void load_measured(const YAML::Node& entry, unsigned top_line, const std::string& path);
    // link: { dsu, cmn, requester, l3_miss_ratio, range, mix, seed } (tb/system_link.h)
    void load_link(const YAML::Node& entry, unsigned top_line, const std::string& p) {
        auto m = open_map(entry, top_line, p, {"dsu", "cmn", "requester", "l3_miss_ratio", "writeback_ratio", "mesh",
                                               "port_rate", "slc_miss_ratio", "range", "mix", "seed"});
        scenario_link x;
        x.line = yaml_line(entry);
        auto unit_of_type = [&](const char* key, const char* type, const char* what) {
            const YAML::Node& n = need(m, key, x.line, p);
            const std::string name = scalar(n, x.line, p + "." + key, what);
            const unit_config* uc = s_.platform.find_unit(name);
            if (!uc || uc->type != type)
                fail(yaml_line(n), fmt::format("{}.{}: expected a {} instance of platform {}, found '{}'", p, key, type,
                                               s_.platform.name, name));
            return name;
        };
        x.dsu = unit_of_type("dsu", "dsu_clusterpmu", "a DSU instance like dsu0");
        x.cmn = unit_of_type("cmn", "cmn600", "a CMN-600 instance like cmn0");
        if (s_.platform.find_unit(x.dsu)->cpus.empty()) fail(x.line, p + ".dsu: the DSU has no CPUs");
        x.requester = scalar(need(m, "requester", x.line, p), x.line, p + ".requester", "a CMN port like \"1,0 p0\"");
        auto ratio = [&](const char* key, rational& out, bool at_most_one, const char* what) {
            if (!get(m, key)) return;
            const std::string v = scalar(m[key], x.line, p + "." + key, what);
            out = values::parse_rational(v, file_, yaml_line(m[key]), "for '" + p + "." + key + "'");
            if (at_most_one && out.num > out.den)
                fail(yaml_line(m[key]), p + "." + key + ": expected a ratio from 0 to 1, found '" + v + "'");
            if (!at_most_one && (out.is_zero() || out.num > out.den))
                fail(yaml_line(m[key]), p + "." + key + ": expected requests per mesh cycle above 0, at most 1, found '" +
                                            v + "'");
        };
        ratio("l3_miss_ratio", x.miss_ratio, true, "a ratio like 1/10");
        ratio("writeback_ratio", x.writeback_ratio, true, "write-backs per refill like 1/4");
        ratio("slc_miss_ratio", x.slc_miss_ratio, true, "a ratio like 1/2");
        ratio("port_rate", x.port_rate, false, "requests per mesh cycle like 1/4");
        if (get(m, "mesh")) {
            const std::string v = scalar(m["mesh"], x.line, p + ".mesh", "flows or traffic");
            if (v != "flows" && v != "traffic")
                fail(yaml_line(m["mesh"]), p + ".mesh: expected flows or traffic, found '" + v + "'");
            x.flows = v == "flows";
        }
        if (get(m, "range")) x.range = scalar(m["range"], x.line, p + ".range", "an address range LO-HI");
        if (get(m, "mix")) x.mix = scalar(m["mix"], x.line, p + ".mix", "CHI requests like ReadShared");
        if (get(m, "seed")) x.seed = number(m["seed"], x.line, p + ".seed");
        s_.links.push_back(std::move(x));
    }
    template <class CheckAt>
    void load_multiplex(const YAML::Node& entry, unsigned top_line, const std::string& p, CheckAt check_at) {
        auto m = open_map(entry, top_line, p, {"unit", "events", "cpu", "at", "interval"});
        scenario_multiplex x;
        x.line = yaml_line(entry);
        const YAML::Node& u = need(m, "unit", x.line, p);
        x.unit = scalar(u, x.line, p + ".unit", "a unit instance like dsu0");
        const unit_config* uc = s_.platform.find_unit(x.unit);
        const bool dsu = uc && uc->type == "dsu_clusterpmu", cspmu = uc && uc->type == "arm_cspmu";
        if (!dsu && !cspmu)
            fail(yaml_line(u), p + ".unit: expected a DSU CLUSTERPMU (dsu_clusterpmu) or CoreSight PMU (arm_cspmu) "
                                   "instance of platform " + s_.platform.name + ", found '" + x.unit + "'" +
                                   (uc ? " (a " + uc->type + "; multiplexing is implemented for the DSU and the CoreSight PMU)" : ""));
        if (get(m, "cpu")) x.cpu = cpu_index(m["cpu"], x.line, p + ".cpu");
        else if (!uc->cpus.empty()) x.cpu = s_.platform.find_cpu(uc->cpus.front())->index;
        x.at = get(m, "at") ? check_at(m["at"], x.line, p + ".at") : 0;
        x.interval = get(m, "interval") ? duration(m["interval"], x.line, p + ".interval") : 4'000'000'000'000ull;
        if (!x.interval) fail(yaml_line(m["interval"]), p + ".interval: expected a duration above 0");
        const uint64_t runs = (s_.duration - x.at) / x.interval + 1;
        if (runs > limits::max_scenario_sequence_runs)
            fail(x.line, fmt::format("{}.interval: {} from {} to the end ({}) is {} rotations, more than {}: expected a "
                                     "longer interval", p, format_time(x.interval), format_time(x.at),
                                     format_time(s_.duration), runs, limits::max_scenario_sequence_runs));
        const char* kind = dsu ? "DSU" : "CoreSight PMU";
        const YAML::Node& ev = need(m, "events", x.line, p);
        if (!ev.IsSequence() || ev.size() == 0)
            expected(ev, x.line, p + ".events", fmt::format("a list of {} event names or codes", kind));
        for (size_t i = 0; i < ev.size(); ++i) {
            const std::string where = fmt::format("{}.events[{}]", p, i);
            const std::string t = scalar(ev[i], x.line, where, dsu ? "a DSU event name or code like l3d_cache or 0x2b"
                                                                   : "a CoreSight PMU event name or code like inst_retired or 0x3");
            std::string name, names;
            int code = -1;
            if (dsu) {
                code = dsu_event_code(t);
                for (const auto& d : dsu_events()) {
                    names += (names.empty() ? "" : ", ") + std::string(d.perf_name);
                    if (code >= 0 && d.code == unsigned(code)) name = d.perf_name;
                }
            } else {
                code = cspmu_event_code(t);
                for (const auto& d : cspmu_events()) {
                    names += (names.empty() ? "" : ", ") + std::string(d.name);
                    if (code >= 0 && d.code == unsigned(code)) name = d.name;
                }
            }
            if (name.empty()) fail(yaml_line(ev[i]), fmt::format("{}: expected a {} event ({}), found '{}'", where, kind, names, t));
            for (const auto& [n, c] : x.events)
                if (c == unsigned(code)) fail(yaml_line(ev[i]), where + ": event '" + t + "' is listed twice");
            x.events.emplace_back(name, uint16_t(code));
        }
        s_.multiplex.push_back(std::move(x));
    }
    void load_sampling(const YAML::Node& n, const std::string& path);
};

void scenario_loader::load_platform_part(const std::map<std::string, YAML::Node>& top, unsigned top_line) {
    const YAML::Node& pn = need(top, "platform", top_line, "top level");
    s_.platform_ref = scalar(pn, top_line, "platform", "a built-in platform name or a YAML file path");
    std::string platform_text, platform_file;
    if (const builtin_platform* b = find_builtin_platform(s_.platform_ref)) {
        platform_text = std::string(b->yaml);
        platform_file = std::string(b->source_path);
    } else {
        platform_file = relative_to(file_, s_.platform_ref);
        if (!std::filesystem::exists(platform_file))
            fail(yaml_line(pn), "platform: expected a built-in platform (" + builtin_platform_names() +
                                  ") or a YAML file, found '" + s_.platform_ref + "'");
        platform_text = read_text(platform_file, file_, yaml_line(pn), "platform file", limits::max_platform_file_bytes);
    }
    std::vector<unsigned> lines;
    if (const YAML::Node* set = get(top, "set")) {
        auto m = open_map(*set, top_line, "set", {});
        // Keep the order written (std::map would sort): walk the node again.
        for (auto it = set->begin(); it != set->end(); ++it) {
            std::string key = it->first.Scalar();
            s_.overrides.emplace_back(key, scalar(it->second, yaml_line(it->first), "set." + key, "a value"));
            lines.push_back(yaml_line(it->first));
        }
        (void)m;
    }
    // --set set.PATH=VALUE replaces the file's override of PATH or adds one (line 0: the command line).
    for (const auto& override_pair : command_line_overrides_) {
        // Not a structured binding: C++17 lambdas cannot capture those (clang refuses).
        const auto& path = override_pair.first;
        const auto& value = override_pair.second;
        auto it = std::find_if(s_.overrides.begin(), s_.overrides.end(), [&](const auto& o) { return o.first == path; });
        if (it != s_.overrides.end()) {
            it->second = value;
            lines[size_t(it - s_.overrides.begin())] = 0;
        } else {
            s_.overrides.emplace_back(path, value);
            lines.push_back(0);
        }
    }
    if (s_.overrides.empty()) {
        s_.platform = parse_platform(platform_text, platform_file);
        s_.platform_text = platform_text;
        return;
    }
    std::string edited = apply_platform_overrides(platform_text, s_.overrides, lines, file_);
    s_.platform_text = edited;
    try {
        s_.platform = parse_platform(edited, platform_file + " (with " + file_ + " set:)");
    } catch (const input_error& e) {
        // The edited text has no lines of its own: blame the first override that makes it invalid.
        size_t culprit = 0;
        for (size_t k = 0; k + 1 < s_.overrides.size(); ++k) {
            std::vector<std::pair<std::string, std::string>> first(s_.overrides.begin(), s_.overrides.begin() + k + 1);
            try {
                parse_platform(apply_platform_overrides(platform_text, first, lines, file_), platform_file);
            } catch (const input_error&) {
                culprit = k;
                break;
            }
            culprit = k + 1;
        }
        fail(lines[culprit], "set." + s_.overrides[culprit].first + ": the platform with this override is invalid: " +
                                 e.message());
    }
}

std::vector<seq::statement> scenario_loader::sequence_body(const YAML::Node& n, bool is_file,
                                                           const std::string& path) {
    std::vector<seq::statement> body;
    if (is_file) {
        std::string p = relative_to(file_, scalar(n, 0, path, "a sequence file path"));
        body = seq::parse_sequence(read_text(p, file_, yaml_line(n), "sequence file", limits::max_sequence_file_bytes), p);
    } else {
        std::string text = scalar(n, 0, path, "sequence text");
        unsigned first = yaml_line(n);
        // A block scalar (| or >) starts on the line after its indicator.
        size_t pos = size_t(n.Mark().pos);
        if (pos < text_.size() && (text_[pos] == '|' || text_[pos] == '>')) ++first;
        body = seq::parse_sequence(text, file_, first); // numbered as the scenario's lines
    }
    for (const auto& st : body)
        if (std::holds_alternative<seq::platform_decl>(st.body))
            throw input_error(st.file, st.line, "a scenario's sequences run on the scenario's platform: remove 'platform'");
    return body;
}

// measured: { perf_stat: FILE, cpu, events: {PERF_EVENT: KEY, ...}, cycles: EVENT, at, frequency }
// Each interval (start, end] of the perf file becomes, at `at` + start, the CPU's workload with
// rate count / cycles per mapped key (its cycles are the perf cycles event's count), and, with
// frequency (the default), the CPU clock at cycles / (end - start) rounded to a whole Hz. An
// interval without cycles puts the CPU in wfi (a run when cycles come back). Intervals starting
// at or after the scenario's end are not replayed. (docs/whatif.md, "Measured activity")
void scenario_loader::load_measured(const YAML::Node& entry, unsigned top_line, const std::string& p) {
    auto m = open_map(entry, top_line, p, {"perf_stat", "cpu", "events", "cycles", "at", "frequency"});
    const unsigned line = yaml_line(entry);
    const std::string file = relative_to(file_, scalar(need(m, "perf_stat", line, p), line, p + ".perf_stat",
                                                       "the path of a `perf stat -I MS -x,` output file"));
    const unsigned cpu = cpu_index(need(m, "cpu", line, p), line, p + ".cpu");
    const std::string cycles = get(m, "cycles") ? scalar(m["cycles"], line, p + ".cycles", "a perf event name") : "cycles";
    std::vector<std::pair<std::string, std::string>> mapping; // perf event -> workload key
    const YAML::Node& ev = need(m, "events", line, p);
    open_map(ev, line, p + ".events", {});
    for (auto it = ev.begin(); it != ev.end(); ++it)
        mapping.emplace_back(it->first.Scalar(), scalar(it->second, yaml_line(it->first), p + ".events." + it->first.Scalar(),
                                                        "a workload key like inst"));
    if (mapping.empty()) fail(yaml_line(ev), p + ".events: expected at least one PERF_EVENT: WORKLOAD_KEY");
    const fs_t at = get(m, "at") ? duration(m["at"], line, p + ".at") : 0;
    bool frequency = true;
    if (const YAML::Node* f = get(m, "frequency")) {
        const auto v = values::scan_bool(scalar(*f, line, p + ".frequency", "true or false"));
        if (!v) expected(*f, line, p + ".frequency", "true or false");
        frequency = *v;
    }
    const auto intervals = parse_perf_stat(read_text(file, file_, line, "perf stat file", limits::max_event_file_bytes), file);
    bool waiting = false;
    for (const auto& iv : intervals) {
        if (iv.start >= s_.duration - std::min(s_.duration, at)) break; // at + start >= duration, without overflow
        const fs_t when = at + iv.start;
        const uint64_t c = perf_count(iv, cycles, file);
        if (c == 0) {
            if (!waiting) s_.power.push_back({when, cpu, seq::cpu_power_state::wfi, line});
            waiting = true;
            continue;
        }
        if (waiting) s_.power.push_back({when, cpu, seq::cpu_power_state::run, line});
        waiting = false;
        scenario_workload w;
        w.at = when;
        w.cpu = cpu;
        w.line = line;
        for (const auto& [event, key] : mapping) w.rates.emplace_back(key, rational(perf_count(iv, event, file), c));
        // perf scaled a multiplexed event's count (count x enabled / running): replayed, but marked.
        std::vector<std::string> used{cycles};
        for (const auto& [event, key] : mapping) used.push_back(event);
        for (const auto& event : used)
            if (perf_count_is_estimate(iv, event))
                s_.measured_estimates.push_back({file, iv.lines.at(event), event, iv.running_pct.at(event), iv.end});
        s_.workloads.push_back(std::move(w));
        if (frequency) {
            const fs_t length = iv.end - iv.start;
            const unsigned __int128 hz = ((unsigned __int128)c * 1'000'000'000'000'000ull + length / 2) / length;
            if (hz == 0 || hz > UINT64_MAX)
                throw input_error(file, iv.line, fmt::format("{} {} in {}: not a frequency pmusim can run", c, cycles,
                                                             format_time(length)));
            s_.dvfs.push_back({when, s_.platform.cpus[cpu].name, uint64_t(hz), line});
        }
    }
}

void scenario_loader::load_events_file(const std::string& path, unsigned line) {
    const std::string text = read_text(path, file_, line, "event stream", limits::max_event_file_bytes);
    // The caller has listed `path` last in s_.event_files.
    parse_event_stream(text, path, unsigned(s_.event_files.size() - 1), s_.duration, s_.events);
}

void scenario_loader::load_sampling(const YAML::Node& n, const std::string& path) {
    auto m = open_map(n, 0, path, {"every", "every_cycles", "start", "clock", "counters", "truth", "clocks", "jsonl"});
    scenario_sampling& s = s_.sampling;
    s.enabled = true;
    s.line = yaml_line(n);
    const YAML::Node* every = get(m, "every");
    const YAML::Node* cycles = get(m, "every_cycles");
    if (!!every == !!cycles) fail(s.line, path + ": expected exactly one of 'every' (a duration) or 'every_cycles' (a count)");
    if (every) {
        s.every_fs = duration(*every, s.line, path + ".every");
        if (!s.every_fs) fail(yaml_line(*every), path + ".every: expected a duration above 0");
    } else {
        s.every_cycles = number(*cycles, s.line, path + ".every_cycles");
        if (!s.every_cycles) fail(yaml_line(*cycles), path + ".every_cycles: expected a count above 0");
    }
    // start: the first sample instant, then every `every` (so samples can avoid instants where
    // a unit writes memory, e.g. the IMC's OCC ticks at multiples of 500 us).
    if (const YAML::Node* st = get(m, "start")) {
        if (!every) fail(yaml_line(*st), path + ".start: only with 'every' (a duration), not with every_cycles");
        s.start_fs = duration(*st, s.line, path + ".start");
        if (!s.start_fs) fail(yaml_line(*st), path + ".start: expected a duration above 0");
        if (s.start_fs > s_.duration)
            fail(yaml_line(*st), path + ".start: " + format_time(s.start_fs) + " is after the scenario's end (duration " +
                                   format_time(s_.duration) + ")");
    }
    if (const YAML::Node* c = get(m, "clock")) {
        s.clock = scalar(*c, s.line, path + ".clock", "a clock name");
        if (!s_.platform.find_clock(s.clock)) {
            std::vector<std::string> names;
            for (const auto& k : s_.platform.clocks) names.push_back(k.name);
            fail(yaml_line(*c), path + ".clock: expected a clock of the platform (" + join(names) + "), found '" + s.clock + "'");
        }
    } else if (cycles) {
        fail(s.line, path + ": every_cycles needs 'clock' (the clock whose cycles are counted)");
    } else {
        s.clock = s_.platform.find_clock("const") ? "const" : s_.platform.clocks.front().name;
    }
    // Bounded work: at most limits::max_scenario_samples samples over the scenario.
    unsigned __int128 samples = 0;
    std::string what;
    if (every) {
        samples = (s_.duration - std::min(s_.duration, s.start_fs)) / s.every_fs;
        what = path + ".every: " + format_time(s.every_fs) + " over " + format_time(s_.duration);
    } else {
        // The fastest the clock runs in this scenario: its frequency or a faster DVFS step.
        uint64_t hz = s_.platform.find_clock(s.clock)->frequency_hz;
        for (const auto& d : s_.dvfs)
            if (d.clock == s.clock) hz = std::max(hz, d.hz);
        samples = (unsigned __int128)s_.duration * hz / 1'000'000'000'000'000ULL / s.every_cycles;
        what = path + ".every_cycles: " + std::to_string(s.every_cycles) + " cycles of " + s.clock + " over " +
               format_time(s_.duration);
    }
    if (samples > limits::max_scenario_samples)
        fail(yaml_line(every ? *every : *cycles),
             fmt::format("{} is more than {} samples: expected a longer period", what, limits::max_scenario_samples));
    if (const YAML::Node* c = get(m, "counters")) {
        s.counters_line = yaml_line(*c);
        each(*c, s.line, path + ".counters", [&](const YAML::Node& x, const std::string& p) {
            s.counters.push_back(scalar(x, s.line, p, "a counter name pattern like dsu0.PMEVCNTR*"));
        });
    }
    if (const YAML::Node* c = get(m, "truth")) {
        s.truth_line = yaml_line(*c);
        each(*c, s.line, path + ".truth", [&](const YAML::Node& x, const std::string& p) {
            s.truth.push_back(scalar(x, s.line, p, "a ground-truth event pattern like imc0.chip0.PM_MCS01_*"));
        });
    }
    if (const YAML::Node* c = get(m, "clocks")) {
        const auto v = values::scan_bool(scalar(*c, s.line, path + ".clocks", "true or false"));
        if (!v) expected(*c, s.line, path + ".clocks", "true or false");
        s.clocks = *v;
    }
    if (const YAML::Node* j = get(m, "jsonl")) {
        const auto v = values::scan_bool(scalar(*j, s.line, path + ".jsonl", "true or false"));
        if (!v) expected(*j, s.line, path + ".jsonl", "true or false");
        s.jsonl = *v;
    }
}

scenario scenario_loader::load(const std::map<std::string, std::string>& param_values) {
    s_.file = file_;
    // Pass 1: the params defaults (they may not use ${}).
    YAML::Node raw;
    try {
        raw = YAML::Load(text_);
    } catch (const YAML::Exception& e) {
        fail(e.mark.is_null() ? 0 : unsigned(e.mark.line) + 1, "malformed YAML: " + e.msg);
    }
    if (raw.IsMap() && raw["params"]) {
        YAML::Node p = raw["params"];
        if (!p.IsMap()) expected(p, yaml_line(raw), "params", "a map of NAME: default value");
        for (auto it = p.begin(); it != p.end(); ++it)
            s_.params[it->first.Scalar()] = scalar(it->second, yaml_line(it->first), "params." + it->first.Scalar(), "a value");
    }
    for (const auto& [k, v] : param_values) {
        if (k.rfind("set.", 0) == 0) { // a platform override from the command line or a sweep
            command_line_overrides_.emplace_back(k.substr(4), v);
            continue;
        }
        if (!s_.params.count(k)) {
            std::vector<std::string> known;
            for (const auto& [n, _] : s_.params) known.push_back(n);
            throw input_error(file_, 0, "parameter '" + k + "' is not declared in the scenario's params (declared: " +
                                            (known.empty() ? std::string("none") : join(known)) + ")");
        }
        s_.params[k] = v;
    }
    // Pass 2: the text with ${NAME} replaced.
    text_ = substitute(text_, s_.params, file_);
    YAML::Node root;
    try {
        root = YAML::Load(text_);
    } catch (const YAML::Exception& e) {
        fail(e.mark.is_null() ? 0 : unsigned(e.mark.line) + 1, "malformed YAML: " + e.msg);
    }
    auto top = open_map(root, 1, "", {"name", "description", "params", "platform", "set", "duration", "workload",
                                      "dvfs", "power", "measured", "events", "sequences", "sample", "multiplex", "link"});
    const unsigned top_line = 1;
    if (const YAML::Node* n = get(top, "name")) s_.name = scalar(*n, top_line, "name", "a name");
    if (const YAML::Node* n = get(top, "description")) s_.description = scalar(*n, top_line, "description", "text");
    load_platform_part(top, top_line);
    s_.duration = duration(need(top, "duration", top_line, "top level"), top_line, "duration");
    if (!s_.duration) fail(yaml_line(top["duration"]), "duration: expected a duration above 0");
    auto check_at = [&](const YAML::Node& n, unsigned l, const std::string& p) {
        fs_t at = duration(n, l, p);
        if (at > s_.duration)
            fail(yaml_line(n), p + ": " + format_time(at) + " is after the scenario's end (duration " + format_time(s_.duration) + ")");
        return at;
    };

    if (const YAML::Node* w = get(top, "workload"))
        each(*w, top_line, "workload", [&](const YAML::Node& e, const std::string& p) {
            auto m = open_map(e, top_line, p, {"at", "cpu", "rates"});
            scenario_workload x;
            x.line = yaml_line(e);
            x.at = get(m, "at") ? check_at(m["at"], x.line, p + ".at") : 0;
            x.cpu = cpu_index(need(m, "cpu", x.line, p), x.line, p + ".cpu");
            auto rates = open_map(need(m, "rates", x.line, p), x.line, p + ".rates", {});
            for (auto it = m["rates"].begin(); it != m["rates"].end(); ++it) {
                std::string key = it->first.Scalar();
                std::string v = scalar(it->second, x.line, p + ".rates." + key, "a rate like 1/4 or 0.5");
                x.rates.emplace_back(key, values::parse_rational(v, file_, yaml_line(it->second), "for '" + p + ".rates." + key + "'"));
            }
            (void)rates;
            s_.workloads.push_back(std::move(x));
        });
    if (const YAML::Node* d = get(top, "dvfs"))
        each(*d, top_line, "dvfs", [&](const YAML::Node& e, const std::string& p) {
            auto m = open_map(e, top_line, p, {"at", "clock", "frequency"});
            scenario_dvfs x;
            x.line = yaml_line(e);
            x.at = get(m, "at") ? check_at(m["at"], x.line, p + ".at") : 0;
            const YAML::Node& c = need(m, "clock", x.line, p);
            x.clock = scalar(c, x.line, p + ".clock", "a clock name");
            if (!s_.platform.find_clock(x.clock) && !s_.platform.find_cpu(x.clock)) {
                std::vector<std::string> names;
                for (const auto& k : s_.platform.clocks) names.push_back(k.name);
                fail(yaml_line(c), p + ".clock: expected a clock of the platform (" + join(names) + "), found '" + x.clock + "'");
            }
            const YAML::Node& f = need(m, "frequency", x.line, p);
            try {
                x.hz = values::parse_frequency_hz(scalar(f, x.line, p + ".frequency", "a frequency like 2GHz"), file_, yaml_line(f));
            } catch (const input_error&) {
                expected(f, x.line, p + ".frequency", "a frequency like 2GHz");
            }
            s_.dvfs.push_back(std::move(x));
        });
    if (const YAML::Node* d = get(top, "power"))
        each(*d, top_line, "power", [&](const YAML::Node& e, const std::string& p) {
            auto m = open_map(e, top_line, p, {"at", "cpu", "state"});
            scenario_power x;
            x.line = yaml_line(e);
            x.at = get(m, "at") ? check_at(m["at"], x.line, p + ".at") : 0;
            x.cpu = cpu_index(need(m, "cpu", x.line, p), x.line, p + ".cpu");
            const YAML::Node& st = need(m, "state", x.line, p);
            std::string t = scalar(st, x.line, p + ".state", "run, wfi, wfe or off");
            if (t == "run") x.state = seq::cpu_power_state::run;
            else if (t == "wfi") x.state = seq::cpu_power_state::wfi;
            else if (t == "wfe") x.state = seq::cpu_power_state::wfe;
            else if (t == "off") x.state = seq::cpu_power_state::off;
            else expected(st, x.line, p + ".state", "run, wfi, wfe or off");
            s_.power.push_back(x);
        });
    if (const YAML::Node* d = get(top, "measured"))
        each(*d, top_line, "measured", [&](const YAML::Node& e, const std::string& p) { load_measured(e, top_line, p); });
    if (const YAML::Node* d = get(top, "events"))
        each(*d, top_line, "events", [&](const YAML::Node& e, const std::string& p) {
            auto m = open_map(e, top_line, p, {"file"});
            const YAML::Node& f = need(m, "file", yaml_line(e), p);
            std::string path = relative_to(file_, scalar(f, yaml_line(e), p + ".file", "a JSON Lines file path"));
            s_.event_files.push_back(path);
            load_events_file(path, yaml_line(f));
        });
    std::stable_sort(s_.events.begin(), s_.events.end(),
                     [](const replayed_event& a, const replayed_event& b) { return a.at < b.at; });
    if (const YAML::Node* d = get(top, "sequences"))
        each(*d, top_line, "sequences", [&](const YAML::Node& e, const std::string& p) {
            auto m = open_map(e, top_line, p, {"at", "every", "count", "file", "text", "cycle"});
            scenario_sequence x;
            x.line = yaml_line(e);
            x.at = get(m, "at") ? check_at(m["at"], x.line, p + ".at") : 0;
            if (get(m, "every")) {
                x.every = duration(m["every"], x.line, p + ".every");
                if (!x.every) fail(yaml_line(m["every"]), p + ".every: expected a duration above 0");
            }
            if (get(m, "count")) {
                if (!x.every) fail(yaml_line(m["count"]), p + ".count: only with 'every'");
                x.count = number(m["count"], x.line, p + ".count");
            }
            if (x.every) {
                // Bounded work: the runs until `count` or the scenario's end.
                const uint64_t until_end = (s_.duration - x.at) / x.every + 1;
                const uint64_t runs = x.count ? std::min(x.count, until_end) : until_end;
                if (runs > limits::max_scenario_sequence_runs)
                    fail(yaml_line(m["every"]), fmt::format("{}.every: {} from {} to the end ({}) is {} runs, more than {}: "
                                                          "expected a longer period or a count",
                                                          p, format_time(x.every), format_time(x.at),
                                                          format_time(s_.duration), runs, limits::max_scenario_sequence_runs));
            }
            int forms = int(get(m, "file") != nullptr) + int(get(m, "text") != nullptr) + int(get(m, "cycle") != nullptr);
            if (forms != 1) fail(x.line, p + ": expected exactly one of 'file', 'text' or 'cycle'");
            if (get(m, "file")) x.bodies.push_back(sequence_body(m["file"], true, p + ".file"));
            if (get(m, "text")) x.bodies.push_back(sequence_body(m["text"], false, p + ".text"));
            if (get(m, "cycle"))
                each(m["cycle"], x.line, p + ".cycle", [&](const YAML::Node& c, const std::string& cp) {
                    auto cm = open_map(c, x.line, cp, {"file", "text"});
                    if (cm.size() != 1) fail(yaml_line(c), cp + ": expected one of 'file' or 'text'");
                    x.bodies.push_back(get(cm, "file") ? sequence_body(cm["file"], true, cp + ".file")
                                                       : sequence_body(cm["text"], false, cp + ".text"));
                });
            if (x.bodies.empty()) fail(x.line, p + ".cycle: expected at least one sequence");
            s_.sequences.push_back(std::move(x));
        });
    if (const YAML::Node* d = get(top, "sample")) load_sampling(*d, "sample");
    if (const YAML::Node* d = get(top, "multiplex"))
        each(*d, top_line, "multiplex", [&](const YAML::Node& e, const std::string& p) { load_multiplex(e, top_line, p, check_at); });
    if (const YAML::Node* d = get(top, "link"))
        each(*d, top_line, "link", [&](const YAML::Node& e, const std::string& p) { load_link(e, top_line, p); });
    apply_links(s_); // after every workload, dvfs and power entry is known
    return std::move(s_);
}

// Finds `segment` in a map, or the element named `segment` in a list of maps.
YAML::Node child(YAML::Node node, const std::string& segment) {
    if (node.IsMap()) return node[segment];
    if (node.IsSequence())
        for (size_t i = 0; i < node.size(); ++i)
            if (node[i].IsMap() && node[i]["name"] && node[i]["name"].Scalar() == segment) return node[i];
    return YAML::Node(YAML::NodeType::Undefined);
}

} // namespace

std::string apply_platform_overrides(const std::string& platform_yaml,
                                     const std::vector<std::pair<std::string, std::string>>& overrides,
                                     const std::vector<unsigned>& lines, const std::string& file) {
    YAML::Node root = YAML::Load(platform_yaml);
    for (size_t i = 0; i < overrides.size(); ++i) {
        const auto& [path, value] = overrides[i];
        std::vector<std::string> parts;
        std::stringstream ss(path);
        for (std::string seg; std::getline(ss, seg, '.');) parts.push_back(seg);
        // reset() rebinds: `node = x` would overwrite the node it refers to (yaml-cpp semantics).
        YAML::Node node;
        node.reset(root);
        for (size_t k = 0; k + 1 < parts.size(); ++k) {
            node.reset(child(node, parts[k]));
            if (!node.IsDefined() || !(node.IsMap() || node.IsSequence()))
                throw input_error(file, i < lines.size() ? lines[i] : 0,
                                  "set." + path + ": the platform has no '" + parts[k] +
                                      "' here; expected a path like clocks.const.frequency or units.dsu0.params.counters "
                                      "(see pmusim --list-params)");
        }
        if (!node.IsMap())
            throw input_error(file, i < lines.size() ? lines[i] : 0, "set." + path + ": expected a path to a key of a map");
        // A unit parameter not written in the file is added; any other key must exist.
        bool params_map = parts.size() >= 3 && parts[parts.size() - 2] == "params";
        if (!node[parts.back()] && !params_map)
            throw input_error(file, i < lines.size() ? lines[i] : 0,
                              "set." + path + ": the platform has no key '" + parts.back() + "' here (see pmusim --list-params)");
        node[parts.back()] = value;
    }
    YAML::Emitter out;
    out << root;
    return std::string(out.c_str()) + "\n";
}

scenario parse_scenario(const std::string& text, const std::string& file,
                        const std::map<std::string, std::string>& param_values) {
    return scenario_loader(file, text).load(param_values);
}

scenario load_scenario(const std::string& path, const std::map<std::string, std::string>& param_values) {
    return parse_scenario(read_input_file(path, limits::max_scenario_file_bytes, "scenario file"), path, param_values);
}

} // namespace pmusim
