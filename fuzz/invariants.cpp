#include "fuzz/invariants.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <set>

#include "amu/amu.h"
#include "cmn/cmn600.h"
#include "cspmu/arm_cspmu.h"
#include "dsu_clusterpmu/dsu_clusterpmu.h"
#include "imc/imc.h"

// The IMC's per-core SCOM addresses as skiboot computes them (hw/imc.c pdbar_scom_index[],
// htm_scom_index[], CORE_IMC_EVENT_MASK_ADDR, TRACE_IMC_ADDR; include/xscom.h XSCOM_ADDR_P9_EQ/EC;
// hw/xscom.c: the POWER9 MMIO offset is pcb << 3), written here rather than taken from the model's
// imc::scom_*(), so that a wrong model address is not the one the invariants visit
// (tests/limits/check_test_oracles.py).
namespace skiboot_p9 {
constexpr uint32_t pdbar_scom_index[4] = {0x1001220B, 0x1001230B, 0x1001260B, 0x1001270B};
constexpr uint32_t htm_scom_index[4] = {0x10012200, 0x10012300, 0x10012600, 0x10012700};
inline uint32_t eq(unsigned core, uint32_t addr) { return ((((core & 0x1Cu) + 0x40u) << 22)) | addr; }
inline uint32_t ec(unsigned core, uint32_t addr) { return ((((core & 0x1Fu) + 0x20u) << 24)) | addr; }
inline uint32_t pdbar(unsigned core) { return eq(core, pdbar_scom_index[core % 4]); }
inline uint32_t htm_mode(unsigned core) { return eq(core, htm_scom_index[core % 4]); }
inline uint32_t event_mask(unsigned core) { return ec(core, 0x20010AA8); }
inline uint32_t trace(unsigned core) { return ec(core, 0x20010AA9); }
inline uint64_t mmio_offset(uint32_t pcb) { return uint64_t(pcb) << 3; }
} // namespace skiboot_p9

