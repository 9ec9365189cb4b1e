#pragma once
// How a register or memory access ends. Shared by the gate, the units, the
// sequence language and the logs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pmusim {

enum class access_outcome {
    ok,        // done
    trap_el1,  // synchronous exception taken to EL1 (syndrome in the access context)
    trap_el2,
    trap_el3,
    undefined, // UNDEFINED instruction (exception class 0x00 at the current or next EL)
    error,     // bus error: TLM address error for unmapped space, generic error when refused
    ignored,   // write ignored (e.g. locked registers): no error reported to the initiator
};

// Sequence-language spelling: "ok", "trap el1", "trap el2", "trap el3", "undefined", "error", "ignored".
inline std::string_view to_string(access_outcome o) {
    switch (o) {
    case access_outcome::ok: return "ok";
    case access_outcome::trap_el1: return "trap el1";
    case access_outcome::trap_el2: return "trap el2";
    case access_outcome::trap_el3: return "trap el3";
    case access_outcome::undefined: return "undefined";
    case access_outcome::error: return "error";
    case access_outcome::ignored: return "ignored";
    }
    return "?";
}

inline access_outcome trap_to(unsigned el) {
    return el <= 1 ? access_outcome::trap_el1 : el == 2 ? access_outcome::trap_el2 : access_outcome::trap_el3;
}

} // namespace pmusim
