// AMU unit tests: the access-rule table walked completely against an oracle
// written independently from the architecture's pseudocode, the register
// encodings, per-CPU register sets, the rules through the gate, exact counting
// across DVFS/WFI, Linux's frequency-invariance arithmetic and injected events.
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <tlm_utils/simple_initiator_socket.h>

#include "amu/amu.h"
#include "vp/platform.h"
#include "tests/unit/tlm_test_access.h"
#include "vp/platform_config.h"
#include "models/data_files.h"
#include "tests/unit/esr_oracle.h"
#include "tests/unit/facts.h"

namespace {
// CPU control bits and RES1 values from the facts files (tests/facts/cpu.tsv).
uint64_t cpu_bit(const char* reg, const char* field) { return pmusim::facts::fact_field("cpu_controls", reg, field).bit(); }
uint64_t scr_res1() { return pmusim::facts::fact_field("cpu_controls", "SCR_EL3", "RES1").mask(); }
uint64_t cptr_el2_res1() { return pmusim::facts::fact_number("cpu_controls", "CPTR_EL2", "reset"); }
} // namespace

using namespace pmusim;

namespace {

const std::string source_tree = pmusim::source_dir();
// cpu0 AMUv1p1 at 2 GHz with 3 aux counters, cpu1 without AMU, cpu2 AMUv1 at 1 GHz; const 100 MHz; tf-a.
const std::string mixed = source_tree + "/tests/platforms/amu-mixed.yaml";

// ---- The oracle: DDI0487 M.a.a D24.6 access pseudocode, per EL, plus KVM's UNDEFINED policy.
access_outcome oracle(const amu_access& a) {
    using o = access_outcome;
    const bool kvm = a.kvm_guest && a.el <= 1;
    auto lower_read = [&]() -> o { // MRS of an EN-governed register
        switch (a.el) {
        case 3: return o::ok;
        case 2: return a.cptr_el3_tam ? o::trap_el3 : o::ok;
        case 1:
            if (kvm) return o::undefined;
            if (a.el2_enabled && a.cptr_el2_tam) return o::trap_el2;
            if (a.hafgrtr_trap) return o::trap_el2; // D24.2.61, below CPTR_EL2.TAM in priority
            if (a.cptr_el3_tam) return o::trap_el3;
            return o::ok;
        default:
            if (!a.en) return a.el2_enabled && a.tge ? o::trap_el2 : o::trap_el1;
            if (kvm) return o::undefined;
            if (a.el2_enabled && a.cptr_el2_tam) return o::trap_el2;
            if (a.hafgrtr_trap) return o::trap_el2;
            if (a.cptr_el3_tam) return o::trap_el3;
            return o::ok;
        }
    };
    switch (a.cls) {
    case amu_reg_class::hafgrtr: // D24.2.61 HAFGRTR_EL2 access pseudocode (no NV)
        if (a.el == 3) return o::ok;
        if (a.el < 2) return o::undefined;
        return a.scr_fgten ? o::ok : o::trap_el3;
    case amu_reg_class::voffset:
        if (a.el == 3) return o::ok;
        if (a.el < 2) return o::undefined;
        if (!a.scr_amvoffen) return o::trap_el3;
        return a.cptr_el3_tam ? o::trap_el3 : o::ok;
    case amu_reg_class::id:
        return a.write ? o::undefined : lower_read();
    case amu_reg_class::counter_or_control:
        if (a.write) return a.el == 3 ? o::ok : o::undefined;
        return lower_read();
    case amu_reg_class::userenr:
        if (a.el == 3) return o::ok;
        if (a.write && a.el == 0) return o::undefined;
        if (a.el == 2) return a.cptr_el3_tam ? o::trap_el3 : o::ok;
        if (kvm) return o::undefined; // EL0 reads of AMUSERENR ignore EN
        if (a.el2_enabled && a.cptr_el2_tam) return o::trap_el2;
        if (a.cptr_el3_tam) return o::trap_el3;
        return o::ok;
    }
    return o::error;
}

std::vector<amu_access> every_access() {
    std::vector<amu_access> out;
    for (unsigned cls = 0; cls < 5; ++cls)
        for (unsigned el = 0; el < 4; ++el)
            for (unsigned bits = 0; bits < 1024; ++bits) {
                amu_access a;
                a.cls = amu_reg_class(cls);
                a.el = el;
                a.write = bits & 1;
                a.kvm_guest = bits & 2;
                a.en = bits & 4;
                a.el2_enabled = bits & 8;
                a.tge = bits & 16;
                a.cptr_el2_tam = bits & 32;
                a.cptr_el3_tam = bits & 64;
                a.scr_amvoffen = bits & 128;
                a.scr_fgten = bits & 256;
                a.hafgrtr_trap = bits & 512;
                out.push_back(a);
            }
    return out;
}

// Firmware code as the statements its steps stand for ("as cpu0 el3", "write AMCR_EL0 0x20000").
std::vector<std::string> texts(const firmware_code& code) {
    std::vector<std::string> out;
    for (const auto& step : code) out.push_back(to_string(step));
    return out;
}

std::string describe(const amu_access& a) {
    return std::string(to_string(a.cls)) + (a.write ? " MSR" : " MRS") + " EL" + std::to_string(a.el) +
           " kvm=" + std::to_string(a.kvm_guest) + " en=" + std::to_string(a.en) + " el2=" +
           std::to_string(a.el2_enabled) + " tge=" + std::to_string(a.tge) + " tam2=" +
           std::to_string(a.cptr_el2_tam) + " tam3=" + std::to_string(a.cptr_el3_tam) + " amvoffen=" +
           std::to_string(a.scr_amvoffen) + " fgten=" + std::to_string(a.scr_fgten) + " hafgrtr=" +
           std::to_string(a.hafgrtr_trap);
}

// A CPU-side initiator for direct accesses through the gate.
struct initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<initiator> out{"out"};
    platform& p;
    initiator(const sc_core::sc_module_name& n, platform& pl) : sc_module(n), p(pl) {
        out.bind(p.gate().from_initiators);
    }
    void elaborate() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
    struct result {
        access_outcome outcome;
        uint64_t value;
    };
    result access(unsigned cpu, unsigned el, bool secure, bool guest, const std::string& reg, bool write, uint64_t value = 0) {
        auto r = p.resolve_register(reg, cpu);
        REQUIRE(r);
        access_context ctx = testing::sysreg_context(cpu, el, secure, guest);
        auto a = testing::tlm_access(*out.operator->(), write, r->key, 8, value, ctx);
        result res{a.status == tlm::TLM_OK_RESPONSE ? access_outcome::ok : a.outcome, a.value};
        if (a.status == tlm::TLM_ADDRESS_ERROR_RESPONSE) res.outcome = access_outcome::error;
        return res;
    }
    uint64_t read_el3(unsigned cpu, const std::string& reg) {
        auto r = access(cpu, 3, true, false, reg, false);
        REQUIRE(r.outcome == access_outcome::ok);
        return r.value;
    }
    void write_el3(unsigned cpu, const std::string& reg, uint64_t v) {
        REQUIRE(access(cpu, 3, true, false, reg, true, v).outcome == access_outcome::ok);
    }
};

