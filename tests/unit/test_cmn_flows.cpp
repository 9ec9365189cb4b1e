// Unit tests for CMN-600 flows (docs/cmn.md "Flows"): the floor sum behind the occupancy counts
// against plain sums, the offsets of one flow's transaction derived by hand from the routing rules,
// and the `flows` text's errors with file:line and what was expected.
#include <catch2/catch.hpp>

#include <random>

#include "cmn/cmn_flows.h"
#include "cmn/cmn_traffic.h"
#include "models/input_error.h"

using namespace pmusim;

namespace {

const cmn_text_origin origin{"t.yaml", 20, "units[0].params.flows"};

// 3x2 mesh of tests/platforms/cmn-flows.yaml: HN-D (0,0), HN-F (1,0), SN-F (2,0), RN-I (0,1), RN-F (2,1).
cmn_mesh flows_mesh() {
    return build_cmn_mesh(3, 2, "0,0 p0 hn-d\n1,0 p0 hn-f\n2,0 p0 sn-f\n0,1 p0 rn-i\n2,1 p0 rn-f\n",
                          {"t.yaml", 10, "units[0].params.nodes"});
}

std::string flows_error(const std::string& text, cmn_traffic_timing timing = {}) {
    try {
        parse_cmn_flows(flows_mesh(), text, origin, timing);
    } catch (const input_error& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("cmn flows: the floor sum equals the plain sum of floor(u x a / m)") {
    std::mt19937_64 rng(3);
    for (int i = 0; i < 2000; ++i) {
        const uint64_t n = rng() % 300, m = 1 + rng() % 97, a = rng() % 200, b = rng() % 150;
        unsigned __int128 plain = 0;
        for (uint64_t u = 0; u < n; ++u) plain += (a * u + b) / m;
        REQUIRE(cmn_floor_sum(n, m, a, b) == plain);
    }
    // Large: rate 1 gives n (n - 1) / 2 (one more in flight per edge), beyond 64 bits at n = 2^33.
    const uint64_t n = uint64_t(1) << 33;
    CHECK(cmn_floor_sum(n, 1, 1, 0) == (unsigned __int128)n * (n - 1) / 2);
    // Rate 3/40 over 10,000 edges (flows_node_events.seq's flow A hits): 3/40 * sum u minus fractions.
    unsigned __int128 plain = 0;
    for (uint64_t u = 0; u < 10000; ++u) plain += u * 3 / 40;
    CHECK(cmn_floor_sum(10000, 40, 3, 0) == plain);
}

TEST_CASE("cmn flows: one read's flits pass the XPs of its XY route at the documented offsets") {
    const cmn_mesh mesh = flows_mesh();
    const cmn_traffic_timing timing; // hop 2, port 1, HN-F 8
    const auto flows = parse_cmn_flows(mesh, "0,1 p0 to=hnf0 op=read rate=1/10", origin, timing);
    REQUIRE(flows.size() == 1);
    const auto terms = compile_cmn_flows(mesh, timing, flows);
    auto offset_of = [&](const std::string& node, uint8_t eventid) -> int64_t {
        for (const auto& t : terms)
            if (mesh.nodes[t.node].name == node && t.eventid == eventid && !t.ramp) return int64_t(t.offset);
        return -1;
    };
    // REQ: XP(0,1) east at +1, XP(1,1) south at +3, XP(1,0) to port 0 at +5; HN-F at +6.
    CHECK(offset_of("xp_0_1", cmn_xp_eventid(cmn_xp_kind::txflit_valid, cmn_xp_interface::east, cmn_channel::req)) == 1);
    CHECK(offset_of("xp_1_1", cmn_xp_eventid(cmn_xp_kind::txflit_valid, cmn_xp_interface::south, cmn_channel::req)) == 3);
    CHECK(offset_of("xp_1_0", cmn_xp_eventid(cmn_xp_kind::txflit_valid, cmn_xp_interface::p0, cmn_channel::req)) == 5);
    CHECK(offset_of("hnf0", 0x05) == 6); // hnf_pocq_reqs_recvd
    // Data out after 8 cycles: XP(1,0) west at +15 (and +16), the RN-I receives at +20 and +21.
    CHECK(offset_of("xp_1_0", cmn_xp_eventid(cmn_xp_kind::txflit_valid, cmn_xp_interface::west, cmn_channel::dat)) == 15);
    CHECK(offset_of("rni0", 0x04) == 20); // rnid_rxdat_flits (first of two)
    CHECK(offset_of("hnf0", 0x01) == -1); // no misses
    // The POCQ occupancy: held from +6 to +15.
    bool ramp = false;
    for (const auto& t : terms)
        if (t.ramp && t.eventid == 0x0f && t.occupid == 0) ramp = t.offset == 6 && t.until == 15;
    CHECK(ramp);
}

TEST_CASE("cmn flows: the flows text refuses bad input with its line and what was expected") {
    CHECK(flows_error("0,1 p0 to=hnf0 op=read rate=1/10\n") == "no error");
    CHECK(flows_error("0,1 p0 to=hnf0 op=read\n") ==
          "t.yaml:21: units[0].params.flows: a flow needs to=, op= and rate=: expected 'X,Y pP[.D] to=NODE "
          "op=read|write rate=R [miss=M] [mem=K] [start=C] [stop=C]'");
    CHECK(flows_error("0,1 p0 to=xp_1_0 op=read rate=1\n") ==
          "t.yaml:21: units[0].params.flows: expected to= a home node of the mesh (an HN-F or HN-I: hni0, hnf0), "
          "found 'to=xp_1_0'");
    CHECK(flows_error("0,1 p0 to=hnf0 op=ReadShared rate=1/10\n").find("expected op=read (ReadNoSnp) or op=write") !=
          std::string::npos);
    CHECK(flows_error("0,1 p0 to=hnf0 op=read rate=1/10 miss=3/2\n") ==
          "t.yaml:21: units[0].params.flows: expected miss= a share from 0 to 1, found 'miss=3/2'");
    CHECK(flows_error("0,1 p0 to=hni0 op=read rate=1/10 miss=1/2\n") ==
          "t.yaml:21: units[0].params.flows: miss= is for flows to an HN-F (an HN-I has no cache)");
    CHECK(flows_error("0,1 p0 to=hnf0 op=read rate=1/10 miss=1/2 mem=1\n") ==
          "t.yaml:21: units[0].params.flows: mem=1 names no memory: the mesh has 1 (SN-F devices and SBSX bridges "
          "in crosspoint order, from 0)");
    CHECK(flows_error("1,0 p0 to=hnf0 op=read rate=1/10\n").find("port p0 of crosspoint 1,0 is hn-f") !=
          std::string::npos);
    CHECK(flows_error("0,1 p0 to=hnf0 op=read rate=1/10 speed=3\n") ==
          "t.yaml:21: units[0].params.flows: unknown key 'speed': expected to=, op=, rate=, miss=, mem=, start= or stop=");
    CHECK(flows_error("0,1 p0 to=hnf0 op=read rate=1/10 start=20 stop=20\n") ==
          "t.yaml:21: units[0].params.flows: stop=20 is not after start=20: a flow issues in (start, stop]");
    CHECK(flows_error("0,1 p0 to=hnf0 op=read rate=1/10\n0,1 p0 to=hnf0 op=write rate=1/10 rate=1/2\n") ==
          "t.yaml:22: units[0].params.flows: rate= is written twice, found 'rate=1/2'");
}
