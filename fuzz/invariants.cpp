#include "fuzz/invariants.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <map>

#include "amu/amu.h"
#include "dsu_clusterpmu/dsu_clusterpmu.h"

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
// != 0) [&& PMCR.E when the platform says so] (dsu.md §11, docs/dsu_clusterpmu.md).
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

using unit_check = std::function<void(platform&, unit&, std::vector<std::string>&)>;
const std::map<std::string, unit_check>& unit_checks() {
    // One entry per unit type. TODO when they land: cmn600 (PMU_EVENT_SEL/ DTC counters, PMOVSR vs
    // the DTC interrupt), power9_imc (nest/core counters within their width, HOMER layout).
    static const std::map<std::string, unit_check> checks = {
        {"amu", check_amu},
        {"dsu_clusterpmu", check_dsu},
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

std::vector<std::string> check_unit(platform& p, unit& u) {
    std::vector<std::string> out;
    for (unsigned cpu = 0; cpu < p.system().cpus.size(); ++cpu)
        for (const register_def* def : u.sysregs(cpu)) {
            uint64_t v;
            if (read_sysreg(u, cpu, *def, v)) check_fields(*def, v, fmt::format("{} cpu{} {}", u.name(), cpu, def->name), out);
        }
    for (const auto& w : u.mmio_windows())
        for (const auto& def : u.table().registers) {
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