amu_unit& amu_of(platform& p) {
    auto* u = dynamic_cast<amu_unit*>(p.find_unit("amu"));
    REQUIRE(u);
    return *u;
}

void advance(fs_t d) { sc_core::sc_start(to_sc_time(d)); }
constexpr fs_t ns = 1'000'000, us = 1000 * ns, ms = 1000 * us;

} // namespace

TEST_CASE("amu: access rule table walked completely against an independent oracle") {
    std::set<std::string> rows_used;
    unsigned n = 0;
    for (const amu_access& a : every_access()) {
        const amu_trap_row& row = amu_decide(a);
        INFO(describe(a) << " -> rule " << row.id);
        CHECK(row.outcome == oracle(a));
        rows_used.insert(row.id);
        ++n;
    }
    CHECK(n == 5 * 4 * 1024); // 5 register classes, 4 ELs, 10 binary inputs
    // Every row of the table decides at least one access (no dead rows).
    for (const auto& row : amu_trap_table()) {
        INFO("rule " << row.id);
        CHECK(rows_used.count(row.id) == 1);
    }
}

TEST_CASE("amu: register encodings and reset values match the architecture") {
    const register_table& t = amu_table();
    register_table_for_docs(t);
    auto mrs = [&](const std::string& name) {
        const register_def* d = t.find(name);
        REQUIRE(d);
        const sysreg_encoding& e = *d->sysreg;
        return 0xD5200000u | (uint32_t(e.op0) << 19) | (uint32_t(e.op1) << 16) | (uint32_t(e.crn) << 12) |
               (uint32_t(e.crm) << 8) | (uint32_t(e.op2) << 5);
    };
    // MRS x0 opcodes from the reference's §3 table (derived from Linux's sys_reg()).
    CHECK(mrs("AMCR_EL0") == 0xD53BD200u);
    CHECK(mrs("AMCFGR_EL0") == 0xD53BD220u);
    CHECK(mrs("AMCGCR_EL0") == 0xD53BD240u);
    CHECK(mrs("AMUSERENR_EL0") == 0xD53BD260u);
    CHECK(mrs("AMCNTENCLR0_EL0") == 0xD53BD280u);
    CHECK(mrs("AMCNTENSET0_EL0") == 0xD53BD2A0u);
    CHECK(mrs("AMCG1IDR_EL0") == 0xD53BD2C0u);
    CHECK(mrs("AMCNTENCLR1_EL0") == 0xD53BD300u);
    CHECK(mrs("AMCNTENSET1_EL0") == 0xD53BD320u);
    for (unsigned n = 0; n < 4; ++n) {
        CHECK(mrs("AMEVCNTR0" + std::to_string(n) + "_EL0") == 0xD53BD400u + 0x20 * n);
        CHECK(mrs("AMEVTYPER0" + std::to_string(n) + "_EL0") == 0xD53BD600u + 0x20 * n);
    }
    for (unsigned n = 0; n < 16; ++n) {
        CHECK(mrs("AMEVCNTR1" + std::to_string(n) + "_EL0") == 0xD53BDC00u + 0x20 * n);
        CHECK(mrs("AMEVTYPER1" + std::to_string(n) + "_EL0") == 0xD53BDE00u + 0x20 * n);
        CHECK(mrs("AMEVCNTVOFF1" + std::to_string(n) + "_EL2") == 0xD53CDA00u + 0x20 * n);
    }
    CHECK(mrs("AMEVCNTVOFF00_EL2") == 0xD53CD800u);
    CHECK(mrs("AMEVCNTVOFF02_EL2") == 0xD53CD840u);
    CHECK(mrs("AMEVCNTVOFF03_EL2") == 0xD53CD860u);
    CHECK(t.find("AMEVCNTVOFF01_EL2") == nullptr);
    // The trapped-MRS syndrome of AMEVCNTR00_EL0 (reference §4.5): ESR 0x6230F409; the tests' own
    // encoder (esr_oracle.h) over the facts' encoding (TF-A arch.h) gives the same.
    CHECK(sysreg_trap_syndrome(*t.find("AMEVCNTR00_EL0")->sysreg, false) == 0x6230F409u);
    CHECK(esr_oracle::trapped_sysreg(facts::fact_encoding("amu", "AMEVCNTR00_EL0"), false) == 0x6230F409u);
    CHECK(t.find("AMCFGR_EL0")->reset == 0x01003F03u);
    CHECK(t.find("AMEVTYPER00_EL0")->reset == 0x11);
    CHECK(t.find("AMEVTYPER01_EL0")->reset == 0x4004);
    CHECK(t.find("AMEVTYPER02_EL0")->reset == 0x8);
    CHECK(t.find("AMEVTYPER03_EL0")->reset == 0x4005);
    CHECK(mrs("HAFGRTR_EL2") == 0xD53C31C0u); // reference §3: S3_4_C3_C1_6
    const register_def& fg = *t.find("HAFGRTR_EL2");
    auto bit_of = [&](const std::string& field) {
        for (const auto& f : fg.fields)
            if (f.name == field) return int(f.lsb);
        return -1;
    };
    CHECK(bit_of("AMCNTEN0") == 0);
    CHECK(bit_of("AMEVCNTR03_EL0") == 4);
    CHECK(bit_of("AMCNTEN1") == 17);
    CHECK(bit_of("AMEVCNTR10_EL0") == 18);
    CHECK(bit_of("AMEVTYPER115_EL0") == 49);
    // The rule inputs use the same bits: D24.2.61 AMEVCNTR1<x> [18+2x], AMEVTYPER1<x> [19+2x].
    CHECK(amu_hafgrtr_bit(amu_info(*t.find("AMCNTENCLR0_EL0"))) == 0);
    CHECK(amu_hafgrtr_bit(amu_info(*t.find("AMEVCNTR02_EL0"))) == 3);
    CHECK(amu_hafgrtr_bit(amu_info(*t.find("AMCNTENSET1_EL0"))) == 17);
    CHECK(amu_hafgrtr_bit(amu_info(*t.find("AMEVCNTR15_EL0"))) == 28);
    CHECK(amu_hafgrtr_bit(amu_info(*t.find("AMEVTYPER15_EL0"))) == 29);
    CHECK(amu_hafgrtr_bit(amu_info(*t.find("AMCFGR_EL0"))) == -1);
    CHECK(amu_hafgrtr_bit(amu_info(*t.find("AMEVTYPER00_EL0"))) == -1);
    CHECK(t.registers.size() == 9 + 8 + 32 + 3 + 16 + 1);
}