namespace pmusim::fuzzing {

namespace {

bool transport(unit& u, access_context ctx, uint64_t address, unsigned bytes, uint64_t& value) {
    tlm::tlm_generic_payload t;
    uint8_t data[8] = {};
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(address);
    t.set_data_ptr(data);
    t.set_data_length(bytes);
    t.set_streaming_width(bytes);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&ctx);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    u.registers_in.get_base_export()->b_transport(t, d);
    t.clear_extension(&ctx);
    value = 0;
    std::memcpy(&value, data, bytes);
    return t.get_response_status() == tlm::TLM_OK_RESPONSE && ctx.outcome == access_outcome::ok;
}

// Bits a read must show as 0 or 1 whatever was written: beyond the width, RES0, RAZ/WI, WO; RES1.
void check_fields(const register_def& def, uint64_t v, const std::string& where, std::vector<std::string>& out) {
    if (v & ~def.width_mask()) out.push_back(fmt::format("{}: {:#x} has bits beyond its {} bits", where, v, def.width));
    for (const auto& f : def.fields) {
        const uint64_t bits = v & f.mask();
        switch (f.access) {
        case field_access::res0:
        case field_access::raz_wi:
        case field_access::wo:
            if (bits) out.push_back(fmt::format("{}: {} field {} reads {:#x}, must be 0", where, to_string(f.access), f.name, bits >> f.lsb));
            break;
        case field_access::res1:
            if (bits != f.mask()) out.push_back(fmt::format("{}: RES1 field {} reads {:#x}", where, f.name, bits >> f.lsb));
            break;
        default: break;
        }
    }
}

uint64_t sysreg_value(unit& u, unsigned cpu, const char* name, std::vector<std::string>& out) {
    const register_def* def = u.table().find(name);
    uint64_t v = 0;
    if (!def || !read_sysreg(u, cpu, *def, v)) out.push_back(fmt::format("{} cpu{}: cannot read {} at EL3", u.name(), cpu, name));
    return v;
}

// AMU: enables only for implemented counters (4 group-0, AMCGCR_EL0.CG1NC group-1); SET and
// CLR views of one enable state agree.
void check_amu(platform& p, unit& base, std::vector<std::string>& out) {
    auto& u = dynamic_cast<amu_unit&>(base);
    for (unsigned cpu = 0; cpu < p.system().cpus.size(); ++cpu) {
        if (!u.has_amu(cpu)) continue;
        const uint64_t set0 = sysreg_value(u, cpu, "AMCNTENSET0_EL0", out), clr0 = sysreg_value(u, cpu, "AMCNTENCLR0_EL0", out);
        if (set0 & ~0xfULL) out.push_back(fmt::format("amu cpu{}: AMCNTENSET0_EL0 {:#x} enables unimplemented counters", cpu, set0));
        if (set0 != clr0) out.push_back(fmt::format("amu cpu{}: AMCNTENSET0 {:#x} != AMCNTENCLR0 {:#x}", cpu, set0, clr0));
        const unsigned aux = unsigned(sysreg_value(u, cpu, "AMCGCR_EL0", out) >> 8) & 0xff;
        if (aux > 0) {
            const uint64_t set1 = sysreg_value(u, cpu, "AMCNTENSET1_EL0", out), clr1 = sysreg_value(u, cpu, "AMCNTENCLR1_EL0", out);
            if (set1 & ~((1ULL << aux) - 1))
                out.push_back(fmt::format("amu cpu{}: AMCNTENSET1_EL0 {:#x} beyond {} aux counters", cpu, set1, aux));
            if (set1 != clr1) out.push_back(fmt::format("amu cpu{}: AMCNTENSET1 {:#x} != AMCNTENCLR1 {:#x}", cpu, set1, clr1));
        }
        if (u.enables(cpu, 0) != set0) out.push_back(fmt::format("amu cpu{}: internal enables differ from AMCNTENSET0", cpu));
    }
}

// DSU: enable/interrupt/overflow bits only for implemented counters (N event counters, the cycle
// counter at bit 31 unless DSU-120); SET and CLR views agree; nCLUSTERPMUIRQ == (PMOVS & PMINTEN
// != 0) [&& PMCR.E when the platform says so] (Linux 6.1 drivers/perf/arm_dsu_pmu.c
// dsu_pmu_handle_irq, DSU_PMU_IDX_CYCLE_COUNTER 31; docs/dsu_clusterpmu.md).
void check_dsu(platform&, unit& base, std::vector<std::string>& out) {
    auto& u = dynamic_cast<dsu_clusterpmu&>(base);
    const auto& o = u.options();
    unsigned cpu = ~0u;
    for (unsigned c = 0; c < 4096 && cpu == ~0u; ++c)
        if (!u.sysregs(c).empty()) cpu = c;
    if (cpu == ~0u) return;
    const uint64_t impl = ((1ULL << o.counters) - 1) | (o.variant != dsu_variant::dsu120 ? 0x80000000ULL : 0);
    const uint64_t pmcr = sysreg_value(u, cpu, "CLUSTERPMCR_EL1", out);
    if (((pmcr >> 11) & 0x1f) != o.counters) out.push_back(fmt::format("{}: PMCR.N {} != {}", u.name(), (pmcr >> 11) & 0x1f, o.counters));
    uint64_t inten = 0, ovs = 0;
    for (const char* pair : {"CNTEN", "INTEN", "OVS"}) {
        const uint64_t set = sysreg_value(u, cpu, fmt::format("CLUSTERPM{}SET_EL1", pair).c_str(), out);
        const uint64_t clr = sysreg_value(u, cpu, fmt::format("CLUSTERPM{}CLR_EL1", pair).c_str(), out);
        if (set & ~impl) out.push_back(fmt::format("{}: CLUSTERPM{}SET {:#x} has unimplemented counters", u.name(), pair, set));
        if (set != clr) out.push_back(fmt::format("{}: CLUSTERPM{}SET {:#x} != CLR {:#x}", u.name(), pair, set, clr));
        if (std::string(pair) == "INTEN") inten = set;
        if (std::string(pair) == "OVS") ovs = set;
    }
    const bool expected_irq = (ovs & inten) != 0 && (!o.irq_needs_enable || (pmcr & 1));
    if (u.irq_level() != expected_irq)
        out.push_back(fmt::format("{}: interrupt line {} but PMOVS {:#x} & PMINTEN {:#x} (PMCR.E {}) says {}", u.name(),
                                  u.irq_level(), ovs, inten, pmcr & 1, expected_irq));
}

// CMN-600 (docs/cmn.md; cmn-tools data/regdefs/cmn600.regdefs, Linux 6.1 arm-cmn.c): every node's registers (each node's
// own table at its own offset: the generic window walk cannot place them) have their RES0 fields
// zero; a 64-bit register read equals its two 32-bit halves (the DTM's four 16-bit local counters,
// the DTC's pairs of 32-bit global counters); the cycle counter stays within 40 bits; PMOVSR and
// PMSSR.ss_status only for the 8 global counters and the cycle counter [8:0]; the registers equal
// the unit's internal counters (observables); the interrupt line is (pmcr.ovfl_intr_en &&
// pmovsr != 0).
void check_cmn(platform&, unit& base, std::vector<std::string>& out) {
    auto& u = dynamic_cast<cmn600&>(base);
    const cmn_mesh& mesh = u.mesh();
    const uint64_t periphbase = u.mmio_windows().front().base;
    auto rd = [&](const cmn_node& n, uint64_t offset, unsigned bytes) {
        uint64_t v = 0;
        if (!read_mmio(u, periphbase + n.offset + offset, bytes, v))
            out.push_back(fmt::format("{}.{}: cannot read +{:#x} as a Secure debugger", u.name(), n.name, offset));
        return v;
    };
    const cmn_node* dtc = nullptr;
    for (const cmn_node& n : mesh.nodes) {
        const register_table* t = n.external ? nullptr : &cmn600_table_for(n);
        if (!t) continue;
        if (n.type == cmn_node_type::dtc && !dtc) dtc = &n;
        for (const auto& def : t->registers) {
            const uint64_t v = rd(n, *def.offset, def.width / 8);
            check_fields(def, v, fmt::format("{}.{}.{}", u.name(), n.name, def.name), out);
            // Halves: every 64-bit register takes 32-bit accesses to either half (Linux arm-cmn.c
            // reads the DTC's 64-bit counter pairs with readl at +0 and +4, CMN_DT_PMEVCNT(n)).
            if (def.width == 64) {
                const uint64_t lo = rd(n, *def.offset, 4), hi = rd(n, *def.offset + 4, 4);
                if ((hi << 32 | lo) != v)
                    out.push_back(fmt::format("{}.{}.{}: 64-bit read {:#x} but 32-bit halves {:#x} {:#x}", u.name(),
                                              n.name, def.name, v, hi, lo));
            }
        }
    }
    if (!dtc) return;
    const uint64_t pmcr = rd(*dtc, 0x2100, 8), pmovsr = rd(*dtc, 0x2118, 8), pmccntr = rd(*dtc, 0x2040, 8);
    if (pmccntr >> 40) out.push_back(fmt::format("{}: por_dt_pmccntr {:#x} beyond 40 bits", u.name(), pmccntr));
    if (pmovsr & ~0x1FFULL) out.push_back(fmt::format("{}: por_dt_pmovsr {:#x} beyond [8:0]", u.name(), pmovsr));
    const uint64_t pmssr = rd(*dtc, 0x2128, 8);
    if (pmssr & ~(0x1FFULL | 1ULL << 15 | 1ULL << 16))
        out.push_back(fmt::format("{}: por_dt_pmssr {:#x} beyond ss_status[8:0], ss_cfg_active, ss_pin_active", u.name(), pmssr));
    std::vector<observable> obs;
    u.observables(obs);
    for (const auto& ob : obs) {
        const std::string prefix = std::string(u.basename()) + ".dtc0.";
        if (ob.name.rfind(prefix, 0) != 0) continue;
        const std::string what = ob.name.substr(prefix.size());
        uint64_t reg = 0;
        if (what == "pmccntr") reg = pmccntr;
        else if (what == "pmovsr") reg = pmovsr;
        else if (what.rfind("pmevcnt", 0) == 0) {
            const unsigned g = unsigned(std::stoul(what.substr(7)));
            reg = rd(*dtc, 0x2000 + ((g / 2) * 4 + g % 2) * 4, 4); // Linux arm-cmn.c CMN_DT_PMEVCNT(g)
        } else continue;
        const uint64_t internal = ob.value();
        if (ob.width < 64 && (internal >> ob.width))
            out.push_back(fmt::format("{}: {} {:#x} beyond its {} bits", u.name(), ob.name, internal, ob.width));
        if (internal != reg)
            out.push_back(fmt::format("{}: {} is {:#x} inside the model but reads {:#x}", u.name(), ob.name, internal, reg));
    }
    const bool expected_irq = (pmcr >> 6 & 1) && pmovsr != 0;
    if (u.irq_level() != expected_irq)
        out.push_back(fmt::format("{}: interrupt line {} but pmcr.ovfl_intr_en {} and pmovsr {:#x} say {}", u.name(),
                                  u.irq_level(), pmcr >> 6 & 1, pmovsr, expected_irq));
}

// POWER9 IMC (docs/imc.md; Linux 6.1 arch/powerpc/include/asm/imc-pmu.h, skiboot hw/imc.c): LDBAR's reserved bits (IBM 2:3, 7,
// 51:63) read 0 and the LDBAR the engines use equals the SPR; each thread's engines are what the
// docs define them by: the core accumulates while HTM_MODE has IMC_SELECT = 0b111 and IMC_ON and no
// thread of the core has LDBAR.MODE = 1; a thread accumulates while its core does and LDBAR has
// ENABLE = 1; a thread traces while HTM_MODE is on, LDBAR.MODE = 1 and TRACE_IMC != 0 (so
// accumulation and trace never run together on one core); the trace write pointer is a 64-byte
// record slot inside a buffer of 4096 << n records (n = 0..4) starting 8 KiB aligned; no interrupt.
void check_imc(platform& p, unit& base, std::vector<std::string>& out) {
    auto& u = dynamic_cast<imc_unit&>(base);
    constexpr uint64_t ldbar_defined = 0xCEFFFFFFFFFFE000ULL; // enable, mode, PB scope, address
    const register_def* ldbar_def = u.table().find("LDBAR");
    std::map<std::string, uint64_t> engine_ldbar;
    {
        std::vector<observable> obs;
        u.observables(obs);
        for (const auto& ob : obs)
            if (ob.name.size() > 10 && ob.name.compare(ob.name.size() - 10, 10, ".imc.LDBAR") == 0) engine_ldbar[ob.name] = ob.value();
    }
    auto scom = [&](unsigned chip, uint32_t pcb) {
        uint64_t v = 0;
        if (!read_mmio(u, u.xscom_base(chip) + skiboot_p9::mmio_offset(pcb), 8, v))
            out.push_back(fmt::format("{}: cannot read SCOM {:#x} of chip {} as a debugger", u.name(), pcb, chip));
        return v;
    };
    std::map<std::pair<unsigned, unsigned>, bool> core_trace_mode;
    std::map<unsigned, uint64_t> ldbars;
    for (unsigned cpu = 0; cpu < p.system().cpus.size(); ++cpu) {
        auto e = u.thread_engines(cpu);
        if (!e || !ldbar_def) continue;
        uint64_t ldbar = 0;
        if (!read_sysreg(u, cpu, *ldbar_def, ldbar)) {
            out.push_back(fmt::format("{} cpu{}: cannot read LDBAR", u.name(), cpu));
            continue;
        }
        ldbars[cpu] = ldbar;
        if (ldbar & ~ldbar_defined) out.push_back(fmt::format("{} cpu{}: LDBAR {:#x} has reserved bits set", u.name(), cpu, ldbar));
        auto it = engine_ldbar.find(fmt::format("cpu{}.imc.LDBAR", cpu));
        if (it != engine_ldbar.end() && it->second != ldbar)
            out.push_back(fmt::format("{} cpu{}: the engines use LDBAR {:#x}, the SPR reads {:#x}", u.name(), cpu, it->second, ldbar));
        core_trace_mode[{e->chip, e->core}] = core_trace_mode[{e->chip, e->core}] || (ldbar >> 62 & 1);
    }
    for (const auto& [cpu, ldbar] : ldbars) {
        const auto e = *u.thread_engines(cpu);
        const uint64_t htm = scom(e.chip, skiboot_p9::htm_mode(e.core));
        const bool on = (htm >> 61) == 7 && (htm >> 59 & 1); // IBM 0:2 IMC_SELECT = 0b111, IBM 4 IMC_ON
        const uint64_t trace_scom = u.options().trace_supported ? scom(e.chip, skiboot_p9::trace(e.core)) : 0;
        const bool trace_mode = core_trace_mode[{e.chip, e.core}];
        const bool core_acc = on && !trace_mode, thread_acc = core_acc && (ldbar >> 63);
        const bool tracing = on && (ldbar >> 62 & 1) && trace_scom != 0;
        // Copies of the structured bindings: C++17 lambdas cannot capture those (clang refuses).
        auto expect = [&, cpu = cpu, ldbar = ldbar](const char* what, bool model, bool defined) {
            if (model != defined)
                out.push_back(fmt::format("{} cpu{}: {} is {} but HTM_MODE {:#x}, LDBAR {:#x}, TRACE_IMC {:#x} say {}",
                                          u.name(), cpu, what, model, htm, ldbar, trace_scom, defined));
        };
        expect("core accumulation", e.core_accumulating, core_acc);
        expect("thread accumulation", e.thread_accumulating, thread_acc);
        expect("trace", e.tracing, tracing);
        if (e.tracing) {
            const uint64_t size = e.trace_entries * 64;
            const bool entries_ok = e.trace_entries >= 4096 && e.trace_entries <= (4096u << 4) &&
                                    (e.trace_entries & (e.trace_entries - 1)) == 0;
            if (!entries_ok || e.trace_buffer % 8192 || e.next_record < e.trace_buffer ||
                e.next_record >= e.trace_buffer + size || (e.next_record - e.trace_buffer) % 64)
                out.push_back(fmt::format("{} cpu{}: trace pointer {:#x} outside the buffer {:#x} of {} records", u.name(),
                                          cpu, e.next_record, e.trace_buffer, e.trace_entries));
        }
    }
    if (u.interrupts_raised() != 0) out.push_back(fmt::format("{}: raised {} interrupts; the IMC has none", u.name(), u.interrupts_raised()));
}

// CoreSight PMU (IHI0091; Linux drivers/perf/arm_cspmu/arm_cspmu.h offsets, written here): each
// SET register reads what its CLR register reads; no bit beyond the implemented counters (and bit
// 31, the cycle counter, only with PMCFGR.CC); PMCFGR gives the configured counters (N + 1 logical
// counters with the cycle counter, as arm_cspmu_init_mmio counts them) and SIZE + 1 = the counter
// width; the interrupt line is (PMOVS & PMINTEN) != 0.
void check_cspmu(platform&, unit& base, std::vector<std::string>& out) {
    auto& u = dynamic_cast<arm_cspmu&>(base);
    if (u.mmio_windows().empty()) return;
    const uint64_t frame = u.mmio_windows().front().base;
    const auto& o = u.options();
    auto rd = [&](uint64_t offset, const char* name) {
        uint64_t v = 0;
        if (!read_mmio(u, frame + offset, 4, v)) out.push_back(fmt::format("{}: cannot read {}", u.name(), name));
        return v;
    };
    const uint64_t cfgr = rd(0xE00, "PMCFGR");
    const unsigned n = unsigned(cfgr & 0xFF), size = unsigned(cfgr >> 8 & 0x3F);
    const bool cc = cfgr >> 14 & 1;
    if (n + 1 != o.counters + (o.cycle_counter ? 1 : 0))
        out.push_back(fmt::format("{}: PMCFGR.N {} for {} counters{}", u.name(), n, o.counters, o.cycle_counter ? " and a cycle counter" : ""));
    if (size + 1 != o.counter_width) out.push_back(fmt::format("{}: PMCFGR.SIZE {} for {}-bit counters", u.name(), size, o.counter_width));
    if (cc != o.cycle_counter) out.push_back(fmt::format("{}: PMCFGR.CC {}", u.name(), cc));
    const uint64_t impl = (o.counters >= 32 ? 0x7FFFFFFFULL : (1ULL << o.counters) - 1) | (o.cycle_counter ? 0x80000000ULL : 0);
    uint64_t inten = 0, ovs = 0;
    const struct { const char* name; uint64_t set, clr; } pairs[] = {
        {"CNTEN", 0xC00, 0xC20}, {"INTEN", 0xC40, 0xC60}, {"OVS", 0xCC0, 0xC80}};
    for (const auto& pr : pairs) {
        const uint64_t set = rd(pr.set, pr.name), clr = rd(pr.clr, pr.name);
        if (set & ~impl) out.push_back(fmt::format("{}: PM{}SET {:#x} has unimplemented counters", u.name(), pr.name, set));
        if (set != clr) out.push_back(fmt::format("{}: PM{}SET {:#x} != CLR {:#x}", u.name(), pr.name, set, clr));
        if (std::string(pr.name) == "INTEN") inten = set;
        if (std::string(pr.name) == "OVS") ovs = set;
    }
    const bool expected_irq = (ovs & inten) != 0;
    if (u.irq_level() != expected_irq)
        out.push_back(fmt::format("{}: interrupt line {} but PMOVS {:#x} & PMINTEN {:#x} says {}", u.name(), u.irq_level(),
                                  ovs, inten, expected_irq));
}

using unit_check = std::function<void(platform&, unit&, std::vector<std::string>&)>;
const std::map<std::string, unit_check>& unit_checks() {
    // One entry per unit type.
    static const std::map<std::string, unit_check> checks = {
        {"amu", check_amu},
        {"dsu_clusterpmu", check_dsu},
        {"cmn600", check_cmn},
        {"power9_imc", check_imc},
        {"arm_cspmu", check_cspmu},
    };
    return checks;
}

} // namespace

