#include "models/firmware_gate.h"

#include "models/unit.h"

namespace pmusim {

firmware_gate::firmware_gate(const sc_core::sc_module_name& name)
    : sc_module(name), from_initiators("from_initiators"), to_bus("to_bus") {
    from_initiators.register_b_transport(this, &firmware_gate::b_transport);
    from_initiators.register_transport_dbg(this, &firmware_gate::transport_dbg);
    from_initiators.register_get_direct_mem_ptr(this, &firmware_gate::get_direct_mem_ptr);
}

void firmware_gate::own_sysreg(unsigned cpu, const register_def& reg, unit& owner_unit) {
    owners_.assign((uint64_t(cpu) << 32) | reg.sysreg->key(), owner{&owner_unit, &reg});
}

const firmware_gate::owner* firmware_gate::sysreg_owner(unsigned cpu, uint32_t key) const {
    return owners_.find((uint64_t(cpu) << 32) | key);
}

void firmware_gate::b_transport(int, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    ++accesses_;
    access_context* ctx = trans.get_extension<access_context>();
    if (!ctx) { // every initiator must say who it is
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        ++refused_;
        return;
    }
    ctx->outcome = access_outcome::ok;
    ctx->syndrome = 0;
    ctx->detail.clear();
    if (ctx->path == access_path::system_register) {
        const owner* o = sysreg_owner(ctx->cpu, uint32_t(trans.get_address()));
        access_outcome outcome = access_outcome::undefined;
        if (!o) {
            ctx->outcome = access_outcome::undefined;
            ctx->syndrome = uint64_t(1) << 25;
            ctx->detail = sysreg_encoding::from_key(uint32_t(trans.get_address())).generic_name() +
                          " is not implemented on cpu" + std::to_string(ctx->cpu);
        } else {
            outcome = o->owner_unit->sysreg_rule(*ctx, *o->reg, trans.is_write());
        }
        if (outcome != access_outcome::ok) {
            ++refused_;
            ctx->outcome = outcome;
            trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            return;
        }
    }
    to_bus->b_transport(trans, delay);
}

unsigned int firmware_gate::transport_dbg(int, tlm::tlm_generic_payload& trans) {
    return to_bus->transport_dbg(trans);
}

bool firmware_gate::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    return to_bus->get_direct_mem_ptr(trans, dmi);
}

} // namespace pmusim
