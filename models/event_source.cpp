#include "models/event_source.h"

#include "models/input_error.h"
#include "models/reference_mode.h"
#include "models/reference_sources.h"

namespace pmusim {

using u128 = unsigned __int128;

std::optional<fs_t> first_time_reaching(const event_source& source, uint64_t target, fs_t from) {
    if (source.count_at(from) >= target) return from;
    // Grow the step until the target is passed, then bisect to the femtosecond.
    fs_t lo = from; // count(lo) < target
    fs_t step = 1'000'000; // 1 ns
    fs_t hi;
    for (;;) {
        if (fs_never - lo <= step) {
            if (source.count_at(fs_never - 1) < target) return std::nullopt;
            hi = fs_never - 1;
            break;
        }
        hi = lo + step;
        if (source.count_at(hi) >= target) break;
        lo = hi;
        step = step > (fs_never >> 2) ? step : step * 2;
    }
    while (hi - lo > 1) {
        fs_t mid = lo + (hi - lo) / 2;
        if (source.count_at(mid) >= target) hi = mid;
        else lo = mid;
    }
    return hi;
}

rate_stream::rate_stream(const clock_domain& clock) : clock_(clock) {
    if (reference_mode()) reference_ = std::make_shared<reference_rate_stream>(clock.reference());
}

uint64_t rate_stream::phase_count(fs_t t) const {
    if (rate_.num == 0 || t <= phase_start_) return 0;
    uint64_t edges = clock_.edges_at(t) - phase_start_edge_;
    return static_cast<uint64_t>((u128)edges * rate_.num / rate_.den);
}

uint64_t rate_stream::count_at(fs_t t, security_filter filter) const {
    uint64_t phase = phase_count(t);
    uint64_t s = base_secure_ + (secure_ ? phase : 0);
    uint64_t ns = base_nonsecure_ + (secure_ ? 0 : phase);
    switch (filter) {
    case security_filter::secure_only: return s;
    case security_filter::nonsecure_only: return ns;
    default: return s + ns;
    }
}

void rate_stream::set(rational rate, bool secure, fs_t now) {
    if (reference_) static_cast<reference_rate_stream&>(*reference_).set(rate, secure, now);
    if (rate == rate_ && secure == secure_) return; // same phase: keep its fractional progress
    if (now < phase_start_) throw model_error("rate_stream: change in the past");
    uint64_t done = phase_count(now);
    (secure_ ? base_secure_ : base_nonsecure_) += done;
    phase_start_ = now;
    phase_start_edge_ = clock_.edges_at(now);
    rate_ = rate;
    secure_ = secure;
    notify_change();
}

filtered_source::filtered_source(const rate_stream& stream, security_filter filter)
    : stream_(stream), filter_(filter) {
    stream_.on_change([this] { notify_change(); });
    if (stream.reference())
        reference_ = std::make_shared<reference_filter>(stream.reference(), filter != security_filter::nonsecure_only,
                                                        filter != security_filter::secure_only);
}

clock_edges::clock_edges(const clock_domain& clock) : clock_(clock) {
    clock_.on_change([this] { notify_change(); });
    if (clock.reference()) reference_ = std::make_shared<reference_clock_count>(clock.reference());
}

injected_events::injected_events() {
    if (reference_mode()) reference_ = std::make_shared<reference_injected>();
}

void injected_events::add(uint64_t count, fs_t now, fs_t over) {
    if (reference_) static_cast<reference_injected&>(*reference_).add(count, now, over);
    // Fold finished ramps so the list stays short.
    for (auto it = ramps_.begin(); it != ramps_.end();) {
        if (it->start + it->duration <= now) {
            settled_ += it->count;
            it = ramps_.erase(it);
        } else {
            ++it;
        }
    }
    if (over == 0) settled_ += count;
    else ramps_.push_back({now, over, count});
    notify_change();
}

uint64_t injected_events::count_at(fs_t t) const {
    uint64_t total = settled_;
    for (const auto& r : ramps_) {
        if (t <= r.start) continue;
        fs_t elapsed = t - r.start;
        total += elapsed >= r.duration ? r.count
                                       : static_cast<uint64_t>((u128)r.count * elapsed / r.duration);
    }
    return total;
}

summed_source::summed_source() {
    if (reference_mode()) reference_ = std::make_shared<reference_sum>();
}

const std::shared_ptr<reference_source>& reference_twin_of(const event_source& base) {
    if (!base.reference()) throw model_error("reference mode: an event source without a reference twin");
    return base.reference();
}

void summed_source::add(const event_source& source) {
    if (reference_) static_cast<reference_sum&>(*reference_).add(reference_twin_of(source));
    parts_.push_back(&source);
    source.on_change([this] { notify_change(); });
}

uint64_t summed_source::version() const {
    uint64_t total = 0;
    for (auto* p : parts_) total += p->version();
    return total;
}

uint64_t summed_source::count_at(fs_t t) const {
    uint64_t total = 0;
    for (auto* p : parts_) total += p->count_at(t);
    return total;
}

divided_source::divided_source(const event_source& base, uint64_t divisor) : base_(base), divisor_(divisor) {
    if (reference_mode()) reference_ = std::make_shared<reference_divider>(reference_twin_of(base), divisor);
}

gated_source::gated_source(const event_source& base) : base_(base) {
    if (reference_mode()) reference_ = std::make_shared<reference_gate>(reference_twin_of(base));
}

void gated_source::set_open(bool open, fs_t now) {
    if (open == open_) return;
    if (reference_) static_cast<reference_gate&>(*reference_).set_open(open, now);
    if (open_) closed_total_ += base_.count_at(now) - base_.count_at(open_since_);
    open_ = open;
    open_since_ = now;
    notify_change();
}

} // namespace pmusim
