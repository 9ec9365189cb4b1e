#pragma once
// What the DSU CLUSTERPMU and the CoreSight PMU share, written once: both are Arm PMU register
// blocks with event counters 0..N-1 and an optional cycle counter whose wraps set flags in an
// overflow bitmap (PMOVS: counter n at bit n, the cycle counter at its own bit), and both have
// event inputs without nodes, known by name and code, that a sequence injects into
// (`inject UNIT EVENT COUNT [over D]`), clock events excepted.
//
// The overflow flags are caught up before every access (collect(), inline while nothing can have
// wrapped) and the next wrap is predicted again after every change (changed(): collect, the
// unit's apply() and update_irq(), reschedule). The unit supplies what differs: its counters (in
// slot order), its event inputs, apply() and update_irq().
#include <string>
#include <systemc>
#include <vector>

#include "models/event_source.h"
#include "models/lazy_counter.h"
#include "models/overflow_scheduler.h"
#include "models/register_bank.h"
#include "models/unit.h"

namespace pmusim {

class pmu_counter_unit : public unit {
public:
    SC_HAS_PROCESS(pmu_counter_unit);
    // `cycle_flag`: the cycle counter's flag in the overflow bitmap.
    pmu_counter_unit(const sc_core::sc_module_name& name, soc& system, reg_field cycle_flag);

    bool inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                std::string& error) final;
    uint32_t overflow_flags(); // PMOVS after catching up to now

protected:
    // The counters whose wraps set overflow flags: the event counters in order (counter n sets bit n),
    // then the cycle counter, if any. Then watch_overflows(), once.
    void add_event_counter(lazy_counter& c);
    void add_cycle_counter(lazy_counter& c);
    // Starts the overflow process (and, in the reference mode, the counters' wrap announcements).
    void watch_overflows();

    // An event a sequence may name in `inject`. `input` nullptr: a clock event, which counts the
    // unit's clock edges and cannot be injected.
    struct event_input {
        uint32_t code;
        std::string listed_name;  // how the refusal of an unknown event lists it
        std::string refused_name; // how the refusal of a clock event names it
        injected_events* input;
    };
    // The unit's events, the function that finds a code by name or number (-1: unknown), and
    // the clock the clock events count ("the DSU clock").
    void accept_injections(std::vector<event_input> events, int (*event_code)(const std::string&),
                           std::string clock_name);

    void collect() {
        if (!overflows_.quiet(now_fs())) collect_wraps();
    }
    void reschedule() { overflows_.predict_all(now_fs()); }
    void changed() {
        collect();
        apply();
        update_irq();
        reschedule();
    }
    // The counters' sources and enables from the registers; the interrupt line from the flags.
    virtual void apply() = 0;
    virtual void update_irq() = 0;

    overflow_scheduler overflows_;
    uint32_t ovs_ = 0; // the overflow flags (PMOVS)

private:
    void collect_wraps();
    void on_overflow() { changed(); }
    reg_field cycle_flag_;
    size_t event_counters_ = 0;
    std::vector<event_input> events_;
    int (*event_code_)(const std::string&) = nullptr;
    std::string clock_name_;
};

} // namespace pmusim
