#include "models/core.h"

#include "models/input_error.h"

namespace pmusim {

const char* to_string(power_state s) {
    switch (s) {
    case power_state::run: return "run";
    case power_state::wfi: return "wfi";
    case power_state::wfe: return "wfe";
    case power_state::off: return "off";
    }
    return "?";
}

core_model::core_model(unsigned index, const clock_domain& cpu_clock, const clock_domain& const_clock)
    : index_(index), cpu_clock_(cpu_clock), const_clock_(const_clock) {
    streams_["cycles"] = std::make_unique<rate_stream>(cpu_clock_);
    streams_["const_cycles"] = std::make_unique<rate_stream>(const_clock_);
    declare_event("inst");
    declare_event("mem_stall");
    reset(0);
}

const rate_stream& core_model::declare_event(const std::string& key) {
    auto& s = streams_[key];
    if (!s) {
        s = std::make_unique<rate_stream>(cpu_clock_);
        workload_.emplace(key, rational(0));
    }
    return *s;
}

const rate_stream& core_model::events(const std::string& key) const {
    auto it = streams_.find(key);
    if (it == streams_.end()) throw model_error(name() + ": no event key " + key);
    return *it->second;
}

std::vector<std::string> core_model::event_keys() const {
    std::vector<std::string> keys;
    for (const auto& [k, _] : streams_) keys.push_back(k);
    return keys;
}

void core_model::apply(fs_t now) {
    bool running = power_ == power_state::run;
    for (auto& [key, stream] : streams_) {
        rational rate = is_fixed_key(key) ? rational(1) : workload_[key];
        stream->set(running ? rate : rational(0), secure_, now);
    }
}

void core_model::set_power(power_state state, fs_t now) {
    power_state from = power_;
    power_ = state;
    apply(now);
    if (from != state)
        for (auto& l : power_listeners_) l(from, state);
}

void core_model::set_secure(bool secure, fs_t now) {
    secure_ = secure;
    apply(now);
}

void core_model::set_workload(const std::map<std::string, rational>& rates, fs_t now) {
    for (const auto& [k, r] : rates) {
        if (!streams_.count(k) || is_fixed_key(k)) throw model_error(name() + ": cannot set event key " + k);
        workload_[k] = r;
    }
    apply(now);
}

void core_model::reset(fs_t now) {
    power_ = power_state::run;
    secure_ = false;
    for (auto& [k, r] : workload_) r = rational(k == "inst" ? 1 : 0);
    apply(now);
}

} // namespace pmusim
