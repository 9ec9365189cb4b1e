#pragma once
// The access context a payload carries, as the gate and the bus look it up on every access
// (docs/performance.md, scenario 2).
#include <tlm>

#include "models/access_context.h"

namespace pmusim {

// trans.get_extension<access_context>(). Until 2026-12-05 this read the payload's private extension
// array inline (an explicit-instantiation trick); measured against the plain call into libsystemc
// in alternating runs of pmusim_bench scenario 2, the call costs about 4 instructions more per
// access and no host time (2.4-2.5x against 2.5-2.6x the bare loop), so the standard API it is.
inline access_context* context_of(const tlm::tlm_generic_payload& trans) {
    return trans.get_extension<access_context>();
}

} // namespace pmusim
