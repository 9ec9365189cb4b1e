/// @file
/// One register access through a TLM-2.0 forward interface, made the way every pmusim initiator
/// makes it: the sequence runner (tb/), the firmware profile runner (vp/), the ISS (iss/) and the
/// examples (through include/pmusim/register_access.h; docs/embedding.md). A payload of 1 to 8
/// bytes, little-endian data, the access context attached for the access and removed after it,
/// and the outcome read back from the response status and the context the gate and the unit
/// filled in.
///
/// Installed with the public headers (as pmusim/models/register_access.h, which
/// include/pmusim/register_access.h includes), so it includes nothing but public headers, and
/// it has an include guard rather than #pragma once: a file may reach both copies.
#ifndef PMUSIM_MODELS_REGISTER_ACCESS_H
#define PMUSIM_MODELS_REGISTER_ACCESS_H
#include <cstdint>
#include <cstring>
#include <string>
#include <systemc>
#include <tlm>

#include "pmusim/access_context.h"
#include "pmusim/access_outcome.h"

namespace pmusim {

/// How an access ended, from its response status and the context the gate and the unit filled in:
/// ok or ignored (TLM_OK_RESPONSE), the refusal (TLM_COMMAND_ERROR_RESPONSE: a trap or UNDEFINED,
/// the context says which), otherwise a bus error.
inline access_outcome outcome_of(const tlm::tlm_generic_payload& trans, const access_context& ctx) {
    switch (trans.get_response_status()) {
    case tlm::TLM_OK_RESPONSE: return ctx.outcome == access_outcome::ignored ? access_outcome::ignored : access_outcome::ok;
    case tlm::TLM_COMMAND_ERROR_RESPONSE: return ctx.outcome;
    default: return access_outcome::error;
    }
}

/// Why an access ended in a bus error, for a log: the context's detail, or the response status
/// ("bus error (TLM_ADDRESS_ERROR_RESPONSE)") when the target gave none.
inline std::string bus_error_detail(const tlm::tlm_generic_payload& trans, const access_context& ctx) {
    if (!ctx.detail.empty()) return ctx.detail;
    return "bus error (" + trans.get_response_string() + ")";
}

/// Makes one access of `bytes` (1 to 8; otherwise TLM_GENERIC_ERROR_RESPONSE and no access) at
/// `address` through `target` (a forward interface; an initiator socket below), filling `trans` (a
/// caller that makes many accesses may reuse one payload: it keeps its extension array). A write
/// sends the low `bytes` of `value`; a read returns the value read in `value` (zero-extended). `ctx`
/// (nullptr: a plain payload, which the platform treats as docs/embedding.md says) is attached for
/// the access only. Returns the response status; outcome_of(trans, *ctx) says more.
inline tlm::tlm_response_status transport_register(tlm::tlm_fw_transport_if<>& target, tlm::tlm_generic_payload& trans,
                                                   bool is_write, uint64_t address, unsigned bytes, uint64_t& value,
                                                   access_context* ctx, sc_core::sc_time& delay) {
    if (bytes == 0 || bytes > 8) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return tlm::TLM_GENERIC_ERROR_RESPONSE;
    }
    unsigned char data[8] = {};
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(data, &value, 8); // the payload's data are little-endian, as the host's: the low `bytes` are sent
#else
    for (unsigned i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>(value >> (8 * i));
#endif
    trans.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(address);
    trans.set_data_ptr(data);
    trans.set_data_length(bytes);
    trans.set_streaming_width(bytes);
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    if (ctx) trans.set_extension(ctx);
    target.b_transport(trans, delay);
    if (ctx) trans.clear_extension(ctx);
    trans.set_data_ptr(nullptr); // `data` ends here
    if (!is_write) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        std::memcpy(&value, data, 8);
        if (bytes < 8) value &= (uint64_t(1) << (8 * bytes)) - 1; // only the bytes asked for
#else
        value = 0;
        for (unsigned i = 0; i < bytes; ++i) value |= uint64_t(data[i]) << (8 * i);
#endif
    }
    return trans.get_response_status();
}

/// The same through an initiator socket bound to the platform (`transport_register(socket, ...)`).
template <unsigned int W, int N, sc_core::sc_port_policy P>
inline tlm::tlm_response_status transport_register(tlm::tlm_initiator_socket<W, tlm::tlm_base_protocol_types, N, P>& socket,
                                                   tlm::tlm_generic_payload& trans, bool is_write, uint64_t address,
                                                   unsigned bytes, uint64_t& value, access_context* ctx,
                                                   sc_core::sc_time& delay) {
    return transport_register(*socket.operator->(), trans, is_write, address, bytes, value, ctx, delay);
}

} // namespace pmusim

#endif // PMUSIM_MODELS_REGISTER_ACCESS_H
