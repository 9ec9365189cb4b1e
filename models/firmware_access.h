#pragma once
// What firmware does on a unit's behalf, as typed steps rather than sequence text: a firmware
// profile's boot and power-transition code (unit::firmware_boot, ...) and the register accesses
// behind a unit command (an OPAL call, models/unit_command.h). The sequence runner performs each
// step exactly as the matching sequence statement (`as cpuN el3`, `write REG V mask M`, `read REG`,
// `write64 ADDR V`): through the firmware gate, into the access log.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pmusim {

struct firmware_access {
    enum class kind {
        run_as,       // the code that follows runs on `cpu` at `el` (Arm) or at hypervisor privilege (POWER)
        sysreg_read,  // read `reg`
        sysreg_write, // write `value` to `reg`; with `mask`, read-modify-write of those bits
        mem_write,    // a `width`-bit store of `value` at `address` (memory or memory-mapped registers)
    };
    kind what = kind::run_as;
    unsigned cpu = 0;              // run_as
    unsigned el = 1;               // run_as on Arm; Secure exactly at EL3, as firmware's EL3 code runs
    bool hypervisor = false;       // run_as on POWER (`as cpuN hv`); `el` is then unused
    std::string reg;               // sysreg_*: the register's name as the CPU knows it (CPTR_EL3)
    uint64_t address = 0;          // mem_write
    unsigned width = 64;           // mem_write: 32 or 64
    uint64_t value = 0;            // sysreg_write, mem_write
    std::optional<uint64_t> mask;  // sysreg_write

    static firmware_access as_el(unsigned cpu, unsigned el) {
        firmware_access a;
        a.cpu = cpu, a.el = el;
        return a;
    }
    static firmware_access as_hypervisor(unsigned cpu) {
        firmware_access a;
        a.cpu = cpu, a.hypervisor = true;
        return a;
    }
    static firmware_access read(std::string reg) {
        firmware_access a;
        a.what = kind::sysreg_read, a.reg = std::move(reg);
        return a;
    }
    static firmware_access write(std::string reg, uint64_t value, std::optional<uint64_t> mask = std::nullopt) {
        firmware_access a;
        a.what = kind::sysreg_write, a.reg = std::move(reg), a.value = value, a.mask = mask;
        return a;
    }
    static firmware_access write64(uint64_t address, uint64_t value) {
        firmware_access a;
        a.what = kind::mem_write, a.address = address, a.value = value;
        return a;
    }
};

using firmware_code = std::vector<firmware_access>;

// The step as the sequence statement it performs ("as cpu0 el3", "write CPTR_EL3 0x0 mask 0x100000"),
// for messages and tests; nothing parses it.
std::string to_string(const firmware_access& a);

} // namespace pmusim
