// cmn_edge_events: flit events at mesh edges and occupancy ramps, counted by edge number
// (cmn/cmn_edge_events.h). A 1 GHz clock: edge j falls at j ns, and a count at an edge's
// instant includes that edge.
#include <catch2/catch.hpp>

#include "cmn/cmn_edge_events.h"

using namespace pmusim;

namespace {
constexpr fs_t ns = 1'000'000;
}

TEST_CASE("cmn edge events: points and ramps added out of order count by edge") {
    clock_domain clk("mesh", 1'000'000'000);
    cmn_edge_events ev(clk);
    ev.add(10, 3, 0);
    ev.add(5, 1, 0);
    ev.add_ramp(4, 8, 0); // one event on each of edges 5, 6, 7, 8
    ev.add(8, 2, 0);
    CHECK(ev.count_at(4 * ns) == 0);
    CHECK(ev.count_at(5 * ns) == 2);          // point at 5, ramp edge 5
    CHECK(ev.count_at(5 * ns + 999'999) == 2); // between edges 5 and 6
    CHECK(ev.count_at(7 * ns) == 4);          // 1 + ramp 5..7
    CHECK(ev.count_at(8 * ns) == 7);          // 1 + ramp 5..8 + 2
    CHECK(ev.count_at(9 * ns) == 7);
    CHECK(ev.count_at(10 * ns) == 10);
    CHECK(ev.count_at(1000 * ns) == 10);
}

TEST_CASE("cmn edge events: folding what is settled keeps the counts - a reset keeps the past") {
    clock_domain clk("mesh", 1'000'000'000);
    cmn_edge_events ev(clk);
    ev.add(10, 3, 0);
    // 100 flits on edges 20..119, added at edge 15: enough to fold the list on the way.
    for (uint64_t e = 20; e < 120; ++e) ev.add(e, 1, 15);
    CHECK(ev.count_at(15 * ns) == 3);
    CHECK(ev.count_at(50 * ns) == 3 + 31); // edges 20..50
    // A ramp reported at edge 40 for (10, 30]: all 20 of its events are already due.
    ev.add_ramp(10, 30, 40);
    CHECK(ev.count_at(40 * ns) == 3 + 21 + 20);
    CHECK(ev.count_at(45 * ns) == 3 + 26 + 20);
    // A ramp over (65, 80] reported at edge 60, then a reset at edge 70: flits 71..119 and
    // the ramp's edges 71..80 are lost; what was counted up to edge 70 stays.
    ev.add_ramp(65, 80, 60);
    CHECK(ev.count_at(70 * ns) == 3 + 51 + 20 + 5);
    ev.drop_after(70);
    CHECK(ev.count_at(70 * ns) == 79);
    CHECK(ev.count_at(500 * ns) == 79);
    ev.add(75, 4, 70);
    CHECK(ev.count_at(74 * ns) == 79);
    CHECK(ev.count_at(75 * ns) == 83);
}
