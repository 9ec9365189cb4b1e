// A firmware profile's steps on a platform (vp/firmware_code_runner.h).
#include "vp/firmware_code_runner.h"

#include <cstring>
#include <fmt/format.h>

#include "models/input_error.h"
#include "models/register_access.h"
#include "vp/platform.h"

namespace pmusim {

namespace {

struct access_result {
    access_outcome outcome = access_outcome::ok;
    uint64_t value = 0;
    std::string detail;
};

access_result transport(tlm::tlm_fw_transport_if<>& gate, const access_context& as, bool is_write,
                        bool system_register, uint64_t address, unsigned bytes, uint64_t value) {
    tlm::tlm_generic_payload trans;
    access_context ctx = as;
    ctx.path = system_register ? access_path::system_register : access_path::memory_mapped;
    ctx.outcome = access_outcome::ok;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    uint64_t data = value;
    transport_register(gate, trans, is_write, address, bytes, data, &ctx, delay); // models/register_access.h
    access_result r{outcome_of(trans, ctx), 0, ctx.detail};
    if (!is_write && r.outcome == access_outcome::ok) r.value = data;
    if (r.outcome == access_outcome::error) r.detail = bus_error_detail(trans, ctx);
    return r;
}

// Why the step failed, or empty.
std::string perform(platform& p, tlm::tlm_fw_transport_if<>& gate, access_context& as, const firmware_access& a) {
    auto refused = [](const std::string& what, const access_result& r) {
        return fmt::format("{}: expected outcome ok, got {}{}", what, to_string(r.outcome),
                           r.detail.empty() ? "" : " (" + r.detail + ")");
    };
    switch (a.what) {
    case firmware_access::kind::run_as:
        if (a.cpu >= p.system().cores.size()) return fmt::format("no cpu{} on platform {}", a.cpu, p.config().name);
        as = access_context{};
        as.initiator = initiator_kind::cpu;
        as.cpu = a.cpu;
        as.is_power = p.config().arch == arch_kind::power;
        as.el = a.hypervisor ? 1 : a.el;
        as.secure = !a.hypervisor && a.el == 3;
        as.privilege = a.hypervisor ? power_privilege::hypervisor : power_privilege::supervisor;
        return {};
    case firmware_access::kind::sysreg_read:
    case firmware_access::kind::sysreg_write: {
        const bool is_write = a.what == firmware_access::kind::sysreg_write;
        auto reg = p.resolve_register(a.reg, as.cpu);
        if (!reg) return fmt::format("unknown register '{}' for {}", a.reg, as.describe());
        const uint64_t where = reg->system_register ? reg->key : reg->address;
        const unsigned bytes = reg->width / 8;
        uint64_t value = a.value;
        if (is_write && a.mask) { // read-modify-write, two real accesses
            access_result old = transport(gate, as, false, reg->system_register, where, bytes, 0);
            if (old.outcome != access_outcome::ok) return refused("its read", old);
            value = (old.value & ~*a.mask) | a.value;
        }
        access_result r = transport(gate, as, is_write, reg->system_register, where, bytes, value);
        if (r.outcome != access_outcome::ok) return refused(is_write ? "write" : "read", r);
        return {};
    }
    case firmware_access::kind::mem_write: {
        access_result r = transport(gate, as, true, false, a.address, a.width / 8, a.value);
        if (r.outcome != access_outcome::ok) return refused("write", r);
        return {};
    }
    }
    return "unknown firmware step";
}

} // namespace

void perform_firmware_code(platform& p, tlm::tlm_fw_transport_if<>& gate, const firmware_code& code,
                           const std::string& label) {
    access_context as; // until the first run_as: the testbench's context, as the runner starts
    for (const firmware_access& a : code) {
        const std::string why = perform(p, gate, as, a);
        if (!why.empty()) throw model_error(fmt::format("firmware step '{}' ({}) failed: {}", to_string(a), label, why));
    }
}

} // namespace pmusim
