#include "models/pmu_counter_unit.h"

namespace pmusim {

pmu_counter_unit::pmu_counter_unit(const sc_core::sc_module_name& name, soc& system, reg_field cycle_flag)
    : unit(name, system), cycle_flag_(cycle_flag) {}

void pmu_counter_unit::add_event_counter(lazy_counter& c) {
    overflows_.add(c);
    ++event_counters_;
}

void pmu_counter_unit::add_cycle_counter(lazy_counter& c) { overflows_.add(c); }

void pmu_counter_unit::watch_overflows() {
    // Reference mode (docs/reference-mode.md): a counter announces its wrap from the edge's process.
    overflows_.on_reference_wrap([this] { on_overflow(); });
    SC_METHOD(on_overflow);
    sensitive << overflows_.event();
    dont_initialize();
}

void pmu_counter_unit::collect_wraps() {
    overflows_.collect(now_fs(), [this](size_t slot, uint64_t) {
        // The slot after the event counters is the cycle counter's.
        ovs_ |= slot < event_counters_ ? uint32_t(reg_field{unsigned(slot), 1}.mask()) : uint32_t(cycle_flag_.mask());
    });
}

uint32_t pmu_counter_unit::overflow_flags() {
    collect();
    return ovs_;
}

void pmu_counter_unit::accept_injections(std::vector<event_input> events, int (*event_code)(const std::string&),
                                         std::string clock_name) {
    events_ = std::move(events);
    event_code_ = event_code;
    clock_name_ = std::move(clock_name);
}

bool pmu_counter_unit::inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                              std::string& error) {
    if (!node.empty()) {
        error = inject_node_refused();
        return false;
    }
    const int code = event_code_ ? event_code_(event) : -1;
    const event_input* in = nullptr;
    for (const auto& e : events_)
        if (code >= 0 && e.code == uint32_t(code)) in = &e;
    if (!in) {
        std::vector<named_event> listed;
        for (const auto& e : events_) listed.push_back({e.listed_name, e.code});
        error = inject_unknown_event(event, listed);
        return false;
    }
    if (!in->input) {
        error = inject_clock_event(in->refused_name, clock_name_);
        return false;
    }
    collect();
    in->input->add(count, now_fs(), over);
    changed();
    return true;
}

} // namespace pmusim
