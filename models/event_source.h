#pragma once
// Event sources: what counters count, as exact cumulative counts over time.
//
// Every source answers count_at(t): the number of events in (0, t]. Counts are
// piecewise-defined: between two changes (rate, power state, security state,
// clock frequency) a source delivers events at a constant exact rational rate
// per edge of its clock; after j edges of a phase with rate p/q it has delivered
// floor(j * p / q) events (so 3/2 gives 1, 3, 4, 6, ... after 1, 2, 3, 4 edges).
// A new phase starts only when a stream's rate or producer security state
// changes; the fractional remainder of the old phase is then dropped.
// count_at may be asked for any t at or after the source's last change; future
// instants extrapolate the current phase, which is what overflow prediction uses.
// Sources announce every change of their future through on_change listeners.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/clock_domain.h"
#include "models/rational.h"
#include "models/sim_time.h"

namespace pmusim {

class reference_source;

enum class security_filter { any, secure_only, nonsecure_only };

class event_source {
public:
    virtual ~event_source() = default;
    virtual uint64_t count_at(fs_t t) const = 0;
    // A number that changes whenever count_at(t) may have changed for some t, so that a counter
    // that took the count at an instant can tell, without counting again, that it still holds
    // (lazy_counter::read at the same instant). A source that cannot tell answers a new number
    // on every call, which turns that shortcut off.
    virtual uint64_t version() const { return ++unversioned_calls_; }
    // Listening does not change the source, hence const (the listener list is bookkeeping).
    void on_change(std::function<void()> listener) const { listeners_.push_back(std::move(listener)); }
    // Reference mode only (models/reference_mode.h): the twin that delivers this source's
    // events edge by edge; null in the fast mode.
    const std::shared_ptr<reference_source>& reference() const { return reference_; }

protected:
    void notify_change() const {
        note_change();
        for (auto& l : listeners_) l();
    }
    // A change of the counts that listeners need not hear about (they are told otherwise).
    void note_change() const { ++changes_; }
    uint64_t changes() const { return changes_; }
    std::shared_ptr<reference_source> reference_;

private:
    mutable std::vector<std::function<void()>> listeners_;
    mutable uint64_t changes_ = 0;
    mutable uint64_t unversioned_calls_ = 0;
};

// The smallest instant t >= from at which source.count_at(t) >= target, assuming
// nothing changes after `from`; nullopt if that never happens. Exact: counts are
// step functions of time, and the search narrows to the femtosecond.
std::optional<fs_t> first_time_reaching(const event_source& source, uint64_t target, fs_t from);

// Events at a rational rate per edge of a clock, switched by phase changes, and
// split by the security state of whoever produced them (for S/NS filtering).
class rate_stream : public event_source {
public:
    explicit rate_stream(const clock_domain& clock);
    // New rate and producer security state from `now` on (now >= last change).
    void set(rational rate, bool secure, fs_t now);
    void set_rate(rational rate, fs_t now) { set(rate, secure_, now); }
    void set_secure(bool secure, fs_t now) { set(rate_, secure, now); }
    rational rate() const { return rate_; }
    bool secure() const { return secure_; }
    const clock_domain& clock() const { return clock_; }

    uint64_t count_at(fs_t t) const override { return count_at(t, security_filter::any); }
    uint64_t count_at(fs_t t, security_filter filter) const;
    // Its own phase changes and its clock's frequency changes (which it does not announce:
    // the units listen to the clocks themselves).
    uint64_t version() const override { return changes() + clock_.changes(); }

private:
    uint64_t phase_count(fs_t t) const;
    const clock_domain& clock_;
    rational rate_{0};
    bool secure_ = false;
    fs_t phase_start_ = 0;
    uint64_t phase_start_edge_ = 0;
    uint64_t base_secure_ = 0;    // events completed before the current phase, by producer state
    uint64_t base_nonsecure_ = 0;
};

// A view of a rate_stream restricted to one security state.
class filtered_source : public event_source {
public:
    filtered_source(const rate_stream& stream, security_filter filter);
    uint64_t count_at(fs_t t) const override { return stream_.count_at(t, filter_); }
    uint64_t version() const override { return stream_.version(); }

private:
    const rate_stream& stream_;
    security_filter filter_;
};

// Every rising edge of a clock (e.g. a DSU or CMN cycle counter).
class clock_edges : public event_source {
public:
    explicit clock_edges(const clock_domain& clock);
    uint64_t count_at(fs_t t) const override { return clock_.edges_at(t); }
    uint64_t version() const override { return clock_.changes(); }

private:
    const clock_domain& clock_;
};

// Events driven directly into a unit's input by the testbench (`inject`): either
// all at once, or spread evenly over a duration (floor(count * elapsed / duration)
// delivered by each instant).
class injected_events : public event_source {
public:
    injected_events();
    void add(uint64_t count, fs_t now, fs_t over = 0);
    uint64_t count_at(fs_t t) const override;
    uint64_t version() const override { return changes(); }

private:
    struct ramp {
        fs_t start, duration;
        uint64_t count;
    };
    uint64_t settled_ = 0;
    std::vector<ramp> ramps_;
};

// The sum of several sources (e.g. L3 accesses from every core of a cluster plus injected ones).
class summed_source : public event_source {
public:
    summed_source();
    void add(const event_source& source);
    uint64_t count_at(fs_t t) const override;
    // Every part's version only grows, and any change grows one: their sum changes with any part.
    uint64_t version() const override;
    bool empty() const { return parts_.empty(); }

private:
    std::vector<const event_source*> parts_;
};

// One event each time another source's running total reaches a multiple of a divisor (e.g. the
// POWER9 IMC's 32 MHz reference: every 16th edge of a 512 MHz timebase).
class divided_source : public event_source {
public:
    divided_source(const event_source& base, uint64_t divisor);
    uint64_t count_at(fs_t t) const override { return base_.count_at(t) / divisor_; }
    uint64_t version() const override { return base_.version(); }

private:
    const event_source& base_;
    uint64_t divisor_;
};

// Another source counted only while a gate is open (e.g. a core's clock while any of its threads
// runs); closed at first. Exact: the count of each open interval is taken from the base source.
class gated_source : public event_source {
public:
    explicit gated_source(const event_source& base);
    // From `now` on; the base's events at or before `now` belong to the old state.
    void set_open(bool open, fs_t now);
    uint64_t version() const override { return changes() + base_.version(); }
    uint64_t count_at(fs_t t) const override {
        return closed_total_ + (open_ && t > open_since_ ? base_.count_at(t) - base_.count_at(open_since_) : 0);
    }

private:
    const event_source& base_;
    bool open_ = false;
    fs_t open_since_ = 0;
    uint64_t closed_total_ = 0;
};

// Reference mode: the twin of a source built on `base` needs base's twin; a model_error when it has none.
const std::shared_ptr<reference_source>& reference_twin_of(const event_source& base);

} // namespace pmusim
