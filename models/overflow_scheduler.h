#pragma once
// The overflow skeleton every unit with lazy counters shares: predict each counter's next wrap
// (lazy_counter::next_overflow), notify one sc_event at the earliest of them, and, when it fires,
// take the wraps of that instant and hand them to the unit, which turns them into its overflow
// flags, carries or interrupts. Overflows are scheduled at their exact instant, never found by
// ticking. The unit's SC_METHOD is sensitive to event(); the unit re-predicts (predict_all)
// whenever a register write, a source's future (on_change) or a clock may have moved a wrap.
//
// A counter is in one slot, numbered in the order the unit adds them; collect() visits the slots
// in that order, so the unit's effects of simultaneous wraps keep a fixed order.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <systemc>
#include <vector>

#include "models/lazy_counter.h"
#include "models/sim_time.h"

namespace pmusim {

class overflow_scheduler {
public:
    // The counter in a new slot (its number is returned). The counter must outlive the scheduler.
    size_t add(lazy_counter& counter);
    size_t size() const { return slots_.size(); }
    lazy_counter& counter(size_t slot) { return *slots_[slot].counter; }

    // Reference mode (models/reference_mode.h): a counter announces its wrap from the edge's
    // process instead; the unit passes what its overflow process runs. For every slot.
    void on_reference_wrap(const std::function<void()>& listener);

    // Predicts every counter's next wrap and notifies the event at the earliest. A counter whose
    // wraps have no effect now (`matters(slot)` false, e.g. a CMN counter not paired to a global
    // one) is not predicted. Nothing before the simulation runs (no event can be notified then).
    void predict_all(fs_t now, const std::function<bool(size_t)>& matters = {});
    // Re-predicts one counter after a change only its sources saw (then arm()); the earliest
    // instant stays exact, found again among all only when this counter held it and moved later.
    void predict(size_t slot, fs_t now, bool matters = true);
    // Notifies the event at the earliest predicted wrap, cancelling any earlier notification.
    void arm(fs_t now);
    // The earliest predicted wrap, or nullopt when no counter will wrap.
    std::optional<fs_t> earliest();
    const std::optional<fs_t>& predicted(size_t slot) const { return slots_[slot].predicted; }

    // Whether a collect() at `now` can find nothing: before the earliest wrap predict_all() found,
    // every counter predicted and none holding untaken wraps. Always false in the reference mode
    // (which cannot predict) and before the simulation runs; a unit calls predict_all() after
    // every change of a counter or of its sources' future, which keeps this true to its word.
    bool quiet(fs_t now) const { return now < quiet_until_; }

    // Takes every counter's wraps up to `now`, calling on_wrap(slot, wraps) for each that wrapped,
    // in slot order.
    template <class OnWrap> void collect(fs_t now, OnWrap&& on_wrap) {
        for (size_t s = 0; s < slots_.size(); ++s)
            if (const uint64_t wraps = slots_[s].counter->take_overflows(now)) on_wrap(s, wraps);
    }

    const sc_core::sc_event& event() const { return event_; }

private:
    struct slot {
        lazy_counter* counter;
        std::optional<fs_t> predicted;
    };
    std::vector<slot> slots_;
    std::optional<fs_t> earliest_;
    bool earliest_stale_ = false; // a predict() moved the earliest one later: find it again
    fs_t quiet_until_ = 0;
    sc_core::sc_event event_;
};

} // namespace pmusim
