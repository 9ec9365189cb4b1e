#pragma once
// A clock domain: an integer frequency in Hz that may change at run time (DVFS).
//
// Counting convention, used everywhere in pmusim: a domain's rising edges are
// numbered 1, 2, 3, ... from time 0; "the edges in an interval (a, b]" are those
// strictly after a and at or before b. While the frequency is f from time T0
// (the instant of the last change), edge j after T0 falls at T0 + ceil(j * 1e15 / f)
// femtoseconds. A change of frequency at time Tc takes effect at Tc: edges up
// to and including Tc belong to the old frequency, and the first edge at the new
// frequency is one new period after Tc. Frequency 0 stops the clock.
// All arithmetic is integer (128-bit intermediates): no drift at any frequency.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/sim_time.h"

namespace pmusim {

class reference_clock;

class clock_domain {
public:
    clock_domain(std::string name, uint64_t frequency_hz);

    const std::string& name() const { return name_; }
    uint64_t frequency_hz() const { return segments_.back().frequency_hz; }
    uint64_t initial_frequency_hz() const { return initial_hz_; }

    // DVFS: the new frequency applies from `at` (which may not precede the last change).
    void set_frequency(uint64_t frequency_hz, fs_t at);
    // Cold reset: back to the initial frequency from `at` (edge numbering continues).
    void reset(fs_t at) { set_frequency(initial_hz_, at); }

    // Number of rising edges in (0, t]. Times after the last change extrapolate the current frequency.
    uint64_t edges_at(fs_t t) const;
    // Instant of edge number n (n >= 1), or fs_never when the clock stops before it.
    fs_t time_of_edge(uint64_t n) const;
    // Instant of the k-th edge strictly after `from` (k >= 1), or fs_never when it lies beyond
    // the end of time: an edge number past 2^64-1 saturates instead of wrapping to an early edge
    // (which answered `run 2^64-1 cycles` with no time passing; docs/reliability.md).
    fs_t time_after_edges(fs_t from, uint64_t k) const {
        const uint64_t before = edges_at(from);
        return k > UINT64_MAX - before ? fs_never : time_of_edge(before + k);
    }

    // How many frequency changes there were (event sources derive their version() from it).
    uint64_t changes() const { return changes_; }
    // Called after every frequency change, so that scheduled overflow instants can be recomputed.
    void on_change(std::function<void()> listener) const { listeners_.push_back(std::move(listener)); }

    // Reference mode only (models/reference_mode.h): the per-edge twin of this clock, else null.
    const std::shared_ptr<reference_clock>& reference() const { return reference_; }

private:
    struct segment {
        fs_t start;            // instant the frequency took effect
        uint64_t frequency_hz; // 0: stopped
        uint64_t edges_before; // edges in (0, start]
    };
    const segment& segment_at(fs_t t) const;
    static uint64_t edges_in(const segment& s, fs_t t);

    std::string name_;
    uint64_t initial_hz_;
    std::vector<segment> segments_;
    uint64_t changes_ = 0;
    mutable std::vector<std::function<void()>> listeners_;
    std::shared_ptr<reference_clock> reference_;
};

} // namespace pmusim
