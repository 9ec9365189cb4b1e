// Unit tests for the CMN-600 (cmn/): the mesh description (node IDs, offsets,
// errors), the Linux arm-cmn discovery walk over the configuration space, and
// the PMU (DTM local counters, pairing into DTC global counters, overflow
// interrupt, cycle counter, snapshot) with expected counts derived by hand from
// the rates in the platform and the mesh clock.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "cmn/cmn600.h"
#include "cmn/cmn_events.h"
#include "cmn/cmn_traffic.h"
#include "cmn/cmn_traffic_text.h"
#include "vp/platform.h"
#include "vp/unit_list.h"
#include "tests/unit/tlm_test_access.h"
#include "models/data_files.h"

using namespace pmusim;

namespace {

std::string platform_path(const std::string& name) {
    return pmusim::source_dir() + "/tests/platforms/" + name;
}

// A test bench initiator: runs `body` in an SC_THREAD, with memory-mapped
// accesses as a Non-secure EL1 CPU and time advanced in mesh cycles.
struct bench : sc_core::sc_module {
    SC_HAS_PROCESS(bench);
    platform& p;
    std::function<void(bench&)> body;
    tlm_utils::simple_initiator_socket<bench> out{"out"};
    uint64_t cycle_fs = 1000000; // 1 GHz mesh clock unless told otherwise

    bench(sc_core::sc_module_name n, platform& pl, std::function<void(bench&)> b)
        : sc_module(n), p(pl), body(std::move(b)) {
        out.bind(pl.gate().from_initiators);
        SC_THREAD(run);
    }
    testing::tlm_access_result access(bool write, uint64_t addr, unsigned len, uint64_t v) {
        access_context ctx;
        ctx.el = 1;
        ctx.path = access_path::memory_mapped;
        return testing::tlm_access(*out.operator->(), write, addr, len, v, ctx);
    }
    uint64_t read64(uint64_t a) { return access(false, a, 8, 0).value; }
    uint32_t read32(uint64_t a) { return uint32_t(access(false, a, 4, 0).value); }
    void write64(uint64_t a, uint64_t v) { access(true, a, 8, v); }
    void write32(uint64_t a, uint32_t v) { access(true, a, 4, v); }
    void cycles(uint64_t n) { wait(sc_core::sc_time(double(n * cycle_fs), sc_core::SC_FS)); }
    void run() {
        body(*this);
        sc_core::sc_stop();
    }
};

void run_bench(platform& p, std::function<void(bench&)> body, uint64_t cycle_fs = 1000000) {
    bench b("bench", p, std::move(body));
    b.cycle_fs = cycle_fs;
    sc_core::sc_start();
}

// ---------------------------------------------------------------------------
// The Linux arm-cmn discovery walk (drivers/perf/arm-cmn.c arm_cmn_discover),
// done through the bus exactly as the driver reads: root node_info, periph IDs,
// por_info_global, child_info, every XP's child_info (pass 1), then per XP its
// node_info, DTM init writes, port connect info and its children (pass 2).
// ---------------------------------------------------------------------------

struct found_node {
    uint16_t type, id, logid;
    uint32_t offset;
    unsigned xp; // index of the XP (in child-pointer order) whose child it is
};

struct discovery {
    bool ok = false;
    std::string error;
    unsigned part = 0, rev = 0;
    unsigned mesh_x = 0, mesh_y = 0;
    unsigned num_dtcs = 0;
    unsigned ports_used = 0;
    std::vector<found_node> xps, nodes;
    std::vector<uint64_t> external_children;
    std::vector<std::array<uint32_t, 2>> connect; // per XP, ports 0 and 1
};

discovery linux_discover(bench& b, uint64_t base, uint32_t root) {
    discovery d;
    auto info = [&](uint32_t off) {
        uint64_t r = b.read64(base + off);
        return found_node{uint16_t(r & 0xFFFF), uint16_t(r >> 16), uint16_t(r >> 32), off, 0};
    };
    found_node cfg = info(root);
    if (cfg.type != 0x2) {
        d.error = "root is not a CFG node";
        return d;
    }
    uint64_t pid01 = b.read64(base + root + 0x8);
    d.part = unsigned(pid01 & 0xFF) | unsigned(pid01 >> 32 & 0xF) << 8;
    d.rev = unsigned(b.read32(base + root + 0x10) >> 4 & 0xF);
    const uint64_t global = b.read64(base + root + 0x900);
    if (global >> 63) d.error = "multiple_dtm_en set on a CMN-600";
    (void)b.read64(base + root + 0x908);
    uint64_t ci = b.read64(base + root + 0x80);
    const unsigned num_xps = unsigned(ci & 0xFFFF), poff = unsigned(ci >> 16 & 0xFFFF);
    std::vector<uint32_t> xp_offset(num_xps);
    for (unsigned i = 0; i < num_xps; ++i) {
        xp_offset[i] = uint32_t(b.read64(base + root + poff + 8 * i) & 0x3FFFFFFF);
        (void)b.read64(base + xp_offset[i] + 0x80);
    }
    for (unsigned i = 0; i < num_xps; ++i) {
        found_node xp = info(xp_offset[i]);
        xp.xp = i;
        if (xp.id == (1 << 3)) d.mesh_x = xp.logid;
        // arm_cmn_init_dtm: pmu_config = PMU_EN, then every watchpoint idle (mask 0, val ~0).
        const uint64_t dtm = base + xp_offset[i] + 0x2000;
        b.write64(dtm + 0x210, 1);
        for (unsigned w = 0; w < 4; ++w) {
            b.write64(dtm + 0x1A0 + 0x18 * w + 0x10, 0);
            b.write64(dtm + 0x1A0 + 0x18 * w + 0x08, ~0ull);
        }
        std::array<uint32_t, 2> conn{};
        for (unsigned p = 0; p < 2; ++p) {
            conn[p] = b.read32(base + xp_offset[i] + 0x8 + 8 * p);
            if (conn[p]) d.ports_used |= 1u << p;
        }
        d.connect.push_back(conn);
        d.xps.push_back(xp);
        uint64_t xci = b.read64(base + xp_offset[i] + 0x80);
        const unsigned count = unsigned(xci & 0xFFFF), cpoff = unsigned(xci >> 16 & 0xFFFF);
        for (unsigned j = 0; j < count; ++j) {
            uint64_t ptr = b.read64(base + xp_offset[i] + cpoff + 8 * j);
            if (ptr & (1u << 31)) {
                d.external_children.push_back(ptr);
                continue;
            }
            found_node n = info(uint32_t(ptr & 0x3FFFFFFF));
            n.xp = i;
            switch (n.type) {
            case 0x3: d.num_dtcs++; d.nodes.push_back(n); break;
            case 0x1: case 0x4: case 0x5: case 0x7: case 0xA: case 0xD: case 0x100: case 0x101:
                d.nodes.push_back(n);
                break;
            case 0x8: case 0x9: case 0xF: case 0x102: break;
            default: d.error = "invalid device node type " + std::to_string(n.type); return d;
            }
        }
    }
    if (!d.mesh_x) d.mesh_x = num_xps;
    d.mesh_y = num_xps / d.mesh_x;
    d.ok = d.error.empty();
    return d;
}

// Linux arm_cmn_nid for a mesh of these dimensions on a 2-port part.
struct nid {
    unsigned x, y, port, dev;
};
nid decode(uint16_t id, unsigned mesh_x, unsigned mesh_y) {
    unsigned v = (mesh_x - 1) | (mesh_y - 1) | 2, bits = 0;
    while (v) ++bits, v >>= 1;
    return {unsigned(id) >> (3 + bits), (unsigned(id) >> 3) & ((1u << bits) - 1), unsigned(id) >> 2 & 1,
            unsigned(id) & 3};
}

} // namespace

