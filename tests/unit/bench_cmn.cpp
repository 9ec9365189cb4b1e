// The CMN-600 on a bench of its own (tests/unit/unit_bench.h): a 1x1 mesh (an HN-D with its DTC and
// an HN-F on the only XP) on a stub mesh clock, a constant HN-F event rate, the overflow interrupt
// line observed and the configuration space accessed straight on the unit's socket, as Linux's
// arm-cmn driver programs it. Register offsets and fields from tests/facts/cmn.tsv (cmn-tools
// regdefs, Linux arm-cmn.c); node offsets from the CMN-600 address layout (2-bit coordinates:
// X << 22 | Y << 20 | port << 14 | device slot << 16, the XP itself at 0x8000, the HN-D's DTC in
// slot 3); expected counts from f x t x rate.
#include <catch2/catch.hpp>

#include "cmn/cmn600.h"
#include "cmn/cmn_mesh.h"
#include "tests/unit/facts.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;
using testing::bench_initiator;
using testing::fs_per_us;
using testing::irq_edge;

namespace {

constexpr uint64_t mesh_hz = 1'000'000'000; // one mesh cycle per ns
constexpr uint64_t periphbase = 0x50000000;
constexpr uint64_t dtc = periphbase + 0x30000;  // HN-D at XP(0,0) port 0, the DTC in slot 3
constexpr uint64_t xp = periphbase + 0x8000;    // XP(0,0)
constexpr uint64_t hnf = periphbase + 0x4000;   // HN-F at XP(0,0) port 1, slot 0
constexpr uint8_t hnf_cache_miss = 0x01;        // Linux arm-cmn.c CMN_EVENT_HNF(cache_miss, 0x01)
constexpr uint64_t cycle_counter_ovs = 1u << 8; // pmovsr[8]: the cycle counter (Linux CMN_DT_PMOVSR, after 8 counters)

uint64_t dtc_reg(const char* reg) { return dtc + facts::fact_number("cmn600_dtc", reg, "offset"); }
uint64_t dtc_bit(const char* reg, const char* field) { return facts::fact_field("cmn600_dtc", reg, field).bit(); }
uint64_t xp_reg(const char* reg) { return xp + facts::fact_number("cmn600_xp", reg, "offset"); }
facts::field_pos xp_field(const char* reg, const char* field) { return facts::fact_field("cmn600_xp", reg, field); }

cmn_mesh one_xp() { return build_cmn_mesh(1, 1, "0,0 p0 hn-d\n0,0 p1 hn-f\n", {"bench", 0, "nodes"}); }

size_t node_index(const cmn_mesh& m, const std::string& name) { return size_t(m.find(name) - m.nodes.data()); }

struct cmn_bench {
    testing::unit_bench b;
    cmn_mesh mesh = one_xp();
    cmn600_options options = [] {
        cmn600_options o;
        o.periphbase = periphbase;
        return o;
    }();
    // HN-F cache misses at 1/2 per mesh cycle (the platform's `events` parameter, typed).
    cmn600 cmn;
    explicit cmn_bench(rational miss_rate = rational(1, 2))
        : cmn("cmn0", (b.add_clock("mesh", mesh_hz), b.add_irq("cmn_irq"), b.system), mesh, options, "mesh", "cmn_irq",
              {{node_index(mesh, "hnf0"), {hnf_cache_miss, 0, -1}, miss_rate}}) {}
};

// DT_EN, then PMU_EN | OVFL_INTR_EN (arm_cmn_init_dtc, arm_cmn_set_state(ENABLED)).
void enable_dtc(bench_initiator& t) {
    t.write32(dtc_reg("por_dt_dtc_ctl"), uint32_t(dtc_bit("por_dt_dtc_ctl", "dt_en")));
    t.write32(dtc_reg("por_dt_pmcr"), uint32_t(dtc_bit("por_dt_pmcr", "pmu_en") | dtc_bit("por_dt_pmcr", "ovfl_intr_en")));
}

} // namespace

TEST_CASE("cmn bench: the DTC cycle counter counts f x t and a DVFS change from its instant") {
    cmn_bench s;
    std::vector<uint64_t> v;
    s.b.run(s.cmn, [&](bench_initiator& t) {
        enable_dtc(t);
        t.wait_for(2 * fs_per_us);
        v.push_back(t.read64(dtc_reg("por_dt_pmccntr"))); // 2 us at 1 GHz
        s.b.clock("mesh").set_frequency(mesh_hz * 3 / 2, now_fs());
        t.wait_for(2 * fs_per_us);
        v.push_back(t.read64(dtc_reg("por_dt_pmccntr"))); // + 2 us at 1.5 GHz
    });
    CHECK(v == std::vector<uint64_t>{2000, 2000 + 3000});
}

