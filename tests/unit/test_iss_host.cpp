// The ISS over a host of the test's own (iss/cpu_host.h), with nothing of vp/ or tb/: plain memory,
// a firmware gate owning the CPU control registers (models/cpu_controls.h), a core model on a stub
// clock (tests/unit/unit_bench.h), an IRQ line and a log sink that keeps what it is given. A few
// instructions prove the interface enough to run firmware: an MRS and an MSR of ACTLR_EL3 (owned by
// the fake's gate), an MRS of CurrentEL, a store pair to the fake's memory and a semihosting exit.
//
// Expected values: Arm ARM (DDI 0487) C5.2.1 CurrentEL: EL in bits [3:2] (EL3: 0xC); D17.2.3
// ACTLR_EL3's encoding op0 = 3, op1 = 6, CRn = 1, CRm = 0, op2 = 1 (S3_6_C1_C0_1); C6.2.230 MSR
// writes Xt to the register. Arm semihosting v2 (IHI 0070, "The semihosting interface"): on A64
// `HLT #0xF000`, the operation in W0, its parameter in X1; SYS_EXIT is 0x18 and its parameter (on
// AArch64) points to two words, the reason and a subcode; ADP_Stopped_ApplicationExit is 0x20026,
// subcode 0: the application exited with status 0. The code words are GNU as's (aarch64-linux-gnu-as
// 2.40), its source in the comments.
#include <catch2/catch.hpp>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "iss/aarch64_iss.h"
#include "iss/cpu_host.h"
#include "models/access_record.h"
#include "models/cpu_controls.h"
#include "models/firmware_gate.h"
#include "models/interrupt_line.h"
#include "models/memory.h"
#include "models/system_bus.h"
#include "tests/unit/unit_bench.h"

using namespace pmusim;

namespace {

constexpr uint64_t dram = 0x80000000, dram_size = 1 << 20, entry = dram + 0x1000;

const uint32_t code[] = {
    0xd53e1021, // mrs  x1, ACTLR_EL3        the gate's register
    0xd5384242, // mrs  x2, CurrentEL
    0xd2b00009, // mov  x9, #0x80000000
    0xa9000921, // stp  x1, x2, [x9]
    0xd2801003, // mov  x3, #0x80            PWREN only
    0xd51e1023, // msr  ACTLR_EL3, x3
    0xd2800300, // mov  x0, #0x18            SYS_EXIT
    0x10000061, // adr  x1, block
    0xd45e0000, // hlt  #0xf000
    0x14000000, // b    .
    // block: .quad 0x20026, 0               ADP_Stopped_ApplicationExit, status 0
    0x00020026, 0, 0, 0,
};

// What the fake's control register holds at the start: CLUSTERPMUEN [12] and PWREN [7], ACTLR_EL3's
// fields on DynamIQ cores (Cortex-A76 TRM 100798 B2.5; DSU TRM 100453).
constexpr uint64_t actlr_el3_value = 0x1080;

// The fake: everything the ISS asks of a host, built from models/ only.
class fake_host : public cpu_host, public cpu_log {
public:
    testing::unit_bench bench;
    core_model& core;
    cpu_controls& controls_;
    system_bus bus{"bus"};
    firmware_gate gate_{"gate"};
    memory dram_memory{"dram", dram_size, false};
    interrupt_line irq{"cpu0_irq"};
    std::vector<std::pair<uint64_t, memory*>> regions{{dram, &dram_memory}};

    std::vector<std::string> lines, program_lines;
    std::vector<access_record> records;
    std::ostringstream access_stream;
    std::ostream* access_log_stream = &access_stream;
    std::vector<std::pair<unsigned, fs_t>> exits;