// ---------------------------------------------------------------------------
// Mesh description
// ---------------------------------------------------------------------------

TEST_CASE("cmn: node IDs and offsets follow the CMN-600 encoding") {
    // 2-bit coordinates: node_id = X<<5 | Y<<3 | P<<2 | D; offset = X<<22 | Y<<20 | P<<14 | slot<<16.
    cmn_mesh m = build_cmn_mesh(2, 2, "1,0 p1 hn-d\n0,1 p1 hn-f\n1,1 p0 rn-f x2\n", {"t.yaml", 10, "nodes"});
    CHECK(m.id_bits == 2);
    CHECK(m.root_offset == 0x404000); // X=1 -> 0x400000, port 1 -> 0x4000
    const cmn_node* cfg = m.find("cfg");
    REQUIRE(cfg);
    CHECK(cfg->node_id == 0x24);
    CHECK(m.find("xp_1_0")->node_id == 0x20);
    CHECK(m.find("xp_1_0")->offset == 0x408000);
    CHECK(m.find("xp_0_1")->node_id == 0x08);
    CHECK(m.find("xp_0_1")->logical_id == 2); // row-major: y * mesh_x + x
    CHECK(m.find("xp_1_1")->offset == 0x508000);
    CHECK(m.find("hnf0")->node_id == 0x0C);
    CHECK(m.find("hnf0")->offset == 0x104000);
    CHECK(m.find("dtc0")->node_id == 0x24);
    CHECK(m.find("dn0")->offset == 0x424000);
    CHECK(m.find("rnsam1")->node_id == 0x29); // second device of the CAL port
    CHECK(m.find("rnsam1")->external);
    // 3-bit coordinates once a dimension exceeds 4: XP(4,2) = 4<<6 | 2<<3 = 0x110.
    cmn_mesh w = build_cmn_mesh(5, 3, "", {"t.yaml", 10, "nodes"});
    CHECK(w.id_bits == 3);
    CHECK(w.find("xp_4_2")->node_id == 0x110);
    CHECK(w.find("xp_4_2")->offset == (4u << 23 | 2u << 20 | 0x8000));
    CHECK(w.find("xp_1_0")->node_id == 0x40);
    CHECK(w.root_offset == 0);
    // The extremes: 1x1 (the HN-D and an SN-F on the only XP) and 8x8 (the last XP's DTM
    // fits the 64 MB configuration space: 7 << 23 | 7 << 20 | 0x8000).
    cmn_mesh one = build_cmn_mesh(1, 1, "", {"t.yaml", 10, "nodes"});
    CHECK(one.xps.size() == 1);
    CHECK(one.find("dtc0")->offset == 0x30000);
    cmn_mesh big = build_cmn_mesh(8, 8, "", {"t.yaml", 10, "nodes"});
    CHECK(big.find("xp_7_7")->offset == 0x3F08000u);
    CHECK(big.find("xp_7_7")->node_id == (7u << 6 | 7u << 3));
    CHECK(big.node_count_of(cmn_node_type::hnf) == 62);
}

TEST_CASE("cmn: flit match-group values place the fields of the CMN-600 layouts") {
    cmn_flit req;
    req.channel = cmn_channel::req;
    req.srcid = 0x08;
    req.tgtid = 0x24;
    req.opcode = 0x01; // ReadShared: AMBA CHI IHI0050 REQ opcodes
    req.addr = 0x80001240;
    // REQ group 0: node ID [10:0] (target on upload, source on download), opcode [36:31],
    // size [39:37] (6: 64 bytes), NS [40]; group 1: address [51:4].
    CHECK(req.match_value(0, true) == (0x24ull | 0x01ull << 31 | 6ull << 37 | 1ull << 40));
    CHECK(req.match_value(0, false) == (0x08ull | 0x01ull << 31 | 6ull << 37 | 1ull << 40));
    CHECK(req.match_value(1, true) == 0x800012400ull);
    cmn_flit rsp;
    rsp.channel = cmn_channel::rsp;
    rsp.srcid = 0x24;
    rsp.tgtid = 0x08;
    rsp.opcode = 0x5; // CompDBIDResp: AMBA CHI IHI0050 RSP opcodes
    rsp.dbid = 0x5A;
    // RSP group 0: node ID [14:4], opcode [18:15], DBID [34:27].
    CHECK(rsp.match_value(0, true) == (0x08ull << 4 | 0x5ull << 15 | 0x5Aull << 27));
    cmn_flit dat;
    dat.channel = cmn_channel::dat;
    dat.srcid = 0x24;
    dat.tgtid = 0x08;
    dat.homenid = 0x24;
    dat.opcode = 0x4; // CompData: AMBA CHI IHI0050 DAT opcodes
    dat.dataid = 2;
    // DAT group 0: node ID [14:4], HomeNID [25:15], opcode [28:26], DBID [44:37], DataID [48:47].
    CHECK(dat.match_value(0, false) == (0x24ull << 4 | 0x24ull << 15 | 0x4ull << 26 | 2ull << 47));
    CHECK(dat.match_value(1, false) == 0);
}

