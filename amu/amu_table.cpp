// The AMU register table: encodings, widths, reset values and fields as in
// DDI0487 M.a.a D24.6; encodings as in TF-A include/arch/aarch64/arch.h@6a164dda7208.
#include <fmt/format.h>
#include <functional>
#include <vector>

#include "amu/amu.h"
#include "models/input_error.h"

namespace pmusim {

namespace {

using fa = field_access;

sysreg_encoding el0(uint8_t crm, uint8_t op2) { return {3, 3, 13, crm, op2}; }
sysreg_encoding el2(uint8_t crm, uint8_t op2) { return {3, 4, 13, crm, op2}; }

struct built {
    register_table table;
    std::vector<amu_reg_info> info; // parallel to table.registers: found by position, not by name
};

built make() {
    built b;
    register_table& t = b.table;
    t.unit = "amu";
    t.title = "Activity Monitors Unit (FEAT_AMUv1, FEAT_AMUv1p1), per CPU";
    t.summary =
        "System registers of the AArch64 Activity Monitors Unit (DDI0487 M.a.a D24.6). Every CPU with "
        "features.amu has its own set; a CPU exposes only the registers its version and its number of "
        "auxiliary counters implement (AMCG1IDR_EL0 and the AMEVCNTVOFF*_EL2 offsets need AMUv1p1; "
        "AMCNTENSET1/CLR1_EL0 need at least one auxiliary counter; AMEVCNTR1<n>, AMEVTYPER1<n> and "
        "AMEVCNTVOFF1<n> exist for n < amu_aux_counters; HAFGRTR_EL2 needs features.fgt). Any other AMU encoding "
        "is UNDEFINED. The reset "
        "values of AMCFGR_EL0 and AMCGCR_EL0 given here are for a CPU without auxiliary counters; "
        "AMCG1IDR_EL0 reads the implemented group-1 counters and offsets. Architecturally UNKNOWN warm-reset "
        "values (AMCR_EL0, AMUSERENR_EL0, the offsets) reset to 0 in pmusim. Writes (MSR) to every register "
        "other than AMUSERENR_EL0 and the _EL2 registers are UNDEFINED below EL3 (the highest EL); see docs/amu.md "
        "for the access rules.";
    auto add = [&](register_def d, amu_reg_class cls, amu_reg_info::kind_t kind, unsigned index = 0) {
        b.info.push_back(amu_reg_info{cls, kind, index});
        t.registers.push_back(std::move(d));
    };
    const auto cc = amu_reg_class::counter_or_control;
    const auto id = amu_reg_class::id;

    add({"AMCR_EL0", el0(2, 0), {}, 64, 0,
         {{"RES0_HI", 18, 46, fa::res0, ""},
          {"CG1RZ", amu_field::amcr_cg1rz, fa::rw, "AMUv1p1 (RES0 on AMUv1): 1 makes system-register reads of AMEVCNTR1<n>_EL0 below the highest EL return 0"},
          {"RES0_MID", 11, 6, fa::res0, ""},
          {"HDBG", 10, 1, fa::rw, "1 halts counting in Debug state (pmusim has no Debug state: no effect)"},
          {"RES0_LO", 0, 10, fa::res0, ""}},
         "Activity Monitors Control Register"},
        cc, amu_reg_info::amcr);
    add({"AMCFGR_EL0", el0(2, 1), {}, 64, amu_field::amcfgr_value(0),
         {{"RES0_HI", 32, 32, fa::res0, ""},
          {"NCG", amu_field::amcfgr_ncg, fa::ro, "counter groups minus 1: 0 without auxiliary counters, 1 with"},
          {"RES0_27", 25, 3, fa::res0, ""},
          {"HDBG", amu_field::amcfgr_hdbg, fa::ro, "reads 1: AMCR_EL0.HDBG is supported"},
          {"RAZ", 14, 10, fa::raz_wi, ""},
          {"SIZE", amu_field::amcfgr_size, fa::ro, "counter size minus 1: 0b111111, 64-bit counters"},
          {"N", amu_field::amcfgr_n, fa::ro, "number of counters in all groups minus 1 (3 + auxiliary counters)"}},
         "Activity Monitors Configuration Register (read-only)"},
        id, amu_reg_info::other);
    add({"AMCGCR_EL0", el0(2, 2), {}, 64, amu_field::amcgcr_value(0),
         {{"RES0_HI", 16, 48, fa::res0, ""},
          {"CG1NC", amu_field::amcgcr_cg1nc, fa::ro, "number of auxiliary (group 1) counters, 0..16"},
          {"CG0NC", amu_field::amcgcr_cg0nc, fa::ro, "number of architected (group 0) counters: 4"}},
         "Activity Monitors Counter Group Configuration Register (read-only)"},
        id, amu_reg_info::other);
    add({"AMUSERENR_EL0", el0(2, 3), {}, 64, 0,
         {{"RES0", 1, 63, fa::res0, ""},
          {"EN", 0, 1, fa::rw, "1: EL0 may read the AMU registers; 0 traps EL0 reads to EL1 (EL2 when HCR_EL2.TGE=1)"}},
         "Activity Monitors User Enable Register (writable at EL1 and above)"},
        amu_reg_class::userenr, amu_reg_info::other);
    add({"AMCNTENCLR0_EL0", el0(2, 4), {}, 64, 0,
         {{"RES0", 16, 48, fa::res0, ""}, {"RAZ", 4, 12, fa::raz_wi, ""},
          {"P", amu_field::amcnten0_p, fa::w1c, "group-0 counter enables: reads the enable state, writing 1 disables"}},
         "Activity Monitors Count Enable Clear Register 0"},
        cc, amu_reg_info::enclr0);
    add({"AMCNTENSET0_EL0", el0(2, 5), {}, 64, 0,
         {{"RES0", 16, 48, fa::res0, ""}, {"RAZ", 4, 12, fa::raz_wi, ""},
          {"P", amu_field::amcnten0_p, fa::w1s, "group-0 counter enables: reads the enable state, writing 1 enables"}},
         "Activity Monitors Count Enable Set Register 0"},
        cc, amu_reg_info::enset0);
    add({"AMCG1IDR_EL0", el0(2, 6), {}, 64, 0,
         {{"RES0", 32, 32, fa::res0, ""},
          {"AMEVCNTVOFF1", amu_field::amcg1idr_amevcntvoff1, fa::ro, "bit n: AMEVCNTVOFF1<n>_EL2 is implemented"},
          {"AMEVCNTR1", amu_field::amcg1idr_amevcntr1, fa::ro, "bit n: AMEVCNTR1<n>_EL0 is implemented"}},
         "Activity Monitors Counter Group 1 Identification Register (AMUv1p1, read-only)"},
        id, amu_reg_info::amcg1idr);
    add({"AMCNTENCLR1_EL0", el0(3, 0), {}, 64, 0,
         {{"RES0", 16, 48, fa::res0, ""},
          {"P", 0, 16, fa::w1c, "group-1 counter enables (bits n >= CG1NC RAZ/WI); writing 1 disables"}},
         "Activity Monitors Count Enable Clear Register 1 (only with auxiliary counters)"},
        cc, amu_reg_info::enclr1);
    add({"AMCNTENSET1_EL0", el0(3, 1), {}, 64, 0,
         {{"RES0", 16, 48, fa::res0, ""},
          {"P", 0, 16, fa::w1s, "group-1 counter enables (bits n >= CG1NC RAZ/WI); writing 1 enables"}},
         "Activity Monitors Count Enable Set Register 1 (only with auxiliary counters)"},
        cc, amu_reg_info::enset1);

    static const char* g0_names[] = {"CPU_CYCLES: CPU clock edges while running (core key cycles)",
                                     "CNT_CYCLES: constant-clock edges while running (core key const_cycles)",
                                     "INST_RETIRED: instructions retired (core key inst)",
                                     "STALL_BACKEND_MEM: memory stall cycles (core key mem_stall)"};
    static const uint64_t g0_events[] = {0x0011, 0x4004, 0x0008, 0x4005};
    for (unsigned n = 0; n < 4; ++n)
        add({fmt::format("AMEVCNTR0{}_EL0", n), el0(4, uint8_t(n)), {}, 64, 0,
             {{"ACNT", 0, 64, fa::rw, "count (writable only at EL3)"}},
             fmt::format("Activity Monitors Event Counter 0{}: {}", n, g0_names[n])},
            cc, amu_reg_info::cnt0, n);
    for (unsigned n = 0; n < 4; ++n)
        add({fmt::format("AMEVTYPER0{}_EL0", n), el0(6, uint8_t(n)), {}, 64, g0_events[n],
             {{"RES0", 16, 48, fa::res0, ""}, {"evtCount", 0, 16, fa::ro, "the architected event"}},
             fmt::format("Activity Monitors Event Type Register 0{} (read-only)", n)},
            id, amu_reg_info::type0, n);
    for (unsigned n = 0; n < 16; ++n)
        add({fmt::format("AMEVCNTR1{}_EL0", n), el0(uint8_t(12 + (n >> 3)), uint8_t(n & 7)), {}, 64, 0,
             {{"ACNT", 0, 64, fa::rw, "count (writable only at EL3)"}},
             fmt::format("Activity Monitors Event Counter 1{} (auxiliary; exists if n < amu_aux_counters)", n)},
            cc, amu_reg_info::cnt1, n);
    for (unsigned n = 0; n < 16; ++n)
        add({fmt::format("AMEVTYPER1{}_EL0", n), el0(uint8_t(14 + (n >> 3)), uint8_t(n & 7)), {}, 64,
             amu_unit::aux_event_base + n,
             {{"RES0", 16, 48, fa::res0, ""},
              {"evtCount", 0, 16, fa::ro, "fixed IMPLEMENTATION DEFINED event (pmusim: 0x300 + n); writes UNDEFINED"}},
             fmt::format("Activity Monitors Event Type Register 1{} (exists if n < amu_aux_counters)", n)},
            id, amu_reg_info::type1, n); // fixed events: no MSR form, like the id registers
    for (unsigned n : {0u, 2u, 3u})
        add({fmt::format("AMEVCNTVOFF0{}_EL2", n), el2(8, uint8_t(n)), {}, 64, 0,
             {{"VOffset", 0, 64, fa::rw, "subtracted from EL0/EL1 reads of AMEVCNTR0" + std::to_string(n) +
                                             "_EL0 when HCR_EL2.AMVOFFEN = SCR_EL3.AMVOFFEN = 1"}},
             fmt::format("Activity Monitors Event Counter Virtual Offset 0{} (AMUv1p1; no offset exists for counter 1)", n)},
            amu_reg_class::voffset, amu_reg_info::voff0, n);
    for (unsigned n = 0; n < 16; ++n)
        add({fmt::format("AMEVCNTVOFF1{}_EL2", n), el2(uint8_t(10 + (n >> 3)), uint8_t(n & 7)), {}, 64, 0,
             {{"VOffset", 0, 64, fa::rw, "subtracted from EL0/EL1 reads of AMEVCNTR1<n>_EL0 when enabled and CG1RZ = 0"}},
             fmt::format("Activity Monitors Event Counter Virtual Offset 1{} (AMUv1p1; exists if n < amu_aux_counters)", n)},
            amu_reg_class::voffset, amu_reg_info::voff1, n);
    {
        register_def d{"HAFGRTR_EL2", sysreg_encoding{3, 4, 3, 1, 6}, {}, 64, 0, {}, 
                       "Hypervisor Activity Monitors Fine-Grained Read Trap Register (FEAT_FGT; only on CPUs with "
                       "features.fgt). A 1 traps EL0/EL1 MRS of that register to EL2 when EL2 is enabled, "
                       "HCR_EL2.{E2H,TGE} != {1,1} and SCR_EL3.FGTEn = 1; bits of auxiliary counters that do not "
                       "exist are RES0. Warm reset UNKNOWN below an EL3; pmusim resets it to 0"};
        d.fields.push_back({"RES0_HI", 50, 14, fa::res0, ""});
        for (unsigned x = 16; x-- > 0;) {
            d.fields.push_back({fmt::format("AMEVTYPER1{}_EL0", x), amu_field::hafgrtr_amevtyper1(x), fa::rw, ""});
            d.fields.push_back({fmt::format("AMEVCNTR1{}_EL0", x), amu_field::hafgrtr_amevcntr1(x), fa::rw, ""});
        }
        d.fields.push_back({"AMCNTEN1", amu_field::hafgrtr_amcnten1, fa::rw, "traps AMCNTENSET1_EL0 and AMCNTENCLR1_EL0"});
        d.fields.push_back({"RES0_LO", 5, 12, fa::res0, ""});
        for (unsigned x = 4; x-- > 0;)
            d.fields.push_back({fmt::format("AMEVCNTR0{}_EL0", x), amu_field::hafgrtr_amevcntr0(x), fa::rw, ""});
        d.fields.push_back({"AMCNTEN0", amu_field::hafgrtr_amcnten0, fa::rw, "traps AMCNTENSET0_EL0 and AMCNTENCLR0_EL0"});
        add(std::move(d), amu_reg_class::hafgrtr, amu_reg_info::hafgrtr);
    }
    // Sources: the Arm ARM's register pages; the encodings also in TF-A's arch.h (tests/facts/amu.tsv).
    const std::string armarm = "DDI0487 M.a.a D24.6 ";
    const std::string unknown_reset = "; reset UNVERIFIED: architecturally UNKNOWN on warm reset, pmusim resets to 0";
    cite(t, "AMCR_EL0$", armarm + "AMCR_EL0" + unknown_reset);
    cite(t, "AMCFGR_EL0$", armarm + "AMCFGR_EL0 (reset: no auxiliary counters)");
    cite(t, "AMCGCR_EL0$", armarm + "AMCGCR_EL0 (reset: no auxiliary counters)");
    cite(t, "AMUSERENR_EL0$", armarm + "AMUSERENR_EL0" + unknown_reset);
    cite(t, "AMCNTEN", armarm + "AMCNTENSET0/1_EL0, AMCNTENCLR0/1_EL0 (reset 0 on AMU reset)");
    cite(t, "AMCG1IDR_EL0$", armarm + "AMCG1IDR_EL0 (FEAT_AMUv1p1)");
    cite(t, "AMEVCNTR0", armarm + "AMEVCNTR0<n>_EL0 (reset 0 on AMU reset)");
    cite(t, "AMEVTYPER0", armarm + "AMEVTYPER0<n>_EL0; evtCount values from D16.3 (architected events)");
    cite(t, "AMEVCNTR1", armarm + "AMEVCNTR1<n>_EL0 (reset 0 on AMU reset)");
    cite(t, "AMEVTYPER1", armarm + "AMEVTYPER1<n>_EL0; reset UNVERIFIED: fixed IMPLEMENTATION DEFINED events, pmusim's 0x300 + n");
    cite(t, "AMEVCNTVOFF0", armarm + "AMEVCNTVOFF0<n>_EL2 (n = 0, 2, 3)" + unknown_reset);
    cite(t, "AMEVCNTVOFF1", armarm + "AMEVCNTVOFF1<n>_EL2" + unknown_reset);
    cite(t, "HAFGRTR_EL2$", "DDI0487 M.a.a D24.2.61 HAFGRTR_EL2" + unknown_reset);
    return b;
}

const built& the() {
    static const built b = make();
    return b;
}

} // namespace

const register_table& amu_table() { return the().table; }

const amu_reg_info& amu_info(const register_def& def) {
    // Asked on every access: the entry's position in the table gives its info directly.
    const built& b = the();
    const std::vector<register_def>& regs = b.table.registers;
    const std::less<const register_def*> before;
    if (before(&def, regs.data()) || !before(&def, regs.data() + regs.size()))
        throw model_error("amu: no register info for " + def.name);
    return b.info[size_t(&def - regs.data())];
}

const char* to_string(amu_reg_class c) {
    switch (c) {
    case amu_reg_class::counter_or_control: return "counter/control";
    case amu_reg_class::id: return "id";
    case amu_reg_class::userenr: return "AMUSERENR";
    case amu_reg_class::voffset: return "voffset";
    case amu_reg_class::hafgrtr: return "HAFGRTR";
    }
    return "?";
}

} // namespace pmusim
