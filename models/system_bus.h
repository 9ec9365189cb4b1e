#pragma once
// The system bus: a loosely-timed TLM-2.0 router built from the platform's
// address map.
//
// Memory-mapped accesses are decoded by address; the target sees an address
// relative to its window unless the window was mapped with `absolute` (units
// that decode several windows themselves). Unmapped addresses end in
// TLM_ADDRESS_ERROR_RESPONSE with the address named in the access context.
// System registers are not on the bus (the gate hands them to their unit): a
// system-register access arriving here is answered UNDEFINED.
// DMI is forwarded and translated for plain memory.
#include <map>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <vector>

#include "models/direct_mmio_target.h"

namespace pmusim {

// Its own forward interface behind a plain target socket, as the gate (firmware_gate.h).
class system_bus : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
public:
    tlm::tlm_target_socket<> from_gate;
    tlm_utils::multi_passthrough_initiator_socket<system_bus> to_targets;

    explicit system_bus(const sc_core::sc_module_name& name);

    // Binds a target and returns its port number.
    unsigned attach(tlm::tlm_base_target_socket_b<>& target);
    // Windows may not overlap (model_error).
    void map(const std::string& name, uint64_t base, uint64_t size, unsigned port, bool absolute = false);

    struct window {
        std::string name;
        uint64_t base, size;
        unsigned port;
        bool absolute;
        // The target's forward interface behind `port`, looked up at the first access (ports are
        // bound at the end of elaboration; indexing the socket on every access costs a call).
        mutable tlm::tlm_fw_transport_if<>* target = nullptr;
        // The same target when it serves memory-mapped accesses directly (models/direct_mmio_target.h).
        mutable direct_mmio_target* direct = nullptr;
    };
    const window* decode(uint64_t address) const;
    std::vector<window> windows() const;

    // A memory-mapped access the gate has already identified as one (its access context says
    // memory_mapped): the gate calls this directly, so gate and bus are one hop for a plain
    // access (docs/performance.md, scenario 2). The same routing as b_transport.
    // `ctx` is the payload's access context (nullptr: it has none, and the target refuses it).
    void transport_memory_mapped(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay, access_context* ctx) {
        const uint64_t original = trans.get_address();
        const window* w = last_window_;
        // The common case inline: the access falls, whole, in the window of the last one.
        if (w && w->target && original - w->base < w->size && w->size - (original - w->base) >= trans.get_data_length())
            return forward(*w, trans, delay, ctx, original);
        transport_routed(trans, delay, ctx);
    }
    // A mapped window sharing an address with [base, base + size), or nullptr.
    const window* overlapping(uint64_t base, uint64_t size) const;

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override;
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;
    unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
    // The window an access falls in, with the address the target sees; nullptr (the response and
    // the access context set) when there is none.
    const window* route(tlm::tlm_generic_payload& trans, uint64_t& offset_out);
    // Routes an access that is not in the last window (or an error), then forwards it.
    [[gnu::noinline]] void transport_routed(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay,
                                            access_context* ctx);
    void forward(const window& w, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay, access_context* ctx,
                 uint64_t original) {
        if (w.absolute && w.direct && ctx) return w.direct->serve_memory_mapped(trans, *ctx); // the address as it is
        trans.set_address(w.absolute ? original : original - w.base);
        if (w.direct && ctx) w.direct->serve_memory_mapped(trans, *ctx);
        else w.target->b_transport(trans, delay);
        trans.set_address(original);
    }
    // The target behind a window, looked up once.
    void resolve(const window& w);

    unsigned ports_ = 0;
    std::map<uint64_t, window> by_base_;
    // The window the last access decoded to: software polls one unit at a time, so the next access
    // usually falls in it again (one comparison instead of a search). Windows never move once mapped.
    mutable const window* last_window_ = nullptr;
};

} // namespace pmusim
