// The shared overflow skeleton (models/overflow_scheduler.h): wraps notified at their exact
// femtosecond, simultaneous wraps collected together, predictions made again after a change.
//
// The instants follow the clock convention of models/clock_domain.h: at 3 GHz edge j falls at
// ceil(j * 1e15 / 3e9) fs, so edge 4 at 1'333'334, edge 128 at 42'666'667, edge 144 at
// 48'000'000 and edge 256 at 85'333'334.
#include <catch2/catch.hpp>
#include <functional>
#include <vector>

#include "models/event_source.h"
#include "models/lazy_counter.h"
#include "models/overflow_scheduler.h"

using namespace pmusim;

namespace {

constexpr fs_t edge_4 = 1'333'334, edge_128 = 42'666'667, edge_144 = 48'000'000, edge_256 = 85'333'334;

struct wrap {
    fs_t at;
    size_t slot;
    uint64_t wraps;
};
bool operator==(const wrap& a, const wrap& b) { return a.at == b.at && a.slot == b.slot && a.wraps == b.wraps; }

// A unit reduced to its overflow process: on the event, take the wraps, let `then` change
// something, predict again.
struct overflow_process : sc_core::sc_module {
    SC_HAS_PROCESS(overflow_process);
    overflow_process(const sc_core::sc_module_name& name, overflow_scheduler& s) : sc_module(name), overflows(s) {
        SC_METHOD(on_overflow);
        sensitive << overflows.event();
        dont_initialize();
    }
    void on_overflow() {
        const fs_t now = now_fs();
        overflows.collect(now, [&](size_t slot, uint64_t wraps) { seen.push_back({now, slot, wraps}); });
        if (then) then();
        overflows.predict_all(now);
    }
    overflow_scheduler& overflows;
    std::vector<wrap> seen;
    std::function<void()> then;
};

// Counter A (slot 0): 8 bits counting every edge of a 3 GHz clock, wrapping at edge 256.
// Counter B (slot 1): 6 bits counting half an event per edge, wrapping at edges 128, 256, 384...
struct two_counters {
    clock_domain clock{"clk", 3'000'000'000};
    clock_edges edges{clock};
    rate_stream half{clock};
    lazy_counter a{8}, b{6};
    overflow_scheduler overflows;
    two_counters() {
        half.set_rate(rational(1, 2), 0);
        a.set_source(&edges, 0);
        b.set_source(&half, 0);
        a.set_enabled(true, 0);
        b.set_enabled(true, 0);
        overflows.add(a);
        overflows.add(b);
    }
};

void run_until(fs_t t) { sc_core::sc_start(to_sc_time(t - now_fs())); }

} // namespace

TEST_CASE("overflow scheduler: two counters wrap at their exact femtoseconds - simultaneous wraps together") {
    two_counters u;
    overflow_process p("p", u.overflows);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    u.overflows.predict_all(0);
    CHECK(u.overflows.earliest() == edge_128);
    CHECK(u.overflows.predicted(0) == edge_256);
    run_until(edge_128 - 1);
    CHECK(p.seen.empty()); // not a femtosecond early
    run_until(100'000'000);
    const std::vector<wrap> expected{{edge_128, 1, 1}, {edge_256, 0, 1}, {edge_256, 1, 1}};
    CHECK(p.seen == expected);
    CHECK(u.a.read(now_fs()) == 44); // 300 edges by 100 ns, 256 of them wrapped
}

TEST_CASE("overflow scheduler: a counter written moves its wrap once predicted again") {
    two_counters u;
    overflow_process p("p", u.overflows);
    // At B's first wrap (edge 128) A, at 128, is written 240: it wraps 16 edges later, at edge 144,
    // and next at edge 400; B wraps again at edge 256.
    p.then = [&] {
        if (now_fs() == edge_128) u.a.write(240, now_fs());
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    u.overflows.predict_all(0);
    run_until(100'000'000);
    const std::vector<wrap> expected{{edge_128, 1, 1}, {edge_144, 0, 1}, {edge_256, 1, 1}};
    CHECK(p.seen == expected);
}

TEST_CASE("overflow scheduler: predict() keeps the earliest exact - quiet() only after predict_all") {
    two_counters u;
    overflow_process p("p", u.overflows);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    u.overflows.predict_all(0);
    CHECK(u.overflows.quiet(edge_128 - 1));
    CHECK_FALSE(u.overflows.quiet(edge_128));
    // B, the earliest, stops: the earliest is found again among all (A's).
    u.b.set_enabled(false, 0);
    u.overflows.predict(1, 0);
    CHECK(!u.overflows.predicted(1));
    CHECK(u.overflows.earliest() == edge_256);
    CHECK_FALSE(u.overflows.quiet(0));
    // B again, two events from its wrap: sooner than A's.
    u.b.write(62, 0);
    u.b.set_enabled(true, 0);
    u.overflows.predict(1, 0);
    CHECK(u.overflows.earliest() == edge_4);
    u.overflows.arm(0);
    run_until(2'000'000);
    const std::vector<wrap> expected{{edge_4, 1, 1}};
    CHECK(p.seen == expected);
}

TEST_CASE("overflow scheduler: a counter whose wraps do not matter is not predicted but collected") {
    two_counters u;
    overflow_process p("p", u.overflows);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    u.overflows.predict_all(0, [](size_t slot) { return slot != 1; });
    CHECK(!u.overflows.predicted(1));
    CHECK(u.overflows.earliest() == edge_256);
    CHECK_FALSE(u.overflows.quiet(0)); // B may wrap unannounced
    run_until(edge_256 + 1);
    // The process predicts every counter again after the first event; B's wraps at edge 128 and 256
    // are taken together with A's at edge 256.
    const std::vector<wrap> expected{{edge_256, 0, 1}, {edge_256, 1, 2}};
    CHECK(p.seen == expected);
}