TEST_CASE("amu: each CPU exposes only its implemented registers") {
    platform p(load_platform(mixed));
    initiator in("in", p);
    in.elaborate();
    amu_unit& amu = amu_of(p);
    CHECK(amu.sysregs(0).size() == 9 + 8 + 3 + 3 + 3 + 3); // v1p1, 3 aux counters
    CHECK(amu.sysregs(1).empty());                        // no AMU
    CHECK(amu.sysregs(2).size() == 6 + 8);                // v1: no AMCG1IDR, offsets, group 1
    // ID_AA64PFR0_EL1.AMU (tests/facts/cpu.tsv, TF-A arch.h): 2 AMUv1p1, 0 none, 1 AMUv1.
    const auto amu_version_field = facts::fact_field("cpu_controls", "ID_AA64PFR0_EL1", "AMU");
    auto amu_version = [&](unsigned cpu) { return (p.controls().value(cpu, "ID_AA64PFR0_EL1") & amu_version_field.mask()) >> amu_version_field.lsb; };
    CHECK(amu_version(0) == 2);
    CHECK(amu_version(1) == 0);
    CHECK(amu_version(2) == 1);
    CHECK(in.access(1, 3, true, false, "S3_3_C13_C2_1", false).outcome == access_outcome::undefined);
    CHECK(in.access(0, 3, true, false, "S3_3_C13_C12_3", false).outcome == access_outcome::undefined); // AMEVCNTR13
    CHECK(in.read_el3(0, "AMCFGR_EL0") == 0x11003F06u);
    CHECK(in.read_el3(0, "AMCGCR_EL0") == 0x304u);
    CHECK(in.read_el3(0, "AMCG1IDR_EL0") == 0x70007u);
    CHECK(in.read_el3(2, "AMCFGR_EL0") == 0x01003F03u);
}