TEST_CASE("cmn bench: an HN-F event at a constant rate reaches its global counter through a paired DTM counter") {
    cmn_bench s;
    uint64_t local = 0, global = 0;
    s.b.run(s.cmn, [&](bench_initiator& t) {
        t.write32(dtc_reg("por_dt_dtc_ctl"), uint32_t(dtc_bit("por_dt_dtc_ctl", "dt_en")));
        // arm_cmn_event_add: the HN-F's event 0 is cache_miss; DTM counter 0 takes the HN-F's
        // event 0 (input_sel 0x10 + port 1 << 4 + device 0 << 2 + event 0), paired with global
        // counter 0, which starts at 0x80000000; then the PMU is enabled.
        t.write32(hnf + facts::fact_number("cmn600_node:hnf", "pmu_event_sel", "offset"),
                  uint32_t(hnf_cache_miss) << facts::fact_field("cmn600_node:hnf", "pmu_event_sel", "event0_id").lsb);
        const uint64_t input_sel = 0x10 + (1 << 4);
        t.write64(xp_reg("por_dtm_pmu_config"),
                  input_sel << xp_field("por_dtm_pmu_config", "pmevcnt0_input_sel").lsb |
                      0ULL << xp_field("por_dtm_pmu_config", "pmevcnt0_global_num").lsb |
                      xp_field("por_dtm_pmu_config", "pmevcnt_paired").bit() | xp_field("por_dtm_pmu_config", "pmu_en").bit());
        t.write32(dtc_reg("por_dt_pmevcntab"), 0x80000000u);
        t.write32(dtc_reg("por_dt_pmcr"), uint32_t(dtc_bit("por_dt_pmcr", "pmu_en")));
        t.wait_for(1000 * fs_per_us); // 1,000,000 mesh cycles
        t.write32(dtc_reg("por_dt_pmcr"), 0);
        local = t.read64(xp_reg("por_dtm_pmevcnt")) & xp_field("por_dtm_pmevcnt", "pmevcnt0").mask();
        global = t.read32(dtc_reg("por_dt_pmevcntab"));
    });
    // 1,000,000 cycles x 1/2 = 500,000 misses: 7 carries of the 16-bit local counter, 41,248 left.
    CHECK(local + ((global - 0x80000000u) << 16) == 500000);
    CHECK(local == 500000 % 65536);
}

TEST_CASE("cmn bench: the 40-bit cycle counter's wrap raises the interrupt at its edge as moved by DVFS") {
    cmn_bench s;
    const unsigned width = facts::fact_field("cmn600_dtc", "por_dt_pmccntr", "pmccntr").width; // 40
    uint64_t ovs_before = 0, ovs_after = 0;
    s.b.run(s.cmn, [&](bench_initiator& t) {
        t.wait_for(fs_per_us / 2);
        t.write64(dtc_reg("por_dt_pmccntr"), (1ULL << width) - 1000); // 1000 cycles before the wrap
        enable_dtc(t);
        t.wait_for(fs_per_us / 2);
        // 500 counted at 1 GHz; the other 500 at 2 GHz take 250 ns: the wrap moves to 1.25 us.
        s.b.clock("mesh").set_frequency(2 * mesh_hz, now_fs());
        t.wait_until(1250 * fs_per_us / 1000 - 1);
        ovs_before = t.read32(dtc_reg("por_dt_pmovsr"));
        t.wait_until(2 * fs_per_us);
        ovs_after = t.read32(dtc_reg("por_dt_pmovsr"));
        t.write32(dtc_reg("por_dt_pmovsr_clr"), uint32_t(cycle_counter_ovs)); // the handler clears it
    });
    CHECK(ovs_before == 0);
    CHECK(ovs_after == cycle_counter_ovs);
    CHECK(s.b.irq_edges("cmn_irq") == std::vector<irq_edge>{{true, 1250 * fs_per_us / 1000}, {false, 2 * fs_per_us}});
}

TEST_CASE("cmn bench: a reset clears the counters and the overflow status and drops the interrupt") {
    cmn_bench s;
    std::vector<uint64_t> v;
    s.b.run(s.cmn, [&](bench_initiator& t) {
        const unsigned width = facts::fact_field("cmn600_dtc", "por_dt_pmccntr", "pmccntr").width;
        t.write64(dtc_reg("por_dt_pmccntr"), (1ULL << width) - 100);
        enable_dtc(t); // wraps at 100 ns
        t.wait_for(1 * fs_per_us);
        v.push_back(t.read64(dtc_reg("por_dt_pmccntr"))); // 900 after the wrap
        s.cmn.reset(true); // at 1 us
        v.push_back(t.read32(dtc_reg("por_dt_pmovsr")));
        v.push_back(t.read32(dtc_reg("por_dt_pmcr")));
        t.wait_for(1 * fs_per_us);
        v.push_back(t.read64(dtc_reg("por_dt_pmccntr"))); // disabled since the reset
    });
    CHECK(v == std::vector<uint64_t>{900, 0, 0, 0});
    CHECK(s.b.irq_edges("cmn_irq") == std::vector<irq_edge>{{true, 100 * fs_per_us / 1000}, {false, 1 * fs_per_us}});
}
