// Unit tests for the POWER9 IMC unit (imc/): SCOM address arithmetic, the trace
// SCOM encoding, and runs of real sequences checked through the unit's own
// counters (trace records, postings, interrupts raised).
#include <catch2/catch.hpp>

#include <systemc>

#include "imc/imc.h"
#include "models/input_error.h"
#include "vp/platform.h"
#include "tb/sequence_parser.h"
#include "tb/sequence_runner.h"
#include "vp/unit_list.h"
#include "tests/unit/facts.h"

using namespace pmusim;
using namespace pmusim::imc;

TEST_CASE("imc: SCOM addresses and the XSCOM mangling follow skiboot") {
    CHECK(scom_pdbar(0) == 0x1001220B);
    CHECK(scom_pdbar(1) == 0x1001230B);
    CHECK(scom_pdbar(4) == 0x1101220B);
    CHECK(scom_pdbar(5) == 0x1101230B);
    CHECK(scom_htm_mode(0) == 0x10012200);
    CHECK(scom_htm_mode(5) == 0x11012300);
    CHECK(scom_event_mask(1) == 0x21010AA8);
    CHECK(scom_event_mask(4) == 0x24010AA8);
    CHECK(scom_trace(5) == 0x25010AA9);
    // skiboot hw/xscom.c xscom_addr(): on POWER9 the MMIO offset is pcb << 3; the interleaved
    // (pcb << 4) & ~0xff | (pcb << 3) & 0x78 is POWER8's (proc_gen <= proc_gen_p8) only.
    CHECK(xscom_offset(0x1001220B) == 0x80091058);
    CHECK(xscom_offset(0x20010AA9) == 0x100085548);
    for (uint32_t pcb : {0x1001220Bu, 0x20010AA8u, 0x25010AA9u, 0x0u, 0xFFFFFFFFu})
        CHECK(*pcb_of_offset(xscom_offset(pcb)) == pcb);
    CHECK(*pcb_of_offset(0x80) == 0x10);        // every offset bit above the byte is an address bit
    CHECK_FALSE(pcb_of_offset(0x80091059));     // not doubleword aligned
    CHECK_FALSE(pcb_of_offset(1ULL << 35));     // beyond a 32-bit PCB address
}

TEST_CASE("imc: TRACE_IMC_SCOM values of current and older skiboot") {
    CHECK(trace_scom_value(1, 0xfa, 4, 2, 0) == 0x7FFFFFC142020000ULL);
    CHECK(trace_scom_value(1, 0xfa, 0, 2, 0) == 0x7FFFFFC140020000ULL); // before skiboot 54634c4e6
    CHECK(trace_scom_value(0, 0xfa, 4, 2, 0) == 0x3FFFFFC142020000ULL); // the P10 value
    CHECK(trace_scom_value(1, 0xfa, 4, 2, 1) == 0x7FFFFFC142022000ULL);
    // skiboot hw/imc.c's POWER9 value, computed in tests/facts/imc.tsv from its macros.
    CHECK(skiboot_trace_scom == facts::fact_number("imc_const", "skiboot_trace_scom", "value"));
    CHECK(trace_scom_value(1, 0xfa, 4, 2, 0) == facts::fact_number("imc_const", "skiboot_trace_scom", "value"));
}

namespace {
// Runs a sequence on a platform in this process (one SystemC kernel per test case).
struct sequence_run {
    platform p;
    run_recorder rec;
    sequence_runner runner;
    explicit sequence_run(const std::string& platform_name, const std::string& text)
        : p((register_all_units(), load_platform(platform_name))), runner("runner", p, rec) {
        runner.load(seq::parse_sequence(text, "test.seq"));
        sc_core::sc_start();
    }
    imc_unit& imc() { return *dynamic_cast<imc_unit*>(p.find_unit("imc0")); }
};
} // namespace

