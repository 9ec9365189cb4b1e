#pragma once
// Platform assembly: builds the SystemC system a platform_config describes
// (clock domains, CPU activity models, the firmware gate, the system bus, the
// CPU control registers, memories and units) and answers the testbench's
// questions about it (register names, clocks, interrupt lines).
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/cpu_controls.h"
#include "models/firmware_gate.h"
#include "models/memory.h"
#include "models/soc.h"
#include "models/system_bus.h"
#include "models/unit.h"
#include "vp/platform_config.h"

namespace pmusim {

// A register named in a sequence, resolved for the current CPU.
struct resolved_register {
    const register_def* def = nullptr; // null for a generic S<op0>_... name nobody implements
    unit* owner = nullptr;
    bool system_register = false;
    uint32_t key = 0;     // encoding, for system registers
    uint64_t address = 0; // absolute, for memory-mapped registers
    unsigned width = 64;
    std::string display;  // as it appears in messages
};

class platform {
public:
    explicit platform(platform_config config);
    ~platform();

    const platform_config& config() const { return config_; }
    soc& system() { return system_; }
    firmware_gate& gate() { return *gate_; }
    system_bus& bus() { return *bus_; }
    cpu_controls& controls() { return *controls_; }
    const std::vector<unit*>& units() const { return unit_ptrs_; }
    unit* find_unit(const std::string& name) const;
    // Unit types listed in the platform file that pmusim does not model yet.
    const std::vector<std::string>& unmodelled_units() const { return unmodelled_; }

    // A system-register name (architectural or S<op0>_<op1>_C<n>_C<m>_<op2>) on `cpu`,
    // or INSTANCE.REG for a memory-mapped register. nullopt: unknown name.
    std::optional<resolved_register> resolve_register(const std::string& name, unsigned cpu) const;
    // Names accepted for `cpu`, for error messages.
    std::vector<std::string> register_names(unsigned cpu) const;
    // A clock by domain name, or `cpuN` for that CPU's clock.
    clock_domain* find_clock(const std::string& name) const;
    interrupt_line* find_irq(const std::string& name) const;
    memory* memory_at(uint64_t address) const;
    // Every plain-memory region as (base, memory), in the platform file's order.
    const std::vector<std::pair<uint64_t, memory*>>& memories() const { return memory_bases_; }
    // A platform parameter by dotted name (cmn0.periphbase, clocks.cpu0.frequency, ...).
    std::optional<std::string> param(const std::string& name) const;

    // The configured firmware profile's boot code, typed steps the runner performs at time 0.
    firmware_code firmware_boot() const;
    // The firmware profile's code around a power transition of CPU `cpu`
    // (unit::firmware_power_down / firmware_power_up of every unit, in unit order).
    firmware_code firmware_power_down(unsigned cpu) const;
    firmware_code firmware_power_up(unsigned cpu) const;
    void reset(bool cold);

    // A CPU's firmware (`exec`, `pmusim firmware`) ended, its last instruction retiring at `t`
    // (t >= now). The sequence runner listens: the CPU is off from t, as after PSCI CPU_OFF.
    void firmware_exited(unsigned cpu, fs_t t) {
        if (on_firmware_exit) on_firmware_exit(cpu, t);
    }
    std::function<void(unsigned cpu, fs_t t)> on_firmware_exit;

private:
    platform_config config_;
    soc system_;
    std::unique_ptr<firmware_gate> gate_;
    std::unique_ptr<system_bus> bus_;
    std::unique_ptr<cpu_controls> controls_;
    std::vector<std::unique_ptr<memory>> memories_;
    std::vector<std::pair<uint64_t, memory*>> memory_bases_;
    std::vector<std::unique_ptr<unit>> units_;
    std::vector<unit*> unit_ptrs_;
    std::vector<std::string> unmodelled_;
    // Per CPU: architectural name -> (unit, def)
    std::vector<std::map<std::string, std::pair<unit*, const register_def*>>> sysreg_names_;
    void attach_unit(unit& u);
};

} // namespace pmusim