    fake_host()
        : core((bench.add_clock("cpu", 1'000'000'000), bench.add_cpu("cpu"))), controls_(bench.add_cpu_controls()) {
        gate_.to_bus.bind(bus.from_gate);
        bus.map("dram", dram, dram_size, bus.attach(dram_memory.in));
        bus.attach(controls_.registers_in);
        for (const register_def* r : controls_.sysregs(0)) gate_.own_sysreg(0, *r, controls_);
        controls_.bank(0).find("ACTLR_EL3")->value = actlr_el3_value;
    }

    const std::vector<std::pair<uint64_t, memory*>>& memories() const override { return regions; }
    firmware_gate& gate() override { return gate_; }
    cpu_controls& controls() override { return controls_; }
    cpu_wiring wiring(unsigned cpu) override {
        REQUIRE(cpu == 0);
        cpu_wiring w;
        w.core = &core;
        w.irq_inputs = {&irq};
        w.cycles_per_instruction = 1;
        w.mpidr = (uint64_t(1) << 31) | (uint64_t(1) << 24);
        return w;
    }
    cpu_log& log() override { return *this; }
    void firmware_exited(unsigned cpu, fs_t t) override { exits.emplace_back(cpu, t); }

    void line(const std::string& text) override { lines.push_back(text); }
    void program_output(const std::string& text) override { program_lines.push_back(text); }
    std::ostream* const* access_log() const override { return &access_log_stream; }
    void access(const access_record& record) override { records.push_back(record); }
};

uint64_t load64(memory& m, uint64_t offset) {
    uint64_t v;
    std::memcpy(&v, m.data() + offset, 8);
    return v;
}

} // namespace

TEST_CASE("iss: a CPU runs over a host of models/ only (iss/cpu_host.h): the gate's register and memory and a semihosting exit") {
    fake_host host;
    std::memcpy(host.dram_memory.data() + (entry - dram), code, sizeof code);
    aarch64_iss cpu("iss_cpu0", host, 0);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    cpu_boot b;
    b.entry = entry;
    b.el = 3;
    b.secure = true;
    cpu.power_on(b, 1'000'000'000'000); // 1 ms
    REQUIRE(cpu.running());
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    std::string log;
    for (const auto& l : host.lines) log += l + "\n";
    INFO(log);

    // SYS_EXIT, ADP_Stopped_ApplicationExit with status 0: the run passed, and the host was told once.
    CHECK(cpu.result().s == firmware_result::state::passed);
    CHECK(cpu.result().exit_code == 0);
    CHECK(cpu.result().exit_status == 0);
    REQUIRE(host.exits.size() == 1);
    CHECK(host.exits[0].first == 0);
    CHECK(host.exits[0].second <= now_fs());

    // The MRS of the gate's register read the fake's control register; CurrentEL reads EL3.
    CHECK(load64(host.dram_memory, 0) == actlr_el3_value);
    CHECK(load64(host.dram_memory, 8) == 0xC);

    // Both accesses to ACTLR_EL3 went through the fake's gate and into its access log, as EL3.
    CHECK(host.gate_.accesses() >= 2);
    REQUIRE(host.records.size() == 2);
    CHECK(host.records[0].op == "read");
    CHECK(host.records[0].encoding == std::optional<std::string>("S3_6_C1_C0_1"));
    CHECK(host.records[0].value == std::optional<std::string>("0x1080"));
    CHECK(host.records[0].outcome == "ok");
    CHECK(host.records[0].pc == std::optional<std::string>("0x80001000"));
    CHECK(host.records[1].op == "write");
    CHECK(host.records[1].encoding == std::optional<std::string>("S3_6_C1_C0_1"));
    CHECK(host.records[1].value == std::optional<std::string>("0x80"));
    CHECK(host.records[1].pc == std::optional<std::string>("0x80001014"));
    CHECK(host.controls_.value(0, control::actlr_el3) == 0x80); // the MSR reached the gate's owner
    // The human log went to the fake's sink (the start and the end of the run at least).
    CHECK(host.lines.size() >= 2);
}

TEST_CASE("iss: without an access log the host's sink gets no access records") {
    fake_host host;
    host.access_log_stream = nullptr; // read through the pointer the ISS keeps: no record is built
    std::memcpy(host.dram_memory.data() + (entry - dram), code, sizeof code);
    aarch64_iss cpu("iss_cpu0", host, 0);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    cpu_boot b;
    b.entry = entry;
    b.el = 3;
    b.secure = true;
    cpu.power_on(b, 1'000'000'000'000);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    CHECK(cpu.result().s == firmware_result::state::passed);
    CHECK(load64(host.dram_memory, 0) == actlr_el3_value);
    CHECK(host.records.empty());
}
