#include "models/reference_clock.h"

#include <algorithm>

#include "models/reference_mode.h"

namespace pmusim {

reference_clock::reference_clock(std::string name, uint64_t frequency_hz) : name_(std::move(name)) {
    start_segment(frequency_hz, 0);
    reference_world::instance().add_clock(this);
    sc_core::sc_spawn_options opts;
    opts.spawn_method();
    opts.set_sensitivity(&wake_); // and once at initialisation, to arm the first edge
    sc_core::sc_spawn([this] { on_wake(); }, sc_core::sc_gen_unique_name(("reference_clock_" + name_).c_str()),
                      &opts);
    spawned_ = true;
}

reference_clock::~reference_clock() { reference_world::instance().remove_clock(this); }

void reference_clock::unsubscribe(reference_edge_listener* l) {
    listeners_.erase(std::remove(listeners_.begin(), listeners_.end(), l), listeners_.end());
}

void reference_clock::start_segment(uint64_t frequency_hz, fs_t at) {
    frequency_hz_ = frequency_hz;
    segment_start_ = at;
    if (frequency_hz_ == 0) {
        next_edge_ = fs_never;
        return;
    }
    period_quotient_ = fs_per_second / frequency_hz_;
    period_remainder_ = fs_per_second % frequency_hz_;
    quotient_ = period_quotient_; // edge 1 of the segment
    remainder_ = period_remainder_;
    compute_next_edge();
}

void reference_clock::compute_next_edge() {
    // Edge j of the segment: segment start + ceil(j * 1e15 / f).
    const uint64_t offset = quotient_ + (remainder_ ? 1 : 0);
    next_edge_ = offset >= fs_never - segment_start_ ? fs_never : segment_start_ + offset;
}

void reference_clock::deliver_until(fs_t now) {
    while (next_edge_ <= now) {
        ++edges_;
        reference_world::instance().count_edge();
        for (size_t i = 0; i < listeners_.size(); ++i) listeners_[i]->on_edge();
        quotient_ += period_quotient_;
        remainder_ += period_remainder_;
        if (remainder_ >= frequency_hz_) {
            remainder_ -= frequency_hz_;
            ++quotient_;
        }
        compute_next_edge();
    }
}

void reference_clock::set_frequency(uint64_t frequency_hz, fs_t at) {
    reference_world::instance().catch_up(at); // edges at or before the change run at the old frequency
    deliver_until(at);
    start_segment(frequency_hz, at);
    arm();
}

void reference_clock::on_wake() {
    reference_world::instance().activate(now_fs());
    arm();
}

void reference_clock::arm() {
    if (!sc_core::sc_is_running()) return; // the first activation, at initialisation, arms
    wake_.cancel();
    if (next_edge_ != fs_never) wake_.notify(sc_core::sc_time::from_value(next_edge_ - now_fs()));
}

} // namespace pmusim
