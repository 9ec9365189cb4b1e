// The public embedding API (include/pmusim/, docs/embedding.md), used as a user's sc_main would:
// plain payloads and the default initiator, the TLM-2.0 statuses for what a register frame cannot
// serve, the sc_out<bool> interrupt at the exact instant, the frequency port, system registers,
// and SystemC-style errors at elaboration. Only public headers are included.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <pmusim/pmusim.h>
#include <tlm_utils/simple_initiator_socket.h>

using namespace sc_core;

namespace {

// DSU-110 memory-mapped CLUSTERPMU frame offsets: Marvell CN10K cavm-csrs-cst_apc.h
// (SolidRun/atf-marvell@3e9df5a87900, cst_apc#_clusterpmu_*, offset = address - 0x87a080210000;
// tests/facts/dsu.tsv rows dsu_clusterpmu PMCCNTR/PMCNTENSET/PMINTENSET/PMCR offset).
constexpr uint64_t pmccntr = 0x0F8, pmcntenset = 0xC00, pmintenset = 0xC40, pmcr = 0xE04;

struct initiator : sc_module {
    tlm_utils::simple_initiator_socket<initiator> out{"out"};
    explicit initiator(const sc_module_name& n) : sc_module(n) {}
    tlm::tlm_response_status access(bool write, uint64_t address, uint64_t& value, unsigned bytes,
                                    unsigned char* byte_enables = nullptr, unsigned streaming_width = 0) {
        tlm::tlm_generic_payload t;
        unsigned char data[8];
        std::memcpy(data, &value, 8);
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(address);
        t.set_data_ptr(data);
        t.set_data_length(bytes);
        t.set_streaming_width(streaming_width ? streaming_width : bytes);
        t.set_byte_enable_ptr(byte_enables);
        t.set_byte_enable_length(byte_enables ? bytes : 0);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = SC_ZERO_TIME;
        out->b_transport(t, delay);
        value = 0;
        std::memcpy(&value, data, bytes);
        return t.get_response_status();
    }
    void write(uint64_t address, uint64_t value, unsigned bytes = 4) { access(true, address, value, bytes); }
};

// A DSU alone with its interrupt bound to a signal and an initiator on its frame, elaborated.
struct dsu_bench {
    pmusim::dsu_pmu dsu{"dsu"};
    initiator cpu{"cpu"};
    sc_signal<bool> irq{"irq"};
    dsu_bench() {
        cpu.out.bind(dsu.target);
        dsu.irq.bind(irq);
        sc_start(SC_ZERO_TIME);
    }
};

} // namespace

TEST_CASE("embedding: a plain payload without the extension reads the DSU frame as the default initiator") {
    dsu_bench b;
    CHECK(b.dsu.default_initiator().el == 1);
    CHECK_FALSE(b.dsu.default_initiator().secure);
    uint64_t v = 0;
    CHECK(b.cpu.access(false, pmcr, v, 4) == tlm::TLM_OK_RESPONSE);
    // PMCR.E is 0 at reset; writing it through a plain payload takes effect.
    CHECK((v & 1) == 0);
    b.cpu.write(pmcr, 1);
    CHECK(b.cpu.access(false, pmcr, v, 4) == tlm::TLM_OK_RESPONSE);
    CHECK((v & 1) == 1);
}