TEST_CASE("cmn: mesh description errors name the line and what was expected") {
    auto err = [](unsigned x, unsigned y, const std::string& text) -> std::string {
        try {
            build_cmn_mesh(x, y, text, {"m.yaml", 20, "units[0].params.nodes"});
        } catch (const input_error& e) {
            return e.what();
        }
        return "no error";
    };
    // A block scalar starts on the line after the key: entry k is on line 21 + k.
    CHECK(err(2, 2, "0,0 p0 hn-d\n2,0 p0 hn-f\n") ==
          "m.yaml:22: units[0].params.nodes: crosspoint 2,0 is outside the 2x2 mesh (X 0..1, Y 0..1)");
    CHECK(err(2, 2, "0,0 p0 hn-d\n0,0 p2 hn-f\n") ==
          "m.yaml:22: units[0].params.nodes: expected a device port p0 or p1 (a CMN-600 XP has two), found 'p2'");
    CHECK(err(2, 2, "0,0 p0 hn-d\n0,0 p1 hn-q\n").find("m.yaml:22: units[0].params.nodes: expected a device kind") == 0);
    CHECK(err(2, 2, "0,0 p0 hn-d\n0,0 p0 hn-f\n") ==
          "m.yaml:22: units[0].params.nodes: port p0 of crosspoint 0,0 is already declared (at line 21)");
    CHECK(err(2, 2, "0,0 p1 hn-f\n") ==
          "m.yaml:20: units[0].params.nodes: the mesh needs one hn-d port (it hosts the root CFG node, the DTC, the "
          "DN and an HN-I), found none");
    CHECK(err(2, 2, "0,0 p0 hn-d\n1,1 p1 hn-d\n").find("m.yaml:22: units[0].params.nodes: a CMN-600 has one hn-d") == 0);
    CHECK(err(2, 2, "0,0 p0 hn-d\n1,1 p1 hn-f x2\n") ==
          "m.yaml:22: units[0].params.nodes: a hn-f port has exactly one device, found 'x2'");
    CHECK(err(2, 2, "0,0 p0 hn-d\n1,1 p1 rn-f x5\n").find("at most 4 devices") != std::string::npos);
    CHECK(err(2, 2, "0,0 p0 hn-d\n1 p1 rn-f\n") ==
          "m.yaml:22: units[0].params.nodes: expected crosspoint coordinates X,Y like 1,0, found '1'");
    // One line, `;`-separated: errors point at the key's line.
    CHECK(err(2, 2, "0,0 p0 hn-d; 0,0 p1") ==
          "m.yaml:20: units[0].params.nodes: expected 'X,Y PORT KIND [xN]' like '1,0 p1 hn-f', found '0,0 p1'");
}

TEST_CASE("cmn: platform errors for root offset and rates give file and line") {
    register_all_units();
    auto load_err = [](const std::string& params) -> std::string {
        const std::string text = "name: t\narch: arm\nclocks:\n  - { name: m, frequency: 1GHz }\ncpus: []\n"
                                 "units:\n  - name: cmn0\n    type: cmn600\n    clock: m\n    params:\n" +
                                 params;
        try {
            platform p(parse_platform(text, "t.yaml"));
        } catch (const input_error& e) {
            return e.what();
        }
        return "no error";
    };
    CHECK(load_err("      mesh_x: 2\n      mesh_y: 2\n      root_node_offset: 0x4000\n") ==
          "t.yaml:13: units[0].params.root_node_offset: the root (CFG) node sits at offset 0x0, slot 0 of the hn-d "
          "port p0 of crosspoint 0,0; found 0x4000");
    CHECK(load_err("      mesh_x: 2\n      mesh_y: 2\n      events: |\n        hnf hnf_cache_miss 1/4\n"
                   "        hnf hnf_cache_mis 1\n")
              .find("t.yaml:15: units[0].params.events: unknown HN-F event 'hnf_cache_mis'") == 0);
    CHECK(load_err("      events: \"hnq0 hnf_cache_miss 1\"\n").find("t.yaml:11: units[0].params.events: no node with "
                                                                   "PMU events named 'hnq0'") == 0);
    CHECK(load_err("      events: \"hnf hnf_cache_miss fast\"\n").find("t.yaml:11:") == 0);
}

// ---------------------------------------------------------------------------
// Discovery
// ---------------------------------------------------------------------------

