#include "vp/run_recorder.h"

#include <algorithm>
#include <iterator>
#include <fmt/format.h>

namespace pmusim {

vcd_writer::vcd_writer(std::vector<observable> signals) : signals_(std::move(signals)), last_(signals_.size()) {}

void vcd_writer::sample(fs_t t) {
    std::vector<std::pair<size_t, uint64_t>> changed;
    for (size_t i = 0; i < signals_.size(); ++i) {
        uint64_t v = signals_[i].value();
        if (!last_[i] || *last_[i] != v) {
            last_[i] = v;
            changed.emplace_back(i, v);
        }
    }
    if (changed.empty()) return;
    if (!steps_.empty() && steps_.back().time == t) {
        auto& values = steps_.back().values;
        const bool again = std::any_of(changed.begin(), changed.end(), [&](const auto& c) {
            return std::any_of(values.begin(), values.end(), [&](const auto& v) { return v.first == c.first; });
        });
        if (!again) {
            values.insert(values.end(), changed.begin(), changed.end());
            return;
        }
        steps_.push_back({t, steps_.back().delta + 1, std::move(changed)});
        return;
    }
    steps_.push_back({t, 0, std::move(changed)});
}

namespace {

std::string vcd_id(size_t i) {
    std::string id;
    do {
        id += char('!' + i % 94);
        i /= 94;
    } while (i);
    return id;
}

std::vector<std::string> name_parts(const std::string& name) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t dot; (dot = name.find('.', start)) != std::string::npos; start = dot + 1)
        parts.push_back(name.substr(start, dot - start));
    parts.push_back(name.substr(start));
    for (auto& p : parts)
        for (char& c : p)
            if (c == ' ') c = '_';
    return parts;
}

// The scope tree, each scope's variables and subscopes in the order they first appear.
struct vcd_scope {
    std::string name;
    std::vector<std::pair<std::string, size_t>> vars; // leaf name, signal index
    std::vector<vcd_scope> scopes;

    vcd_scope& child(const std::string& n) {
        for (auto& s : scopes)
            if (s.name == n) return s;
        scopes.push_back({n, {}, {}});
        return scopes.back();
    }
};

void write_scope(std::ostream& out, const vcd_scope& s, const std::vector<observable>& signals) {
    out << "$scope module " << s.name << " $end\n";
    for (const auto& [leaf, i] : s.vars) out << "$var wire " << signals[i].width << ' ' << vcd_id(i) << ' ' << leaf << " $end\n";
    for (const auto& sub : s.scopes) write_scope(out, sub, signals);
    out << "$upscope $end\n";
}

} // namespace

void vcd_writer::write(std::ostream& out, const std::string& top) const {
    vcd_scope root{top, {}, {}};
    for (size_t i = 0; i < signals_.size(); ++i) {
        auto parts = name_parts(signals_[i].name);
        vcd_scope* s = &root;
        for (size_t k = 0; k + 1 < parts.size(); ++k) s = &s->child(parts[k]);
        s->vars.emplace_back(parts.back(), i);
    }
    out << "$timescale 1 fs $end\n";
    write_scope(out, root, signals_);
    out << "$enddefinitions $end\n";
    fs_t previous = 0;
    for (size_t n = 0; n < steps_.size(); ++n) {
        const step& st = steps_[n];
        fs_t t = st.time + st.delta;
        if (n > 0 && t <= previous) t = previous + 1; // timestamps strictly increase
        previous = t;
        out << '#' << t << '\n';
        for (const auto& [i, v] : st.values) {
            if (signals_[i].width == 1) {
                out << (v & 1) << vcd_id(i) << '\n';
            } else {
                std::string bits;
                for (int b = int(signals_[i].width) - 1; b >= 0; --b) bits += ((v >> b) & 1) ? '1' : '0';
                auto first = bits.find('1');
                out << 'b' << (first == std::string::npos ? "0" : bits.substr(first)) << ' ' << vcd_id(i) << '\n';
            }
        }
    }
}

void run_recorder::access(const access_record& record) {
    if (json) *json << record.json() << '\n';
    holding_edges_ = false;
    for (const auto& e : held_edges_)
        if (json) *json << e << '\n';
    held_edges_.clear();
}

void run_recorder::irq_edge(const nlohmann::json& record) {
    if (holding_edges_) held_edges_.push_back(record.dump());
    else if (json) *json << record.dump() << '\n';
}

void run_recorder::line(const std::string& text) {
    if (log) *log << text << '\n';
}

void run_recorder::program_output(const std::string& text) {
    if (program_out) *program_out << text << '\n';
    else line(text);
}

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
} // namespace

std::string run_recorder::unique_name(const std::string& name) {
    const unsigned n = ++names_seen_[name];
    return n == 1 ? name : fmt::format("{} ({})", name, n);
}

void run_recorder::expectation(const std::string& name, bool passed, const std::string& message, fs_t now) {
    using v = junit_testcase::verdict;
    ++(passed ? passed_ : failed_);
    const std::string unique = unique_name(name); // counted even when not kept: names stay the same with or without --junit
    if (passed && !keep_passed_) return;
    testcases_.push_back({unique, passed ? v::passed : v::failed, passed ? "" : "expectation", message,
                          now - std::min(statement_start_, now), seconds_since(statement_wall_start_)});
}

void run_recorder::error(const std::string& name, const std::string& type, const std::string& message, fs_t now) {
    testcases_.push_back({unique_name(name), junit_testcase::verdict::error, type, message,
                          now - std::min(statement_start_, now), seconds_since(statement_wall_start_)});
}

junit_suite run_recorder::suite(const std::string& name, fs_t time) const {
    junit_suite s{name, testcases_, time, seconds_since(created_), properties_};
    if (per_file_) return pmusim::one_testcase_per_file(std::move(s));
    return s;
}

} // namespace pmusim
