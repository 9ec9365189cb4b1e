#include "models/overflow_scheduler.h"

#include "models/reference_mode.h"

namespace pmusim {

size_t overflow_scheduler::add(lazy_counter& counter) {
    slots_.push_back({&counter, std::nullopt});
    return slots_.size() - 1;
}

void overflow_scheduler::on_reference_wrap(const std::function<void()>& listener) {
    for (slot& s : slots_) s.counter->on_reference_wrap(listener);
}

void overflow_scheduler::predict_all(fs_t now, const std::function<bool(size_t)>& matters) {
    quiet_until_ = 0;
    if (!sc_core::sc_is_running()) return;
    bool every_predicted = true, pending = false;
    earliest_.reset();
    earliest_stale_ = false;
    for (size_t s = 0; s < slots_.size(); ++s) {
        slot& sl = slots_[s];
        if (matters && !matters(s)) {
            sl.predicted.reset();
            every_predicted = false;
            continue;
        }
        sl.predicted = sl.counter->next_overflow(now);
        if (sl.predicted && (!earliest_ || *sl.predicted < *earliest_)) earliest_ = sl.predicted;
        pending |= sl.counter->overflow_pending();
    }
    arm(now);
    // Until the earliest wrap, collect() has nothing to take. A wrap already counted but not yet
    // taken, a counter not predicted, and the reference mode keep collect() looking every time.
    if (every_predicted && !pending && !reference_mode()) quiet_until_ = earliest_.value_or(fs_never);
}

void overflow_scheduler::predict(size_t s, fs_t now, bool matters) {
    quiet_until_ = 0; // quiet() answers for predict_all() only
    slot& sl = slots_[s];
    const std::optional<fs_t> before = sl.predicted;
    sl.predicted = matters ? sl.counter->next_overflow(now) : std::nullopt;
    const std::optional<fs_t>& after = sl.predicted;
    // A wrap predicted again usually comes sooner (events were added); only when the earliest one
    // moves later (or away) must the earliest be found again among all.
    if (before && before == earliest_ && (!after || *after > *before)) earliest_stale_ = true;
    else if (after && (!earliest_ || *after < *earliest_)) earliest_ = after;
}

std::optional<fs_t> overflow_scheduler::earliest() {
    if (earliest_stale_) {
        earliest_.reset();
        for (const slot& sl : slots_)
            if (sl.predicted && (!earliest_ || *sl.predicted < *earliest_)) earliest_ = sl.predicted;
        earliest_stale_ = false;
    }
    return earliest_;
}

void overflow_scheduler::arm(fs_t now) {
    const std::optional<fs_t> next = earliest();
    event_.cancel();
    if (next) event_.notify(to_sc_time(*next > now ? *next - now : 0));
}

} // namespace pmusim