TEST_CASE("cmn: the Linux discovery walk finds the 2x2 mesh of the platform") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-2x2.yaml")));
    discovery d;
    run_bench(p, [&](bench& b) { d = linux_discover(b, 0x50000000, 0x404000); });
    REQUIRE(d.ok);
    CHECK(d.part == 0x434);
    CHECK(d.rev == 3); // r1p3, the default revision
    CHECK(d.mesh_x == 2);
    CHECK(d.mesh_y == 2);
    CHECK(d.num_dtcs == 1);
    CHECK(d.ports_used == 3);
    // XPs in child-pointer (row-major) order, from the layout in cmn-2x2.yaml by hand:
    // id = X<<5 | Y<<3, offset = X<<22 | Y<<20 | 0x8000, logical ID = y*2 + x.
    const found_node xps[] = {{6, 0x00, 0, 0x008000, 0}, {6, 0x20, 1, 0x408000, 1},
                              {6, 0x08, 2, 0x108000, 2}, {6, 0x28, 3, 0x508000, 3}};
    REQUIRE(d.xps.size() == 4);
    for (unsigned i = 0; i < 4; ++i) {
        INFO("XP " << i);
        CHECK(d.xps[i].type == xps[i].type);
        CHECK(d.xps[i].id == xps[i].id);
        CHECK(d.xps[i].logid == xps[i].logid);
        CHECK(d.xps[i].offset == xps[i].offset);
    }
    // Port connect info: RN-F_B 0x04, HN-F 0x0E, SN-F 0x0C, HN-D 0x0A, RN-I 0x01, SBSX 0x0D.
    CHECK(d.connect[0] == std::array<uint32_t, 2>{0x04, 0x0E});
    CHECK(d.connect[1] == std::array<uint32_t, 2>{0x0C, 0x0A});
    CHECK(d.connect[2] == std::array<uint32_t, 2>{0x01, 0x0E});
    CHECK(d.connect[3] == std::array<uint32_t, 2>{0x04, 0x0D});
    // Device nodes: type, id, logical ID, offset (port<<14 | slot<<16 in the XP's window), parent XP.
    const found_node nodes[] = {
        {0x5, 0x04, 0, 0x004000, 0},  // HN-F at XP(0,0) p1
        {0x4, 0x24, 0, 0x414000, 1},  // HN-D at XP(1,0) p1: HN-I (slot 1)
        {0x1, 0x24, 0, 0x424000, 1},  //   DN (slot 2)
        {0x3, 0x24, 0, 0x434000, 1},  //   DTC (slot 3)
        {0xA, 0x08, 0, 0x100000, 2},  // RN-I at XP(0,1) p0
        {0x5, 0x0C, 1, 0x104000, 2},  // HN-F at XP(0,1) p1
        {0x7, 0x2C, 0, 0x504000, 3},  // SBSX at XP(1,1) p1
    };
    REQUIRE(d.nodes.size() == 7);
    for (unsigned i = 0; i < 7; ++i) {
        INFO("node " << i);
        CHECK(d.nodes[i].type == nodes[i].type);
        CHECK(d.nodes[i].id == nodes[i].id);
        CHECK(d.nodes[i].logid == nodes[i].logid);
        CHECK(d.nodes[i].offset == nodes[i].offset);
        CHECK(d.nodes[i].xp == nodes[i].xp);
    }
    // The RN-F RN-SAMs are external children: bit 31 set, node pointer = the port's slot.
    CHECK(d.external_children == std::vector<uint64_t>{0x80000000u | 0x000000, 0x80000000u | 0x500000,
                                                       0x80000000u | 0x510000});
    // The driver's DTM init left pmu_config = PMU_EN and idle watchpoints.
    auto* cmn = dynamic_cast<cmn600*>(p.find_unit("cmn0"));
    REQUIRE(cmn);
    CHECK(cmn->find_mmio_register("xp_1_1.por_dtm_wp2_val")->address == 0x50000000u + 0x508000 + 0x21D8);
}

TEST_CASE("cmn: the Linux discovery walk on a 5x3 mesh decodes 3-bit node IDs") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-5x3.yaml")));
    discovery d;
    run_bench(p, [&](bench& b) { d = linux_discover(b, 0x40000000, 0); });
    REQUIRE(d.ok);
    CHECK(d.mesh_x == 5); // the XP with node ID 8 is (0,1), logical ID 5
    CHECK(d.mesh_y == 3);
    REQUIRE(d.xps.size() == 15);
    // Every node decodes (Linux arm_cmn_nid, 3-bit X/Y) to the XP that listed it, and Linux's
    // XP index mesh_x * y + x is that XP's logical ID.
    for (const auto& n : d.nodes) {
        nid id = decode(n.id, d.mesh_x, d.mesh_y);
        const found_node& xp = d.xps[n.xp];
        nid xid = decode(xp.id, d.mesh_x, d.mesh_y);
        INFO("node id " << n.id << " type " << n.type);
        CHECK(id.x == xid.x);
        CHECK(id.y == xid.y);
        CHECK(d.mesh_x * id.y + id.x == xp.logid);
    }
    // Default layout by hand: XP(0,0) HN-D + SN-F; XPs 1..13 RN-F + HN-F; XP(4,2) RN-I + SN-F.
    unsigned hnf = 0, rni = 0;
    for (const auto& n : d.nodes) hnf += n.type == 5, rni += n.type == 0xA;
    CHECK(hnf == 13);
    CHECK(rni == 1);
    CHECK(d.external_children.size() == 13);
    CHECK(d.xps[14].id == 0x110);          // XP(4,2) = 4<<6 | 2<<3
    CHECK(d.xps[14].offset == 0x2208000);  // 4<<23 | 2<<20 | 0x8000
    CHECK(d.xps[7].id == (2u << 6 | 1u << 3)); // XP(2,1), logical ID 7
}

// ---------------------------------------------------------------------------
// PMU: programmed as the Linux driver programs it
// ---------------------------------------------------------------------------

