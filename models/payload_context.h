#pragma once
// The access context a payload carries, found without a call into libsystemc: the gate and the bus
// look it up on every access (docs/performance.md, scenario 2).
#include <tlm>

#include "models/access_context.h"

namespace pmusim {

// What trans.get_extension<access_context>() returns, read inline. get_extension is defined out of
// line in libsystemc, so every hop of the register path paid a call through the PLT for it. The
// payload's extension array is a private member of tlm_generic_payload: payload_context.cpp names it.
using payload_extension_array = tlm::tlm_array<tlm::tlm_extension_base*>;
extern payload_extension_array tlm::tlm_generic_payload::* const payload_extensions;

inline access_context* context_of(const tlm::tlm_generic_payload& trans) {
    const payload_extension_array& extensions = trans.*payload_extensions;
    const unsigned id = access_context::ID;
    if (id < extensions.size()) return static_cast<access_context*>(extensions[id]);
    return trans.get_extension<access_context>(); // a payload older than the extension: as libsystemc answers
}

} // namespace pmusim
