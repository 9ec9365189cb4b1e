#include "models/system_bus.h"

#include <fmt/format.h>

#include "models/access_context.h"
#include "models/input_error.h"
#include "models/loosely_timed_target.h"
#include "models/payload_context.h"

namespace pmusim {

system_bus::system_bus(const sc_core::sc_module_name& name)
    : sc_module(name), from_gate("from_gate"), to_targets("to_targets") {
    from_gate.bind(*this);
}

unsigned system_bus::attach(tlm::tlm_base_target_socket_b<>& target) {
    to_targets.bind(target);
    return ports_++;
}

void system_bus::map(const std::string& name, uint64_t base, uint64_t size, unsigned port, bool absolute) {
    if (size == 0) throw model_error("bus window " + name + " has size 0");
    if (base + (size - 1) < base) throw model_error(fmt::format("bus window {} at {:#x} ends past 2^64", name, base));
    if (const window* w = overlapping(base, size))
        throw model_error(fmt::format("bus window {} [{:#x}, {:#x}) overlaps {} [{:#x}, {:#x})", name, base,
                                      base + size, w->name, w->base, w->base + w->size));
    by_base_[base] = window{name, base, size, port, absolute, nullptr, nullptr};
    last_window_ = nullptr;
}

const system_bus::window* system_bus::overlapping(uint64_t base, uint64_t size) const {
    // Inclusive ends: a window may end at 2^64 - 1.
    // The windows are disjoint, so if any overlaps [base, last], the one with the greatest base at
    // or below `last` does; the lowest-based of the overlapping ones is reported. Logarithmic, so
    // that mapping n windows stays n log n (docs/reliability.md, "Limits").
    const uint64_t last = base + (size - 1);
    auto it = by_base_.upper_bound(last);
    if (it == by_base_.begin()) return nullptr;
    --it;
    auto overlaps = [&](const window& w) { return base <= w.base + (w.size - 1); };
    if (!overlaps(it->second)) return nullptr;
    while (it != by_base_.begin() && overlaps(std::prev(it)->second)) --it;
    return &it->second;
}

const system_bus::window* system_bus::decode(uint64_t address) const {
    if (last_window_ && address - last_window_->base < last_window_->size) return last_window_;
    auto it = by_base_.upper_bound(address);
    if (it == by_base_.begin()) return nullptr;
    --it;
    if (address - it->second.base >= it->second.size) return nullptr;
    return last_window_ = &it->second;
}

std::vector<system_bus::window> system_bus::windows() const {
    std::vector<window> out;
    for (const auto& [b, w] : by_base_) out.push_back(w);
    return out;
}

const system_bus::window* system_bus::route(tlm::tlm_generic_payload& trans, uint64_t& offset_out) {
    access_context* ctx = trans.get_extension<access_context>();
    if (ctx && ctx->path == access_path::system_register) {
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        ctx->outcome = access_outcome::undefined;
        ctx->syndrome = esr::undefined;
        ctx->detail = fmt::format("{} on cpu{}: system registers are not on the system bus (the gate hands them "
                                  "to their unit)",
                                  sysreg_encoding::from_key(uint32_t(trans.get_address())).generic_name(), ctx->cpu);
        return nullptr;
    }
    const window* w = decode(trans.get_address());
    uint64_t last = trans.get_address() + (trans.get_data_length() ? trans.get_data_length() - 1 : 0);
    if (!w || last >= w->base + w->size) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        if (ctx) {
            ctx->outcome = access_outcome::error;
            ctx->detail = w ? fmt::format("access at {:#x} of {} bytes crosses the end of {}", trans.get_address(),
                                          trans.get_data_length(), w->name)
                            : fmt::format("no target at address {:#x}", trans.get_address());
        }
        return nullptr;
    }
    offset_out = w->absolute ? trans.get_address() : trans.get_address() - w->base;
    return w;
}

void system_bus::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    access_context* ctx = context_of(trans);
    if (!ctx || ctx->path == access_path::memory_mapped) return transport_memory_mapped(trans, delay, ctx);
    transport_routed(trans, delay, ctx); // a system-register access: route() answers it
}

void system_bus::resolve(const window& w) {
    w.target = to_targets[int(w.port)];
    w.direct = dynamic_cast<direct_mmio_target*>(w.target);
}

void system_bus::transport_routed(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay, access_context* ctx) {
    uint64_t offset;
    const window* w = route(trans, offset);
    if (!w) return;
    if (!w->target) resolve(*w);
    forward(*w, trans, delay, ctx, trans.get_address());
    (void)offset; // forward() places the address as route() did
}

tlm::tlm_sync_enum system_bus::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
    return loosely_timed_nb_transport(*this, trans, phase, delay);
}

unsigned int system_bus::transport_dbg(tlm::tlm_generic_payload& trans) {
    uint64_t original = trans.get_address(), offset;
    const window* w = route(trans, offset);
    if (!w) return 0;
    trans.set_address(offset);
    unsigned n = to_targets[int(w->port)]->transport_dbg(trans);
    trans.set_address(original);
    return n;
}

bool system_bus::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    uint64_t original = trans.get_address(), offset;
    const window* w = route(trans, offset);
    if (!w) return false;
    trans.set_address(offset);
    bool ok = to_targets[int(w->port)]->get_direct_mem_ptr(trans, dmi);
    trans.set_address(original);
    if (ok && !w->absolute) {
        dmi.set_start_address(dmi.get_start_address() + w->base);
        dmi.set_end_address(std::min<uint64_t>(dmi.get_end_address() + w->base, w->base + w->size - 1));
    }
    return ok;
}

} // namespace pmusim
