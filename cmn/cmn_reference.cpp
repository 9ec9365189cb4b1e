#include "cmn/cmn_reference.h"

#include <algorithm>

#include "models/reference_mode.h"

namespace pmusim {

reference_cmn_edge_events::reference_cmn_edge_events(std::shared_ptr<reference_clock> clock)
    : clock_(std::move(clock)) {
    clock_->subscribe(this);
}

reference_cmn_edge_events::~reference_cmn_edge_events() { clock_->unsubscribe(this); }

void reference_cmn_edge_events::add(uint64_t edge, uint64_t count) {
    if (count == 0) return;
    if (edge <= clock_->edges()) {
        emit(count, false); // an edge already delivered: these events are due now
        return;
    }
    points_[edge] += count;
}

void reference_cmn_edge_events::add_ramp(uint64_t from, uint64_t to) {
    if (to <= from) return;
    const uint64_t done = clock_->edges();
    if (from < done) { // the part of (from, to] already delivered is due now
        emit(std::min(to, done) - from, false);
        from = done;
        if (to <= from) return;
    }
    // Active on edges from + 1 .. to.
    ramp_steps_[from + 1] += 1;
    ramp_steps_[to + 1] -= 1;
}

void reference_cmn_edge_events::drop_pending() {
    reference_world::instance().catch_up(now_fs()); // what is due up to now stays delivered
    points_.clear();
    ramp_steps_.clear();
    active_ramps_ = 0;
}

void reference_cmn_edge_events::on_edge() {
    if (points_.empty() && ramp_steps_.empty() && active_ramps_ == 0) return;
    const uint64_t edge = clock_->edges();
    uint64_t events = 0;
    while (!ramp_steps_.empty() && ramp_steps_.begin()->first <= edge) {
        active_ramps_ = uint64_t(int64_t(active_ramps_) + ramp_steps_.begin()->second);
        ramp_steps_.erase(ramp_steps_.begin());
    }
    events += active_ramps_;
    while (!points_.empty() && points_.begin()->first <= edge) {
        events += points_.begin()->second;
        points_.erase(points_.begin());
    }
    emit(events, false);
}

} // namespace pmusim