TEST_CASE("imc: trace writes one record per sampling period and raises no interrupt") {
    // 2 ms of trace on cpu0 and cpu4: a record every 4016 timebase ticks (251 ticks of
    // the 32 MHz reference), so floor(1,024,000 / 4016) = 254 records per thread.
    sequence_run r("power9-default", R"(
as cpu0 hv
opal imc_counters_init trace 0 cpu0
write LDBAR 0x4000000010400000
opal imc_counters_start trace cpu0
as cpu4 hv
opal imc_counters_init trace 0 cpu4
write LDBAR 0x4000000010440000
opal imc_counters_start trace cpu4
run 2ms
)");
    CHECK(r.runner.exit_status() == exit_ok);
    CHECK(r.imc().trace_records(0) == 254);
    CHECK(r.imc().trace_records(4) == 254);
    CHECK(r.imc().trace_records(1) == 0);
    CHECK(r.imc().interrupts_raised() == 0);
    for (auto& [name, line] : r.p.system().irq_lines) CHECK_FALSE(line->level());
    // Each record is valid by the kernel's rules: tb1 strictly increasing, tb2 = tb1 & mask.
    memory* m = r.p.memory_at(0x10400000);
    REQUIRE(m);
    uint64_t prev = 0;
    for (unsigned i = 0; i < 254; ++i) {
        uint64_t off = 0x10400000 - 0x10400000 + 64 * i; // imc_counters memory starts at 0x10400000
        uint64_t tb1 = m->load_be64(off), tb2 = m->load_be64(off + 56);
        CHECK(tb1 > prev);
        CHECK(tb2 == (tb1 & facts::fact_number("imc_const", "trace_tb_mask", "value"))); // Linux IMC_TRACE_RECORD_TB1_MASK
        CHECK(tb1 == 4016ULL * (i + 1));
        prev = tb1;
    }
    CHECK(m->load_be64(64 * 254) == 0);
}

TEST_CASE("imc: the nest microcode posts one group at a time on its 500 us tick") {
    // Started at 0.6 ms (resumed at tick 2, 1.0 ms), run to 10.2 ms: group 1 posts on the
    // odd ticks 3, 5, ..., 19 (9 postings); group 3 on the even ticks 2, 4, ..., 20 (10);
    // group 4 on state 2 only: ticks 2, 10, 18 (3); group 5 on state 4: ticks 4, 12, 20 (3).
    sequence_run r("power9-default", R"(
as cpu0 hv
run 600us
opal imc_counters_start nest cpu0
run 9600us
)");
    CHECK(r.runner.exit_status() == exit_ok);
    memory* homer = r.p.memory_at(0x10000000);
    REQUIRE(homer);
    CHECK(homer->load_be64(0x180000) == 9);          // G1 header
    CHECK(homer->load_be64(0x180108) == 9);          // G1 trailer
    CHECK(homer->load_be64(0x180220) == 10);         // G3 header
    CHECK(homer->load_be64(0x180330) == 3);          // G4 header
    CHECK(homer->load_be64(0x180440) == 3);          // G5 (state 4): ticks 4, 12, 20 (10.0 ms)
    // PM_PB_CYC: (1.0, 9.5] ms of 2 GHz = 17,000,000 / 256 = 66406.25 -> 66406.
    CHECK(homer->load_be64(0x180080) == 66406);
    CHECK(r.imc().interrupts_raised() == 0);
}

namespace {
// Linux's trace_imc dump (imc-pmu.c trace_imc_prepare_sample): from record 0, a record is a
// sample while tb1 strictly increases and tb2 == tb1 & 0x3FFFFFFFFFF; the first other one ends it.
unsigned kernel_valid_samples(const memory& m, uint64_t offset, unsigned entries) {
    uint64_t prev = 0;
    unsigned n = 0;
    for (unsigned i = 0; i < entries; ++i) {
        uint64_t tb1 = m.load_be64(offset + 64 * i), tb2 = m.load_be64(offset + 64 * i + 56);
        if (tb1 <= prev || tb2 != (tb1 & facts::fact_number("imc_const", "trace_tb_mask", "value"))) break;
        prev = tb1;
        ++n;
    }
    return n;
}
} // namespace

TEST_CASE("imc: before a wrap the kernel's dump sees every record") {
    // 1,000,000 timebase ticks: floor(1,000,000 / 4016) = 249 records, all valid samples.
    sequence_run r("power9-default", R"(
as cpu0 hv
opal imc_counters_init trace 0 cpu0
write LDBAR 0x4000000010400000
opal imc_counters_start trace cpu0
run 1_000_000 cycles of tb
)");
    memory* m = r.p.memory_at(0x10400000);
    REQUIRE(m);
    CHECK(kernel_valid_samples(*m, 0, 4096) == 249);
}

