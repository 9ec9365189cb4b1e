#include "models/unit.h"

#include <cstring>
#include <fmt/format.h>

#include "models/loosely_timed_target.h"

namespace pmusim {

unit::unit(const sc_core::sc_module_name& name, soc& system)
    : sc_module(name), registers_in("registers_in"), system_(system) {
    registers_in.bind(*this);
}

access_outcome unit::sysreg_rule(access_context&, const register_def&, bool) { return access_outcome::ok; }

std::optional<mmio_register> unit::find_mmio_register(const std::string& name) const {
    const register_def* def = table().find(name);
    auto windows = mmio_windows();
    if (!def || !def->offset || windows.empty()) return std::nullopt;
    return mmio_register{def, windows.front().base + *def->offset};
}

bool unit::inject(const std::string&, const std::string&, uint64_t, fs_t, std::string& error) {
    error = fmt::format("{} ({}) has no event inputs to inject into", name(), type());
    return false;
}

void unit::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) {
    access_context* ctx = trans.get_extension<access_context>();
    if (!ctx) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    access(trans, *ctx);
}

tlm::tlm_sync_enum unit::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                         sc_core::sc_time& delay) {
    return loosely_timed_nb_transport(*this, trans, phase, delay);
}

bool unit::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
    // Registers have side effects (lazy counters, read-to-clear): no DMI anywhere in the unit.
    dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_NONE);
    dmi.set_start_address(0);
    dmi.set_end_address(~sc_dt::uint64(0));
    return false;
}

unsigned int unit::transport_dbg(tlm::tlm_generic_payload& trans) {
    // Debug reads (e.g. the VCD sampler) go through the normal path with a neutral context.
    access_context ctx;
    ctx.initiator = initiator_kind::debugger;
    ctx.secure = true;
    // The caller's own context, if any, goes back on the payload afterwards.
    tlm::tlm_extension_base* callers = trans.set_extension(access_context::ID, &ctx);
    access(trans, ctx);
    trans.set_extension(access_context::ID, callers);
    return trans.is_response_ok() ? trans.get_data_length() : 0;
}

void unit::serve_from_bank(register_bank& bank, tlm::tlm_generic_payload& trans, access_context& ctx,
                           uint64_t window_base) {
    const unsigned len = trans.get_data_length();
    uint64_t data = 0;
    if (ctx.path == access_path::system_register) {
        register_bank::reg* r = bank.find_sysreg(uint32_t(trans.get_address()));
        if (!r) {
            trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            ctx.outcome = access_outcome::undefined;
            ctx.detail = "encoding not implemented by " + bank.instance();
            return;
        }
        if (trans.is_read()) {
            data = bank.read(*r);
            std::memcpy(trans.get_data_ptr(), &data, std::min<unsigned>(len, 8));
        } else {
            std::memcpy(&data, trans.get_data_ptr(), std::min<unsigned>(len, 8));
            bank.write(*r, data);
        }
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    const uint64_t offset = trans.get_address() - window_base;
    serve_mmio(bank, bank.find_offset(offset), offset, trans, ctx);
}

void unit::serve_mmio_otherwise(register_bank& bank, register_bank::reg* r, uint64_t offset,
                                tlm::tlm_generic_payload& trans, access_context& ctx) {
    const unsigned len = trans.get_data_length();
    if ((len != 4 && len != 8) || offset % len != 0) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        ctx.outcome = access_outcome::error;
        ctx.detail = fmt::format("{}: {}-byte access at offset {:#x} is not a naturally aligned 4- or 8-byte access",
                                 bank.instance(), len, offset);
        return;
    }
    uint64_t data = 0;
    if (trans.is_read()) {
        if (r) data = bank.read_mmio(*r, offset, len); // undocumented offsets are RAZ/WI
        std::memcpy(trans.get_data_ptr(), &data, len);
    } else if (r) {
        std::memcpy(&data, trans.get_data_ptr(), len);
        bank.write_mmio(*r, offset, len, data);
    } else {
        ctx.outcome = access_outcome::ignored;
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

access_outcome refuse(access_context& ctx, access_outcome outcome, const register_def& reg, bool is_write,
                      std::string why) {
    ctx.outcome = outcome;
    ctx.detail = std::move(why);
    if (outcome == access_outcome::trap_el1 || outcome == access_outcome::trap_el2 ||
        outcome == access_outcome::trap_el3)
        ctx.syndrome = reg.sysreg ? sysreg_trap_syndrome(*reg.sysreg, is_write) : 0;
    else if (outcome == access_outcome::undefined)
        ctx.syndrome = esr::undefined;
    return outcome;
}

std::string unit::inject_node_refused() const {
    return fmt::format("{} has no nodes (inject {} EVENT COUNT)", basename(), basename());
}

std::string unit::inject_unknown_event(const std::string& event, const std::vector<named_event>& events) const {
    std::string names;
    for (const auto& e : events) names += fmt::format("{}{} (0x{:x})", names.empty() ? "" : ", ", e.name, e.code);
    return fmt::format("{}: unknown event '{}': expected one of {}", basename(), event, names);
}

std::string unit::inject_clock_event(const std::string& event_name, const std::string& clock) const {
    return fmt::format("{}: {} counts {} and cannot be injected", basename(), event_name, clock);
}

} // namespace pmusim
