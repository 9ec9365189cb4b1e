#pragma once
// The Power State Coordination Interface as firmware implements it (Arm DEN 0022, PSCI 0.2 / 1.0):
// the function logic only. A caller hands a conduit call (SMC or HVC with function ID and arguments
// in x0..x3, from a CPU) to psci_service::call and puts the result back in x0. What a power
// transition does to a CPU (start an engine at an entry point, stop it, end the run) belongs to
// the platform, behind the small cpu_power_control interface it implements (the `linux` platform
// wires it to the ISS). The service keeps each CPU's PSCI state (ON, OFF, ON_PENDING) for
// AFFINITY_INFO and the CPU_ON checks.
#include <cstdint>
#include <string>
#include <vector>

#include "models/unit.h"

namespace pmusim {

// Function IDs and return codes (DEN 0022 5.1 and 5.2.2; Linux include/uapi/linux/psci.h).
namespace psci {
constexpr uint32_t fn_base = 0x84000000, fn64_base = 0xC4000000;
constexpr uint32_t version = fn_base + 0, cpu_suspend = fn_base + 1, cpu_off = fn_base + 2, cpu_on = fn_base + 3,
                   affinity_info = fn_base + 4, migrate = fn_base + 5, migrate_info_type = fn_base + 6,
                   migrate_info_up_cpu = fn_base + 7, system_off = fn_base + 8, system_reset = fn_base + 9,
                   features = fn_base + 10, system_suspend = fn_base + 14, system_reset2 = fn_base + 18;
constexpr uint32_t cpu_on64 = fn64_base + 3, affinity_info64 = fn64_base + 4, cpu_suspend64 = fn64_base + 1,
                   migrate64 = fn64_base + 5, migrate_info_up_cpu64 = fn64_base + 7;
constexpr int64_t success = 0, not_supported = -1, invalid_parameters = -2, denied = -3, already_on = -4,
                  on_pending = -5, internal_failure = -6, not_present = -7, disabled = -8, invalid_address = -9;
// AFFINITY_INFO results (DEN 0022 5.7).
constexpr int64_t affinity_on = 0, affinity_off = 1, affinity_on_pending = 2;
// MIGRATE_INFO_TYPE 2: no Trusted OS, or one that needs no migration (DEN 0022 5.8).
constexpr int64_t tos_not_present_mp = 2;
// PSCI_VERSION: major [31:16], minor [15:0].
constexpr uint32_t version_of(unsigned major, unsigned minor) { return major << 16 | minor; }
// The affinity fields of an MPIDR (Aff3 [39:32], Aff2 [23:16], Aff1 [15:8], Aff0 [7:0]) that CPU_ON
// and AFFINITY_INFO compare.
constexpr uint64_t mpidr_affinity_mask = 0xFF00FFFFFFULL;
} // namespace psci

// What the platform does for PSCI. CPU numbers are the platform's CPU indices.
class cpu_power_control {
public:
    virtual ~cpu_power_control() = default;
    virtual unsigned cpu_count() const = 0;
    virtual uint64_t mpidr(unsigned cpu) const = 0;  // MPIDR_EL1 of the CPU (its affinity fields)
    virtual bool powered(unsigned cpu) const = 0;    // running when the run starts (the boot CPU)
    // Start `cpu` at `entry` (in the caller's execution state and exception level, MMU off), x0 =
    // context_id (DEN 0022 5.6). false: the platform cannot start it (INTERNAL_FAILURE).
    virtual bool cpu_on(unsigned cpu, uint64_t entry, uint64_t context_id) = 0;
    virtual void cpu_off(unsigned cpu) = 0; // the calling CPU stops; CPU_OFF does not return
    virtual void system_off() = 0;          // the run ends (exit 0)
    virtual void system_reset() = 0;
};

struct psci_result {
    uint64_t x0 = 0, x1 = 0, x2 = 0, x3 = 0; // registers after the call (x1..x3 unchanged by PSCI)
};

class psci_service {
public:
    // version: psci::version_of(0, 2) or (1, 0).
    psci_service(cpu_power_control* power, uint32_t version);

    void connect(cpu_power_control& power) { power_ = &power; states_.clear(); }
    uint32_t version() const { return version_; }
    // A call from CPU `caller` with x0..x3 as the conduit instruction found them.
    psci_result call(unsigned caller, uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3);
    // The platform says a CPU it started now runs (ON_PENDING -> ON) or stopped by itself.
    void cpu_running(unsigned cpu);
    void cpu_stopped(unsigned cpu);
    // The PSCI state of a CPU: psci::affinity_on / off / on_pending.
    int64_t state(unsigned cpu);
    uint64_t calls() const { return calls_; }

private:
    int64_t dispatch(unsigned caller, uint32_t fn, uint64_t a1, uint64_t a2, uint64_t a3);
    bool implemented(uint32_t fn) const;
    int target_of(uint64_t mpidr) const; // -1 when no CPU has that affinity
    void initialise();

    cpu_power_control* power_;
    uint32_t version_;
    std::vector<int64_t> states_;
    uint64_t calls_ = 0;
};

// The platform device: one per platform, type `psci`, no registers. The platform's conduit hook
// (the ISS's SMC/HVC hook) calls service().call(...). Its parameters say which conduit the device
// tree names and which version it reports.
class psci_unit : public unit {
public:
    psci_unit(const sc_core::sc_module_name& name, soc& system, std::string conduit, uint32_t version);

    std::string type() const override { return "psci"; }
    const register_table& table() const override;
    const std::string& conduit() const { return conduit_; } // "smc" or "hvc"
    psci_service& service() { return service_; }
    void report(std::ostream& out) override;

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    std::string conduit_;
    psci_service service_;
};

} // namespace pmusim
