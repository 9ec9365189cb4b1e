#pragma once
// Events at known mesh-clock edges, possibly in the future (flits in flight), and occupancy
// ramps (one event per edge over an interval): the source behind the CMN-600's flit-counted
// events (docs/cmn.md "Traffic"). Counting by edge number keeps it exact across DVFS.
#include <cstdint>
#include <vector>

#include "models/clock_domain.h"
#include "models/event_source.h"

namespace pmusim {

class reference_cmn_edge_events;

// Adding does not notify listeners: the unit adds a batch and then recomputes its overflow
// instants once. Cost: adding appends (O(1) amortised; what falls at or before the current
// edge is folded into a running total from time to time); the first count past the current
// edge after a batch sorts the batch into the pending list and rebuilds its prefix sums in
// O(n) for the n pending breakpoints, later counts are O(log n). With the requesters' bounded
// trackers (cmn_traffic_timing::max_outstanding) n is bounded, so the cost per flit does not
// grow with simulated time.
class cmn_edge_events : public event_source {
public:
    // In reference mode it creates its per-edge twin (cmn/cmn_reference.h) and forwards its inputs to it.
    explicit cmn_edge_events(const clock_domain& clock);
    // `count` events at edge `edge`. `settled_edge` is the current edge: nothing will ask for
    // a count before it, so what falls at or before it is folded into a running total.
    void add(uint64_t edge, uint64_t count, uint64_t settled_edge);
    // One event at each edge in (from, to].
    void add_ramp(uint64_t from, uint64_t to, uint64_t settled_edge);
    uint64_t count_at(fs_t t) const override;
    // add, add_ramp and drop_after note a change; counts are by edge, so the clock's changes count too.
    uint64_t version() const override { return changes() + clock_.changes(); }
    // Drops the events after `now_edge` (flits lost at a reset); the count up to it stays,
    // so the source never goes backwards under a lazy counter.
    void drop_after(uint64_t now_edge);
    // Events not yet folded (for tests and the memory figures).
    size_t pending() const { return pending_.size(); }

private:
    // What changes at one edge: point events there, and ramps starting (slope +1 from the
    // next edge on) or ending. A ramp over (from, to] adds max(0, min(e, to) - from) by edge
    // e, i.e. slope * (e - b) summed over its two breakpoints b <= e (+1 at from, -1 at to).
    struct breakpoint {
        uint64_t points = 0;
        int64_t slope = 0;
    };
    struct totals {
        uint64_t points = 0;
        int64_t slope = 0;
        __int128 weighted = 0; // sum of slope * b
        void add(uint64_t edge, const breakpoint& b) {
            points += b.points;
            slope += b.slope;
            weighted += (__int128)b.slope * edge;
        }
        uint64_t at(uint64_t e) const { return uint64_t(points + (__int128)slope * e - weighted); }
    };
    void push(uint64_t edge, breakpoint b);
    void sort_pending() const; // sorts the unsorted tail in and merges breakpoints at one edge
    void fold(uint64_t settled_edge);
    reference_cmn_edge_events* twin() const;

    const clock_domain& clock_;
    totals settled_; // breakpoints at or before the settled edge
    // Later breakpoints: [0, sorted_) sorted by edge with one entry per edge, then the unsorted
    // tail of the current batch. Sorting does not change what they count, hence mutable.
    mutable std::vector<std::pair<uint64_t, breakpoint>> pending_;
    mutable size_t sorted_ = 0;
    uint64_t first_pending_ = UINT64_MAX; // the earliest pending edge: counts before it need no sort
    size_t fold_at_ = 64;                 // fold when this many are pending (amortised)
    // totals of settled_ and pending_[0..i], rebuilt on the first count after a change.
    mutable std::vector<totals> prefix_;
    mutable bool prefix_valid_ = true;
};

} // namespace pmusim
