#pragma once
// What pmusim's loosely-timed targets (the gate, the bus, the units) do with a
// non-blocking call: complete it at once through their blocking transport. The
// base protocol lets a target answer BEGIN_REQ with TLM_COMPLETED; any other phase
// cannot arrive at a target that never returns TLM_ACCEPTED, so it is a protocol
// error (TLM_GENERIC_ERROR_RESPONSE).
#include <tlm>

namespace pmusim {

inline tlm::tlm_sync_enum loosely_timed_nb_transport(tlm::tlm_fw_transport_if<>& target,
                                                     tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                     sc_core::sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) {
        target.b_transport(trans, delay);
        phase = tlm::END_RESP;
    } else {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    }
    return tlm::TLM_COMPLETED;
}

} // namespace pmusim
