// The access-rule matrix (issue 9) for the Arm CMN-600 configuration space and the POWER9 IMC
// (LDBAR, XSCOM, HOMER), through the real gate and bus, against oracles written here from the
// primary sources named at each oracle below (CMN-600 TRM 100180, cmn-tools regdefs, Linux
// arm-cmn.c, SCP-firmware, skiboot, Linux imc-pmu, Power ISA) and the choices docs/cmn.md and
// docs/imc.md record where the sources are silent. As in test_access_matrix.cpp, the oracles
// take only the list of registers (names, offsets, widths) from the model's tables; every
// refused write must leave every register as it was and a refused read must return no data.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "cmn/cmn600.h"
#include "tests/unit/access_matrix_bench.h"

using namespace pmusim;
using namespace pmusim::access_matrix;

namespace {

// What an access should do. raz_wi: the access completes (TLM OK), a read returns 0 and a write
// changes nothing.
enum class expect { ok, raz_wi, error, trap_el1, trap_el2, undefined };

const char* name_of(expect e) {
    switch (e) {
    case expect::ok: return "ok";
    case expect::raz_wi: return "RAZ/WI";
    case expect::error: return "error";
    case expect::trap_el1: return "trap el1";
    case expect::trap_el2: return "trap el2";
    case expect::undefined: return "undefined";
    }
    return "?";
}

// Whether the model's answer agrees. A permitted access must be served: "ignored" (the outcome of
// a refusal that answers OK, as the DSU's software lock gives) is a failure where the oracle says
// ok (issue 31 item 4); neither unit has such a condition, and a write to a read-only register is
// served (it changes nothing), not refused.
bool agrees(expect e, const testing::tlm_access_result& a, bool write) {
    const o got = seen(a);
    switch (e) {
    case expect::ok: return got == o::ok;
    case expect::raz_wi: return write ? (got == o::ok || got == o::ignored) : (got == o::ok && a.value == 0);
    case expect::error: return a.status == tlm::TLM_GENERIC_ERROR_RESPONSE || a.status == tlm::TLM_ADDRESS_ERROR_RESPONSE;
    case expect::trap_el1: return got == o::trap_el1;
    case expect::trap_el2: return got == o::trap_el2;
    case expect::undefined: return got == o::undefined;
    }
    return false;
}

uint64_t low_bytes(uint64_t v, unsigned len) { return len >= 8 ? v : v & ((1ULL << (8 * len)) - 1); }

// ---------------------------------------------------------------------------------------------
// CMN-600 configuration space
// ---------------------------------------------------------------------------------------------
//
// Facts:
// - every node owns a 16 KB region of the configuration space (CMN-600 TRM 100180, node
//   configuration address map; SCP-firmware module/cmn600/src/cmn600.h
//   CMN600_ROOT_NODE_OFFSET_PORT_POS 14: a node's offset moves in 0x4000 steps);
//   the region of a node nobody populates, and an external child's region (an RN-SAM behind an
//   RN-F port, "a valid child offset that points to zeroes"), read as zero.
// - the access widths clients use: 64-bit and 32-bit accesses, including a 32-bit access to the
//   upper half of a 64-bit register (Linux 6.1 arm-cmn.c CMN_DT_PMEVCNT(n): readl of counter 1
//   at 0x2004 inside the 64-bit por_dt_pmevcntab; readq of node_info and the DTM counters). docs/cmn.md: "Accesses must be
//   naturally aligned 4- or 8-byte accesses; anything else is a bus error" (choice) and offsets
//   no register occupies read as zero and ignore writes (choice).
// - 0x980 of the CFG node is `por_cfgm_secure_access` (cmn-tools regdefs:4705, marked S), the Secure access control of the
//   configuration space; the AMD CMN-600 register reference describes the 0x980 registers of
//   the other nodes (`por_*_secure_register_groups_override`) as "Allows non-secure access to
//   predefined groups of secure registers". Such a control is itself Secure-only: a
//   Non-secure access reads zero and its write is ignored (docs/cmn.md "Secure access"), and
//   the override never opens the control to Non-secure software. Every register pmusim models
//   besides it (discovery, DTM, DTC, event selectors) is one Linux programs from the
//   Non-secure kernel (arm-cmn.c), so it is Non-secure accessible whatever the override says.
// - The CMN sees the transaction's NS attribute, not the exception level: EL0..EL3 and a
//   debugger (DAP, through the system bus) of the same security state see the same outcome.

struct cmn_shape {
    uint64_t offset; // from the node base
    unsigned len;
    const char* what;
};

struct cmn_target {
    std::string label;
    uint64_t address;
    unsigned len;
    expect secure, nonsecure; // with the override 0 or 1
    size_t node;              // whose registers a refused write could touch
};

// Every register of every node, read as a Secure debugger behind the gate; plus the unit's
// observables. With only_node: that node's registers only.
snapshot cmn_state(unit& cmn, const cmn_mesh& mesh, uint64_t periphbase, long only_node = -1) {
    snapshot s;
    tlm::tlm_fw_transport_if<>& target = *cmn.registers_in.get_base_export().operator->();
    access_context ctx;
    ctx.initiator = initiator_kind::debugger;
    ctx.secure = true;
    ctx.path = access_path::memory_mapped;
    for (size_t i = 0; i < mesh.nodes.size(); ++i) {
        if (only_node >= 0 && i != size_t(only_node)) continue;
        const register_table* t = mesh.nodes[i].external ? nullptr : &cmn600_table_for(mesh.nodes[i]);
        if (!t) continue;
        for (const auto& def : t->registers)
            s[mesh.nodes[i].name + "." + def.name] =
                testing::tlm_access(target, false, periphbase + mesh.nodes[i].offset + *def.offset, def.width / 8, 0, ctx)
                    .value;
    }
    std::vector<observable> obs;
    cmn.observables(obs);
    for (const auto& ob : obs) s["obs." + ob.name] = ob.value();
    return s;
}

std::vector<cmn_target> cmn_targets(const cmn_mesh& mesh, uint64_t periphbase) {
    std::vector<cmn_target> out;
    std::set<uint64_t> occupied; // 16 KB regions
    for (const auto& n : mesh.nodes) occupied.insert(n.offset >> 14);
    for (size_t i = 0; i < mesh.nodes.size(); ++i) {
        const cmn_node& n = mesh.nodes[i];
        const uint64_t base = periphbase + n.offset;
        const register_table* t = n.external ? nullptr : &cmn600_table_for(n);
        if (!t) { // external child: its region reads as zero
            for (unsigned len : {4u, 8u})
                out.push_back({n.name + " (external) +0x0", base, len, expect::raz_wi, expect::raz_wi, i});
            continue;
        }
        std::set<uint64_t> used;
        for (const auto& def : t->registers)
            for (uint64_t b = 0; b < def.width / 8; ++b) used.insert(*def.offset + b);
        for (const auto& def : t->registers) {
            const uint64_t off = *def.offset;
            // §1.4: por_cfgm_secure_access (its offset from tests/facts/cmn.tsv, cmn-tools regdefs)
            const bool secure_control = off == facts::fact_number("cmn600_cfg", "secure_access", "offset");
            const expect normal = expect::ok;
            const expect ns = secure_control ? expect::raz_wi : normal;
            const std::vector<cmn_shape> shapes = {
                {off, 8, "8-byte"},       {off, 4, "4-byte low half"}, {off + 4, 4, "4-byte high half"},
                {off, 1, "1-byte"},       {off, 2, "2-byte"},          {off + 2, 4, "misaligned 4-byte"},
                {off + 4, 8, "misaligned 8-byte"}, {off, 16, "16-byte"}};
            for (const auto& s : shapes) {
                const bool aligned_width = (s.len == 4 || s.len == 8) && s.offset % s.len == 0;
                const std::string label = n.name + "." + def.name + " " + s.what;
                if (!aligned_width) out.push_back({label, base + s.offset, s.len, expect::error, expect::error, i});
                else out.push_back({label, base + s.offset, s.len, normal, ns, i});
            }
        }
        // Offsets no register occupies: inside the identity page, between pages, the last doubleword.
        for (uint64_t off : {0x40ULL, 0x1000ULL, 0x2F00ULL, 0x3FF8ULL}) {
            if (used.count(off)) continue;
            out.push_back({n.name + fmt::format(" unoccupied +{:#x}", off), base + off, 8, expect::raz_wi,
                           expect::raz_wi, i});
            out.push_back({n.name + fmt::format(" unoccupied +{:#x} 2-byte", off), base + off, 2, expect::error,
                           expect::error, i});
        }
    }
    // A 16 KB region nobody occupies in each XP's window (the XP windows are 1 MB apart in Y).
    for (const auto& xp : mesh.xps) {
        const uint64_t window = mesh.xy_offset(xp.x, xp.y);
        for (uint64_t r = window >> 14; r < (window >> 14) + 64; ++r)
            if (!occupied.count(r)) {
                const std::string label = fmt::format("empty region {:#x}", r << 14);
                out.push_back({label, periphbase + (r << 14), 8, expect::raz_wi, expect::raz_wi, 0});
                out.push_back({label + " 1-byte", periphbase + (r << 14) + 1, 1, expect::error, expect::error, 0});
                break;
            }
    }
    return out;
}

void run_cmn_matrix(tally& t, const std::string& platform_name) {
    register_all_units();
    platform p(load_platform(platform_name));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    auto* cmn = dynamic_cast<cmn600*>(p.find_unit("cmn0"));
    REQUIRE(cmn);
    const uint64_t periphbase = cmn->mmio_windows().front().base;
    const cmn_mesh& mesh = cmn->mesh();
    const auto targets = cmn_targets(mesh, periphbase);
    const uint64_t secure_access = periphbase + mesh.nodes[0].offset + facts::fact_number("cmn600_cfg", "secure_access", "offset");

    auto secure_debug = [&](uint64_t address, bool write, uint64_t v) {
        access_context c;
        c.initiator = initiator_kind::debugger;
        c.secure = true;
        auto a = b.access(c, address, 8, write, v);
        REQUIRE(a.status == tlm::TLM_OK_RESPONSE);
        return a.value;
    };
    // The PMU running (dt_en, pmu_en, DTM 0 of every XP counting XP events), so that a leaked read
    // or a refused write that reaches a counter shows. Offsets: Linux 6.1 arm-cmn.c
    // (CMN_DT_DTC_CTL 0x0a00, CMN_DT_PMCR 0x2100, CMN_DTM_CONTROL 0x100 + CMN_PMU_OFFSET 0x2000).
    const cmn_node* dtc = mesh.find("dtc0");
    REQUIRE(dtc);
    // Offsets and bits from tests/facts/cmn.tsv (Linux arm-cmn.c, cmn-tools).
    secure_debug(periphbase + dtc->offset + facts::fact_number("cmn600_dtc", "por_dt_dtc_ctl", "offset"), true,
                 facts::fact_field("cmn600_dtc", "por_dt_dtc_ctl", "dt_en").bit());
    secure_debug(periphbase + dtc->offset + facts::fact_number("cmn600_dtc", "por_dt_pmcr", "offset"), true,
                 facts::fact_field("cmn600_dtc", "por_dt_pmcr", "pmu_en").bit() |
                     facts::fact_field("cmn600_dtc", "por_dt_pmcr", "ovfl_intr_en").bit());
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));

    // Contexts: CPU at EL0..EL3 in either security state (EL3 is Secure), a debugger in either.
    struct context {
        access_context ctx;
        std::string name;
    };
    std::vector<context> contexts;
    for (unsigned el = 0; el < 4; ++el)
        for (bool secure : {false, true}) {
            if (el == 3 && !secure) {
                ++t.skipped;
                continue;
            }
            access_context c;
            c.initiator = initiator_kind::cpu;
            c.cpu = 0;
            c.el = el;
            c.secure = secure;
            contexts.push_back({c, fmt::format("cpu0 EL{} {}", el, secure ? "S" : "NS")});
        }
    for (bool secure : {false, true}) {
        access_context c;
        c.initiator = initiator_kind::debugger;
        c.secure = secure;
        contexts.push_back({c, secure ? "debug S" : "debug NS"});
    }

    for (uint64_t override_value : {0ULL, 1ULL}) // por_cfgm_secure_access bit 0 clear, set
        for (const auto& tg : targets)
            for (const auto& cx : contexts)
                for (bool write : {false, true}) {
                    secure_debug(secure_access, true, override_value);
                    const expect e = cx.ctx.secure ? tg.secure : tg.nonsecure;
                    const std::string label = tg.label + (write ? " write " : " read ") + cx.name +
                                              " override=" + std::to_string(override_value);
                    const bool refused = e != expect::ok;
                    const std::string kind = tg.label.substr(tg.label.find('.') + 1) + name_of(e);
                    const bool full = refused && write && t.fully_snapshotted.insert(kind).second;
                    snapshot before, before_platform;
                    if (refused && write) {
                        before = cmn_state(*cmn, mesh, periphbase, full ? -1 : long(tg.node));
                        if (full) before_platform = b.take();
                    }
                    auto a = b.access(cx.ctx, tg.address, tg.len, write, write ? all_ones : poison);
                    ++t.checked;
                    if (!agrees(e, a, write))
                        t.fail(label + ": expected " + name_of(e) + ", model " + std::string(to_string(seen(a))) +
                               fmt::format(" value {:#x}", a.value) + " (" + a.detail + ")");
                    if (refused && write) {
                        ++t.refused_writes;
                        std::string d = diff(before, cmn_state(*cmn, mesh, periphbase, full ? -1 : long(tg.node)));
                        if (full) d += diff(before_platform, b.take());
                        if (!d.empty()) t.fail(label + ": refused write changed state: " + d);
                    } else if (e == expect::error && !write) {
                        ++t.refused_reads;
                        if (a.value != low_bytes(poison, tg.len) && a.value != 0) t.fail(label + ": refused read returned data");
                    }
                }
    // The control itself: a Secure write of bit 0 reads back to a Secure read, a Non-secure read
    // sees zero (cmn-tools regdefs:4705-4707: por_cfgm_secure_access, Secure-only (S),
    // configure_secure_access [1:0]).
    secure_debug(secure_access, true, 1);
    CHECK((secure_debug(secure_access, false, 0) & 1) == 1);
    access_context ns;
    ns.initiator = initiator_kind::cpu;
    ns.el = 1;
    CHECK(b.access(ns, secure_access, 8, false, poison).value == 0);
}

} // namespace