namespace {
constexpr uint64_t kBase = 0x50000000;
// cmn-2x2.yaml: DTC at 0x434000; HN-F0 at XP(0,0) (0x8000), p1 dev0; HN-F1 at XP(0,1) (0x108000), p1 dev0.
constexpr uint64_t kDtc = kBase + 0x434000;
constexpr uint64_t kXp00 = kBase + 0x008000, kXp01 = kBase + 0x108000;
constexpr uint64_t kHnf0 = kBase + 0x004000, kHnf1 = kBase + 0x104000;

// arm_cmn_init_dtc then the DISABLED state (DTC0 pmcr = 0).
void linux_init_dtc(bench& b) {
    b.write32(kDtc + 0xA00, 1);       // dt_dtc_ctl = DT_EN
    b.write32(kDtc + 0x2100, 0x41);   // pmcr = PMU_EN | OVFL_INTR_EN
    b.write64(kDtc + 0x2040, 0);      // pmccntr
    b.write32(kDtc + 0x2120, 0x1FF);  // pmovsr_clr
    b.write32(kDtc + 0x2100, 0);      // arm_cmn_set_state(DISABLED)
}
// arm_cmn_event_add for a device-node event on one node: event_sel_hi (occupid), DTM pmu_config
// (input_sel, global_num, paired, PMU_EN), DTC counter = 0x80000000; then _start: event_sel_lo.
void linux_add_node_event(bench& b, uint64_t xp, uint64_t node, unsigned port, unsigned dtm_idx, unsigned dtc_idx,
                          uint8_t eventid, int occupid, uint64_t& pmu_config) {
    if (occupid >= 0) b.write32(node + 0x2004, uint32_t(occupid));
    const uint64_t input_sel = 0x10 + dtm_idx + (port << 4);
    pmu_config &= ~(0xFFull << (32 + 8 * dtm_idx));
    pmu_config |= input_sel << (32 + 8 * dtm_idx);
    pmu_config &= ~(7ull << (16 + 4 * dtm_idx));
    pmu_config |= uint64_t(dtc_idx) << (16 + 4 * dtm_idx);
    pmu_config |= 1ull << (4 + dtm_idx) | 1;
    b.write64(xp + 0x2210, pmu_config);
    b.write32(kDtc + 0x2000 + ((dtc_idx / 2) * 4 + dtc_idx % 2) * 4, 0x80000000u);
    (void)b.read64(xp + 0x2220); // prev_count snapshot
    // Linux keeps the node's four event bytes cached (dn->event[]) and writes all of them.
    uint32_t sel = b.read32(node + 0x2000) & ~(0xFFu << (8 * dtm_idx));
    b.write32(node + 0x2000, sel | uint32_t(eventid) << (8 * dtm_idx));
}
// arm_cmn_event_read: local counter delta plus the global counter's carries; rewrites the global.
uint64_t linux_read(bench& b, const std::vector<std::pair<uint64_t, unsigned>>& locals, unsigned dtc_idx,
                    std::vector<uint16_t>& prev) {
    uint64_t delta = 0;
    for (size_t i = 0; i < locals.size(); ++i) {
        uint16_t now = uint16_t(b.read64(locals[i].first + 0x2220) >> (16 * locals[i].second));
        delta += uint16_t(now - prev[i]);
        prev[i] = now;
    }
    const uint64_t g = kDtc + 0x2000 + ((dtc_idx / 2) * 4 + dtc_idx % 2) * 4;
    uint32_t v = b.read32(g);
    b.write32(g, 0x80000000u);
    return delta + (uint64_t(uint32_t(v - 0x80000000u)) << 16);
}
} // namespace

TEST_CASE("cmn: an HN-F event aggregated over all HN-Fs counts the sum of their rates") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-2x2.yaml")));
    uint64_t total = 0, by_node = 0;
    run_bench(p, [&](bench& b) {
        linux_init_dtc(b);
        uint64_t cfg00 = 1, cfg01 = 1;
        // perf stat -e arm_cmn_0/hnf_slc_sf_cache_access/ : both HN-Fs, DTM counter 0, global counter 0.
        linux_add_node_event(b, kXp00, kHnf0, 1, 0, 0, 0x02, -1, cfg00);
        linux_add_node_event(b, kXp01, kHnf1, 1, 0, 0, 0x02, -1, cfg01);
        // ... and arm_cmn_0/hnf_slc_sf_cache_access,bynodeid=1,nodeid=0xc/ : HN-F1 only, counter 1, global 1.
        linux_add_node_event(b, kXp01, kHnf1, 1, 1, 1, 0x02, -1, cfg01);
        b.write32(kDtc + 0x2100, 0x41); // pmu_enable
        b.cycles(100000);
        b.write32(kDtc + 0x2100, 0); // start_txn / pmu_disable before reading
        std::vector<uint16_t> prev{0, 0}, prev1{0};
        total = linux_read(b, {{kXp00, 0}, {kXp01, 0}}, 0, prev);
        by_node = linux_read(b, {{kXp01, 1}}, 1, prev1);
    });
    // Rates from cmn-2x2.yaml: HN-F0 1 per cycle, HN-F1 1/2 per cycle, over 100000 mesh cycles.
    // HN-F0's 16-bit counter wrapped once (100000 > 65536): the carry is in the global counter.
    CHECK(total == 100000 + 50000);
    CHECK(by_node == 50000);
}

TEST_CASE("cmn: a DTM overflow carries into its global counter at the exact cycle") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-2x2.yaml")));
    std::vector<uint32_t> globals;
    std::vector<uint64_t> locals;
    run_bench(p, [&](bench& b) {
        linux_init_dtc(b);
        uint64_t cfg = 1;
        linux_add_node_event(b, kXp00, kHnf0, 1, 2, 5, 0x02, -1, cfg); // 1 per cycle, DTM ctr 2 -> global 5
        b.write64(kXp00 + 0x2220, 0xFFF0ull << 32);                      // 16 events to the wrap
        b.write32(kDtc + 0x2100, 0x41);
        b.cycles(15);
        globals.push_back(b.read32(kDtc + 0x2024)); // global 5: upper half of pmevcntef
        locals.push_back(b.read64(kXp00 + 0x2220) >> 32 & 0xFFFF);
        b.cycles(1);
        globals.push_back(b.read32(kDtc + 0x2024));
        locals.push_back(b.read64(kXp00 + 0x2220) >> 32 & 0xFFFF);
        // Unpaired: the counter just wraps.
        cfg &= ~(1ull << 6);
        b.write64(kXp00 + 0x2210, cfg);
        b.write64(kXp00 + 0x2220, 0xFFFFull << 32);
        b.cycles(3);
        globals.push_back(b.read32(kDtc + 0x2024));
        locals.push_back(b.read64(kXp00 + 0x2220) >> 32 & 0xFFFF);
    });
    CHECK(globals == std::vector<uint32_t>{0x80000000u, 0x80000001u, 0x80000001u});
    CHECK(locals == std::vector<uint64_t>{0xFFFF, 0x0000, 0x0002});
}

