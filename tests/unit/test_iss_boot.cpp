// The ISS's boot/host API (iss/aarch64_iss.h, docs/firmware.md "Booting a CPU from a host"): a CPU
// started at an entry PC, EL and security state with x0..x3 and no ELF, an SMC/HVC call handler
// serving PSCI-like calls (CPU_ON powers a second CPU on at its entry with its context id in x0,
// CPU_OFF and SYSTEM_OFF power CPUs off), as the linux helper's platform wires them. Function IDs:
// Arm DEN 0022 (PSCI) 5.1: CPU_ON (SMC64) 0xC4000003, CPU_OFF 0x84000002, SYSTEM_OFF 0x84000008.
// The code words are GNU as's (aarch64-linux-gnu-as 2.40), its source in the comments.
#include <catch2/catch.hpp>
#include <cstring>
#include <sstream>

#include "iss/aarch64_iss.h"
#include "models/input_error.h"
#include "models/memory.h"
#include "vp/platform.h"
#include "vp/platform_iss.h"
#include "vp/run_recorder.h"

using namespace pmusim;

namespace {

constexpr uint64_t dram = 0x80000000, cpu0_entry = dram + 0x1000, cpu1_entry = dram + 0x2000;

const uint32_t cpu0_code[] = {
    0xd2b00009, // mov  x9, #0x80000000
    0xa9000520, // stp  x0, x1, [x9]
    0xa9010d22, // stp  x2, x3, [x9, #16]
    0xd538424a, // mrs  x10, CurrentEL
    0xf900112a, // str  x10, [x9, #32]
    0xd2b88000, // mov  x0, #0xc4000000
    0xf2800060, // movk x0, #0x3            CPU_ON
    0xd2800021, // mov  x1, #1              target: cpu1
    0xd2b00002, // mov  x2, #0x80000000
    0xf2840002, // movk x2, #0x2000         entry
    0xd2800aa3, // mov  x3, #0x55           context id
    0xd4000003, // smc  #0
    0xf9001520, // str  x0, [x9, #40]       CPU_ON's result
    0xf940192b, // 1: ldr x11, [x9, #48]    cpu1's flag
    0xb4ffffeb, // cbz  x11, 1b
    0xd2b08000, // mov  x0, #0x84000000
    0xf2800100, // movk x0, #0x8            SYSTEM_OFF
    0xd4000002, // hvc  #0
    0x14000000, // b    .
};
const uint32_t cpu1_code[] = {
    0xd2b00009, // mov  x9, #0x80000000
    0xf9001920, // str  x0, [x9, #48]       the context id CPU_ON gave
    0xd2b08000, // mov  x0, #0x84000000
    0xf2800040, // movk x0, #0x2            CPU_OFF
    0xd4000003, // smc  #0
    0x14000000, // b    .
};

uint64_t load64(memory& m, uint64_t offset) {
    uint64_t v;
    std::memcpy(&v, m.data() + offset, 8);
    return v;
}

} // namespace

TEST_CASE("iss: a CPU boots at an entry with x0..x3 and CPU_ON and CPU_OFF go through a call handler") {
    platform p{load_platform("arm-default")};
    std::ostringstream log;
    run_recorder rec;
    rec.log = &log;
    platform_iss cpu0("iss_cpu0", p, rec, 0), cpu1("iss_cpu1", p, rec, 1);
    memory& m = *p.memory_at(dram);
    std::memcpy(m.data() + (cpu0_entry - dram), cpu0_code, sizeof cpu0_code);
    std::memcpy(m.data() + (cpu1_entry - dram), cpu1_code, sizeof cpu1_code);
    std::vector<cpu_call> calls;
    auto psci = [&](aarch64_iss& cpu, cpu_call& call) {
        calls.push_back(call);
        switch (call.x[0]) {
        case 0xC4000003: {
            aarch64_iss& target = call.x[1] == 1 ? cpu1 : cpu0;
            cpu_boot b;
            b.entry = call.x[2];
            b.el = call.el;
            b.secure = call.secure;
            b.x[0] = call.x[3];
            target.power_on(b);
            call.x[0] = 0; // SUCCESS
            return true;
        }
        case 0x84000002: cpu.power_off("CPU_OFF"); return true;
        case 0x84000008:
            cpu0.power_off("SYSTEM_OFF");
            cpu1.power_off("SYSTEM_OFF");
            return true;
        }
        return false;
    };
    cpu0.set_call_handler(psci);
    cpu1.set_call_handler(psci);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    cpu_boot b;
    b.entry = cpu0_entry;
    b.el = 1;
    b.secure = false;
    b.x = {0x11, 0x22, 0x33, 0x44};
    cpu0.power_on(b, 1'000'000'000'000); // 1 ms
    CHECK(cpu0.running());
    CHECK_FALSE(cpu1.running());
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    INFO(log.str());
    CHECK(cpu0.powered_off());
    CHECK(cpu1.powered_off());
    CHECK(cpu0.result().message == "SYSTEM_OFF");
    CHECK(cpu1.result().message == "CPU_OFF");
    CHECK(load64(m, 0) == 0x11);
    CHECK(load64(m, 8) == 0x22);
    CHECK(load64(m, 16) == 0x33);
    CHECK(load64(m, 24) == 0x44);
    CHECK(load64(m, 32) == 1 << 2); // CurrentEL: EL1
    CHECK(load64(m, 40) == 0);      // CPU_ON returned SUCCESS in x0
    CHECK(load64(m, 48) == 0x55);   // cpu1 started with the context id in x0
    REQUIRE(calls.size() == 3);
    CHECK(calls[0].x[0] == 0xC4000003);
    CHECK_FALSE(calls[0].hvc);
    CHECK(calls[0].el == 1);
    CHECK_FALSE(calls[0].secure);
    CHECK(calls[1].x[0] == 0x84000002);
    CHECK(calls[2].x[0] == 0x84000008);
    CHECK(calls[2].hvc);
}

TEST_CASE("iss: a CPU powered on outside plain memory is refused") {
    platform p{load_platform("arm-default")};
    run_recorder rec;
    platform_iss cpu0("iss_cpu0", p, rec, 0);
    cpu_boot b;
    b.entry = 0x1000;
    CHECK_THROWS_AS(cpu0.power_on(b), input_error);
}