TEST_CASE("embedding: byte enables on a register frame get TLM_BYTE_ENABLE_ERROR_RESPONSE") {
    dsu_bench b;
    unsigned char enables[4] = {0xff, 0xff, 0xff, 0xff};
    uint64_t v = 1;
    CHECK(b.cpu.access(true, pmcr, v, 4, enables) == tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    CHECK(b.cpu.access(false, pmcr, v, 4) == tlm::TLM_OK_RESPONSE);
    CHECK((v & 1) == 0); // the refused write did nothing
}

TEST_CASE("embedding: a streaming width below the length gets TLM_BURST_ERROR_RESPONSE") {
    dsu_bench b;
    uint64_t v = 0;
    CHECK(b.cpu.access(false, pmccntr, v, 8, nullptr, 4) == tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST_CASE("embedding: a register frame refuses DMI") {
    dsu_bench b;
    tlm::tlm_generic_payload t;
    t.set_address(pmccntr);
    t.set_read();
    tlm::tlm_dmi dmi;
    CHECK_FALSE(b.cpu.out->get_direct_mem_ptr(t, dmi));
    CHECK_FALSE(dmi.is_read_allowed());
}

TEST_CASE("embedding: the DSU interrupt port rises at the overflow edge and follows the frequency port") {
    pmusim::dsu_pmu dsu{"dsu"}; // SCLK 1 GHz
    initiator cpu{"cpu"};
    sc_signal<bool> irq{"irq"};
    sc_signal<uint64_t> sclk_hz{"sclk_hz", 1000000000};
    cpu.out.bind(dsu.target);
    dsu.irq.bind(irq);
    dsu.clock_in.bind(sclk_hz);
    sc_time rose = SC_ZERO_TIME;
    sc_spawn([&] {
        cpu.write(pmccntr, 0 - uint64_t(100), 8);
        cpu.write(pmintenset, 1u << 31);
        cpu.write(pmcntenset, 1u << 31);
        cpu.write(pmcr, 1);
        wait(50, SC_NS);
        sclk_hz.write(500000000); // from 50 ns: 2 ns per edge
        wait(irq.posedge_event());
        rose = sc_time_stamp();
        sc_stop();
    });
    sc_start(1, SC_US);
    // Edges 1..50 at 1 GHz (the one at 50 ns is the old clock's), then 50 more at 500 MHz: 150 ns.
    // The signal changes in a later delta of the change at 50 ns; the edge at 50 ns is already past.
    CHECK(rose == sc_time(150, SC_NS));
    CHECK(dsu.irq_level("irq"));
}

TEST_CASE("embedding: an unbound interrupt port that must be bound is an elaboration error naming it") {
    pmusim::dsu_pmu dsu{"lonely_dsu"};
    std::string message;
    try {
        sc_start(SC_ZERO_TIME);
    } catch (const sc_report& r) {
        message = r.what();
    }
    CHECK(message.find("lonely_dsu.irq") != std::string::npos);
    CHECK(message.find("sc_signal<bool>") != std::string::npos);
    CHECK(message.find("/pmusim/binding") != std::string::npos);
}

TEST_CASE("embedding: overlapping frames in a platform file are an error naming the instance and the file") {
    const std::string path = "embedding_overlap_test.yaml";
    {
        std::ofstream f(path);
        f << "name: overlap\narch: arm\nclocks:\n  - { name: const, frequency: 100MHz }\n"
             "  - { name: cpu0, frequency: 1GHz }\n  - { name: dsu, frequency: 1GHz }\n"
             "cpus:\n  - { name: cpu0, clock: cpu0, cluster: 0 }\n"
             "units:\n"
             "  - { name: dsu0, type: dsu_clusterpmu, base: 0x1000, size: 0x10000, clock: dsu, cpus: [cpu0], irq: a }\n"
             "  - { name: dsu1, type: dsu_clusterpmu, base: 0x8000, size: 0x10000, clock: dsu, cpus: [cpu0], irq: b }\n";
    }
    std::string message;
    try {
        pmusim::platform_model soc("soc", path);
    } catch (const sc_report& r) {
        message = r.what();
    }
    std::remove(path.c_str());
    CHECK(message.find("soc") != std::string::npos);
    CHECK(message.find(path + ":") != std::string::npos);
    CHECK(message.find("overlaps") != std::string::npos);
}

TEST_CASE("embedding: read_sysreg reaches a CPU's AMU through the trap rules") {
    pmusim::amu_cpus amu{"amu"}; // one CPU at 2 GHz, AMUv1p1, TF-A boot
    sc_start(1, SC_US);
    pmusim::access_context el1;
    el1.el = 1;
    const pmusim::sysreg_encoding amevcntr00_el0{3, 3, 13, 4, 0}; // Arm ARM: AMEVCNTR00_EL0, CPU cycles
    CHECK(amu.sysreg("AMEVCNTR00_EL0") == amevcntr00_el0);
    CHECK(amu.read_sysreg(0, amevcntr00_el0, el1) == 2000);
    CHECK(el1.outcome == pmusim::access_outcome::ok);
    pmusim::access_context el0;
    el0.el = 0; // AMUSERENR_EL0.EN = 0 at reset: EL0 accesses trap to EL1
    CHECK(amu.read_sysreg(0, amevcntr00_el0, el0) == 0);
    CHECK(el0.outcome == pmusim::access_outcome::trap_el1);
}

TEST_CASE("embedding: the workload input drives the AMU's instruction counter") {
    pmusim::amu_cpus amu{"amu"};
    amu.set_workload(0, "inst", 3, 2); // 1.5 instructions per cycle
    sc_start(1, SC_US);
    pmusim::access_context el1;
    // AMEVCNTR02_EL0 counts instructions retired (Arm ARM, architected counter 2).
    CHECK(amu.read_sysreg(0, pmusim::sysreg_encoding{3, 3, 13, 4, 2}, el1) == 3000);
}

TEST_CASE("embedding: the power9-default platform boots OPAL inside a user's sc_main") {
    pmusim::platform_model soc{"soc", "power9-default"};
    CHECK(soc.default_initiator().is_power);
    bool ran = false;
    sc_spawn([&] {
        wait(1, SC_US);
        ran = true;
    });
    sc_start(2, SC_US); // nothing in the platform stops the simulation: it runs until the limit
    CHECK(ran);
    CHECK(sc_time_stamp() == sc_time(2, SC_US));
    CHECK_FALSE(soc.clocks().empty());
}

TEST_CASE("embedding: an unknown workload key is a SystemC error naming the model and the keys") {
    pmusim::amu_cpus amu{"amu"};
    std::string message;
    try {
        amu.set_workload(0, "no_such_key", 1);
    } catch (const sc_report& r) {
        message = r.what();
    }
    CHECK(message.find("/pmusim/api") != std::string::npos);
    CHECK(message.find("amu") != std::string::npos);
    CHECK(message.find("inst") != std::string::npos);
}

TEST_CASE("embedding: the CoreSight PMU alone counts its clock at the page offsets Linux uses") {
    // linux:drivers/perf/arm_cspmu/arm_cspmu.h@04330be8dc7f: PMCNTENSET 0xC00, PMCR 0xE04 (PMCR_E
    // BIT(0)), the cycle counter ARM_CSPMU_CYCLE_CNTR_IDX 31: bit 31 of PMCNTENSET0 and, with
    // 64-bit counters, PMCCNTR at 0xF8 (tests/facts/cspmu.tsv).
    pmusim::coresight_pmu pmu{"pmu"}; // its clock at 1 GHz (coresight_pmu_options)
    initiator cpu{"cpu"};
    sc_signal<bool> irq{"irq"};
    cpu.out.bind(pmu.target);
    pmu.irq.bind(irq);
    uint64_t cycles = 0;
    sc_spawn([&] {
        cpu.write(0xC00, uint64_t(1) << 31);
        cpu.write(0xE04, 1);
        wait(3, SC_US);
        cpu.access(false, 0xF8, cycles, 8);
    });
    sc_start(4, SC_US);
    CHECK(cycles == 3000); // 1 GHz x 3 us
}

TEST_CASE("embedding: a unit option its schema refuses is a SystemC error naming the parameter") {
    pmusim::coresight_pmu_options o;
    o.counters = 40; // PMCFGR.N allows 31 event counters besides the cycle counter (IHI 0091)
    std::string message;
    try {
        pmusim::coresight_pmu pmu{"wide_pmu", o};
    } catch (const sc_report& r) {
        message = r.what();
    }
    CHECK(message.find("wide_pmu") != std::string::npos);
    CHECK(message.find("params.counters") != std::string::npos);
    CHECK(message.find("40") != std::string::npos);
    CHECK(message.find("/pmusim/platform") != std::string::npos);
}

TEST_CASE("embedding: the POWER9 IMC alone boots OPAL inside a user's sc_main") {
    pmusim::power9_imc imc{"imc"};
    CHECK(imc.default_initiator().is_power);
    bool ran = false;
    sc_spawn([&] {
        wait(1, SC_US);
        ran = true;
    });
    sc_start(2, SC_US); // the OPAL profile's boot ran at start_of_simulation (a refused step throws)
    CHECK(ran);
    const auto clocks = imc.clocks();
    CHECK(std::count(clocks.begin(), clocks.end(), "nest") == 1);
    CHECK(std::count(clocks.begin(), clocks.end(), "tb") == 1);
}

// docs/embedding.md "Which wins: clock_hz or a bound frequency signal": a bound signal wins from the
// start of the simulation (issue 32 item 4). clock_hz 2 GHz, the signal 500 MHz: the cycle counter
// (PMCCNTR, enabled through PMCNTENSET bit 31 and PMCR.E) counts 50 edges in 100 ns, not 200.
TEST_CASE("embedding: a bound frequency signal wins over clock_hz from the start") {
    pmusim::dsu_pmu_options o;
    o.clock_hz = 2000000000;
    pmusim::dsu_pmu dsu{"dsu", o};
    initiator cpu{"cpu"};
    sc_signal<bool> irq{"irq"};
    sc_signal<uint64_t> sclk_hz{"sclk_hz", 500000000};
    cpu.out.bind(dsu.target);
    dsu.irq.bind(irq);
    dsu.clock_in.bind(sclk_hz);
    uint64_t counted = 0;
    sc_spawn([&] {
        cpu.write(pmcntenset, 1u << 31);
        cpu.write(pmcr, 1);
        const uint64_t before = [&] { uint64_t v = 0; cpu.access(false, pmccntr, v, 8); return v; }();
        wait(100, SC_NS);
        uint64_t after = 0;
        cpu.access(false, pmccntr, after, 8);
        counted = after - before;
        sc_stop();
    });
    sc_start(1, SC_US);
    CHECK(counted == 50);
}

// docs/embedding.md "Time resolution": a pmusim model built after something made a non-zero
// sc_time cannot set the 1 fs resolution; SystemC refuses with its error 514 ("set time resolution
// failed") and the construction stops, rather than counting with a coarser time base (issue 32 item 4).
TEST_CASE("embedding: a model built after a non-zero sc_time stops with SystemC's time-resolution error") {
    const sc_time early(1, SC_NS); // fixes SystemC's resolution at its default (1 ps)
    CHECK(early.value() != 0);
    CHECK_THROWS_WITH(pmusim::dsu_pmu("dsu"), Catch::Contains("set time resolution failed"));
}
