#pragma once
// The reference twin of cmn_edge_events (docs/reference-mode.md, step 3): flit-counted
// and occupancy events delivered cycle by cycle. It hears the same inputs as the fast
// source (events at edge numbers, occupancy ramps, drops at a reset) and keeps its own
// per-edge schedule; on every rising edge of the mesh clock it emits what falls on that
// edge. Events added for an edge the clock has already delivered (a request issued by a
// process that runs after the clock's edge process at the same instant) are emitted at
// once: they belong to the current instant.
#include <cstdint>
#include <map>
#include <memory>

#include "models/reference_clock.h"
#include "models/reference_sources.h"

namespace pmusim {

class reference_cmn_edge_events : public reference_source, reference_edge_listener {
public:
    explicit reference_cmn_edge_events(std::shared_ptr<reference_clock> clock);
    ~reference_cmn_edge_events() override;
    // `count` events at mesh edge `edge` (edges counted from time 0).
    void add(uint64_t edge, uint64_t count);
    // One event on each edge in (from, to].
    void add_ramp(uint64_t from, uint64_t to);
    // Forgets every event after the current edge (flits lost at a reset).
    void drop_pending();
    void on_edge() override;

private:
    std::shared_ptr<reference_clock> clock_;
    std::map<uint64_t, uint64_t> points_;     // edge -> events on that edge
    std::map<uint64_t, int64_t> ramp_steps_;  // edge -> change of the ramps active from that edge on
    uint64_t active_ramps_ = 0;               // ramps covering the edge last delivered
};

} // namespace pmusim
