// The CLUSTERPMU register tables (one per DSU variant) and the event list.
#include <algorithm>
#include <cctype>
#include <fmt/format.h>

#include "dsu_clusterpmu/dsu_clusterpmu.h"
#include "models/values.h"

namespace pmusim {

const char* to_string(dsu_variant v) {
    switch (v) {
    case dsu_variant::original: return "original";
    case dsu_variant::dsu110: return "dsu-110";
    case dsu_variant::dsu120: return "dsu-120";
    }
    return "?";
}

const std::vector<dsu_event_info>& dsu_events() {
    static const std::vector<dsu_event_info> events = {
        {0x11, "CYCLES", "cycles", {}, {}, true},
        {0x19, "BUS_ACCESS", "bus_access", {"bus_access_rd", "bus_access_wr"}, {0x60, 0x61}, false},
        {0x1A, "MEMORY_ERROR", "memory_error", {"memory_error"}, {}, false},
        {0x1D, "BUS_CYCLES", "bus_cycles", {}, {}, true},
        {0x29, "L3D_CACHE_ALLOCATE", "l3d_cache_allocate", {"l3_allocate"}, {}, false},
        {0x2A, "L3D_CACHE_REFILL", "l3d_cache_refill", {"l3_refill_rd", "l3_refill_wr"}, {0xA2, 0xA3}, false},
        {0x2B, "L3D_CACHE", "l3d_cache", {"l3_access_rd", "l3_access_wr"}, {0xA0, 0xA1}, false},
        {0x2C, "L3D_CACHE_WB", "l3d_cache_wb", {"l3_writeback"}, {}, false},
        {0x60, "BUS_ACCESS_RD", "bus_access_rd", {"bus_access_rd"}, {}, false},
        {0x61, "BUS_ACCESS_WR", "bus_access_wr", {"bus_access_wr"}, {}, false},
        {0xA0, "L3D_CACHE_RD", "l3d_cache_rd", {"l3_access_rd"}, {}, false},
        {0xA1, "L3D_CACHE_WR", "l3d_cache_wr", {"l3_access_wr"}, {}, false},
        {0xA2, "L3D_CACHE_REFILL_RD", "l3d_cache_refill_rd", {"l3_refill_rd"}, {}, false},
        {0xA3, "L3D_CACHE_REFILL_WR", "l3d_cache_refill_wr", {"l3_refill_wr"}, {}, false},
    };
    return events;
}

int dsu_event_code(const std::string& text) {
    if (text.empty()) return -1;
    std::string lower;
    for (char c : text) lower += char(std::tolower(static_cast<unsigned char>(c)));
    bool numeric = std::isdigit(static_cast<unsigned char>(lower[0])) != 0;
    if (numeric) {
        const auto v = values::scan_integer(lower);
        if (!v) return -1;
        for (const auto& e : dsu_events())
            if (e.code == *v) return int(*v);
        return -1;
    }
    for (const auto& e : dsu_events()) {
        std::string m;
        for (const char* p = e.mnemonic; *p; ++p) m += char(std::tolower(static_cast<unsigned char>(*p)));
        if (lower == e.perf_name || lower == m) return e.code;
    }
    return -1;
}

uint32_t dsu_ceid(unsigned word) {
    uint32_t v = 0;
    for (const auto& e : dsu_events())
        if (e.code / 32 == word) v |= 1u << (e.code % 32);
    return v;
}

namespace {

using fa = field_access;
using namespace dsu_field;

register_def sreg(const std::string& name, uint8_t op1, uint8_t crm, uint8_t op2, uint64_t reset,
                  std::vector<field_def> fields, const std::string& desc) {
    register_def r;
    r.name = name;
    r.sysreg = sysreg_encoding{3, op1, 15, crm, op2};
    r.width = 64;
    r.reset = reset;
    r.fields = std::move(fields);
    r.description = desc;
    return r;
}

register_def mreg(const std::string& name, uint64_t offset, unsigned width, uint64_t reset,
                  std::vector<field_def> fields, const std::string& desc) {
    register_def r;
    r.name = name;
    r.offset = offset;
    r.width = width;
    r.reset = reset;
    r.fields = std::move(fields);
    r.description = desc;
    return r;
}

std::vector<field_def> bitmap_fields(const std::string& what) {
    return {{"P", 0, 31, fa::rw, what + " of event counter n in bit n; bits [30:N] RAZ/WI"},
            {"C", cycle_counter_flag, fa::rw, what + " of the cycle counter (RAZ/WI without one, DSU-120)"}};
}

// Where each register comes from (tests/facts/dsu.tsv checks the numbers against the documents and
// public headers named here).
void cite_dsu_sources(register_table& t, dsu_variant v) {
    const bool orig = v == dsu_variant::original, d120 = v == dsu_variant::dsu120;
    const std::string sysregs = "Linux arch/arm64/include/asm/arm_dsu_pmu.h (encodings); fields: " +
                                std::string(d120 ? "DSU-120AE TRM 107721/0001 IMP_CLUSTERPM*_EL1 pages"
                                                 : "DSU TRM 100453 CLUSTERPM*_EL1 pages");
    const std::string frame = orig ? "UNVERIFIED: the Armv8 PMU external register map (DDI0487 PMU block) with 32-bit counters"
                              : d120 ? "DSU-120AE TRM 107721/0001 External cluster PMU registers summary"
                                     : "Marvell CN10K CSR definitions of the DSU-110 CLUSTERPMU (cavm-csrs-cst_apc.h cst_apc#_clusterpmu_*, offset = address - 0x87a080210000)";
    cite(t, "CLUSTERPM", sysregs);
    cite(t, "CLUSTERPMMDCR_EL3$", "DSU-120AE TRM 107721/0001 IMP_CLUSTERPMMDCR_EL3; TF-A include/drivers/arm/dsu.h");
    cite(t, "CLUSTERPMMDCR_EL1$", "UNVERIFIED: Linux arch/arm64/include/asm/arm_dsu_pmu.h's op1=0 encoding, an alias of the EL3 register");
    cite(t, "CLUSTERPMCR_EL1$", sysregs + (orig ? "; LC: UNVERIFIED, Linux's CLUSTERPMCR reserved value 0x40" : "") +
                                    (d120 ? "" : "; IMP 0x41: UNVERIFIED"));
    for (const char* p : {"PMEVCNTR", "PMEVTYPER", "PMCNTEN", "PMINTEN", "PMOVS", "PMCFGR", "PMCR$", "PMCEID", "PMSS",
                          "PMEVCNTSR", "PMAUTHSTATUS", "PMDEVID", "PMLAR", "PMLSR"})
        cite(t, p, frame);
    if (!d120) cite(t, "PMCCNTR", frame);
    if (!d120) cite(t, "PMCCNTSR", frame);
    if (!d120) cite(t, "PMCCFILTR", frame);
    if (!d120) cite(t, "PMCLAIM", frame);
    if (d120) cite(t, "PMIIDR", frame + "; fields UNVERIFIED");
    if (orig) cite(t, "PMEVCNTSR", "UNVERIFIED: snapshot layout inferred from the Cortex-A55 core PMU (TRM 100442)");
    cite(t, "PMDEVAFF", "UNVERIFIED: the Armv8 PMU external block (DDI0487) layout, cluster number in Aff1");
    cite(t, "PMDEVARCH", "UNVERIFIED: derived from the Armv8 PMU external block (DDI0487 PMDEVARCH, PMUv3)");
    cite(t, "PMDEVTYPE", "UNVERIFIED: the Armv8 PMU external block's PMDEVTYPE (0x16)");
    cite(t, "PMPIDR", d120 ? "DSU-120AE TRM 107721/0001 (part 0x4EA)" : "UNVERIFIED: part number 0 (not published)");
    cite(t, "PMCIDR", "CoreSight Architecture Specification (IHI0029) component identification");
    cite(t, "CTL_", "pmusim model control page (not an Arm register; docs/dsu_clusterpmu.md)");
}

register_table make_table(dsu_variant v) {
    register_table t;
    const bool orig = v == dsu_variant::original, d120 = v == dsu_variant::dsu120;
    t.unit = v == dsu_variant::dsu110 ? "dsu_clusterpmu" : std::string("dsu_clusterpmu_") + (orig ? "original" : "dsu120");
    t.title = fmt::format("DSU CLUSTERPMU ({} variant)", to_string(v));
    t.summary = fmt::format(
        "The DynamIQ Shared Unit cluster PMU, variant {}: {} event counters, {}. System registers "
        "CLUSTERPM*_EL1 (op0=3, CRn=15) on every core of the cluster; the memory-mapped CLUSTERPMU "
        "frame at the unit's base (4 KB, undocumented offsets RAZ/WI) and a model control page at "
        "base+0x1000 (model inputs, not Arm registers). Both views are one state. Reset values are "
        "those of the default platform (N=6); PMCR.N and the RAZ/WI bits follow the `counters` parameter. "
        "See docs/dsu_clusterpmu.md.",
        to_string(v), orig ? "32-bit" : "64-bit",
        d120 ? "no cycle counter (CLUSTERPMCCNTR_EL1 RAZ/WI)" : "a 64-bit cycle counter (index 31)");

    std::vector<field_def> pmcr = {
        {"E", pmcr_e, fa::rw, "enable: counters count when E=1 and their CNTENSET bit is set"},
        {"P", pmcr_p, fa::wo, "write 1: reset every event counter to 0 (overflow flags unchanged); reads 0"},
        {"C", pmcr_c, fa::wo, "write 1: reset the cycle counter to 0 (overflow flag unchanged); reads 0"},
    };
    if (v == dsu_variant::dsu110) pmcr.push_back({"X", pmcr_x, fa::rw, "export enable (stored, no effect)"});
    if (orig) pmcr.push_back({"LC", pmcr_lc, fa::res1, "reads 1 (Linux CLUSTERPMCR_RES_VAL 0x40; UNVERIFIED)"});
    if (d120) pmcr.push_back({"FZO", pmcr_fzo, fa::rw, "freeze event counters while an event-counter overflow flag is set"});
    pmcr.push_back({"N", pmcr_n, fa::ro, "number of event counters (parameter `counters`)"});
    pmcr.push_back({"IDCODE", 16, 8, fa::ro, "0"});
    pmcr.push_back({"IMP", pmcr_imp, fa::ro, d120 ? "0 (software uses MIDR_EL1)" : "0x41 (Arm; UNVERIFIED)"});
    const uint64_t pmcr_reset = pmcr_n.put(6) | (orig ? pmcr_lc.mask() : 0) | (d120 ? 0 : pmcr_imp.put(pmcr_imp_arm));
    // The memory-mapped PMCR (0xE04) holds control fields only on DSU-110 (Marvell CN10K
    // cavm-csrs-cst_apc.h@SolidRun/atf-marvell 3e9df5a87900, cst_apc#_clusterpmu_pmcr: E [0], P [1], C [2],
    // X [4], [31:5] reserved) and on
    // DSU-120 (DSU-120AE TRM CLUSTERPMU_PMCR: [7:0] map the system register's, which has E and
    // P there; X is RES0 as PMCFGR.EX = 0). The original DSU has no public external PMCR
    // description: it keeps the system register's layout (the Armv8 external PMCR_EL0 one).
    std::vector<field_def> ext_pmcr = pmcr;
    uint64_t ext_pmcr_reset = pmcr_reset;
    if (!orig) {
        ext_pmcr = {pmcr[0], pmcr[1]};
        if (!d120) ext_pmcr.insert(ext_pmcr.end(), {pmcr[2], {"RES0_3", 3, 1, fa::res0, ""}, pmcr[3]});
        const unsigned lsb = d120 ? 2 : 5;
        ext_pmcr.push_back({"RES0", lsb, 32 - lsb, fa::res0,
                            "N, IDCODE and IMP are in CLUSTERPMCR_EL1 only; PMCFGR.N gives the counters"});
        ext_pmcr_reset = 0;
    }

    const std::string sel = "the counter selected by CLUSTERPMSELR_EL1.SEL (RAZ/WI when SEL >= N)";
    std::vector<field_def> evtype = {
        {"evtCount", evtype_count, fa::rw, "event number (unimplemented numbers count nothing)"},
        {"NS", evtype_ns, fa::rw, "Non-secure filtering bit (reading per parameter filter_reading)"},
        {"S", evtype_s, fa::rw, "Secure filtering bit: 1 = do not count Secure events (name UNVERIFIED)"},
    };
    t.registers = {
        sreg("CLUSTERPMCR_EL1", 0, 5, 0, pmcr_reset, pmcr, "Cluster PMU control"),
        sreg("CLUSTERPMCNTENSET_EL1", 0, 5, 1, 0, bitmap_fields("enable"), "Counter enable set (write 1 sets)"),
        sreg("CLUSTERPMCNTENCLR_EL1", 0, 5, 2, 0, bitmap_fields("enable"), "Counter enable clear (write 1 clears)"),
        sreg("CLUSTERPMOVSSET_EL1", 0, 5, 3, 0, bitmap_fields("overflow flag"), "Overflow flag set (write 1 sets)"),
        sreg("CLUSTERPMOVSCLR_EL1", 0, 5, 4, 0, bitmap_fields("overflow flag"), "Overflow flag clear (write 1 clears)"),
        sreg("CLUSTERPMSELR_EL1", 0, 5, 5, 0, {{"SEL", selr_sel, fa::rw, "counter selected for XEVTYPER/XEVCNTR"}},
             "Counter selection"),
        sreg("CLUSTERPMINTENSET_EL1", 0, 5, 6, 0, bitmap_fields("interrupt enable"), "Interrupt enable set"),
        sreg("CLUSTERPMINTENCLR_EL1", 0, 5, 7, 0, bitmap_fields("interrupt enable"), "Interrupt enable clear"),
        sreg("CLUSTERPMCCNTR_EL1", 0, 6, 0, 0, {},
             d120 ? "Cycle counter: RAZ/WI (no cycle counter on DSU-120)" : "64-bit cycle counter (DSU clock edges)"),
        sreg("CLUSTERPMXEVTYPER_EL1", 0, 6, 1, 0, evtype, "Event type of " + sel),
        sreg("CLUSTERPMXEVCNTR_EL1", 0, 6, 2, 0, {}, std::string("Event counter value of ") + sel +
             (orig ? "; 32-bit counters: bits [63:32] read 0, ignored on write" : "")),
        sreg("CLUSTERPMMDCR_EL3", 6, 6, 3, 0,
             {{"SPME", mdcr_spme, fa::rw, "0: event counting prohibited in Secure state"},
              {"EPMAD", mdcr_epmad, fa::rw, "1: Non-secure external debugger access to the PMU refused"}},
             "Monitor debug configuration (EL3 only)"),
        sreg("CLUSTERPMMDCR_EL1", 0, 6, 3, 0,
             {{"SPME", mdcr_spme, fa::rw, "alias of CLUSTERPMMDCR_EL3.SPME"}, {"EPMAD", mdcr_epmad, fa::rw, "alias"}},
             "The Linux header's encoding op1=0 of CLUSTERPMMDCR (UNVERIFIED): implemented only with the "
             "parameter mdcr_el1_alias=true, then with the same EL3-only rule"),
        sreg("CLUSTERPMCEID0_EL1", 0, 6, 4, dsu_ceid(0), {{"CEID", 0, 32, fa::ro, "bit k: common event k implemented"}},
             "Common event identification 0x00-0x1F"),
        sreg("CLUSTERPMCEID1_EL1", 0, 6, 5, dsu_ceid(1), {{"CEID", 0, 32, fa::ro, "bit k: event 0x20+k implemented"}},
             "Common event identification 0x20-0x3F"),
    };
    const unsigned cw = orig ? 32 : 64;
    for (unsigned n = 0; n < 31; ++n)
        t.registers.push_back(mreg(fmt::format("PMEVCNTR{}", n), 8 * n, cw, 0, {},
                                   fmt::format("Event counter {} (RAZ/WI when {} >= N)", n, n)));
    if (!d120) {
        t.registers.push_back(mreg("PMCCNTR", 0xF8, 64, 0, {}, "Cycle counter"));
    }
    for (unsigned n = 0; n < 31; ++n)
        t.registers.push_back(mreg(fmt::format("PMEVTYPER{}", n), 0x400 + 4 * n, 32, 0, evtype,
                                   fmt::format("Event type of counter {}", n)));
    if (!d120) t.registers.push_back(mreg("PMCCFILTR", 0x47C, 32, 0, {{"RES0", 0, 32, fa::raz_wi, ""}},
                                          "Cycle counter filter: all reserved, the cycle counter always counts"));
    // Snapshot registers at the variant's offsets.
    const std::string ss_desc = "Snapshot: captured copy";
    if (d120) {
        for (unsigned n = 0; n < 7; ++n)
            t.registers.push_back(mreg(fmt::format("PMEVCNTSR{}", n), 0x600 + 8 * n, 64, 0, {}, ss_desc + " of PMEVCNTR" + std::to_string(n)));
        t.registers.push_back(mreg("PMSSSR", 0x638, 32, 1, {{"NC", 0, 1, fa::ro, "1: no capture yet"}}, "Snapshot status"));
        t.registers.push_back(mreg("PMOVSSR", 0x640, 32, 0, bitmap_fields("captured overflow flag"), ss_desc + " of PMOVS"));
        t.registers.push_back(mreg("PMSSCR", 0xE30, 32, 0, {{"SS", sscr_ss, fa::wo, "write 1: capture now"}}, "Snapshot capture"));
        t.registers.push_back(mreg("PMSSRR", 0xE38, 32, 0, {{"RP", 0, 31, fa::rw, "RPn: reset counter n and PMOVS[n] after a capture"}},
                                   "Snapshot reset"));
    } else {
        t.registers.push_back(mreg("PMSSSR", 0x610, 32, 1, {{"NC", 0, 1, fa::ro, "1: no capture yet"}}, "Snapshot status"));
        t.registers.push_back(mreg("PMOVSSR", 0x614, 32, 0, bitmap_fields("captured overflow flag"), ss_desc + " of PMOVS"));
        t.registers.push_back(mreg("PMCCNTSR", 0x618, 64, 0, {}, ss_desc + " of PMCCNTR"));
        if (orig) {
            for (unsigned n = 0; n < 31; ++n)
                t.registers.push_back(mreg(fmt::format("PMEVCNTSR{}", n), 0x620 + 4 * n, 32, 0, {},
                                           ss_desc + " of PMEVCNTR" + std::to_string(n) + " (layout INFERRED from Cortex-A55)"));
        } else {
            for (unsigned n = 0; n < 25; ++n)
                t.registers.push_back(mreg(fmt::format("PMEVCNTSR{}", n), 0x620 + 8 * n, 64, 0, {}, ss_desc + " of PMEVCNTR" + std::to_string(n)));
        }
        t.registers.push_back(mreg("PMSSCR", 0x6F0, 32, 0, {{"SS", sscr_ss, fa::wo, "write 1: capture now"}}, "Snapshot capture"));
        t.registers.push_back(mreg("PMSSRR", 0x6F4, 32, 0,
                                   {{"RP", 0, 31, fa::rw, "RPn: reset counter n and PMOVS[n] after a capture"},
                                    {"RC", cycle_counter_flag, fa::rw, "reset PMCCNTR and PMOVS[31] after a capture"}},
                                   "Snapshot reset"));
    }
    auto add = [&](register_def r) { t.registers.push_back(std::move(r)); };
    add(mreg("PMCNTENSET", 0xC00, 32, 0, bitmap_fields("enable"), "Counter enable set"));
    add(mreg("PMCNTENCLR", 0xC20, 32, 0, bitmap_fields("enable"), "Counter enable clear"));
    add(mreg("PMINTENSET", 0xC40, 32, 0, bitmap_fields("interrupt enable"), "Interrupt enable set"));
    add(mreg("PMINTENCLR", 0xC60, 32, 0, bitmap_fields("interrupt enable"), "Interrupt enable clear"));
    add(mreg("PMOVSCLR", 0xC80, 32, 0, bitmap_fields("overflow flag"), "Overflow flag clear"));
    add(mreg("PMOVSSET", 0xCC0, 32, 0, bitmap_fields("overflow flag"), "Overflow flag set"));
    add(mreg("PMCFGR", 0xE00, 32, 0, {{"N", pmcfgr_n, fa::ro, d120 ? "counters - 1 (as DSU-120AE)" : "counters (UNVERIFIED)"},
                                      {"SIZE", pmcfgr_size, fa::ro, "counter size - 1"}, {"CC", pmcfgr_cc, fa::ro, "cycle counter"},
                                      {"CCD", 15, 1, fa::ro, "0"}, {"EX", pmcfgr_ex, fa::ro, "PMCR.X implemented"},
                                      {"UEN", 19, 1, fa::ro, "0"}, {"FZO", pmcfgr_fzo, fa::ro, "freeze on overflow"},
                                      {"SS", pmcfgr_ss, fa::ro, "snapshot supported"}},
                  "Configuration"));
    add(mreg("PMCR", 0xE04, 32, ext_pmcr_reset, ext_pmcr,
             orig ? "Control (same state and layout as CLUSTERPMCR_EL1; UNVERIFIED)"
                  : "Control: the control fields of CLUSTERPMCR_EL1 (one state)"));
    if (d120) add(mreg("PMIIDR", 0xE08, 32, 0x04EA043B, {}, "Implementation identification (fields UNVERIFIED)"));
    add(mreg("PMCEID0", 0xE20, 32, dsu_ceid(0), {{"CEID", 0, 32, fa::ro, ""}}, "Common events 0x00-0x1F"));
    add(mreg("PMCEID1", 0xE24, 32, dsu_ceid(1), {{"CEID", 0, 32, fa::ro, ""}}, "Common events 0x20-0x3F"));
    add(mreg("PMCEID2", 0xE28, 32, 0, {{"CEID", 0, 32, fa::ro, ""}}, "Events 0x4000-0x401F (none)"));
    add(mreg("PMCEID3", 0xE2C, 32, 0, {{"CEID", 0, 32, fa::ro, ""}}, "Events 0x4020-0x403F (none)"));
    if (!d120) {
        add(mreg("PMCLAIMSET", 0xFA0, 32, claim.mask(), {{"CLAIM", claim, fa::rw, "write 1 sets a claim tag; reads 0xF"}}, "Claim tag set"));
        add(mreg("PMCLAIMCLR", 0xFA4, 32, 0, {{"CLAIM", claim, fa::rw, "write 1 clears; reads the tags"}}, "Claim tag clear"));
    }
    add(mreg("PMDEVAFF0", 0xFA8, 32, 0, {}, "Device affinity 0 (cluster number in Aff1; UNVERIFIED)"));
    add(mreg("PMDEVAFF1", 0xFAC, 32, 0, {}, "Device affinity 1"));
    add(mreg("PMLAR", 0xFB0, 32, 0, {{"KEY", 0, 32, fa::wo, "0xC5ACCE55 unlocks, anything else locks"}},
             "Software lock access (only with software_lock; else RAZ/WI)"));
    add(mreg("PMLSR", 0xFB4, 32, lsr_sli.mask() | lsr_slk.mask(), {{"SLI", lsr_sli, fa::ro, "lock implemented"}, {"SLK", lsr_slk, fa::ro, "locked"},
                                       {"nTT", 2, 1, fa::ro, "0"}},
             "Software lock status (only with software_lock; else RAZ)"));
    // Reset 0xF0: SNID = SID = 0b11 with the model's default authentication inputs (CTL_AUTH 0xF,
    // DBGEN and SPIDEN set), 0xA0 without them ([TRM120] CLUSTERPMU_PMAUTHSTATUS; the read hook).
    add(mreg("PMAUTHSTATUS", 0xFB8, 32, authstatus_value(ctl_auth_all),
             {{"NSID", 0, 2, fa::ro, "0"}, {"NSNID", 2, 2, fa::ro, "0"},
              {"SID", authstatus_sid, fa::ro, "0b11 Secure debug enabled, 0b10 disabled"},
              {"SNID", authstatus_snid, fa::ro, "= SID"}},
             "Authentication status"));
    add(mreg("PMDEVARCH", 0xFBC, 32, 0x47702A16, {}, "Device architecture (PMUv3; DERIVED, UNVERIFIED)"));
    add(mreg("PMDEVID", 0xFC8, 32, 0, {}, "Device ID (no PC sampling)"));
    add(mreg("PMDEVTYPE", 0xFCC, 32, 0x16, {}, "Device type (UNVERIFIED)"));
    const unsigned part = d120 ? 0x4EA : 0x000;
    add(mreg("PMPIDR4", 0xFD0, 32, 0x04, {}, "Peripheral ID 4"));
    add(mreg("PMPIDR0", 0xFE0, 32, pidr0_part_0.put(part), {}, "Peripheral ID 0 (part number [7:0]; 0 where UNVERIFIED)"));
    // DES_0: Arm's JEP106 identity [3:0].
    add(mreg("PMPIDR1", 0xFE4, 32, pidr1_des_0.put(0xB) | pidr1_part_1.put(part >> pidr0_part_0.width), {}, "Peripheral ID 1"));
    add(mreg("PMPIDR2", 0xFE8, 32, 0x0B, {}, "Peripheral ID 2"));
    add(mreg("PMPIDR3", 0xFEC, 32, 0x00, {}, "Peripheral ID 3"));
    add(mreg("PMCIDR0", 0xFF0, 32, 0x0D, {}, "Component ID 0"));
    add(mreg("PMCIDR1", 0xFF4, 32, 0x90, {}, "Component ID 1 (CoreSight class 0x9)"));
    add(mreg("PMCIDR2", 0xFF8, 32, 0x05, {}, "Component ID 2"));
    add(mreg("PMCIDR3", 0xFFC, 32, 0xB1, {}, "Component ID 3"));
    // Model control page: inputs a sequence sets (not Arm registers).
    add(mreg("CTL_OSLOCK", 0x1000, 32, 0, {{"OSLK", ctl_oslk, fa::rw, "cluster OS lock (model input)"}},
             "Model input: OS Lock status governing external PMU access"));
    add(mreg("CTL_DLOCK", 0x1004, 32, 0, {{"DLK", ctl_dlk, fa::rw, "double lock (model input)"}},
             "Model input: OS Double Lock status"));
    add(mreg("CTL_AUTH", 0x1008, 32, ctl_auth_all, {{"DBGEN", ctl_dbgen, fa::rw, ""}, {"NIDEN", ctl_niden, fa::rw, ""},
                                                   {"SPIDEN", ctl_spiden, fa::rw, ""}, {"SPNIDEN", ctl_spniden, fa::rw, ""}},
             "Model input: authentication signals"));
    add(mreg("CTL_PWRSTAT", 0x100C, 32, 1, {{"PU", 0, 1, fa::ro, "cluster powered (some core not off)"}},
             "Model status: cluster power"));
    cite_dsu_sources(t, v);
    // PMEVCNTR<n> and PMEVTYPER<n> exist for n < PMCR.N (DSU TRM 100453 and DSU-120AE TRM 107721/0001
    // CLUSTERPMCR_EL1.N; Linux drivers/perf/arm_dsu_pmu.c@v6.1 takes num_counters from it),
    // PMEVCNTSR<n> is the snapshot of PMEVCNTR<n>.
    t.per_counter_banks = {"PMEVCNTR<n>", "PMEVTYPER<n>", "PMEVCNTSR<n>"};
    // Event names for XEVTYPER/PMEVTYPER writes, the C header and `pmusim regs`: exactly the events
    // Linux's perf driver names (drivers/perf/arm_dsu_pmu.c, dsu_pmu_event_attrs), with its numbers;
    // tests/facts/dsu.tsv transcribes them from that file. The TRM's read/write splits (0x60, 0x61,
    // 0xA0-0xA3) are counted by number but not named here: no public list they are checked against.
    for (const auto& e : dsu_events())
        if (e.code < 0x40)
            t.events.push_back({e.mnemonic, e.code,
                                fmt::format("Linux drivers/perf/arm_dsu_pmu.c DSU_EVENT_ATTR({}, {:#x})", e.perf_name, e.code)});
    return t;
}

} // namespace

const register_table& dsu_table(dsu_variant v) {
    static const register_table tables[3] = {make_table(dsu_variant::original), make_table(dsu_variant::dsu110),
                                             make_table(dsu_variant::dsu120)};
    return tables[int(v)];
}

} // namespace pmusim