TEST_CASE("access matrix: CMN-600 configuration space by security state and EL and width against the reference oracle") {
    tally t{"CMN-600 arm-default"};
    run_cmn_matrix(t, "arm-default");
    t.print();
    CHECK(t.checked > 50000);
    REQUIRE(t.disagreements == 0);
}

// One platform per test case (SystemC elaborates once per process): the root node away from
// PERIPHBASE (0x404000) with a CAL port, and a 5x3 mesh with 3-bit node coordinates.
TEST_CASE("access matrix: CMN-600 2x2 mesh with the root node away from PERIPHBASE against the reference oracle") {
    tally t{"CMN-600 cmn-2x2"};
    run_cmn_matrix(t, source_tree + "/tests/platforms/cmn-2x2.yaml");
    t.print();
    CHECK(t.checked > 10000);
    REQUIRE(t.disagreements == 0);
}

TEST_CASE("access matrix: CMN-600 5x3 mesh with 3-bit node coordinates against the reference oracle") {
    tally t{"CMN-600 cmn-5x3"};
    run_cmn_matrix(t, source_tree + "/tests/platforms/cmn-5x3.yaml");
    t.print();
    CHECK(t.checked > 50000);
    REQUIRE(t.disagreements == 0);
}

// ---------------------------------------------------------------------------------------------
// POWER9 IMC: LDBAR, XSCOM, HOMER
// ---------------------------------------------------------------------------------------------
//
// Facts (Power ISA 3.0B Book III for the privilege rules):
// - LDBAR is SPR 850, per thread (Linux 6.1 arch/powerpc/include/asm/reg.h SPRN_LDBAR 0x352;
//   skiboot include/p9_stop_api.H P9_STOP_SPR_LDBAR 850, "thread register"). It is hypervisor privileged: mtspr/mfspr in problem state
//   (MSR[PR] = 1) is a privileged-instruction type Program interrupt, taken by the OS (`trap
//   el1` in pmusim's outcome words); in privileged non-hypervisor state (MSR[HV PR] = 00) a
//   Hypervisor Emulation Assistance interrupt, taken by the hypervisor (`trap el2`). A CPU
//   that has no such SPR (no CPU) is UNDEFINED (illegal instruction).
//   Fields (IBM numbering): 0 enable, 1 mode, 4:6 PB scope, 8:50 address; 2:3, 7 and 51:63
//   reserved (Linux 6.1 arch/powerpc/include/asm/imc-pmu.h THREAD_IMC_ENABLE, TRACE_IMC_ENABLE,
//   THREAD_IMC_LDBAR_MASK). pmusim keeps the reserved bits zero (docs/imc.md: LDBAR fields).
// - skiboot's SCOMs per core (skiboot@ecebf4fb3d9c hw/imc.c:223-232, include/xscom.h:123): PDBAR at EQ(core, pdbar_p9[core % 4]), HTM_MODE at EQ(core,
//   htm_p9[core % 4]), EVENT_MASK at EC(core, 0x20010AA8), TRACE_IMC at EC(core, 0x20010AA9),
//   EC(c, a) = ((c & 0x1f) + 0x20) << 24 | a, EQ(c, a) = ((c & 0x1c) + 0x40) << 22 | a. XSCOM is
//   reached by OPAL (hypervisor) and the service processor/OCC, never by the OS or a user
//   (docs/imc.md "OPAL and privilege"); the MMIO offset of PCB address a is skiboot's
//   skiboot hw/xscom.c xscom_addr() on POWER9: a << 3 (the interleaved form is POWER8's),
//   8-byte accesses only (PCB doublewords).
//   A SCOM pmusim does not model (e.g. the PBA BAR, skiboot hw/homer.c:15 P9_PBA_BAR0 0x5012B00)
//   ends in a PCB error.
// - HOMER is ordinary memory (4 MiB per chip); pmusim models no MMU, so every privilege
//   reads it (the OS maps the nest counters; what user space can map is the kernel's business).

