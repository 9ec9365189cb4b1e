#include "models/reference_sources.h"

#include <algorithm>

#include "models/reference_mode.h"

namespace pmusim {

void reference_source::unsubscribe(reference_sink* s) {
    sinks_.erase(std::remove(sinks_.begin(), sinks_.end(), s), sinks_.end());
}

// --- rate streams ---------------------------------------------------------

reference_rate_stream::reference_rate_stream(std::shared_ptr<reference_clock> clock) : clock_(std::move(clock)) {
    clock_->subscribe(this);
}

reference_rate_stream::~reference_rate_stream() { clock_->unsubscribe(this); }

void reference_rate_stream::set(rational rate, bool secure, fs_t now) {
    reference_world::instance().catch_up(now); // edges up to now belong to the old phase
    if (rate.num == per_edge_ && rate.den == whole_ && secure == secure_) return;
    per_edge_ = rate.num;
    whole_ = rate.den;
    secure_ = secure;
    accumulator_ = 0;
}

void reference_rate_stream::on_edge() {
    if (per_edge_ == 0) return;
    accumulator_ += per_edge_ % whole_;
    uint64_t events = per_edge_ / whole_;
    if (accumulator_ >= whole_) {
        accumulator_ -= whole_;
        ++events;
    }
    emit(events, secure_);
}

// --- clock counts, filters, sums ------------------------------------------

reference_clock_count::reference_clock_count(std::shared_ptr<reference_clock> clock) : clock_(std::move(clock)) {
    clock_->subscribe(this);
}

reference_clock_count::~reference_clock_count() { clock_->unsubscribe(this); }

reference_filter::reference_filter(std::shared_ptr<reference_source> from, bool pass_secure, bool pass_nonsecure)
    : from_(std::move(from)), pass_secure_(pass_secure), pass_nonsecure_(pass_nonsecure) {
    from_->subscribe(this);
}

reference_filter::~reference_filter() { from_->unsubscribe(this); }

reference_sum::~reference_sum() {
    for (auto& p : parts_) p->unsubscribe(this);
}

void reference_sum::add(std::shared_ptr<reference_source> part) {
    part->subscribe(this);
    parts_.push_back(std::move(part));
}

// --- injected events --------------------------------------------------------

reference_divider::reference_divider(std::shared_ptr<reference_source> base, uint64_t divisor)
    : base_(std::move(base)), divisor_(divisor) {
    base_->subscribe(this);
}

reference_divider::~reference_divider() { base_->unsubscribe(this); }

reference_gate::reference_gate(std::shared_ptr<reference_source> base) : base_(std::move(base)) {
    base_->subscribe(this);
}

reference_gate::~reference_gate() { base_->unsubscribe(this); }

void reference_gate::set_open(bool open, fs_t now) {
    reference_world::instance().catch_up(now); // edges up to now belong to the old state
    open_ = open;
}

void reference_injected::ramp::step() {
    // floor(k * duration / count) for k + 1: add one step of duration / count, carrying the remainder.
    quotient += duration / count;
    remainder += duration % count;
    if (remainder >= count) {
        remainder -= count;
        ++quotient;
    }
}

void reference_injected::add(uint64_t count, fs_t now, fs_t over) {
    reference_world::instance().catch_up(now);
    if (count == 0) return;
    if (over == 0) {
        emit(count, false);
        return;
    }
    ramp r{now, over, count, 0, 0, 0};
    r.step(); // the first event's instant
    ramps_.push_back(r);
    reference_world::instance().add_pending(shared_from_this(), r.next());
}

fs_t reference_injected::deliver_until(fs_t now) {
    fs_t next = fs_never;
    for (auto& r : ramps_) {
        while (r.delivered < r.count && r.next() <= now) {
            ++r.delivered;
            emit(1, false);
            r.step();
        }
        if (r.delivered < r.count) next = std::min(next, r.next());
    }
    ramps_.erase(std::remove_if(ramps_.begin(), ramps_.end(), [](const ramp& r) { return r.delivered == r.count; }),
                 ramps_.end());
    return next;
}

} // namespace pmusim
