#include "models/firmware_gate.h"

#include "models/loosely_timed_target.h"
#include "models/payload_context.h"
#include "models/system_bus.h"
#include "models/unit.h"

namespace pmusim {

firmware_gate::firmware_gate(const sc_core::sc_module_name& name)
    : sc_module(name), from_initiators("from_initiators"), to_bus("to_bus") {
    from_initiators.bind(*this);
}

void firmware_gate::end_of_elaboration() {
    if (to_bus.size()) bus_ = dynamic_cast<system_bus*>(to_bus.get_interface());
}

void firmware_gate::own_sysreg(unsigned cpu, const register_def& reg, unit& owner_unit) {
    owners_.assign((uint64_t(cpu) << 32) | reg.sysreg->key(),
                   owner{&owner_unit, &reg, dynamic_cast<sysreg_slots*>(&owner_unit), owner_unit.sysreg_slot(cpu, reg)});
    last_key_ = ~uint64_t(0); // the table may have moved
    last_owner_ = nullptr;
}

void firmware_gate::refuse_without_context(tlm::tlm_generic_payload& trans) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    ++refused_;
}

void firmware_gate::answer_undefined(tlm::tlm_generic_payload& trans, access_context& ctx) const {
    ctx.outcome = access_outcome::undefined;
    ctx.syndrome = esr::undefined;
    ctx.detail = sysreg_encoding::from_key(uint32_t(trans.get_address())).generic_name() +
                 " is not implemented on cpu" + std::to_string(ctx.cpu);
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
}

void firmware_gate::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    ++accesses_;
    access_context* ctx = context_of(trans);
    if (!ctx) return refuse_without_context(trans); // every initiator must say who it is
    ctx->outcome = access_outcome::ok;
    ctx->syndrome = 0;
    ctx->detail.clear();
    // Each path ends in a tail call, so that neither pays for the other's saved registers.
    if (ctx->path == access_path::system_register) return transport_system_register(trans, *ctx);
    if (bus_) return bus_->transport_memory_mapped(trans, delay, ctx);
    return to_bus->b_transport(trans, delay);
}

void firmware_gate::transport_system_register(tlm::tlm_generic_payload& trans, access_context& ctx) {
    const owner* o = sysreg_owner(ctx.cpu, uint32_t(trans.get_address()));
    if (!o) {
        ++refused_;
        return answer_undefined(trans, ctx);
    }
    const uint32_t request = ctx.request_bits(trans.is_write());
    // A request the rule allowed since the last register change goes straight to the owner: a tail
    // call, with no call before it, so that this path saves no registers.
    if (request == o->allowed_request && register_value::changes() == o->allowed_at_changes && o->server)
        return o->server->serve_sysreg(o->slot, trans, ctx);
    transport_system_register_asking(*o, trans, ctx, request);
}

void firmware_gate::transport_system_register_asking(const owner& o, tlm::tlm_generic_payload& trans,
                                                     access_context& ctx, uint32_t request) {
    if ((request != o.allowed_request || register_value::changes() != o.allowed_at_changes) &&
        !ask_rule(o, ctx, trans, request))
        return;
    if (o.server) return o.server->serve_sysreg(o.slot, trans, ctx);
    o.owner_unit->serve_sysreg(o.slot, trans, ctx);
}

bool firmware_gate::ask_rule(const owner& o, access_context& ctx, tlm::tlm_generic_payload& trans, uint32_t request) {
    const access_outcome outcome = o.owner_unit->sysreg_rule(ctx, *o.reg, trans.is_write());
    if (outcome != access_outcome::ok) { // refusals are not remembered: they are rare, and build a message
        ++refused_;
        ctx.outcome = outcome;
        trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return false;
    }
    o.allowed_request = request;
    o.allowed_at_changes = register_value::changes();
    return true;
}

tlm::tlm_sync_enum firmware_gate::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                  sc_core::sc_time& delay) {
    return loosely_timed_nb_transport(*this, trans, phase, delay);
}

unsigned int firmware_gate::transport_dbg(tlm::tlm_generic_payload& trans) {
    // Debug accesses skip the access rule (a debugger sees what the register holds).
    access_context* ctx = trans.get_extension<access_context>();
    if (!ctx || ctx->path != access_path::system_register) return to_bus->transport_dbg(trans);
    const owner* o = sysreg_owner(ctx->cpu, uint32_t(trans.get_address()));
    if (!o) {
        answer_undefined(trans, *ctx);
        return 0;
    }
    o->owner_unit->serve_sysreg(o->slot, trans, *ctx);
    return trans.is_response_ok() ? trans.get_data_length() : 0;
}

bool firmware_gate::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
    const access_context* ctx = trans.get_extension<access_context>();
    if (ctx && ctx->path == access_path::system_register) return false; // registers: no DMI
    return to_bus->get_direct_mem_ptr(trans, dmi);
}

} // namespace pmusim
