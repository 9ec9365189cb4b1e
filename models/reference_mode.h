#pragma once
// The per-cycle reference mode (docs/reference-mode.md): the simplest,
// obviously-correct way to count, used to check the fast (lazy) path.
//
// In reference mode every clock_domain has a reference_clock that runs a SystemC
// process on every rising edge; every event source has a twin that delivers its
// events edge by edge (or, for injected events, one by one at their instants);
// every lazy_counter delegates to a reference_counter that adds those events as
// they come and reports a wrap at the edge where it happens. None of it shares
// arithmetic with clock_domain, event_source or lazy_counter: the twins keep
// their own state and only hear the same inputs (frequency changes, phase
// changes, injections, enables, writes).
//
// The mode is chosen once per process, before the platform is built, because
// the twins are created with the objects they mirror.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/sim_time.h"

namespace pmusim {

// Whether clocks, sources and counters built from now on use the reference engines.
bool reference_mode();
// Selects the mode. Call before building any clock_domain, event source or lazy_counter
// (i.e. before constructing the platform): objects keep the mode they were built in.
void set_reference_mode(bool on);

class reference_clock;
class reference_counter;
class reference_injected;

// Brings every reference clock and injection up to an instant. Edges of
// different clocks at the same instant are independent (each feeds its own
// streams), so the order between clocks does not matter; within a clock, edges
// are delivered in order.
//
// Counters that wrapped are told (their on_wrap listeners run) from a SystemC
// method process, once every edge at or before the instant has been delivered:
// from the clock's own per-edge process, which runs in the first evaluation of
// that instant like a fast-mode unit's overflow method does, or, when a wrap
// came from an injection made by a thread, one delta later. Listeners never run
// inside a unit's own counter operations.
class reference_world {
public:
    static reference_world& instance();

    // Delivers every edge and injected event at or before `now` (re-entrant calls return at once).
    void catch_up(fs_t now);
    // catch_up, then the wrap listeners: what the per-edge processes run.
    void activate(fs_t now);

    void add_clock(reference_clock* c) { clocks_.push_back(c); }
    void remove_clock(reference_clock* c);
    // An injection twin with events still to deliver; it is woken at the instant of each one.
    void add_pending(const std::shared_ptr<reference_injected>& twin, fs_t next_event);
    // A counter wrapped: its listeners run once the current catch-up is complete.
    void defer_wrap(reference_counter* c) { wrapped_.push_back(c); }
    void forget_counter(reference_counter* c);

    // Reference work done so far (for benchmarks and reports).
    uint64_t edges_delivered() const { return edges_; }
    void count_edge() { ++edges_; }

private:
    reference_world() = default;
    void arm_injections();
    void on_injection_wake();
    void run_wrap_listeners();
    std::vector<reference_clock*> clocks_;
    std::vector<std::weak_ptr<reference_injected>> pending_;
    std::vector<reference_counter*> wrapped_;
    bool busy_ = false;
    uint64_t edges_ = 0;
    struct waker;
    std::unique_ptr<waker> waker_;
    friend class reference_injected;
};

} // namespace pmusim