TEST_CASE("amu: access rules through the gate follow the control registers") {
    platform p(load_platform(mixed));
    initiator in("in", p);
    in.elaborate();
    auto& ctl = p.controls().bank(0);
    const std::vector<std::pair<std::string, amu_reg_class>> regs = {
        {"AMEVCNTR00_EL0", amu_reg_class::counter_or_control}, {"AMCNTENSET0_EL0", amu_reg_class::counter_or_control},
        {"AMCFGR_EL0", amu_reg_class::id}, {"AMEVTYPER02_EL0", amu_reg_class::id},
        {"AMUSERENR_EL0", amu_reg_class::userenr}, {"AMEVCNTVOFF02_EL2", amu_reg_class::voffset}};
    unsigned checked = 0;
    for (unsigned bits = 0; bits < 64; ++bits) {
        bool en = bits & 1, tge = bits & 2, tam2 = bits & 4, tam3 = bits & 8, amvoffen = bits & 16, hcr_amvoffen = bits & 32;
        in.write_el3(0, "AMUSERENR_EL0", en);
        // Bit positions from tests/facts/cpu.tsv (TF-A arch.h, Linux kvm_arm.h), not from the model.
        ctl["HCR_EL2"].value = (tge ? cpu_bit("HCR_EL2", "TGE") : 0) | (hcr_amvoffen ? cpu_bit("HCR_EL2", "AMVOFFEN") : 0);
        ctl["CPTR_EL2"].value = cptr_el2_res1() | (tam2 ? cpu_bit("CPTR_EL2", "TAM") : 0);
        ctl["CPTR_EL3"].value = tam3 ? cpu_bit("CPTR_EL3", "TAM") : 0;
        ctl["SCR_EL3"].value = scr_res1() | (amvoffen ? cpu_bit("SCR_EL3", "AMVOFFEN") : 0);
        for (const auto& [name, cls] : regs)
            for (unsigned el = 0; el < 4; ++el)
                for (bool secure : {false, true})
                    for (bool guest : {false, true})
                        for (bool write : {false, true}) {
                            if ((el == 3 && (guest || !secure)) || (el == 2 && guest)) continue;
                            amu_access a;
                            a.cls = cls;
                            a.write = write;
                            a.el = el;
                            a.kvm_guest = guest && el <= 1 && !hcr_amvoffen;
                            a.en = en;
                            a.el2_enabled = !secure; // SCR_EL3.EEL2 = 0
                            a.tge = tge;
                            a.cptr_el2_tam = tam2;
                            a.cptr_el3_tam = tam3;
                            a.scr_amvoffen = amvoffen;
                            INFO(name << ' ' << describe(a) << " secure=" << secure);
                            // Writes of 0 are harmless: enables are W1S/W1C, counters are rewritten below.
                            uint64_t v = name == "AMUSERENR_EL0" ? en : 0;
                            auto r = in.access(0, el, secure, guest, name, write, v);
                            CHECK(r.outcome == oracle(a));
                            ++checked;
                        }
    }
    CHECK(checked > 5000);
}

