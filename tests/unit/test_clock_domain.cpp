// Edge counting across frequency changes: integer-exact at any frequency.
#include <catch2/catch.hpp>

#include "models/clock_domain.h"

using namespace pmusim;

TEST_CASE("clock: edges up to t at a constant frequency") {
    clock_domain c("cpu0", 2'000'000'000); // 500 ps period = 500'000 fs
    CHECK(c.edges_at(0) == 0);
    CHECK(c.edges_at(499'999) == 0);
    CHECK(c.edges_at(500'000) == 1);        // an edge exactly at t is inside (0, t]
    CHECK(c.edges_at(1'000'000'000) == 2000); // 1 us
    CHECK(c.time_of_edge(1) == 500'000);
    CHECK(c.time_of_edge(2000) == 1'000'000'000);
    CHECK(c.time_after_edges(500'000, 1) == 1'000'000);
    CHECK(c.time_after_edges(500'001, 1) == 1'000'000);
}

TEST_CASE("clock: 3 GHz has no drift over one simulated second") {
    clock_domain c("cpu0", 3'000'000'000);
    CHECK(c.edges_at(fs_per_second) == 3'000'000'000ULL);
    CHECK(c.edges_at(fs_per_second - 1) == 2'999'999'999ULL);
    // Edge 1 at ceil(1e15/3e9) = 333334 fs; edge 3 at exactly 1 ns.
    CHECK(c.time_of_edge(1) == 333'334);
    CHECK(c.time_of_edge(3) == 1'000'000);
    CHECK(c.time_of_edge(3'000'000'000ULL) == fs_per_second);
    for (uint64_t n : {1ULL, 2ULL, 7ULL, 1'000'001ULL, 2'999'999'999ULL}) {
        fs_t t = c.time_of_edge(n);
        CHECK(c.edges_at(t) == n);
        CHECK(c.edges_at(t - 1) == n - 1);
    }
}

TEST_CASE("clock: 32.768 kHz and 25 MHz are exact") {
    clock_domain slow("rtc", 32'768);
    CHECK(slow.edges_at(fs_per_second) == 32'768);
    clock_domain c25("const", 25'000'000);
    CHECK(c25.edges_at(fs_per_second / 1000) == 25'000);
}

TEST_CASE("clock: DVFS change takes effect at the given instant") {
    clock_domain c("cpu0", 2'000'000'000);
    // 2000 edges at 2 GHz take 1 us; then 1 GHz.
    c.set_frequency(1'000'000'000, 1'000'000'000);
    CHECK(c.frequency_hz() == 1'000'000'000);
    CHECK(c.edges_at(1'000'000'000) == 2000);
    CHECK(c.edges_at(1'000'999'999) == 2000);
    CHECK(c.edges_at(1'001'000'000) == 2001); // first new edge one new period after the change
    CHECK(c.edges_at(2'000'000'000) == 3000);
    CHECK(c.time_of_edge(2000) == 1'000'000'000);
    CHECK(c.time_of_edge(2001) == 1'001'000'000);
    // Past instants still answer from their own segment.
    CHECK(c.edges_at(500'000'000) == 1000);
}

TEST_CASE("clock: a change between edges drops the partial period") {
    clock_domain c("cpu0", 1'000'000'000); // 1 ns period
    c.set_frequency(2'000'000'000, 1'500'000); // at 1.5 ns: 1 edge so far
    CHECK(c.edges_at(1'500'000) == 1);
    CHECK(c.edges_at(1'999'999) == 1);
    CHECK(c.edges_at(2'000'000) == 2);
}

TEST_CASE("clock: frequency 0 stops the clock - restarting resumes") {
    clock_domain c("cpu0", 1'000'000'000);
    c.set_frequency(0, 10'000'000); // 10 edges
    CHECK(c.edges_at(1'000'000'000) == 10);
    CHECK(c.time_of_edge(11) == fs_never);
    c.set_frequency(1'000'000'000, 20'000'000);
    CHECK(c.edges_at(21'000'000) == 11);
    CHECK(c.time_of_edge(11) == 21'000'000);
}

TEST_CASE("clock: two changes at the same instant keep the last") {
    clock_domain c("cpu0", 1'000'000'000);
    c.set_frequency(3'000'000'000, 5'000'000);
    c.set_frequency(2'000'000'000, 5'000'000);
    CHECK(c.edges_at(6'000'000) == 7);
    int notified = 0;
    c.on_change([&] { ++notified; });
    c.reset(7'000'000);
    CHECK(notified == 1);
    CHECK(c.frequency_hz() == 1'000'000'000);
    CHECK(c.edges_at(8'000'000) == 10);
}

TEST_CASE("clock: edges at time 0 after a frequency change") {
    // Regression (found by ASan): with more than one segment, asking for t = 0 (a source that
    // opened at time 0, e.g. an IMC gated source) read before the first segment.
    clock_domain c("cpu0", 2'000'000'000);
    c.set_frequency(1'000'000'000, 1'000'000'000); // at 1 us: 2000 edges so far
    CHECK(c.edges_at(0) == 0);
    CHECK(c.edges_at(500'000) == 1);             // still the first segment's 2 GHz edges
    CHECK(c.edges_at(1'000'000'000) == 2000);
    CHECK(c.edges_at(1'001'000'000) == 2001);    // one 1 GHz period after the change
}