TEST_CASE("cmn: a global counter overflow raises the interrupt and pmovsr_clr needs pmu_en") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-2x2.yaml")));
    interrupt_line* irq = p.find_irq("cmn0_pmu_irq");
    REQUIRE(irq);
    std::vector<uint32_t> status;
    std::vector<bool> level;
    run_bench(p, [&](bench& b) {
        linux_init_dtc(b);
        uint64_t cfg = 1;
        // Global counter 7 (upper half of pmevcntgh): the handler bug fixed in 2023 skipped 4..7.
        linux_add_node_event(b, kXp00, kHnf0, 1, 3, 7, 0x02, -1, cfg);
        b.write32(kDtc + 0x2034, 0xFFFFFFFFu);
        b.write64(kXp00 + 0x2220, 0xFFFEull << 48);
        b.write32(kDtc + 0x2100, 0x41);
        b.cycles(1);
        status.push_back(b.read32(kDtc + 0x2118));
        level.push_back(irq->level());
        b.cycles(1); // local wrap -> global 0xFFFFFFFF wraps -> pmovsr[7]
        status.push_back(b.read32(kDtc + 0x2118));
        level.push_back(irq->level());
        b.write32(kDtc + 0x2100, 0x40); // pmu_en = 0: the clear is ignored
        b.write32(kDtc + 0x2120, 0x80);
        status.push_back(b.read32(kDtc + 0x2118));
        level.push_back(irq->level());
        b.write32(kDtc + 0x2100, 0x41);
        b.write32(kDtc + 0x2120, 0x80);
        status.push_back(b.read32(kDtc + 0x2118));
        level.push_back(irq->level());
        status.push_back(b.read32(kDtc + 0x2034));
    });
    CHECK(status == std::vector<uint32_t>{0, 0x80, 0x80, 0, 0});
    CHECK(level == std::vector<bool>{false, true, true, false});
}

TEST_CASE("cmn: the cycle counter counts mesh cycles and wraps at 40 bits") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-5x3.yaml"))); // 2 GHz mesh clock
    std::vector<uint64_t> v;
    run_bench(
        p,
        [&](bench& b) {
            const uint64_t dtc = 0x40000000 + 0x30000; // HN-D at XP(0,0) p0: DTC is slot 3
            b.write32(dtc + 0xA00, 0x401);             // DT_EN | CG_DISABLE (cycles event)
            b.write64(dtc + 0x2040, 0x8000000000ull);  // CMN_CC_INIT
            b.write32(dtc + 0x2100, 0x41);
            b.cycles(1000);
            v.push_back(b.read64(dtc + 0x2040));
            b.write32(dtc + 0x2100, 0); // disabled: stops
            b.cycles(10);
            v.push_back(b.read64(dtc + 0x2040));
            b.write64(dtc + 0x2040, 0xFFFFFFFFFEull);
            b.write32(dtc + 0x2100, 0x41);
            b.cycles(2);
            v.push_back(b.read64(dtc + 0x2040));
            v.push_back(b.read32(dtc + 0x2118));
        },
        500000); // 2 GHz: 500000 fs per cycle
    CHECK(v == std::vector<uint64_t>{0x8000000000ull + 1000, 0x8000000000ull + 1000, 0, 0x100});
}

TEST_CASE("cmn: occupancy events follow the node's occup1_id filter") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-2x2.yaml")));
    uint64_t read_occ = 0, all_occ = 0;
    run_bench(p, [&](bench& b) {
        linux_init_dtc(b);
        uint64_t cfg = 1;
        // hnf_qos_pocq_occupancy_read (0x0f, occupid 1) on HN-F0, DTM counter 0 -> global 0.
        linux_add_node_event(b, kXp00, kHnf0, 1, 0, 0, 0x0f, 1, cfg);
        b.write32(kDtc + 0x2100, 0x41);
        b.cycles(1000);
        b.write32(kDtc + 0x2100, 0);
        std::vector<uint16_t> prev{0};
        read_occ = linux_read(b, {{kXp00, 0}}, 0, prev);
        b.write32(kHnf0 + 0x2004, 0); // occupid 0: all
        b.write32(kDtc + 0x2100, 0x41);
        b.cycles(1000);
        b.write32(kDtc + 0x2100, 0);
        all_occ = linux_read(b, {{kXp00, 0}}, 0, prev);
    });
    // cmn-2x2.yaml: read occupancy 3 per cycle, all 5 per cycle.
    CHECK(read_occ == 3000);
    CHECK(all_occ == 5000);
}

TEST_CASE("cmn: XP events and injected node events reach the DTM and a snapshot copies counters") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-2x2.yaml")));
    auto* cmn = dynamic_cast<cmn600*>(p.find_unit("cmn0"));
    REQUIRE(cmn);
    std::vector<uint64_t> v;
    run_bench(p, [&](bench& b) {
        linux_init_dtc(b);
        // XP event mxp_p1_dat_txflit_valid = 1 | 5<<2 | 3<<5 = 0x75 on XP(0,0) slot 1 (input_sel 5).
        b.write64(kXp00 + 0x2210, 1 | 1ull << 5 | 0ull << 20 | 0x05ull << 40);
        b.write32(kXp00 + 0x2000, 0x75u << 8);
        // hnf_pocq_retry (0x04) on HN-F1 via injection, DTM counter 3 of XP(0,1), unpaired.
        b.write64(kXp01 + 0x2210, 1 | (0x10ull + 3 + (1 << 4)) << 56);
        b.write32(kHnf1 + 0x2000, 0x04u << 24);
        b.write32(kDtc + 0x2100, 0x41);
        b.cycles(800);
        std::string error;
        cmn->inject("hnf1", "hnf_pocq_retry", 7, 0, error);
        v.push_back(b.read64(kXp00 + 0x2220) >> 16 & 0xFFFF); // 800 / 8
        v.push_back(b.read64(kXp01 + 0x2220) >> 48);          // 7
        b.write32(kDtc + 0x2130, 1);                          // snapshot
        b.cycles(80);
        v.push_back(b.read64(kXp00 + 0x2240) >> 16 & 0xFFFF); // 100 at the snapshot
        v.push_back(b.read64(kXp00 + 0x2220) >> 16 & 0xFFFF); // 110 now
        v.push_back(b.read32(kDtc + 0x2128) & 0x1FF);
    });
    CHECK(v == std::vector<uint64_t>{100, 7, 100, 110, 0x1FF});
}

