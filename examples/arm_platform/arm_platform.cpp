// The built-in arm-default platform (docs/platform-config.md: 2 clusters of 4 CPUs at 2 GHz and
// 2.5 GHz, DSU-110s at 0x2A000000 and 0x2A010000 with 1 GHz clocks, a CMN-600, 16 MiB of DRAM at
// 0x80000000) in a user's sc_main. TF-A's boot code runs before the simulation starts (it enables
// the AMU counters and EL1 access to the DSU PMU).
//
// The user's initiator reads CPU 0's AMU cycle counter as an MRS at EL1 (a payload with the
// access_context extension: system register AMEVCNTR00_EL0 = S3_3_C13_C4_0, Arm ARM), uses DRAM
// with plain payloads, and programs DSU 0's cycle counter (frame offsets as in the DSU example) so
// that it overflows; a process of the user's own counts the interrupt's edges.
#include <cstdio>
#include <cstring>
#include <pmusim/pmusim.h>
#include <pmusim/register_access.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

using namespace sc_core;

struct initiator : sc_module {
    tlm_utils::simple_initiator_socket<initiator> bus{"bus"};
    sc_in<bool> dsu_irq{"dsu_irq"};
    int failures = 0;
    SC_HAS_PROCESS(initiator);
    explicit initiator(sc_module_name n) : sc_module(n) { SC_THREAD(software); }

    // A payload with `who` attached (nullptr: a plain payload), as pmusim's own initiators make it.
    tlm::tlm_response_status access(bool write, uint64_t address, uint64_t& value, unsigned bytes,
                                    pmusim::access_context* who = nullptr) {
        tlm::tlm_generic_payload t;
        sc_time delay = SC_ZERO_TIME;
        return pmusim::transport_register(bus, t, write, address, bytes, value, who, delay);
    }
    void check(bool ok, const char* what) {
        std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
        failures += !ok;
    }

    void software() {
        wait(1, SC_US);
        // MRS AMEVCNTR00_EL0 at EL1 on CPU 0: the core's cycles, counted since TF-A enabled them at 0.
        pmusim::access_context el1;
        el1.cpu = 0;
        el1.el = 1;
        el1.path = pmusim::access_path::system_register;
        uint64_t cycles = 0;
        const pmusim::sysreg_encoding amevcntr00_el0{3, 3, 13, 4, 0};
        check(access(false, amevcntr00_el0.key(), cycles, 8, &el1) == tlm::TLM_OK_RESPONSE && cycles == 2000,
              "AMEVCNTR00_EL0 of CPU 0 reads 2000 cycles after 1 us at 2 GHz");
        // At EL0 the same read traps while AMUSERENR_EL0.EN = 0 (reset).
        pmusim::access_context el0 = el1;
        el0.el = 0;
        check(access(false, amevcntr00_el0.key(), cycles, 8, &el0) == tlm::TLM_COMMAND_ERROR_RESPONSE &&
                  el0.outcome == pmusim::access_outcome::trap_el1,
              "at EL0 it traps to EL1 (AMUSERENR_EL0.EN is 0)");
        // DRAM with a plain payload.
        uint64_t word = 0x1122334455667788;
        access(true, 0x80000100, word, 8);
        uint64_t back = 0;
        check(access(false, 0x80000100, back, 8) == tlm::TLM_OK_RESPONSE && back == 0x1122334455667788,
              "DRAM keeps a plain payload's write");
        // DSU 0: cycle counter 300 cycles before wrapping, interrupt on, counting from now (1 us =
        // DSU edge 1000), so it wraps at edge 1300: 1.3 us.
        const uint64_t dsu0 = 0x2A000000;
        uint64_t v = 0 - uint64_t(300);
        access(true, dsu0 + 0x0F8, v, 8);  // PMCCNTR
        v = 1u << 31;
        access(true, dsu0 + 0xC40, v, 4);  // PMINTENSET.C
        access(true, dsu0 + 0xC00, v, 4);  // PMCNTENSET.C
        v = 1;
        access(true, dsu0 + 0xE04, v, 4);  // PMCR.E
        wait(dsu_irq.posedge_event());
        check(sc_time_stamp() == sc_time(1300, SC_NS), "dsu0's interrupt rises at 1.3 us");
        sc_stop();
    }
};

// A process of the user's own, alongside the platform: counts the interrupt's rising edges.
struct irq_counter : sc_module {
    sc_in<bool> line{"line"};
    unsigned rises = 0;
    SC_HAS_PROCESS(irq_counter);
    explicit irq_counter(sc_module_name n) : sc_module(n) {
        SC_METHOD(count);
        sensitive << line.pos();
        dont_initialize();
    }
    void count() { ++rises; }
};

int sc_main(int, char*[]) {
    pmusim::platform_model soc("soc", "arm-default");
    initiator cpu("cpu");
    irq_counter counter("counter");
    sc_signal<bool> dsu0_irq("dsu0_irq");
    cpu.bus.bind(soc.gate);
    soc.irq_port("dsu0_pmu_irq").bind(dsu0_irq); // the other interrupt lines stay unbound
    cpu.dsu_irq.bind(dsu0_irq);
    counter.line.bind(dsu0_irq);
    sc_start();
    cpu.check(counter.rises == 1, "the user's own process saw one rising edge");
    std::printf("%s\n", cpu.failures ? "FAILED" : "PASSED");
    return cpu.failures ? 1 : 0;
}
