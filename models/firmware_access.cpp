#include "models/firmware_access.h"

#include <fmt/format.h>

namespace pmusim {

std::string to_string(const firmware_access& a) {
    switch (a.what) {
    case firmware_access::kind::run_as:
        return a.hypervisor ? fmt::format("as cpu{} hv", a.cpu) : fmt::format("as cpu{} el{}", a.cpu, a.el);
    case firmware_access::kind::sysreg_read: return "read " + a.reg;
    case firmware_access::kind::sysreg_write:
        return fmt::format("write {} {:#x}", a.reg, a.value) + (a.mask ? fmt::format(" mask {:#x}", *a.mask) : "");
    case firmware_access::kind::mem_write: return fmt::format("write{} {:#x} {:#x}", a.width, a.address, a.value);
    }
    return {};
}

} // namespace pmusim