TEST_CASE("cmn: inject refuses unknown nodes and events with the choices") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-2x2.yaml")));
    auto* cmn = p.find_unit("cmn0");
    std::string error;
    CHECK_FALSE(cmn->inject("", "hnf_cache_miss", 1, 0, error));
    CHECK(error.find("inject cmn0.NODE EVENT COUNT") != std::string::npos);
    CHECK_FALSE(cmn->inject("hnf7", "hnf_cache_miss", 1, 0, error));
    CHECK(error.find("no node 'hnf7'") != std::string::npos);
    CHECK_FALSE(cmn->inject("hnf0", "rnid_rxdat_flits", 1, 0, error));
    CHECK(error.find("unknown HN-F event 'rnid_rxdat_flits'") != std::string::npos);
    CHECK_FALSE(cmn->inject("dtc0", "1", 1, 0, error));
    CHECK(error.find("has no PMU events") != std::string::npos);
    CHECK_FALSE(cmn->inject("xp_0_0", "0x04", 1, 0, error));
    CHECK(error.find("is not an XP event ID") != std::string::npos);
}

// ---------------------------------------------------------------------------
// Traffic (tests/platforms/cmn-traffic.yaml: RN-I at XP(0,1) p0 reads line 0x80000000 every
// 100 mesh cycles; HN-F at XP(1,0) p0; SN-F at XP(2,0) p0; hop 2, port 1, HN-F 8, SN-F 40).
// Request k issues at edge 100k and reaches the HN-F at 100k + 6 (1 + 2 hops x 2 + 1).
// The first misses: data back from the SN-F at 163, HN-F entry freed at 164. Later ones hit:
// entry held from 100k + 6 to 100k + 15 (response at +14, second DAT flit at +15).
// ---------------------------------------------------------------------------

