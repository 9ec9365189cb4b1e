// A plain TLM-2.0 CPU brings up a DSU-110 cluster PMU with plain generic payloads (no pmusim
// extension: the frame's default initiator, Non-secure EL1 CPU 0, applies), waits for the overflow
// interrupt on an sc_signal<bool> and services it as Linux's arm_dsu_pmu handler does: read
// PMOVSCLR, write the bits back.
//
// Register offsets in the memory-mapped CLUSTERPMU frame (DSU-110, Arm's external PMU register
// summary as generated for CN10K): PMCCNTR 0x0F8 (64-bit), PMCNTENSET 0xC00, PMINTENSET 0xC40,
// PMOVSCLR 0xC80, PMCR 0xE04 (E = bit 0); bit 31 of the set/clear registers is the cycle counter.
#include <cinttypes>
#include <cstdio>
#include <pmusim/pmusim.h>
#include <pmusim/register_access.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

using namespace sc_core;

struct cpu : sc_module {
    tlm_utils::simple_initiator_socket<cpu> bus{"bus"};
    sc_in<bool> irq{"irq"};
    int failures = 0;

    SC_HAS_PROCESS(cpu);
    explicit cpu(sc_module_name name) : sc_module(name) { SC_THREAD(software); }

    uint64_t access(tlm::tlm_command cmd, uint64_t address, uint64_t value, unsigned bytes) {
        tlm::tlm_generic_payload trans;
        sc_time delay = SC_ZERO_TIME;
        // No access context: a plain payload (docs/embedding.md).
        pmusim::transport_register(bus, trans, cmd == tlm::TLM_WRITE_COMMAND, address, bytes, value, nullptr, delay);
        if (!trans.is_response_ok()) {
            std::printf("FAIL: access to 0x%" PRIx64 ": %s\n", address, trans.get_response_string().c_str());
            ++failures;
        }
        return value;
    }
    uint64_t read(uint64_t a, unsigned bytes = 4) { return access(tlm::TLM_READ_COMMAND, a, 0, bytes); }
    void write(uint64_t a, uint64_t v, unsigned bytes = 4) { access(tlm::TLM_WRITE_COMMAND, a, v, bytes); }

    void check(bool ok, const char* what) {
        std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
        failures += !ok;
    }

    void software() {
        const uint64_t cycles = 1000;          // until the cycle counter wraps
        wait(123400, SC_PS);                   // 123.4 ns: DSU edge 123 has passed (1 GHz)
        write(0x0F8, 0 - cycles, 8);           // PMCCNTR = 2^64 - 1000
        write(0xC40, 1u << 31);                // PMINTENSET.C
        write(0xC00, 1u << 31);                // PMCNTENSET.C
        write(0xE04, 1);                       // PMCR.E: counting from the next edge on
        wait(irq.posedge_event());
        // The counter counts edges 124, 125, ...; its 1000th is edge 1123, at 1123 ns.
        std::printf("overflow interrupt at %s\n", sc_time_stamp().to_string().c_str());
        check(sc_time_stamp() == sc_time(1123, SC_NS), "the interrupt rises at DSU cycle 1123 (1123 ns)");
        const uint64_t overflowed = read(0xC80);           // PMOVSCLR
        check(overflowed == (1u << 31), "PMOVSCLR shows the cycle counter's overflow");
        check(read(0x0F8, 8) == 0, "PMCCNTR has wrapped to 0 at the instant of the wrap");
        write(0xC80, overflowed);                          // clear it: the interrupt falls
        wait(SC_ZERO_TIME);
        wait(SC_ZERO_TIME);
        check(!irq.read(), "the interrupt is low once PMOVSCLR is cleared");
        wait(500, SC_NS);
        check(read(0x0F8, 8) == 500, "PMCCNTR counts on: 500 cycles in 500 ns");
        sc_stop();
    }
};

int sc_main(int, char*[]) {
    pmusim::dsu_pmu dsu("dsu");                 // first: pmusim sets the 1 fs time resolution
    cpu core("cpu");
    sc_signal<bool> dsu_irq("dsu_irq");
    core.bus.bind(dsu.target);
    dsu.irq.bind(dsu_irq);
    core.irq.bind(dsu_irq);
    sc_start();
    std::printf("%s\n", core.failures ? "FAILED" : "PASSED");
    return core.failures ? 1 : 0;
}
