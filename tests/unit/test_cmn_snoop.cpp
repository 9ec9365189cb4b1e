// Unit tests for the CMN-600 coherence model and I/O traffic (docs/cmn.md "Coherence and
// snoops", "I/O traffic", "The `traffic` statement"): SNP match-group values, snoops of
// several sharers, RN-F tag-store evictions leaving the snoop filter, SBSX memory, the `io`
// text and the traffic statement's errors. Expected counts are worked out by hand from the
// traffic each test starts.
#include <catch2/catch.hpp>

#include <functional>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "cmn/cmn600.h"
#include "vp/platform.h"
#include "vp/unit_list.h"
#include "tests/unit/tlm_test_access.h"

using namespace pmusim;

namespace {

struct snoop_bench : sc_core::sc_module {
    SC_HAS_PROCESS(snoop_bench);
    platform& p;
    std::function<void(snoop_bench&)> body;
    tlm_utils::simple_initiator_socket<snoop_bench> out{"out"};

    snoop_bench(sc_core::sc_module_name n, platform& pl, std::function<void(snoop_bench&)> b)
        : sc_module(n), p(pl), body(std::move(b)) {
        out.bind(pl.gate().from_initiators);
        SC_THREAD(run);
    }
    uint64_t read64(uint64_t a) {
        access_context ctx;
        ctx.el = 1;
        ctx.path = access_path::memory_mapped;
        return testing::tlm_access(*out.operator->(), false, a, 8, 0, ctx).value;
    }
    void write64(uint64_t a, uint64_t v) {
        access_context ctx;
        ctx.el = 1;
        ctx.path = access_path::memory_mapped;
        testing::tlm_access(*out.operator->(), true, a, 8, v, ctx);
    }
    void cycles(uint64_t n) { wait(sc_core::sc_time(double(n * 1000000), sc_core::SC_FS)); } // 1 GHz
    // `traffic cmn0 XY PORT SETTINGS...`; the error text when refused.
    std::string traffic(const std::string& xy, const std::string& port, std::vector<std::string> settings) {
        std::string error;
        static_cast<cmn600*>(p.find_unit("cmn0"))->set_traffic({xy, port}, settings, error);
        return error;
    }
    void run() {
        body(*this);
        sc_core::sc_stop();
    }
};

void run_snoop_bench(platform& p, std::function<void(snoop_bench&)> body) {
    snoop_bench b("bench", p, std::move(body));
    sc_core::sc_start();
}

// A 3x2 mesh: HN-D, HN-F, SN-F (or SBSX) on row 0; three RN-Fs on row 1, an HN-I on XP(0,0) p1.
std::string mesh_text(const std::string& memory, const std::string& extra) {
    return "name: t\narch: arm\nclocks:\n  - { name: m, frequency: 1GHz }\ncpus: []\nunits:\n  - name: cmn0\n"
           "    type: cmn600\n    base: 0x50000000\n    size: 64MiB\n    clock: m\n    params:\n"
           "      mesh_x: 3\n      mesh_y: 2\n"
           "      nodes: \"0,0 p0 hn-d; 1,0 p0 hn-f; 2,0 p0 " +
           memory + "; 0,1 p0 rn-f; 1,1 p0 rn-f; 2,1 p0 rn-f\"\n" + extra;
}

constexpr uint64_t dtc = 0x50030000, xp10 = 0x50408000, hnf = 0x50400000;

// The HN-F's four outputs on XP(1,0)'s DTM counters 0..3.
void count_hnf(snoop_bench& b, uint64_t events) {
    b.write64(dtc + 0xA00, 1);
    b.write64(hnf + 0x2000, events);
    b.write64(xp10 + 0x2210, 0x1312'1110'0000'0001ull);
    b.write64(dtc + 0x2100, 1);
}
uint64_t counter(uint64_t v, unsigned n) { return v >> (16 * n) & 0xFFFF; }

} // namespace

TEST_CASE("cmn snoop: SNP match groups place SrcID and opcode and flags and the SNP address") {
    cmn_flit s;
    s.channel = cmn_channel::snp;
    s.srcid = 0x20;
    s.tgtid = 0x08; // not part of a SNP flit: never in the match value
    s.opcode = 0x07; // SnpUnique: AMBA CHI IHI0050 SNP opcodes
    s.addr = 0x1'2345'6780;
    s.donotgotosd = true;
    // Group 0: SrcID [10:0], opcode [23:19], NS 24, DoNotGoToSD 25, RetToSrc 26, SNP Addr
    // (address >> 3) [35:0] at [63:28]. Group 1: the same flags, SNP Addr [44:13] at [63:32].
    const uint64_t flags = 0x20ull | 0x07ull << 19 | 1ull << 24 | 1ull << 25;
    CHECK(s.match_value(0, true) == (flags | (0x1'2345'6780ull >> 3) << 28));
    CHECK(s.match_value(0, false) == s.match_value(0, true)); // SrcID in both directions
    CHECK(s.match_value(1, false) == (flags | (0x1'2345'6780ull >> 16) << 32));
}

TEST_CASE("cmn snoop: ReadUnique snoops every other sharer and clean sharers answer without data") {
    register_all_units();
    platform p(parse_platform(mesh_text("sn-f", ""), "t.yaml"));
    uint64_t after_shares = 0, after_unique = 0;
    run_snoop_bench(p, [&](snoop_bench& b) {
        // snp_sent, sf_hit, intv_dirty, pocq_reqs_recvd
        count_hnf(b, 0x051c'0618);
        const std::string line = "range=0x80000000-0x8000003f";
        // A (0,1) and B (1,1) read the line shared: A first (unique clean, no holder before), then B
        // (A holds it unique: SnpShared, clean: SnpResp; both share it).
        CHECK(b.traffic("0,1", "p0", {"rate=1/10", line, "mix=ReadShared", "count=1"}).empty());
        b.cycles(300);
        CHECK(b.traffic("1,1", "p0", {"rate=1/10", line, "mix=ReadShared", "count=1"}).empty());
        b.cycles(300);
        after_shares = b.read64(xp10 + 0x2220);
        // C (2,1) ReadUnique: SnpUnique to A and B, both clean.
        CHECK(b.traffic("2,1", "p0", {"rate=1/10", line, "mix=ReadUnique", "count=1"}).empty());
        b.cycles(300);
        after_unique = b.read64(xp10 + 0x2220);
    });
    CHECK(counter(after_shares, 0) == 1); // the SnpShared to A
    CHECK(counter(after_shares, 1) == 1); // B's request found A in the snoop filter
    CHECK(counter(after_shares, 2) == 0); // A's line was clean
    CHECK(counter(after_shares, 3) == 2);
    CHECK(counter(after_unique, 0) == 3); // + SnpUnique to A and to B
    CHECK(counter(after_unique, 1) == 2);
    CHECK(counter(after_unique, 2) == 0);
    CHECK(counter(after_unique, 3) == 3);
}

TEST_CASE("cmn snoop: a line an RN-F's tag store evicts leaves the snoop filter") {
    register_all_units();
    platform p(parse_platform(mesh_text("sn-f", "      rnf_cache_sets: 1\n      rnf_cache_ways: 1\n"), "t.yaml"));
    uint64_t v = 0;
    run_snoop_bench(p, [&](snoop_bench& b) {
        count_hnf(b, 0x051c'0618);
        // A takes line 0x80000000 unique and dirty, then line 0x80000040: its one-line store drops
        // the first. B's ReadShared of the first line then finds no holder: no snoop, no SF hit.
        CHECK(b.traffic("0,1", "p0", {"rate=1/10", "range=0x80000000-0x8000003f", "mix=ReadUnique", "count=1"})
                  .empty());
        b.cycles(300);
        CHECK(b.traffic("0,1", "p0", {"range=0x80000040-0x8000007f", "count=1"}).empty());
        b.cycles(300);
        CHECK(b.traffic("1,1", "p0", {"rate=1/10", "range=0x80000000-0x8000003f", "mix=ReadShared", "count=1"})
                  .empty());
        b.cycles(300);
        v = b.read64(xp10 + 0x2220);
    });
    CHECK(counter(v, 0) == 0);
    CHECK(counter(v, 1) == 0);
    CHECK(counter(v, 3) == 3);
}

TEST_CASE("cmn snoop: an SBSX serves the HN-F's memory reads and write-backs with its events") {
    register_all_units();
    platform p(parse_platform(mesh_text("sbsx", ""), "t.yaml"));
    uint64_t v = 0;
    run_snoop_bench(p, [&](snoop_bench& b) {
        // The SBSX at XP(2,0) p0 (node region 0x50800000): rd_req, wr_req, txdat_flitv, txrsp_flitv.
        b.write64(dtc + 0xA00, 1);
        b.write64(0x50800000 + 0x2000, 0x0605'0201);
        b.write64(0x50808000 + 0x2210, 0x1312'1110'0000'0001ull);
        b.write64(dtc + 0x2100, 1);
        // Two ReadNoSnp of one line: one SLC miss (a read of the SBSX: 2 data flits), one hit.
        CHECK(b.traffic("0,1", "p0", {"rate=1/10", "range=0x80000000-0x8000003f", "mix=ReadNoSnp", "count=2"})
                  .empty());
        b.cycles(400);
        v = b.read64(0x50808000 + 0x2220);
    });
    CHECK(counter(v, 0) == 1);
    CHECK(counter(v, 1) == 0);
    CHECK(counter(v, 2) == 2);
    CHECK(counter(v, 3) == 0);
}

TEST_CASE("cmn snoop: the traffic statement refuses bad input with what was expected") {
    register_all_units();
    platform p(parse_platform(mesh_text("sn-f", ""), "t.yaml"));
    std::vector<std::string> errors;
    run_snoop_bench(p, [&](snoop_bench& b) {
        errors.push_back(b.traffic("1,0", "p0", {"rate=1", "range=0-0x3f", "mix=ReadShared"}));
        errors.push_back(b.traffic("0,1", "p0", {"mix=ReadShared"}));
        errors.push_back(b.traffic("0,1", "p0", {"rate=1", "range=0-0x3f", "mix=ReadSharde"}));
        errors.push_back(b.traffic("0,1", "p0", {"off"})); // nothing running: stopping it is fine
    });
    CHECK(errors[0] == "cmn0: traffic: traffic comes from requesters: port p0 of crosspoint 1,0 is hn-f, not rn-f, "
                       "rn-i or rn-d");
    CHECK(errors[1] == "cmn0: traffic: 0,1 p0 has no traffic running: write rate=, range= and mix=");
    CHECK(errors[2].find("cmn0: traffic: unknown request 'ReadSharde'") == 0);
    CHECK(errors[3].empty());
}

TEST_CASE("cmn snoop: io range errors give the line and what was expected") {
    register_all_units();
    auto io_error = [](const std::string& io) -> std::string {
        try {
            platform p(parse_platform(mesh_text("sn-f", "      io: |\n" + io), "t.yaml"));
        } catch (const input_error& e) {
            return e.what();
        }
        return "no error";
    };
    CHECK(io_error("        0x40000000-0x4fffffff hni3\n") ==
          "t.yaml:17: units[0].params.io: expected an HN-I of the mesh (hni0), found 'hni3'");
    CHECK(io_error("        0x40000000-0x4fffffff\n        0x48000000-0x48000fff\n") ==
          "t.yaml:18: units[0].params.io: range 0x48000000-0x48000fff overlaps 0x40000000-0x4fffffff");
    CHECK(io_error("        0x40000000+0x100\n") ==
          "t.yaml:17: units[0].params.io: expected an address range LO-HI like 0x40000000-0x4fffffff, found "
          "'0x40000000+0x100'");
    // The one value grammar (docs/values.md): '_' separators; 010 is decimal, never octal.
    CHECK(io_error("        0x4000_0000-0x4fff_ffff\n") == "no error");
    CHECK(io_error("        0x10-010\n") == "t.yaml:17: units[0].params.io: range 0x10-0xa ends before it starts");
}
