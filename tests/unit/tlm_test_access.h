#pragma once
// One TLM access as the tests make it: a generic payload with an access
// context, through any forward interface (gate, bus). Shared by the unit tests.
#include <algorithm>
#include <cstring>
#include <vector>
#include <string>
#include <tlm>

#include "models/access_context.h"

namespace pmusim::testing {

struct tlm_access_result {
    tlm::tlm_response_status status;
    access_outcome outcome; // the context's outcome (ok also for a plain TLM_OK_RESPONSE)
    uint64_t value;         // data after the access (the value read, for reads)
    uint64_t syndrome;
    std::string detail;
};

// The context of a system-register access (MRS/MSR) by `cpu` at `el`.
inline access_context sysreg_context(unsigned cpu, unsigned el, bool secure, bool guest = false) {
    access_context ctx;
    ctx.cpu = cpu;
    ctx.el = el;
    ctx.secure = secure;
    ctx.guest = guest;
    ctx.path = access_path::system_register;
    return ctx;
}

inline tlm_access_result tlm_access(tlm::tlm_fw_transport_if<>& target, bool write, uint64_t address, unsigned len,
                                    uint64_t value, access_context ctx) {
    tlm::tlm_generic_payload t;
    // At least 8 bytes for the value; as long as the access for the over-long ones that tests
    // expect to be refused.
    std::vector<uint8_t> data(std::max(len, 8u), 0);
    std::memcpy(data.data(), &value, 8);
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(address);
    t.set_data_ptr(data.data());
    t.set_data_length(len);
    t.set_streaming_width(len);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&ctx);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    target.b_transport(t, d);
    t.clear_extension(&ctx);
    uint64_t v = 0;
    std::memcpy(&v, data.data(), std::min(len, 8u));
    return {t.get_response_status(), ctx.outcome, v, ctx.syndrome, ctx.detail};
}

} // namespace pmusim::testing
