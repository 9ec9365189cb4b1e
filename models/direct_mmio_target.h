#pragma once
// A capability a unit may implement (discovered by the system bus, as the platform discovers a
// unit's other optional interfaces): serving a memory-mapped access handed over directly with the
// access context the gate already found, instead of through its register socket. The gate, the
// bus's decode and this call are then one hop for a plain access (docs/performance.md, scenario 2).
//
// The contract is b_transport's for an access whose context says memory_mapped: the payload's
// address is what the bus forwards (relative to the window, or absolute for an `absolute`
// window), and the unit sets the TLM response and ctx.outcome. A unit answers the same through
// both entries (its b_transport ends in the same code), so tests that drive its socket directly
// see what the platform's initiators see.
#include <tlm>

#include "models/access_context.h"

namespace pmusim {

class direct_mmio_target {
public:
    virtual void serve_memory_mapped(tlm::tlm_generic_payload& trans, access_context& ctx) = 0;

protected:
    ~direct_mmio_target() = default;
};

} // namespace pmusim
