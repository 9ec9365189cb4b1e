// The per-cycle reference mode's own engines (docs/reference-mode.md), checked against the
// counting convention by hand. Each test case selects the mode before building anything:
// this is the C++ API tests use (set_reference_mode before the platform or the models).
#include <catch2/catch.hpp>

#include "models/event_source.h"
#include "models/lazy_counter.h"
#include "models/reference_clock.h"
#include "models/reference_mode.h"

using namespace pmusim;

namespace {
void run_to(fs_t t) { sc_core::sc_start(to_sc_time(t - now_fs())); }
} // namespace

TEST_CASE("reference mode: a 3 GHz clock fires on every edge - 3000 edges in 1 us") {
    set_reference_mode(true);
    init_time_resolution();
    clock_domain clk("cpu0", 3'000'000'000);
    rate_stream cycles(clk);
    cycles.set(rational(1), false, 0);
    lazy_counter c(64);
    c.set_source(&cycles, 0);
    c.set_enabled(true, 0);
    REQUIRE(clk.reference());
    // Edge j at ceil(j * 1e15 / 3e9) fs = ceil(j * 333333.33...): edge 1 at 333334 fs.
    run_to(333'333);
    CHECK(c.read(now_fs()) == 0);
    run_to(333'334);
    CHECK(c.read(now_fs()) == 1);
    run_to(1'000'000'000); // 1 us: edge 3000 falls exactly at 1e9 fs
    CHECK(c.read(now_fs()) == 3000);
    CHECK(clk.reference()->edges() == 3000);
}

TEST_CASE("reference mode: rate 3/2 delivers 1 - 2 - 1 - 2 events on successive edges") {
    set_reference_mode(true);
    init_time_resolution();
    clock_domain clk("cpu0", 1'000'000'000); // edges every 1 ns = 1e6 fs
    rate_stream s(clk);
    s.set(rational(3, 2), false, 0);
    lazy_counter c(64);
    c.set_source(&s, 0);
    c.set_enabled(true, 0);
    const uint64_t expected[] = {0, 1, 3, 4, 6, 7, 9}; // floor(j * 3 / 2)
    for (uint64_t j = 1; j < 7; ++j) {
        run_to(j * 1'000'000);
        CHECK(c.read(now_fs()) == expected[j]);
    }
}

TEST_CASE("reference mode: an 8-bit counter wraps at the edge and tells its listener then") {
    set_reference_mode(true);
    init_time_resolution();
    clock_domain clk("dsu0", 1'000'000'000);
    clock_edges edges(clk);
    lazy_counter c(8);
    c.set_source(&edges, 0);
    c.write(250, 0);
    c.set_enabled(true, 0);
    fs_t wrapped_at = 0;
    c.on_reference_wrap([&] { wrapped_at = now_fs(); });
    run_to(10'000'000);
    CHECK(wrapped_at == 6'000'000); // 250 + 6 edges = 256: the 6th edge (6 ns) wraps to 0
    CHECK(c.read(now_fs()) == 4);   // 10 edges: (250 + 10) mod 256
    CHECK(c.take_overflows(now_fs()) == 1);
    CHECK(!c.next_overflow(now_fs())); // nothing due: the next wrap is announced when it happens
}

TEST_CASE("reference mode: a frequency change keeps the edge at its instant at the old frequency") {
    set_reference_mode(true);
    init_time_resolution();
    clock_domain clk("cpu0", 1'000'000'000);
    clock_edges edges(clk);
    lazy_counter c(64);
    c.set_source(&edges, 0);
    c.set_enabled(true, 0);
    run_to(2'000'000);                      // edges at 1 and 2 ns
    clk.set_frequency(2'000'000'000, now_fs()); // 2 GHz from 2 ns: edges at 2.5, 3, 3.5, ...
    run_to(2'499'999);
    CHECK(c.read(now_fs()) == 2);
    run_to(5'000'000);
    CHECK(c.read(now_fs()) == 2 + 6); // 2.5, 3, 3.5, 4, 4.5, 5 ns
    clk.set_frequency(0, now_fs());   // stopped
    run_to(9'000'000);
    CHECK(c.read(now_fs()) == 8);
}

TEST_CASE("reference mode: injected events spread over a duration arrive at ceil(k x d / n)") {
    set_reference_mode(true);
    init_time_resolution();
    injected_events inj;
    lazy_counter c(64);
    c.set_source(&inj, 0);
    c.set_enabled(true, 0);
    run_to(1);
    inj.add(3, now_fs(), 10'000'000); // 3 events over 10 ns from 1 fs: at 1 + 3333334, 1 + 6666667, 1 + 1e7
    run_to(3'333'334);
    CHECK(c.read(now_fs()) == 0);
    run_to(3'333'335);
    CHECK(c.read(now_fs()) == 1);
    run_to(6'666'668);
    CHECK(c.read(now_fs()) == 2);
    run_to(10'000'000);
    CHECK(c.read(now_fs()) == 2);
    run_to(10'000'001);
    CHECK(c.read(now_fs()) == 3);
    inj.add(5, now_fs()); // at once
    CHECK(c.read(now_fs()) == 8);
}