// The SCOM address and XSCOM offset of skiboot's REG for a core, as tests/facts/imc.tsv derives
// them from skiboot's XSCOM_ADDR_P9_EQ/EC, hw/imc.c's tables and hw/xscom.c (not the model's).
uint32_t fact_scom(const std::string& reg, unsigned core) {
    return uint32_t(facts::fact_number("imc_scom", reg + "@" + std::to_string(core), "address"));
}
uint64_t fact_xscom(const std::string& reg, unsigned core) {
    return facts::fact_number("imc_xscom", reg + "@" + std::to_string(core), "offset");
}
// A SCOM no fact covers: skiboot hw/xscom.c xscom_addr() on POWER9, pcb << 3.
uint64_t xscom_mmio(uint32_t pcb) { return uint64_t(pcb) << 3; }

TEST_CASE("access matrix: POWER9 IMC LDBAR and XSCOM and HOMER by privilege against the reference oracle") {
    tally t{"POWER9 IMC power9-default"};
    register_all_units();
    platform p(load_platform("power9-default"));
    bench b("bench", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    unit* imc = p.find_unit("imc0");
    REQUIRE(imc);
    const unsigned ncpus = unsigned(p.system().cpus.size());
    REQUIRE(ncpus == 16);
    const uint64_t xscom_base = 0x603FC00000000ULL; // power9-default / docs/imc.md default
    const uint64_t homer = 0x10000000;               // power9-default homer_base
    struct scom {
        std::string name;
        uint32_t pcb;
        uint64_t offset; // in the chip's XSCOM window
        bool modelled;
    };
    std::vector<scom> scoms;
    for (unsigned core = 0; core < 4; ++core)
        for (const char* reg : {"PDBAR", "HTM_MODE", "EVENT_MASK", "TRACE_IMC"})
            scoms.push_back({fmt::format("core{}.{}", core, reg), fact_scom(reg, core), fact_xscom(reg, core), true});
    scoms.push_back({"core5.HTM_MODE (no such core)", fact_scom("HTM_MODE", 5), fact_xscom("HTM_MODE", 5), false});
    scoms.push_back({"PBA BAR0", 0x5012B00, xscom_mmio(0x5012B00), false}); // skiboot hw/homer.c:15
    scoms.push_back({"core0.PDBAR + 1", fact_scom("PDBAR", 0) + 1, xscom_mmio(fact_scom("PDBAR", 0) + 1), false});

    access_context hv;
    hv.initiator = initiator_kind::cpu;
    hv.is_power = true;
    hv.privilege = power_privilege::hypervisor;
    access_context occ = hv;
    occ.initiator = initiator_kind::microcontroller;
    // LDBAR is SPR 850 on every thread (tests/facts/imc.tsv: POWER9 UM, Linux SPRN_LDBAR), not the table's key.
    const uint64_t ldbar_key = facts::fact_encoding("imc", "LDBAR").key();
    // Everything the IMC holds: every thread's LDBAR, every core's SCOMs, the HOMER control block
    // and the first nest counters, and the unit's observables.
    auto imc_state = [&] {
        snapshot s;
        tlm::tlm_fw_transport_if<>& target = *imc->registers_in.get_base_export().operator->();
        access_context c = hv;
        c.path = access_path::system_register;
        for (unsigned cpu = 0; cpu < ncpus; ++cpu) {
            c.cpu = cpu;
            s[fmt::format("cpu{}.LDBAR", cpu)] = testing::tlm_access(target, false, ldbar_key, 8, 0, c).value;
        }
        for (const auto& sc : scoms)
            if (sc.modelled) s[sc.name] = b.access(occ, xscom_base + sc.offset, 8, false, 0).value;
        for (uint64_t off = 0x1BFC00; off < 0x1BFC28; off += 8) s[fmt::format("homer+{:#x}", off)] = b.access(occ, homer + off, 8, false, 0).value;
        for (uint64_t off = 0x180000; off < 0x180100; off += 8) s[fmt::format("homer+{:#x}", off)] = b.access(occ, homer + off, 8, false, 0).value;
        std::vector<observable> obs;
        imc->observables(obs);
        for (const auto& ob : obs) s["obs." + ob.name] = ob.value();
        return s;
    };

    struct context {
        access_context ctx;
        std::string name;
    };
    std::vector<context> contexts;
    for (auto [pr, n] : {std::pair{power_privilege::problem, "user"}, {power_privilege::supervisor, "os"},
                         {power_privilege::hypervisor, "hv"}}) {
        access_context c = hv;
        c.privilege = pr;
        contexts.push_back({c, n});
    }
    {
        access_context c = hv;
        c.initiator = initiator_kind::debugger; // the service processor (FSI)
        contexts.push_back({c, "service processor"});
        contexts.push_back({occ, "OCC"});
    }

    auto check = [&](const std::string& label, expect e, const access_context& ctx, uint64_t address, unsigned len,
                     bool write, const std::string& kind) {
        const bool refused = e != expect::ok;
        const bool full = refused && write && t.fully_snapshotted.insert(kind).second;
        snapshot before, before_platform;
        if (refused && write) {
            before = imc_state();
            if (full) before_platform = b.take();
        }
        auto a = b.access(ctx, address, len, write, write ? all_ones : poison);
        ++t.checked;
        if (!agrees(e, a, write))
            t.fail(label + ": expected " + name_of(e) + ", model " + std::string(to_string(seen(a))) + " (" + a.detail + ")");
        if (refused && write) {
            ++t.refused_writes;
            std::string d = diff(before, imc_state());
            if (full) d += diff(before_platform, b.take());
            if (!d.empty()) t.fail(label + ": refused write changed state: " + d);
        } else if (refused && !write && e != expect::raz_wi) {
            ++t.refused_reads;
            if (a.value != low_bytes(poison, len) && a.value != 0) t.fail(label + ": refused read returned data");
        }
        return a;
    };

    // LDBAR on every thread and on a CPU that does not exist, at every privilege.
    for (unsigned cpu = 0; cpu <= ncpus; ++cpu)
        for (const auto& cx : contexts) {
            if (cx.ctx.initiator != initiator_kind::cpu) continue; // SPRs belong to the thread itself
            for (bool write : {false, true}) {
                access_context c = cx.ctx;
                c.cpu = cpu;
                c.path = access_path::system_register;
                expect e = cpu == ncpus                                  ? expect::undefined
                           : c.privilege == power_privilege::hypervisor ? expect::ok
                           : c.privilege == power_privilege::supervisor ? expect::trap_el2
                                                                        : expect::trap_el1;
                const std::string label = fmt::format("cpu{} LDBAR {} {}", cpu, write ? "mtspr" : "mfspr", cx.name);
                check(label, e, c, ldbar_key, 8, write, std::string("LDBAR") + name_of(e));
                if (e == expect::ok && write) {
                    // Reserved fields stay zero: enable, mode, PB scope and address only (§5).
                    auto r = b.access(c, ldbar_key, 8, false, 0);
                    if (r.value != 0xCEFFFFFFFFFFE000ULL)
                        t.fail(label + fmt::format(": LDBAR after writing all ones reads {:#x}, expected 0xceffffffffffe000", r.value));
                    b.access(c, ldbar_key, 8, true, 0); // disabled again
                }
            }
        }

    // XSCOM: every IMC SCOM of every core, SCOMs pmusim does not model, every width.
    for (const auto& sc : scoms)
        for (const auto& cx : contexts)
            for (auto [delta, len] : {std::pair<uint64_t, unsigned>{0, 8}, {0, 4}, {4, 4}, {0, 1}, {0, 2}, {0, 16}, {4, 8}})
                for (bool write : {false, true}) {
                    const bool privileged = cx.ctx.initiator != initiator_kind::cpu ||
                                            cx.ctx.privilege == power_privilege::hypervisor;
                    const bool doubleword = len == 8 && delta == 0;
                    const expect e = privileged && doubleword && sc.modelled ? expect::ok : expect::error;
                    const std::string label = fmt::format("XSCOM {} ({:#010x}) +{} {}-byte {} {}", sc.name, sc.pcb, delta,
                                                          len, write ? "write" : "read", cx.name);
                    check(label, e, cx.ctx, xscom_base + sc.offset + delta, len, write,
                          sc.name.substr(sc.name.find('.') + 1) + name_of(e));
                    if (e == expect::ok && write) b.access(occ, xscom_base + sc.offset, 8, true, 0);
                }

    // HOMER: the control block and the first nest counters read the same at every privilege.
    for (uint64_t off : {0x1BFC00ULL, 0x1BFC08ULL, 0x180080ULL, 0x1800D0ULL})
        for (const auto& cx : contexts) {
            auto a = check(fmt::format("HOMER+{:#x} read {}", off, cx.name), expect::ok, cx.ctx, homer + off, 8, false, "");
            if (a.value != b.access(occ, homer + off, 8, false, 0).value) t.fail(fmt::format("HOMER+{:#x} read by {} differs", off, cx.name));
        }

    t.print();
    CHECK(t.checked > 500);
    REQUIRE(t.disagreements == 0);
}
