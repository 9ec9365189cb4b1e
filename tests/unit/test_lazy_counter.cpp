// Exact rates, lazy counters, wraps and overflow instants.
#include <catch2/catch.hpp>

#include "models/core.h"
#include "models/event_source.h"
#include "models/lazy_counter.h"

using namespace pmusim;

TEST_CASE("events: rate 3/2 per cycle delivers floor(j x 3/2)") {
    clock_domain clk("cpu0", 1'000'000'000);
    rate_stream s(clk);
    s.set(rational(3, 2), false, 0);
    const uint64_t expected[] = {0, 1, 3, 4, 6, 7, 9};
    for (uint64_t j = 0; j < 7; ++j) CHECK(s.count_at(j * 1'000'000) == expected[j]);
}

TEST_CASE("events: a rate change starts a new phase - the same rate keeps its phase") {
    clock_domain clk("cpu0", 1'000'000'000);
    rate_stream s(clk);
    s.set(rational(1, 2), false, 0);
    CHECK(s.count_at(3'000'000) == 1);
    s.set(rational(1, 2), false, 3'000'000); // unchanged: no new phase
    CHECK(s.count_at(4'000'000) == 2);
    s.set(rational(1, 3), false, 4'000'000);
    CHECK(s.count_at(6'000'000) == 2);
    CHECK(s.count_at(7'000'000) == 3);
}

TEST_CASE("events: security split and filtered views") {
    clock_domain clk("cpu0", 1'000'000'000);
    rate_stream s(clk);
    filtered_source secure(s, security_filter::secure_only), nonsecure(s, security_filter::nonsecure_only);
    s.set(rational(1), true, 0);
    s.set_secure(false, 10'000'000);
    CHECK(secure.count_at(25'000'000) == 10);
    CHECK(nonsecure.count_at(25'000'000) == 15);
    CHECK(s.count_at(25'000'000) == 25);
}

TEST_CASE("events: injected counts / at once and spread over a duration") {
    injected_events inj;
    inj.add(10, 0);
    inj.add(100, 1'000'000, 4'000'000); // 100 events over 4 ns from 1 ns
    CHECK(inj.count_at(1'000'000) == 10);
    CHECK(inj.count_at(2'000'000) == 35);
    CHECK(inj.count_at(5'000'000) == 110);
    CHECK(inj.count_at(9'000'000) == 110);
}

TEST_CASE("events: first_time_reaching finds the exact femtosecond") {
    clock_domain clk("cpu0", 3'000'000'000);
    clock_edges edges(clk);
    auto t = first_time_reaching(edges, 3, 0);
    REQUIRE(t);
    CHECK(*t == 1'000'000);
    CHECK(!first_time_reaching(edges, 3, 0).value() == false);
    rate_stream idle(clk);
    CHECK(!first_time_reaching(idle, 1, 0));
}

TEST_CASE("lazy counter: counts only while enabled / wraps at its width") {
    clock_domain clk("cpu0", 1'000'000'000);
    clock_edges edges(clk);
    lazy_counter c(16);
    c.set_source(&edges, 0);
    CHECK(c.read(5'000'000) == 0); // disabled
    c.set_enabled(true, 5'000'000);
    CHECK(c.read(15'000'000) == 10);
    c.set_enabled(false, 15'000'000);
    CHECK(c.read(100'000'000) == 10);
    c.write(0xFFF0, 100'000'000);
    c.set_enabled(true, 100'000'000);
    CHECK(c.next_overflow(100'000'000) == 116'000'000); // 16 edges to wrap to 0
    CHECK(c.read(115'000'000) == 0xFFFF);
    CHECK(c.take_overflows(115'000'000) == 0);
    CHECK(c.read(117'000'000) == 1);
    CHECK(c.take_overflows(117'000'000) == 1);
    CHECK(c.take_overflows(117'000'000) == 0);
}

TEST_CASE("lazy counter: 64-bit wrap and overflow instant follow DVFS") {
    clock_domain clk("cpu0", 2'000'000'000);
    clock_edges edges(clk);
    lazy_counter c(64);
    c.set_source(&edges, 0);
    c.write(~0ULL - 9, 0);
    c.set_enabled(true, 0);
    CHECK(c.next_overflow(0) == 5'000'000); // 10 edges at 500 ps
    clk.set_frequency(1'000'000'000, 2'000'000); // 4 edges done
    CHECK(c.next_overflow(2'000'000) == 8'000'000); // 6 more at 1 ns
    CHECK(c.read(8'000'000) == 0);
    CHECK(c.take_overflows(8'000'000) == 1);
}

TEST_CASE("lazy counter: a second read at the same instant sees every change made at that instant") {
    // Reads at one instant reuse the count taken there only while the source is unchanged
    // (event_source::version); each change below happens at the instant already read.
    clock_domain clk("cpu0", 1'000'000'000);
    rate_stream stream(clk);
    injected_events injected;
    summed_source sum;
    sum.add(stream);
    sum.add(injected);
    stream.set(rational(2), false, 0);
    lazy_counter c(64);
    c.set_source(&sum, 0);
    c.set_enabled(true, 0);
    const fs_t t = 10'000'000;  // edge 10: 20 events
    CHECK(c.read(t) == 20);
    CHECK(c.read(t) == 20);
    injected.add(5, t);          // 5 events at once, at t
    CHECK(c.read(t) == 25);
    stream.set(rational(1), false, t); // a new phase from t: nothing more at t itself
    CHECK(c.read(t) == 25);
    CHECK(c.read(t + 3'000'000) == 28);
    // A clock change at the instant read: the rate stream does not announce it, its version still moves.
    const fs_t u = t + 3'000'000;
    CHECK(c.read(u) == 28);
    clk.set_frequency(2'000'000'000, u);
    CHECK(c.read(u) == 28);
    CHECK(c.read(u + 1'000'000) == 30); // two edges of 500 ps at rate 1
    // The default version of a source that cannot tell changes on every call: nothing is reused.
    struct settable : event_source {
        uint64_t n = 0;
        uint64_t count_at(fs_t) const override { return n; }
    } plain;
    lazy_counter d(64);
    d.set_source(&plain, 0);
    d.set_enabled(true, 0);
    CHECK(d.read(t) == 0);
    plain.n = 7; // changed without telling anyone
    CHECK(d.read(t) == 7);
}

TEST_CASE("core: workload rates count only while running") {
    clock_domain cpu("cpu0", 2'000'000'000), cst("const", 100'000'000);
    core_model core(0, cpu, cst);
    core.set_workload({{"inst", rational(3, 2)}, {"mem_stall", rational(1, 10)}}, 0);
    fs_t one_us = 1'000'000'000;
    CHECK(core.events("cycles").count_at(one_us) == 2000);
    CHECK(core.events("const_cycles").count_at(one_us) == 100);
    CHECK(core.events("inst").count_at(one_us) == 3000);
    CHECK(core.events("mem_stall").count_at(one_us) == 200);
    core.set_power(power_state::wfi, one_us);
    CHECK(core.events("cycles").count_at(2 * one_us) == 2000);
    CHECK(core.events("const_cycles").count_at(2 * one_us) == 100);
    core.set_power(power_state::run, 2 * one_us);
    CHECK(core.events("inst").count_at(3 * one_us) == 6000);
    CHECK_THROWS(core.set_workload({{"cycles", rational(2)}}, 3 * one_us));
}

TEST_CASE("lazy counter: a read at fs_never with no source and never enabled is its value") {
    // fs_never is also the lazy counter's "counted at no instant" mark: a read at that time (a
    // dump at the end of an unbounded run) once dereferenced the missing source.
    lazy_counter c(32);
    c.write(7, 0);
    CHECK(c.read(fs_never) == 7);
}
