// The POWER9 IMC on a bench of its own (tests/unit/unit_bench.h): two hardware threads of one core
// on a stub core clock, stub nest and timebase clocks, plain big-endian memory bound straight to the
// unit's memory master, and the XSCOM window and the LDBAR SPR accessed straight on the unit's socket
// at hypervisor privilege, as skiboot's OPAL calls do. SCOM offsets and values from tests/facts/imc.tsv
// (skiboot, Linux); counter offsets and scales from the IMA catalog (imc/catalog/power9_dd2.dts:
// core@18, scale "512", events PCYC at 0x0 and INST at 0x8); expected counts from f x t x rate.
#include <catch2/catch.hpp>

#include "imc/catalog.h"
#include "imc/imc.h"
#include "tests/unit/facts.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;
using testing::bench_initiator;
using testing::fs_per_us;

namespace {

constexpr uint64_t core_hz = 3'200'000'000;
constexpr uint64_t tb_hz = 512'000'000;           // the POWER9 timebase
constexpr uint64_t xscom_base = 0x603FC00000000;  // chip 0's XSCOM MMIO (QEMU pnv PNV9_XSCOM_BASE)
constexpr uint64_t pdbar = 0x10400000;            // the core's counter page (8 KiB, as the OS allocates it)
constexpr uint64_t trace_buffer = 0x10500000;     // cpu0's trace buffer
constexpr uint64_t cpm_pcyc = 0x18 + 0x0;         // catalog core@18 reg 0x18 + PCYC reg 0x0
constexpr uint64_t cpm_inst = 0x18 + 0x8;         // + INST reg 0x8
constexpr uint64_t cpm_scale = 512;               // catalog core@18 scale "512"
constexpr fs_t ms = 1000 * fs_per_us;

uint64_t imc_const(const char* name) { return facts::fact_number("imc_const", name, "value"); }
uint64_t scom(const char* reg) { return xscom_base + facts::fact_number("imc_xscom", reg, "offset"); }

struct imc_bench {
    testing::unit_bench b;
    memory& ram;
    imc_unit imc;
    imc_bench() : ram(machine(b)), imc("imc0", b.system, options(), imc::load_catalog_file(imc::builtin_catalog_path())) {
        imc.to_memory.bind(ram.in);
    }
    // Clocks core0, nest and tb; cpu0 and cpu1 (threads 0 and 1 of chip 0 core 0); 512 MiB of
    // big-endian memory from address 0, holding HOMER (at the default 0x10000000) and the pages.
    static memory& machine(testing::unit_bench& b) {
        b.add_clock("core0", core_hz);
        b.add_clock("nest", 2'000'000'000);
        b.add_clock("tb", tb_hz);
        b.add_cpu("core0", 0, "tb", true);
        b.add_cpu("core0", 0, "tb", true);
        return b.add_memory(512ULL << 20);
    }
    static imc::imc_options options() {
        imc::imc_options o;
        o.xscom_base = xscom_base;
        o.catalog_path = imc::builtin_catalog_path();
        o.threads = {{0, "cpu0", 0, 0, 0, "core0"}, {1, "cpu1", 0, 0, 1, "core0"}};
        return o;
    }
    uint64_t word(uint64_t address) const { return ram.load_be64(address); }
};

// cpu0 at hypervisor privilege, as OPAL runs.
void as_hypervisor(bench_initiator& t) {
    t.mmio_context.is_power = true;
    t.mmio_context.privilege = power_privilege::hypervisor;
}
// opal_imc_counters_init(core, pdbar) then _start(core), as skiboot's hw/imc.c writes the SCOMs.
void start_core_imc(bench_initiator& t) {
    as_hypervisor(t);
    t.write64(scom("PDBAR@0"), pdbar & imc_const("ldbar_address_mask"));
    t.write64(scom("EVENT_MASK@0"), imc_const("core_event_mask"));
    t.write64(scom("HTM_MODE@0"), imc_const("htm_mode_disable"));
    t.write64(scom("HTM_MODE@0"), imc_const("htm_mode_enable"));
}

} // namespace

TEST_CASE("imc bench: core IMC posts cycles f x t / 512 and the threads' instructions at each update") {
    imc_bench s;
    uint64_t pcyc_1ms = 0, pcyc = 0, inst = 0;
    s.b.run(s.imc, [&](bench_initiator& t) {
        s.b.core(0).set_workload({{"inst", rational(3, 2)}}, now_fs());
        s.b.core(1).set_workload({{"inst", rational(1, 4)}}, now_fs());
        start_core_imc(t); // at 0: updates every 1 ms (core_update_period) from then
        t.wait_until(1 * ms + fs_per_us);
        pcyc_1ms = s.word(pdbar + cpm_pcyc);
        t.wait_until(2 * ms + fs_per_us);
        pcyc = s.word(pdbar + cpm_pcyc);
        inst = s.word(pdbar + cpm_inst);
    });
    CHECK(pcyc_1ms == core_hz / 1000 / cpm_scale);                           // 3.2 GHz x 1 ms / 512 = 6250
    CHECK(pcyc == 2 * core_hz / 1000 / cpm_scale);                           // the 2 ms update: 12500
    CHECK(inst == (2 * core_hz / 1000) * 3 / 2 / cpm_scale + (2 * core_hz / 1000) / 4 / cpm_scale); // 18750 + 3125
}

TEST_CASE("imc bench: a DVFS change of the core clock changes the posted cycles from its instant") {
    imc_bench s;
    uint64_t pcyc = 0;
    s.b.run(s.imc, [&](bench_initiator& t) {
        start_core_imc(t);
        t.wait_until(3 * ms / 2);
        s.b.clock("core0").set_frequency(core_hz / 2, now_fs());
        t.wait_until(2 * ms + fs_per_us);
        pcyc = s.word(pdbar + cpm_pcyc);
    });
    // 1.5 ms at 3.2 GHz + 0.5 ms at 1.6 GHz = 5,600,000 cycles, / 512 = 10937 (truncated).
    CHECK(pcyc == (core_hz * 3 / 2000 + core_hz / 2 / 2000) / cpm_scale);
}

TEST_CASE("imc bench: trace IMC writes each record at its sampling instant and no earlier") {
    imc_bench s;
    // skiboot's TRACE_IMC_SCOM samples CPMC2 on the 32 MHz reference (timebase / 16) with load
    // 0xfa: a record every 251 x 16 = 4016 timebase ticks, the first at tick 4016.
    const fs_t first = 4016 * (testing::fs_per_us * 1'000'000 / tb_hz); // 4016 x 1953125 fs
    uint64_t before = 1, at = 0, records_1ms = 0;
    s.b.run(s.imc, [&](bench_initiator& t) {
        as_hypervisor(t);
        t.write64(scom("HTM_MODE@0"), imc_const("htm_mode_disable"));
        t.write64(scom("TRACE_IMC@0"), imc_const("skiboot_trace_scom"));
        t.sysreg(true, 0, 2, facts::fact_encoding("imc", "LDBAR").key(), imc_const("ldbar_trace_mode") | trace_buffer);
        t.write64(scom("HTM_MODE@0"), imc_const("htm_mode_enable"));
        t.wait_until(first - 1);
        before = s.word(trace_buffer); // record 0's tb1
        t.wait_until(first);
        at = s.word(trace_buffer);
        t.wait_until(1 * ms);
        records_1ms = s.imc.trace_records(0);
    });
    CHECK(before == 0);
    CHECK(at == 4016);
    CHECK(records_1ms == (tb_hz / 1000) / 4016); // 512,000 ticks in 1 ms: 127 records
    for (uint64_t i = 0; i < 127; ++i) CHECK(s.word(trace_buffer + 64 * i) == 4016 * (i + 1));
    CHECK(s.word(trace_buffer + 64 * 127) == 0);
}

TEST_CASE("imc bench: a reset stops core accumulation and leaves the posted counts") {
    imc_bench s;
    uint64_t pcyc = 0, htm = 1;
    s.b.run(s.imc, [&](bench_initiator& t) {
        start_core_imc(t);
        t.wait_until(3 * ms / 2); // after the 1 ms update
        s.imc.reset(true);
        htm = t.read64(scom("HTM_MODE@0"));
        t.wait_until(3 * ms + fs_per_us);
        pcyc = s.word(pdbar + cpm_pcyc);
    });
    CHECK(htm == 0);
    CHECK(pcyc == core_hz / 1000 / cpm_scale); // the 1 ms posting only: 6250
}
