// PSCI's function logic (devices/psci) against a recording cpu_power_control: function IDs and
// return codes as Linux's include/uapi/linux/psci.h@v6.1.192 defines them (DEN 0022 5.1, 5.2.2),
// the calls in the order Linux's drivers/firmware/psci/psci.c makes them at boot and for SMP.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "devices/psci/psci.h"

using namespace pmusim;

namespace {

constexpr uint64_t PSCI_0_2_FN_PSCI_VERSION = 0x84000000, PSCI_0_2_FN_CPU_OFF = 0x84000002,
                   PSCI_0_2_FN64_CPU_ON = 0xC4000003, PSCI_0_2_FN64_AFFINITY_INFO = 0xC4000004,
                   PSCI_0_2_FN_MIGRATE_INFO_TYPE = 0x84000006, PSCI_0_2_FN_SYSTEM_OFF = 0x84000008,
                   PSCI_0_2_FN_SYSTEM_RESET = 0x84000009, PSCI_1_0_FN_PSCI_FEATURES = 0x8400000A,
                   PSCI_0_2_FN_CPU_SUSPEND = 0x84000001, PSCI_1_0_FN_SYSTEM_SUSPEND = 0x8400000E,
                   ARM_SMCCC_VERSION_FUNC_ID = 0x80000000;
constexpr int64_t PSCI_RET_SUCCESS = 0, PSCI_RET_NOT_SUPPORTED = -1, PSCI_RET_INVALID_PARAMS = -2,
                  PSCI_RET_ALREADY_ON = -4, PSCI_RET_ON_PENDING = -5;
constexpr int64_t PSCI_0_2_AFFINITY_LEVEL_ON = 0, PSCI_0_2_AFFINITY_LEVEL_OFF = 1, PSCI_0_2_AFFINITY_LEVEL_ON_PENDING = 2;
constexpr int64_t PSCI_0_2_TOS_MP = 2;

// Four CPUs of one cluster: MPIDR Aff1 = 0, Aff0 = 0..3, with the RES1 bit 31 set as the register reads.
struct recorder : cpu_power_control {
    std::vector<std::string> log;
    unsigned cpu_count() const override { return 4; }
    uint64_t mpidr(unsigned cpu) const override { return 0x80000000ULL | cpu; }
    bool powered(unsigned cpu) const override { return cpu == 0; }
    bool cpu_on(unsigned cpu, uint64_t entry, uint64_t context) override {
        log.push_back("on " + std::to_string(cpu) + " " + std::to_string(entry) + " " + std::to_string(context));
        return true;
    }
    void cpu_off(unsigned cpu) override { log.push_back("off " + std::to_string(cpu)); }
    void system_off() override { log.push_back("system_off"); }
    void system_reset() override { log.push_back("system_reset"); }
};

int64_t ret(const psci_result& r) { return int64_t(r.x0); }

} // namespace

TEST_CASE("psci: Linux's probe - version - SMCCC version - migrate info - features") {
    recorder power;
    psci_service p(&power, psci::version_of(1, 0));
    // psci_probe: PSCI_VERSION; PSCI_VERSION_MAJOR = ver >> 16, MINOR = ver & 0xffff.
    const uint64_t v = p.call(0, PSCI_0_2_FN_PSCI_VERSION, 0, 0, 0).x0;
    CHECK(v >> 16 == 1);
    CHECK((v & 0xffff) == 0);
    CHECK(ret(p.call(0, PSCI_0_2_FN_MIGRATE_INFO_TYPE, 0, 0, 0)) == PSCI_0_2_TOS_MP);
    CHECK(ret(p.call(0, PSCI_1_0_FN_PSCI_FEATURES, ARM_SMCCC_VERSION_FUNC_ID, 0, 0)) == PSCI_RET_NOT_SUPPORTED);
    CHECK(ret(p.call(0, PSCI_1_0_FN_PSCI_FEATURES, PSCI_0_2_FN_CPU_SUSPEND, 0, 0)) == PSCI_RET_NOT_SUPPORTED);
    CHECK(ret(p.call(0, PSCI_1_0_FN_PSCI_FEATURES, PSCI_1_0_FN_SYSTEM_SUSPEND, 0, 0)) == PSCI_RET_NOT_SUPPORTED);
    CHECK(ret(p.call(0, PSCI_1_0_FN_PSCI_FEATURES, PSCI_0_2_FN64_CPU_ON, 0, 0)) == PSCI_RET_SUCCESS);
    CHECK(ret(p.call(0, 0x8400ffff, 0, 0, 0)) == PSCI_RET_NOT_SUPPORTED); // an unknown function
    CHECK(power.log.empty());
}