TEST_CASE("amu: an allowed access is not remembered past a change of any rule input") {
    // The gate remembers the accesses a rule allowed until a register value changes (firmware_gate::owner,
    // register_value::changes()); tests and tools assign control registers directly, without a write
    // hook, so each such change must still decide the next access. The expected outcomes are
    // ARMARM D24.6's (the oracle table above).
    platform p(load_platform(mixed));
    initiator in("in", p);
    in.elaborate();
    auto& ctl = p.controls().bank(0);
    ctl["CPTR_EL3"].value = 0;
    ctl["CPTR_EL2"].value = cptr_el2_res1();
    ctl["HCR_EL2"].value = 0;
    ctl["SCR_EL3"].value = scr_res1() | cpu_bit("SCR_EL3", "NS"); // Non-secure lower ELs, EL2 enabled
    in.write_el3(0, "AMUSERENR_EL0", 1); // EL0 may read
    for (int round = 0; round < 2; ++round) {
        CHECK(in.access(0, 0, false, false, "AMEVCNTR00_EL0", false).outcome == access_outcome::ok);
        CHECK(in.access(0, 0, false, false, "AMEVCNTR00_EL0", false).outcome == access_outcome::ok);
        ctl["CPTR_EL3"].value = cpu_bit("CPTR_EL3", "TAM"); // EL3 traps every AMU access below it
        CHECK(in.access(0, 0, false, false, "AMEVCNTR00_EL0", false).outcome == access_outcome::trap_el3);
        ctl["CPTR_EL3"].value = 0;
        CHECK(in.access(0, 0, false, false, "AMEVCNTR00_EL0", false).outcome == access_outcome::ok);
        ctl["CPTR_EL2"].value = cptr_el2_res1() | cpu_bit("CPTR_EL2", "TAM"); // EL2 traps EL0/EL1 (Non-secure, EL2 enabled)
        CHECK(in.access(0, 0, false, false, "AMEVCNTR00_EL0", false).outcome == access_outcome::trap_el2);
        ctl["CPTR_EL2"].value = cptr_el2_res1();
        in.write_el3(0, "AMUSERENR_EL0", 0); // EN = 0: EL0 reads trap to EL1...
        CHECK(in.access(0, 0, false, false, "AMEVCNTR00_EL0", false).outcome == access_outcome::trap_el1);
        ctl["HCR_EL2"].value = cpu_bit("HCR_EL2", "TGE"); // ...or to EL2 when HCR_EL2.TGE = 1
        CHECK(in.access(0, 0, false, false, "AMEVCNTR00_EL0", false).outcome == access_outcome::trap_el2);
        ctl["HCR_EL2"].value = 0;
        in.write_el3(0, "AMUSERENR_EL0", 1);
    }
}

