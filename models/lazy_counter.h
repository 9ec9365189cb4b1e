#pragma once
// A hardware counter evaluated lazily: never ticked, always exact.
//
// The counter remembers its value and its source's cumulative count at the last
// synchronisation; its value at any later instant is
//   (value + source(now) - source(last)) mod 2^width   while enabled,
// and it counts the wraps (overflows) in between. The instant of the next
// overflow is computed from the source, so a unit can notify an sc_event exactly
// then instead of ticking. Widths of 1 to 64 bits are supported.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "models/event_source.h"

namespace pmusim {

class reference_counter;

class lazy_counter {
public:
    explicit lazy_counter(unsigned width_bits = 64);

    unsigned width() const { return width_; }
    uint64_t mask() const { return mask_; }

    // What is counted (nullptr: nothing). Takes effect at `now`.
    void set_source(const event_source* source, fs_t now);
    const event_source* source() const { return source_; }
    // Whether it counts; the unit combines all its enable conditions into this.
    void set_enabled(bool enabled, fs_t now);
    bool enabled() const { return enabled_; }

    uint64_t read(fs_t now) {
        // Read again at the instant of the last count, its source unchanged: nothing new to count.
        // Inline, as software polling a counter does exactly this (docs/performance.md, scenario 2).
        // synced_at_ holds an instant only while enabled with a source in the fast mode (sync() sets
        // it; set_enabled, set_source and the reference mode leave it at fs_never).
        // A read at fs_never (e.g. a final dump) must not match the fs_never that means "no instant".
        if (now == synced_at_ && synced_at_ != fs_never && source_->version() == synced_version_)
            return value_;
        return read_counting(now);
    }
    void write(uint64_t value, fs_t now);
    // Resize (e.g. a DSU variant change at reset); the value is truncated.
    void set_width(unsigned width_bits, fs_t now);

    // Wraps from all-ones to zero since the last call (the unit turns them into overflow flags).
    uint64_t take_overflows(fs_t now);
    // Whether wraps counted so far wait to be taken (no new count).
    bool overflow_pending() const { return pending_overflows_ != 0; }
    // The wraps take_overflows(t) would return, without taking them or syncing (fast mode; t at or after
    // the last change). Lets a unit sum the wraps of several counters as a source of its own (the
    // CMN-600's carries into a DTC counter).
    uint64_t overflows_at(fs_t t) const;
    // The instant of the next wrap if nothing changes, or nullopt.
    std::optional<fs_t> next_overflow(fs_t now);

    // Reference mode (models/reference_mode.h): every operation above is delegated to a
    // per-edge reference_counter, which cannot predict a wrap; instead it calls these
    // listeners at the instant of the edge where it wraps (after which next_overflow()
    // answers "now" until the wraps are taken). A unit with an overflow interrupt passes
    // the function it runs whenever its overflow instants may have moved. No-op in the fast mode.
    void on_reference_wrap(std::function<void()> listener);

private:
    std::shared_ptr<reference_counter> reference_;
    uint64_t read_counting(fs_t now);
    void sync(fs_t now);
    unsigned width_;
    uint64_t mask_;
    const event_source* source_ = nullptr;
    bool enabled_ = false;
    uint64_t value_ = 0;
    uint64_t source_at_sync_ = 0;
    // The instant source_at_sync_ was taken and the source's version then: a read at the same
    // instant of an unchanged source needs no new count (fs_never: no such instant).
    fs_t synced_at_ = fs_never;
    uint64_t synced_version_ = 0;
    uint64_t pending_overflows_ = 0;
};

} // namespace pmusim