TEST_CASE("psci: version 0.2 reports 0.2 and has no PSCI_FEATURES") {
    recorder power;
    psci_service p(&power, psci::version_of(0, 2));
    CHECK(p.call(0, PSCI_0_2_FN_PSCI_VERSION, 0, 0, 0).x0 == 2);
    CHECK(ret(p.call(0, PSCI_1_0_FN_PSCI_FEATURES, PSCI_0_2_FN64_CPU_ON, 0, 0)) == PSCI_RET_NOT_SUPPORTED);
}

TEST_CASE("psci: CPU_ON brings a secondary up - twice is ALREADY_ON or ON_PENDING - AFFINITY_INFO tracks it") {
    recorder power;
    psci_service p(&power, psci::version_of(1, 0));
    // psci_cpu_on(cpuid = MPIDR affinity, entry = __pa_symbol(secondary_entry)), context 0.
    CHECK(ret(p.call(0, PSCI_0_2_FN64_AFFINITY_INFO, 1, 0, 0)) == PSCI_0_2_AFFINITY_LEVEL_OFF);
    CHECK(ret(p.call(0, PSCI_0_2_FN64_CPU_ON, 1, 0x40080000, 0)) == PSCI_RET_SUCCESS);
    CHECK(ret(p.call(0, PSCI_0_2_FN64_AFFINITY_INFO, 1, 0, 0)) == PSCI_0_2_AFFINITY_LEVEL_ON_PENDING);
    CHECK(ret(p.call(0, PSCI_0_2_FN64_CPU_ON, 1, 0x40080000, 0)) == PSCI_RET_ON_PENDING);
    p.cpu_running(1); // the platform reports that cpu1 executes its first instruction
    CHECK(ret(p.call(0, PSCI_0_2_FN64_AFFINITY_INFO, 1, 0, 0)) == PSCI_0_2_AFFINITY_LEVEL_ON);
    CHECK(ret(p.call(0, PSCI_0_2_FN64_CPU_ON, 1, 0x40080000, 0)) == PSCI_RET_ALREADY_ON);
    CHECK(ret(p.call(0, PSCI_0_2_FN64_CPU_ON, 0, 0x40080000, 0)) == PSCI_RET_ALREADY_ON); // the boot CPU
    CHECK(ret(p.call(0, PSCI_0_2_FN64_CPU_ON, 7, 0x40080000, 0)) == PSCI_RET_INVALID_PARAMS); // no such MPIDR
    CHECK(ret(p.call(0, PSCI_0_2_FN64_AFFINITY_INFO, 1, 1, 0)) == PSCI_RET_INVALID_PARAMS);  // level 1
    // cpu1 goes off itself (psci_cpu_off from cpu_die), then the boot CPU sees it off (psci_cpu_kill).
    p.call(1, PSCI_0_2_FN_CPU_OFF, 0, 0, 0);
    CHECK(ret(p.call(0, PSCI_0_2_FN64_AFFINITY_INFO, 1, 0, 0)) == PSCI_0_2_AFFINITY_LEVEL_OFF);
    const std::vector<std::string> expected = {"on 1 1074266112 0", "off 1"};
    CHECK(power.log == expected);
}

TEST_CASE("psci: SYSTEM_OFF and SYSTEM_RESET reach the platform") {
    recorder power;
    psci_service p(&power, psci::version_of(1, 0));
    p.call(2, PSCI_0_2_FN_SYSTEM_RESET, 0, 0, 0);
    p.call(0, PSCI_0_2_FN_SYSTEM_OFF, 0, 0, 0);
    const std::vector<std::string> expected = {"system_reset", "system_off"};
    CHECK(power.log == expected);
}