TEST_CASE("cmn: traffic drives HN-F and RN-I node events flit by flit") {
    register_all_units();
    platform p(load_platform(platform_path("cmn-traffic.yaml")));
    std::vector<uint64_t> v;
    run_bench(p, [&](bench& b) {
        const uint64_t dtc = 0x50030000, xp10 = 0x50408000, xp01 = 0x50108000;
        const uint64_t hnf = 0x50400000, rni = 0x50100000;
        b.write32(dtc + 0xA00, 1);
        // XP(1,0) counters 0..3 <- HN-F outputs 0..3 (port 0, device 0: input_sel 0x10..0x13)
        b.write64(xp10 + 0x2210, 0x1312'1110'0000'0001ull);
        b.write32(hnf + 0x2004, 0);                // occup1_id = all
        b.write32(hnf + 0x2000, 0x0d0f0105);       // pocq_reqs_recvd, cache_miss, pocq_occupancy, mc_reqs
        b.write64(xp01 + 0x2210, 0x0000'1110'0000'0001ull);
        b.write32(rni + 0x2000, 0x0406);           // rnid_txreq_flits_total, rnid_rxdat_flits
        b.write32(dtc + 0x2100, 0x41);
        b.cycles(105);
        v.push_back(b.read64(xp10 + 0x2220) & 0xFFFF); // 0: the REQ is still on its way
        b.cycles(1);
        v.push_back(b.read64(xp10 + 0x2220) & 0xFFFF); // 1 at edge 106
        b.cycles(884);                                 // edge 990
        const uint64_t h = b.read64(xp10 + 0x2220), r = b.read64(xp01 + 0x2220);
        for (unsigned c = 0; c < 4; ++c) v.push_back(h >> (16 * c) & 0xFFFF);
        for (unsigned c = 0; c < 2; ++c) v.push_back(r >> (16 * c) & 0xFFFF);
    });
    // Edge 990: requests 1..9 done. Occupancy: (106, 164] = 58 for the miss, 8 hits x 9.
    CHECK(v == std::vector<uint64_t>{0, 1, 9, 1, 58 + 8 * 9, 1, 9, 18});
}

TEST_CASE("cmn: writes through a one-line HN-F cache evict and write back dirty lines") {
    register_all_units();
    const std::string text = R"(name: t
arch: arm
clocks:
  - { name: m, frequency: 1GHz }
cpus: []
units:
  - name: cmn0
    type: cmn600
    base: 0x50000000
    size: 64MiB
    clock: m
    params:
      mesh_x: 3
      mesh_y: 2
      nodes: "0,0 p0 hn-d; 1,0 p0 hn-f; 2,0 p0 sn-f; 0,1 p0 rn-i"
      traffic: "0,1 p0 rate=1/50 range=0x80000000-0x800000ff mix=WriteBackFull seed=3"
      hnf_cache_sets: 1
      hnf_cache_ways: 1
)";
    platform p(parse_platform(text, "t.yaml"));
    uint64_t h = 0;
    run_bench(p, [&](bench& b) {
        b.write32(0x50030A00, 1);
        b.write64(0x50408000 + 0x2210, 0x1312'1110'0000'0001ull);
        b.write32(0x50400000 + 0x2000, 0x0d0a0105); // reqs_recvd, cache_miss, slc_eviction, mc_reqs
        b.write32(0x50032100, 0x41);
        b.cycles(1040); // 20 writes issued (edges 50..1000), all past the HN-F
        h = b.read64(0x50408000 + 0x2220);
    });
    const uint64_t reqs = h & 0xFFFF, miss = h >> 16 & 0xFFFF, evict = h >> 32 & 0xFFFF, mc = h >> 48;
    CHECK(reqs == 20);
    // Four lines in one single-line set: every miss but the first evicts a dirty (written) line,
    // and every eviction is a write to memory.
    CHECK(miss >= 2);
    CHECK(evict == miss - 1);
    CHECK(mc == evict);
    auto* cmn = dynamic_cast<cmn600*>(p.find_unit("cmn0"));
    CHECK(cmn->transactions() == 20);
}

TEST_CASE("cmn: traffic description errors give the line and what was expected") {
    auto err = [](const std::string& traffic) -> std::string {
        register_all_units();
        const std::string text = "name: t\narch: arm\nclocks:\n  - { name: m, frequency: 1GHz }\ncpus: []\n"
                                 "units:\n  - name: cmn0\n    type: cmn600\n    clock: m\n    params:\n"
                                 "      mesh_x: 2\n      mesh_y: 2\n      traffic: |\n" + traffic;
        try {
            parse_platform(text, "t.yaml");
            platform p(parse_platform(text, "t.yaml"));
        } catch (const input_error& e) {
            return e.what();
        }
        return "no error";
    };
    // Default 2x2 layout: XP(0,0) hn-d/sn-f, XP(1,0) and XP(0,1) rn-f/hn-f, XP(1,1) rn-i/sn-f.
    CHECK(err("        1,0 p0 rate=1/10 range=0x0-0xfff mix=ReadShared\n        1,0 p1 rate=1 range=0-1 mix=ReadNoSnp\n") ==
          "t.yaml:15: units[0].params.traffic: traffic comes from requesters: port p1 of crosspoint 1,0 is hn-f, "
          "not rn-f, rn-i or rn-d");
    CHECK(err("        1,1 p0 rate=1/10 range=0x0-0xfff mix=ReadSharde\n").find(
              "t.yaml:14: units[0].params.traffic: unknown request 'ReadSharde'") == 0);
    CHECK(err("        1,1 p0 rate=1/10 mix=ReadShared\n") ==
          "t.yaml:14: units[0].params.traffic: a generator needs rate=, range= and mix=: expected 'X,Y pP[.D] "
          "rate=R range=LO-HI mix=Op:W,... [seed=N] [start=C] [count=N]'");
    CHECK(err("        1,1 p0 rate=1 range=0-0xfff mix=ReadShared count=-1\n") ==
          "t.yaml:14: units[0].params.traffic: expected count=N (a number), found 'count=-1'");
    CHECK(err("        1,1x p0 rate=1/10 range=0-0xfff mix=ReadShared\n") ==
          "t.yaml:14: units[0].params.traffic: expected a crosspoint X,Y of the 2x2 mesh, found '1,1x'");
    CHECK(err("        1,1 p0x rate=1/10 range=0-0xfff mix=ReadShared\n") ==
          "t.yaml:14: units[0].params.traffic: expected a port p0 or p1 (p1.1 for device 1), found 'p0x'");
    CHECK(err("        1,1 p0.1 rate=1/10 range=0-0xfff mix=ReadShared\n") ==
          "t.yaml:14: units[0].params.traffic: port p0 of crosspoint 1,1 has 1 device(s), found device 1");
}

TEST_CASE("cmn: traffic settings read integers with the one value grammar") {
    // std::stoull(.., 0) took 010 as octal 8, refused 1_000 and stopped at the first '_' of range=.
    cmn_generator_config g;
    std::vector<std::string> given;
    apply_cmn_generator_settings(g, {"seed=010", "start=1_000", "count=0x10", "range=0x8000_0000-0x8000_ffff",
                                     "mix=ReadShared:0_3"},
                                 given, "", 0);
    CHECK(g.seed == 10);
    CHECK(g.start_cycle == 1000);
    CHECK(g.count == 16);
    CHECK(g.lo == 0x80000000u);
    CHECK(g.hi == 0x8000ffffu);
    REQUIRE(g.mix.size() == 1);
    CHECK(g.mix[0].second == 3);
    for (const char* bad : {"seed=+1", "seed=-1", "start=1x", "range=0x10zz-0x20", "range=+1-2", "mix=ReadShared:-1"}) {
        INFO(bad);
        cmn_generator_config h;
        std::vector<std::string> none;
        CHECK_THROWS_AS(apply_cmn_generator_settings(h, {bad}, none, "", 0), input_error);
    }
}

TEST_CASE("cmn: event IDs read with the one value grammar") {
    std::string error;
    auto id = [&](const std::string& word) {
        auto r = resolve_cmn_event(cmn_node_type::hnf, word, error);
        return r ? int(r->eventid) : -1;
    };
    CHECK(id("0x0a") == 0x0a);
    CHECK(id("010") == 10); // decimal, not octal 8
    CHECK(id("0x1_0") == 0x10);
    CHECK(id("0x100") == -1);
    CHECK(error == "expected an event ID 0x01..0xff, found '0x100'");
}

TEST_CASE("cmn: flits contending for a link stall one cycle at a time") {
    register_all_units();
    // Two RN-Is on XP(0,1) (p0 and p1) read the same line at the same edges (100k).
    const std::string text = R"(name: t
arch: arm
clocks:
  - { name: m, frequency: 1GHz }
cpus: []
units:
  - name: cmn0
    type: cmn600
    base: 0x50000000
    size: 64MiB
    clock: m
    params:
      mesh_x: 3
      mesh_y: 2
      nodes: "0,0 p0 hn-d; 1,0 p0 hn-f; 2,0 p0 sn-f; 0,1 p0 rn-i; 0,1 p1 rn-i"
      traffic: |
        0,1 p0 rate=1/100 range=0x80000000-0x8000003f mix=ReadNoSnp
        0,1 p1 rate=1/100 range=0x80000000-0x8000003f mix=ReadNoSnp
)";
    platform p(parse_platform(text, "t.yaml"));
    uint64_t xp01 = 0, xp10 = 0;
    run_bench(p, [&](bench& b) {
        b.write32(0x50030A00, 1);
        b.write64(0x50108000 + 0x2210, 0x0000'0504'0000'0001ull);
        b.write32(0x50108000 + 0x2000, 0x0201); // mxp_e_req_txflit_valid, mxp_e_req_txflit_stall
        b.write64(0x50408000 + 0x2210, 0x0000'0504'0000'0001ull);
        b.write32(0x50408000 + 0x2000, 0x6665); // mxp_w_dat_txflit_valid, mxp_w_dat_txflit_stall
        b.write32(0x50032100, 0x41);
        b.cycles(990);
        xp01 = b.read64(0x50108000 + 0x2220);
        xp10 = b.read64(0x50408000 + 0x2220);
    });
    // Each pair: the p1 request finds XP(0,1)'s east REQ link taken at 100k+1 and goes at +2
    // (1 stall). Pair 1: p0 misses (data at 163/164), p1 hits (data leaves XP(1,0) west at
    // 116/117): no DAT conflict. Pairs 2..9 both hit: p0's data goes west at +15/+16, p1's
    // wants +16/+17 and gets +17/+18 (2 stalls).
    CHECK((xp01 & 0xFFFF) == 18);
    CHECK((xp01 >> 16 & 0xFFFF) == 9);
    CHECK((xp10 & 0xFFFF) == 36);
    CHECK((xp10 >> 16 & 0xFFFF) == 8 * 2);
}