TEST_CASE("amu: counters are exact across DVFS and WFI and EL3 writes") {
    platform p(load_platform(mixed));
    initiator in("in", p);
    in.elaborate();
    amu_unit& amu = amu_of(p);
    core_model& core = p.system().core(0);
    in.write_el3(0, "AMCNTENSET0_EL0", 0xf);
    core.set_workload({{"inst", rational(3, 2)}, {"mem_stall", rational(1, 10)}}, now_fs());
    advance(1 * us); // 2000 cycles at 2 GHz
    CHECK(amu.counter(0, 0, 0) == 2000);
    CHECK(amu.counter(0, 0, 1) == 100);
    CHECK(amu.counter(0, 0, 2) == 3000);
    CHECK(amu.counter(0, 0, 3) == 200);
    p.find_clock("cpu0")->set_frequency(500'000'000, now_fs());
    advance(1 * us); // 500 cycles
    CHECK(amu.counter(0, 0, 0) == 2500);
    CHECK(amu.counter(0, 0, 1) == 200);
    CHECK(amu.counter(0, 0, 2) == 3750);
    CHECK(amu.counter(0, 0, 3) == 250);
    core.set_power(power_state::wfi, now_fs());
    advance(3 * us);
    CHECK(amu.counter(0, 0, 0) == 2500);
    CHECK(amu.counter(0, 0, 1) == 200);
    core.set_power(power_state::run, now_fs());
    in.write_el3(0, "AMEVCNTR00_EL0", 0xFFFF'FFFF'FFFF'FFFFull); // wraps at 64 bits
    in.write_el3(0, "AMCNTENCLR0_EL0", 0x2);
    CHECK(in.read_el3(0, "AMCNTENSET0_EL0") == 0xd);
    advance(2 * ns); // 1 cycle at 500 MHz
    CHECK(amu.counter(0, 0, 0) == 0);
    CHECK(amu.counter(0, 0, 1) == 200);
}

TEST_CASE("amu: Linux frequency invariance across DVFS") {
    // Linux's numbers for cpu0: CNTFRQ 100 MHz, cpuinfo.max_freq 2000000 kHz.
    const uint64_t max_scale = linux_amu_max_freq_scale(100'000'000, 2'000'000'000);
    CHECK(max_scale == 52428);
    // Worked by hand from Linux 6.1 arch/arm64/kernel/topology.c (amu_scale_freq_tick: scale =
    // (delta core * arch_max_freq_scale >> SCHED_CAPACITY_SHIFT) / delta const, capped at 1024).
    CHECK(linux_amu_freq_scale(6'000'000, 400'000, 52428) == 767);
    CHECK(linux_amu_freq_scale(9'600'000, 4'000'000, linux_amu_max_freq_scale(1'000'000'000, 3'000'000'000)) == 819);
    CHECK(linux_amu_freq_scale(12'000'000, 4'000'000, 349525) == 1023);
    CHECK(linux_amu_freq_scale(13'200'000, 4'000'000, 349525) == 1024);

    platform p(load_platform(mixed));
    initiator in("in", p);
    in.elaborate();
    for (const auto& s : {"AMCNTENSET0_EL0"}) in.write_el3(0, s, 0xf);
    auto sample = [&] {
        // Linux reads CORE, then CONST, at EL1 Non-secure.
        auto core = in.access(0, 1, false, false, "AMEVCNTR00_EL0", false);
        auto cnst = in.access(0, 1, false, false, "AMEVCNTR01_EL0", false);
        REQUIRE(core.outcome == access_outcome::ok);
        REQUIRE(cnst.outcome == access_outcome::ok);
        return std::pair<uint64_t, uint64_t>{core.value, cnst.value};
    };
    advance(1 * ms);
    auto s0 = sample();
    CHECK(s0 == std::pair<uint64_t, uint64_t>{2'000'000, 100'000});
    p.find_clock("cpu0")->set_frequency(1'500'000'000, now_fs());
    advance(4 * ms);
    auto s1 = sample();
    CHECK(s1 == std::pair<uint64_t, uint64_t>{8'000'000, 500'000});
    uint64_t scale1 = linux_amu_freq_scale(s1.first - s0.first, s1.second - s0.second, max_scale);
    CHECK(scale1 == 767);
    CHECK(((scale1 * 2'000'000) >> 10) == 1'498'046); // arch_freq_get_on_cpu, kHz
    p.find_clock("cpu0")->set_frequency(1'000'000'000, now_fs());
    advance(2 * ms);
    p.system().core(0).set_power(power_state::wfi, now_fs());
    advance(2 * ms);
    p.system().core(0).set_power(power_state::run, now_fs());
    auto s2 = sample();
    CHECK(s2 == std::pair<uint64_t, uint64_t>{10'000'000, 700'000});
    uint64_t scale2 = linux_amu_freq_scale(s2.first - s1.first, s2.second - s1.second, max_scale);
    CHECK(scale2 == 511); // WFI stops both counters: the ratio reflects the 1 GHz busy time
    CHECK(((scale2 * 2'000'000) >> 10) == 998'046);
}

TEST_CASE("amu: injected auxiliary events and enables and power-off") {
    platform p(load_platform(mixed));
    initiator in("in", p);
    in.elaborate();
    amu_unit& amu = amu_of(p);
    std::string err;
    CHECK_FALSE(amu.inject("cpu1", "aux0", 1, 0, err));
    CHECK_FALSE(amu.inject("cpu0", "aux3", 1, 0, err));
    CHECK_FALSE(amu.inject("cpu0", "bogus", 1, 0, err));
    REQUIRE(amu.inject("cpu0", "aux0", 5, 0, err));
    CHECK(amu.counter(0, 1, 0) == 0); // not enabled yet (no firmware boot here)
    in.write_el3(0, "AMCNTENSET1_EL0", 0xffff);
    CHECK(in.read_el3(0, "AMCNTENSET1_EL0") == 0x7); // bits >= CG1NC are RAZ/WI
    REQUIRE(amu.inject("cpu0", "1", 1000, 1 * us, err));
    advance(250 * ns);
    CHECK(amu.counter(0, 1, 1) == 250);
    advance(750 * ns);
    CHECK(amu.counter(0, 1, 1) == 1000);
    // The firmware profile is tf-a: power-off saves, power-on restores. TF-A's code is a list of
    // statements the sequence runner executes at EL3 around the transition (firmware_power_down
    // just before off, firmware_power_up just after); here the test plays the runner's part.
    in.write_el3(0, "AMCNTENSET0_EL0", 0xf);
    advance(1 * us);
    CHECK(amu.counter(0, 0, 0) == 2000); // 1 us at 2 GHz
    CHECK(amu.firmware_power_down("none", 0).empty());
    CHECK(amu.firmware_power_down("tf-a", 1).empty()); // cpu1 has no AMU
    const std::vector<std::string> save = {"as cpu0 el3",           "write AMCNTENCLR0_EL0 0xf",
                                           "write AMCNTENCLR1_EL0 0x7", "read AMEVCNTR00_EL0",
                                           "read AMEVCNTR01_EL0",   "read AMEVCNTR02_EL0",
                                           "read AMEVCNTR03_EL0",   "read AMEVCNTR10_EL0",
                                           "read AMEVCNTR11_EL0",   "read AMEVCNTR12_EL0"};
    CHECK(texts(amu.firmware_power_down("tf-a", 0)) == save);
    in.write_el3(0, "AMCNTENCLR0_EL0", 0xf);
    in.write_el3(0, "AMCNTENCLR1_EL0", 0x7);
    p.system().core(0).set_power(power_state::off, now_fs());
    CHECK(amu.counter(0, 0, 0) == 0); // the core power domain lost the AMU's state
    CHECK(amu.enables(0, 0) == 0);
    advance(1 * us);
    p.system().core(0).set_power(power_state::run, now_fs());
    CHECK(amu.counter(0, 0, 0) == 0); // nothing restored until the firmware runs
    // What the save read: 2000 CPU cycles, 100 constant cycles (100 MHz), 2000 instructions
    // (inst = 1), no memory stalls; aux1 got the 1000 injected events, aux0's 5 came while disabled.
    const std::vector<std::string> restore = {
        "as cpu0 el3",
        "write AMEVCNTR00_EL0 0x7d0",
        "write AMEVCNTR01_EL0 0x64",
        "write AMEVCNTR02_EL0 0x7d0",
        "write AMEVCNTR03_EL0 0x0",
        "write AMEVCNTR10_EL0 0x0",
        "write AMEVCNTR11_EL0 0x3e8",
        "write AMEVCNTR12_EL0 0x0",
        "write AMCNTENSET0_EL0 0x3",
        "write AMCNTENSET1_EL0 0x7",
        "write AMCR_EL0 0x20000",
        "write AMCNTENSET0_EL0 0xf"};
    CHECK(amu.firmware_power_up("none", 0).empty());
    REQUIRE(texts(amu.firmware_power_up("tf-a", 0)) == restore);
    CHECK(amu.firmware_power_up("tf-a", 0).empty()); // the save area is consumed
    for (const auto& st : restore) {
        if (st.rfind("write ", 0) != 0) continue;
        auto sp = st.find(' ', 6);
        in.write_el3(0, st.substr(6, sp - 6), std::stoull(st.substr(sp + 1), nullptr, 16));
    }
    CHECK(amu.counter(0, 0, 0) == 2000);
    CHECK(amu.counter(0, 1, 1) == 1000);
    CHECK(amu.enables(0, 0) == 0xf);
    CHECK(amu.enables(0, 1) == 0x7);
}

TEST_CASE("amu: firmware boot statements per profile") {
    platform p(load_platform(mixed));
    amu_unit& amu = amu_of(p);
    CHECK(amu.firmware_boot("none").empty());
    auto st = texts(amu.firmware_boot("tf-a"));
    auto has = [&](const std::string& s) { return std::find(st.begin(), st.end(), s) != st.end(); };
    CHECK(has("as cpu0 el3"));
    // Literal masks, as tests/facts/cpu.tsv gives them from TF-A arch.h and Linux kvm_arm.h:
    // CPTR_EL3.TAM and CPTR_EL2.TAM bit 30, HCR_EL2.AMVOFFEN bit 51, SCR_EL3.AMVOFFEN bit 35.
    CHECK(has("write CPTR_EL3 0x0 mask 0x40000000")); // read-modify-write: clear TAM only
    CHECK(has("write CPTR_EL2 0x0 mask 0x40000000"));
    CHECK(has("write HCR_EL2 0x0 mask 0x8000000000000"));
    CHECK(has("write AMCNTENSET1_EL0 0x7"));
    CHECK(has("write AMCR_EL0 0x20000"));
    CHECK(has("write SCR_EL3 0x800000000 mask 0x800000000")); // set AMVOFFEN only
    CHECK(has("write AMCNTENSET0_EL0 0xf"));
    CHECK_FALSE(has("as cpu1 el3"));
    CHECK(has("as cpu2 el3"));
    std::vector<observable> obs;
    amu.observables(obs);
    CHECK(obs.size() == (1 + 1 + 4 + 3) + (1 + 4));
}
