#pragma once
// The reference twin of a clock_domain: a SystemC process woken on every rising
// edge, which hands the edge to the streams of that clock (docs/reference-mode.md).
//
// Edge times follow the counting convention of models/clock_domain.h, computed
// incrementally: while the frequency is f from the change at T0, edge j falls at
// T0 + ceil(j * 1e15 / f); the twin keeps floor(j * 1e15 / f) as a quotient and a
// remainder and adds one period (1e15 div f, 1e15 mod f) per edge, carrying the
// remainder. A change takes effect at its instant: edges at or before it are
// delivered at the old frequency first.
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "models/sim_time.h"

namespace pmusim {

// Something that acts on every edge of a reference clock (a stream twin).
class reference_edge_listener {
public:
    virtual ~reference_edge_listener() = default;
    virtual void on_edge() = 0;
};

class reference_clock {
public:
    reference_clock(std::string name, uint64_t frequency_hz);
    ~reference_clock();
    reference_clock(const reference_clock&) = delete;
    reference_clock& operator=(const reference_clock&) = delete;

    const std::string& name() const { return name_; }
    // DVFS: the new frequency from `at` (the current instant, or 0 before the simulation).
    void set_frequency(uint64_t frequency_hz, fs_t at);

    void subscribe(reference_edge_listener* l) { listeners_.push_back(l); }
    void unsubscribe(reference_edge_listener* l);

    // Delivers every edge at or before `now`, in order.
    void deliver_until(fs_t now);
    // Instant of the next edge not yet delivered (fs_never when stopped).
    fs_t next_edge() const { return next_edge_; }
    // Edges delivered since time 0.
    uint64_t edges() const { return edges_; }

private:
    void start_segment(uint64_t frequency_hz, fs_t at);
    void compute_next_edge();
    void on_wake(); // the SystemC method: one activation per edge
    void arm();

    std::string name_;
    uint64_t frequency_hz_ = 0;
    fs_t segment_start_ = 0;
    // floor(j * 1e15 / f) as quotient and remainder for the next edge j of this segment.
    uint64_t quotient_ = 0, remainder_ = 0;
    uint64_t period_quotient_ = 0, period_remainder_ = 0;
    fs_t next_edge_ = fs_never;
    uint64_t edges_ = 0;
    std::vector<reference_edge_listener*> listeners_;
    sc_core::sc_event wake_;
    bool spawned_ = false;
};

} // namespace pmusim
