#include "models/clock_domain.h"

#include <algorithm>

#include "models/input_error.h"
#include "models/reference_clock.h"
#include "models/reference_mode.h"

namespace pmusim {

using u128 = unsigned __int128;

clock_domain::clock_domain(std::string name, uint64_t frequency_hz)
    : name_(std::move(name)), initial_hz_(frequency_hz) {
    segments_.push_back({0, frequency_hz, 0});
    if (reference_mode()) reference_ = std::make_shared<reference_clock>(name_, frequency_hz);
}

uint64_t clock_domain::edges_in(const segment& s, fs_t t) {
    if (t <= s.start || s.frequency_hz == 0) return 0;
    return static_cast<uint64_t>((u128)(t - s.start) * s.frequency_hz / fs_per_second);
}

const clock_domain::segment& clock_domain::segment_at(fs_t t) const {
    if (t >= segments_.back().start) return segments_.back();
    // Last segment whose start is before t (an edge exactly at a change belongs to the old one).
    auto it = std::lower_bound(segments_.begin(), segments_.end(), t,
                               [](const segment& s, fs_t v) { return s.start < v; });
    // At or before the first segment's start (t = 0 after a frequency change): no edge yet, and
    // the first segment is the one to ask (reading *(begin - 1) was found by ASan).
    if (it == segments_.begin()) return segments_.front();
    return *(it - 1);
}

uint64_t clock_domain::edges_at(fs_t t) const {
    const segment& s = segment_at(t);
    return s.edges_before + edges_in(s, t);
}

fs_t clock_domain::time_of_edge(uint64_t n) const {
    // The segment holding edge n is the last one with edges_before < n.
    auto it = std::upper_bound(segments_.begin(), segments_.end(), n,
                               [](uint64_t v, const segment& s) { return v <= s.edges_before; });
    const segment& s = *(it - 1);
    const segment* next = (it == segments_.end()) ? nullptr : &*it;
    if (s.frequency_hz == 0) return fs_never;
    uint64_t j = n - s.edges_before;
    u128 offset = ((u128)j * fs_per_second + s.frequency_hz - 1) / s.frequency_hz;
    u128 t = (u128)s.start + offset;
    if (t >= fs_never) return fs_never;
    if (next && t > next->start) return fs_never; // cannot happen: edges_before says otherwise
    return static_cast<fs_t>(t);
}

void clock_domain::set_frequency(uint64_t frequency_hz, fs_t at) {
    segment& last = segments_.back();
    if (at < last.start) throw model_error("clock " + name_ + ": frequency change in the past");
    if (reference_) reference_->set_frequency(frequency_hz, at);
    if (at == last.start) {
        last.frequency_hz = frequency_hz;
    } else {
        uint64_t before = last.edges_before + edges_in(last, at);
        segments_.push_back({at, frequency_hz, before});
    }
    ++changes_;
    for (auto& l : listeners_) l();
}

} // namespace pmusim
