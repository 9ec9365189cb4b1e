#include "tb/sampler.h"

#include <fmt/format.h>
#include <fnmatch.h>
#include <nlohmann/json.hpp>

namespace pmusim {

using namespace sc_core;

namespace {
// CSV field: quoted when it holds a comma or a quote.
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
} // namespace

std::vector<sampled_value> select_observables(const std::vector<unit*>& units, const std::vector<std::string>& patterns,
                                              std::vector<std::string>& unmatched_patterns) {
    std::vector<sampled_value> out;
    std::vector<bool> used(patterns.size(), false);
    for (unit* u : units) {
        std::vector<observable> obs;
        u->observables(obs);
        for (auto& o : obs) {
            bool take = patterns.empty();
            for (size_t i = 0; i < patterns.size(); ++i)
                if (fnmatch(patterns[i].c_str(), o.name.c_str(), 0) == 0) take = used[i] = true;
            if (!take) continue;
            auto dot = o.name.rfind('.');
            sampled_value v;
            v.unit = u->type();
            v.instance = dot == std::string::npos ? std::string(u->basename()) : o.name.substr(0, dot);
            v.counter = dot == std::string::npos ? o.name : o.name.substr(dot + 1);
            v.width = o.width;
            v.value = o.value;
            v.event = o.event;
            out.push_back(std::move(v));
        }
    }
    for (size_t i = 0; i < patterns.size(); ++i)
        if (!used[i]) unmatched_patterns.push_back(patterns[i]);
    return out;
}

const char* sampler::csv_header() { return "sample,time_fs,cycle,unit,instance,counter,event,value,delta"; }

sampler::sampler(const sc_module_name& name, std::vector<sampled_value> values, const clock_domain& clock,
                 fs_t every_fs, uint64_t every_cycles, fs_t end, std::ostream* csv, std::ostream* jsonl, fs_t first_fs)
    : sc_module(name), values_(std::move(values)), last_(values_.size(), 0), clock_(clock), every_fs_(every_fs),
      every_cycles_(every_cycles), first_fs_(first_fs ? first_fs : every_fs), end_(end), csv_(csv), jsonl_(jsonl) {
    if (csv_) *csv_ << csv_header() << '\n';
    // A cycle-based instant moves when the clock changes frequency: reschedule then.
    if (every_cycles_) clock_.on_change([this] { schedule_next(); });
    SC_METHOD(on_sample);
    sensitive << due_;
    dont_initialize();
    schedule_next();
}

std::optional<fs_t> sampler::next_instant() const {
    fs_t t;
    if (every_fs_) {
        t = first_fs_ + taken_ * every_fs_;
    } else {
        t = clock_.time_of_edge((taken_ + 1) * every_cycles_);
        if (t == fs_never) return std::nullopt; // the clock stopped
    }
    if (t > end_) return std::nullopt;
    return t;
}

void sampler::schedule_next() {
    due_.cancel();
    auto t = next_instant();
    if (!t) return;
    fs_t now = now_fs();
    due_.notify(to_sc_time(*t > now ? *t - now : 0));
}

void sampler::on_sample() {
    const fs_t now = now_fs();
    auto due = next_instant();
    if (!due || *due != now) { // a stale notification (the clock changed): not a sample instant
        schedule_next();
        return;
    }
    ++taken_;
    const uint64_t cycle = clock_.edges_at(now);
    for (size_t i = 0; i < values_.size(); ++i) {
        const sampled_value& v = values_[i];
        const uint64_t value = v.value();
        const uint64_t mask = v.width >= 64 ? ~uint64_t(0) : (uint64_t(1) << v.width) - 1;
        const uint64_t delta = (value - last_[i]) & mask; // modulo the width: a wrap is not negative
        // A gauge's delta is signed: 2 GHz -> 1 GHz is -1000000000, not 2^64 - 1e9.
        const int64_t signed_delta = int64_t(value) - int64_t(last_[i]);
        const std::string delta_text = v.gauge ? fmt::format("{}", signed_delta) : fmt::format("{}", delta);
        last_[i] = value;
        const std::string event = v.event ? v.event() : std::string();
        if (csv_)
            *csv_ << fmt::format("{},{},{},{},{},{},{},{},{}\n", taken_, now, cycle, csv_field(v.unit),
                                 csv_field(v.instance), csv_field(v.counter), csv_field(event), value, delta_text);
        if (jsonl_) {
            nlohmann::ordered_json j{{"sample", taken_}, {"time_fs", now},     {"cycle", cycle},
                                     {"unit", v.unit},   {"instance", v.instance}, {"counter", v.counter},
                                     {"event", event},   {"value", value}};
            if (v.gauge) j["delta"] = signed_delta;
            else j["delta"] = delta;
            *jsonl_ << j.dump() << '\n';
        }
    }
    schedule_next();
}

} // namespace pmusim
