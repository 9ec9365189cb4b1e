// The same driver code for every DSU variant (docs/embedding.md, "DSU variants"): it unlocks the
// original DSU's software lock, programs event counter 0 to count CYCLES (0x11, which every variant
// has; the DSU-120 has no cycle counter) 1000 events before its wrap (2^32 on the original's 32-bit
// event counters, 2^64 on DSU-110/120's 64-bit ones) and waits for the overflow interrupt.
// Usage: dsu_variants original|dsu-110|dsu-120
//
// Frame offsets (docs/registers/dsu_clusterpmu*.md): PMEVCNTR0 0x000, PMEVTYPER0 0x400,
// PMCNTENSET 0xC00, PMINTENSET 0xC40, PMOVSCLR 0xC80, PMCR 0xE04 (E = bit 0), PMLAR 0xFB0.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <pmusim/pmusim.h>
#include <pmusim/register_access.h>
#include <string>
#include <tlm_utils/simple_initiator_socket.h>

using namespace sc_core;

struct driver : sc_module {
    tlm_utils::simple_initiator_socket<driver> bus{"bus"};
    sc_in<bool> irq{"irq"};
    unsigned counter_bits = 64;
    int failures = 0;

    SC_HAS_PROCESS(driver);
    explicit driver(sc_module_name n) : sc_module(n) { SC_THREAD(run); }

    uint64_t access(bool write, uint64_t offset, uint64_t value, unsigned bytes) {
        tlm::tlm_generic_payload t; // no pmusim extension: Non-secure EL1 CPU 0
        sc_time delay = SC_ZERO_TIME;
        pmusim::transport_register(bus, t, write, offset, bytes, value, nullptr, delay);
        if (!t.is_response_ok()) {
            std::printf("FAIL: access to 0x%" PRIx64 ": %s\n", offset, t.get_response_string().c_str());
            ++failures;
        }
        return value;
    }
    void check(bool ok, const char* what) {
        std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
        failures += !ok;
    }

    void run() {
        const unsigned bytes = counter_bits / 8;
        const uint64_t start = counter_bits == 64 ? 0 - uint64_t(1000) : (uint64_t(1) << counter_bits) - 1000;
        access(true, 0xFB0, 0xC5ACCE55, 4);   // PMLAR key: unlocks the original DSU (RAZ/WI on the others)
        access(true, 0x400, 0x11, 4);         // PMEVTYPER0 = CYCLES
        access(true, 0x000, start, bytes);    // PMEVCNTR0: 1000 events before the wrap
        check(access(false, 0x000, 0, bytes) == start, "PMEVCNTR0 holds the value written (the lock is open)");
        access(true, 0xC40, 1, 4);            // PMINTENSET: counter 0
        access(true, 0xC00, 1, 4);            // PMCNTENSET: counter 0
        access(true, 0xE04, 1, 4);            // PMCR.E
        wait(irq.posedge_event());
        std::printf("overflow interrupt at %s\n", sc_time_stamp().to_string().c_str());
        check(sc_time_stamp() == sc_time(1, SC_US), "counter 0 wraps after 1000 DSU cycles (1 us at 1 GHz)");
        check(access(false, 0xC80, 0, 4) == 1, "PMOVSCLR shows counter 0's overflow");
        sc_stop();
    }
};

int sc_main(int argc, char* argv[]) {
    const std::string variant = argc > 1 ? argv[1] : "dsu-110";
    pmusim::dsu_pmu_options o;
    o.variant = variant;                      // original: 32-bit event counters and a software lock
    pmusim::dsu_pmu dsu("dsu", o);            // first: pmusim sets the 1 fs time resolution
    driver cpu("cpu");
    cpu.counter_bits = variant == "original" ? 32 : 64;
    sc_signal<bool> irq("irq");
    cpu.bus.bind(dsu.target);
    dsu.irq.bind(irq);
    cpu.irq.bind(irq);
    sc_start();
    std::printf("%s %s\n", variant.c_str(), cpu.failures ? "FAILED" : "PASSED");
    return cpu.failures ? 1 : 0;
}