TEST_CASE("imc: trace wrap leaves five valid samples for the kernel") {
    // 16,470,000 timebase ticks: records at 4016 k, so 4101 written (4101 * 4016 = 16,469,616);
    // slots 0..4 hold records 4097..4101, slot 5 still record 6: the dump yields 5 samples.
    sequence_run r("power9-default", R"(
as cpu0 hv
opal imc_counters_init trace 0 cpu0
write LDBAR 0x4000000010400000
opal imc_counters_start trace cpu0
run 16_470_000 cycles of tb
)");
    CHECK(r.imc().trace_records(0) == 4101);
    CHECK(r.imc().interrupts_raised() == 0);
    memory* m = r.p.memory_at(0x10400000);
    REQUIRE(m);
    CHECK(kernel_valid_samples(*m, 0, 4096) == 5);
    // The kernel zeroes the first doubleword after its dump: a second dump finds nothing.
    m->store_be64(0, 0);
    CHECK(kernel_valid_samples(*m, 0, 4096) == 0);
}

TEST_CASE("imc: counter memory at an unmapped address stops that engine only") {
    // Core 0's PDBAR points where the platform has no memory; core 1's is in imc_counters.
    // The fault is a warning (expected here, so displayed rather than thrown).
    sc_core::sc_report_handler::set_actions("pmusim/imc", sc_core::SC_WARNING, sc_core::SC_DISPLAY);
    sequence_run r("power9-default", R"(
as cpu0 hv
opal imc_counters_init core 0x20000000 cpu0
opal imc_counters_start core cpu0
as cpu4 hv
opal imc_counters_init core 0x10402000 cpu4
opal imc_counters_start core cpu4
run 2500us
)");
    CHECK(r.runner.exit_status() == exit_ok);
    CHECK(r.imc().memory_faults() == 1); // core 0's first update at 1 ms, then it stopped
    CHECK(sc_core::sc_report_handler::get_count("pmusim/imc") == 1);
    memory* m = r.p.memory_at(0x10400000);
    REQUIRE(m);
    CHECK(m->load_be64(0x2018) == 12500); // core 1 CPM_PCYC: 3.2 GHz * 2 ms / 512
}

TEST_CASE("imc: opal statements parse and print back") {
    auto st = seq::parse_line("opal imc_counters_init core 0x1040_2000 cpu4  # core 1", "x.seq", 3);
    REQUIRE(st);
    auto* o = std::get_if<seq::command_call>(&st->body);
    REQUIRE(o);
    CHECK(o->verb == "opal");
    CHECK(o->args == std::vector<std::string>{"imc_counters_init", "core", "0x10402000", "cpu4"});
    CHECK(seq::to_string(st->body) == "opal imc_counters_init core 0x10402000 cpu4");
    CHECK(seq::keyword(st->body) == "opal");
    auto again = seq::parse_line(seq::to_string(st->body), "x.seq", 1);
    CHECK(seq::to_string(again->body) == seq::to_string(st->body));
    auto stop = seq::parse_line("opal imc_counters_stop trace cpu12", "x.seq", 1);
    CHECK(std::get<seq::command_call>(stop->body).args == std::vector<std::string>{"imc_counters_stop", "trace", "cpu12"});
    // Malformed: the address only for init, a domain, a cpu.
    CHECK_THROWS_AS(seq::parse_line("opal imc_counters_start core 0x100 cpu0", "x.seq", 1), input_error);
    CHECK_THROWS_AS(seq::parse_line("opal imc_counters_init core cpu0", "x.seq", 1), input_error);
    CHECK_THROWS_AS(seq::parse_line("opal imc_counters_start cpu0", "x.seq", 1), input_error);
    CHECK_THROWS_AS(seq::parse_line("opal imc_counters_reset nest cpu0", "x.seq", 1), input_error);
    try {
        seq::parse_line("opal imc_counters_start nest", "x.seq", 7);
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK(e.line() == 7);
        CHECK_THAT(e.message(), Catch::Contains("cpuN"));
    }
}