bool read_sysreg(unit& u, unsigned cpu, const register_def& def, uint64_t& value) {
    access_context ctx;
    ctx.cpu = cpu;
    ctx.el = 3;
    ctx.secure = true;
    ctx.path = access_path::system_register;
    return transport(u, ctx, def.sysreg->key(), 8, value);
}

bool read_mmio(unit& u, uint64_t address, unsigned bytes, uint64_t& value) {
    access_context ctx;
    ctx.initiator = initiator_kind::debugger;
    ctx.secure = true;
    ctx.path = access_path::memory_mapped;
    return transport(u, ctx, address, bytes, value);
}

std::vector<uint64_t> register_offsets(unit& u, const address_window& w) {
    std::vector<uint64_t> out;
    if (auto* cmn = dynamic_cast<cmn600*>(&u)) {
        for (const cmn_node& n : cmn->mesh().nodes)
            if (const register_table* t = n.external ? nullptr : &cmn600_table_for(n))
                for (const auto& def : t->registers) out.push_back(n.offset + *def.offset);
    } else if (auto* imc = dynamic_cast<imc_unit*>(&u)) {
        std::set<std::pair<unsigned, unsigned>> cores;
        for (unsigned cpu = 0; cpu < 4096; ++cpu)
            if (auto e = imc->thread_engines(cpu)) cores.insert({e->chip, e->core});
        for (const auto& [chip, core] : cores) {
            if (w.base != imc->xscom_base(chip)) continue;
            for (uint32_t pcb : {skiboot_p9::pdbar(core), skiboot_p9::htm_mode(core), skiboot_p9::event_mask(core), skiboot_p9::trace(core)})
                out.push_back(skiboot_p9::mmio_offset(pcb));
        }
    }
    for (const auto& def : u.table().registers)
        if (def.offset && *def.offset < w.size) out.push_back(*def.offset);
    return out;
}

std::vector<std::string> check_unit(platform& p, unit& u) {
    std::vector<std::string> out;
    for (unsigned cpu = 0; cpu < p.system().cpus.size(); ++cpu)
        for (const register_def* def : u.sysregs(cpu)) {
            uint64_t v;
            if (read_sysreg(u, cpu, *def, v)) check_fields(*def, v, fmt::format("{} cpu{} {}", u.name(), cpu, def->name), out);
        }
    // The CMN-600's nodes each have their own table and offset: check_cmn walks them.
    for (const auto& w : u.mmio_windows())
        for (const auto& def : u.table().registers) {
            if (u.type() == "cmn600") break;
            if (!def.offset || *def.offset + def.width / 8 > w.size) continue;
            uint64_t v;
            if (read_mmio(u, w.base + *def.offset, def.width / 8, v)) check_fields(def, v, w.name + "." + def.name, out);
        }
    auto it = unit_checks().find(u.type());
    if (it != unit_checks().end()) it->second(p, u, out);
    return out;
}

std::vector<std::string> check_all(platform& p) {
    std::vector<std::string> out;
    for (unit* u : p.units()) {
        auto v = check_unit(p, *u);
        out.insert(out.end(), v.begin(), v.end());
    }
    return out;
}

void require_invariants(platform& p, unit* only, const char* after) {
    std::vector<std::string> v = only ? check_unit(p, *only) : check_all(p);
    if (v.empty()) return;
    std::fprintf(stderr, "invariant violated after %s:\n", after);
    for (const auto& s : v) std::fprintf(stderr, "  %s\n", s.c_str());
    std::abort();
}

} // namespace pmusim::fuzzing
