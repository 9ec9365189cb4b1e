// The register tables of the AMU's memory-mapped external view, one per layout:
// FEAT_AMU_EXT32 (DDI0487 M.a.a Table I5-161) and FEAT_AMU_EXT64 (Table I5-162),
// plus the CoreSight identification block of Table I5-163, which both share.
// Field layouts from DDI0487 M.a.a I5.5 (the external register descriptions). Every register of
// the view is read-only; offsets not listed are RAZ/WI.
#include <fmt/format.h>

#include "amu/amu.h"

namespace pmusim {

namespace {

using fa = field_access;

using namespace amu_field;

// AMDEVARCH: ARCHITECT = Arm (JEP106 0x4, 0x3B), PRESENT = 1, REVISION = 0 (AMUv1),
// ARCHID = 0x0A66 (EXT32) or 0x0A67 (EXT64).
constexpr uint64_t devarch(amu_ext_format f) {
    return devarch_architect.put(0x23B) | devarch_present.put(1) | devarch_archid.put(f == amu_ext_format::ext32 ? 0x0A66 : 0x0A67);
}

constexpr uint64_t default_amiidr = amu_external_options{}.amiidr; // the table's reset column

register_def ro_reg(std::string name, uint64_t offset, unsigned width, uint64_t reset, std::vector<field_def> fields,
                    std::string description) {
    register_def d;
    d.name = std::move(name);
    d.offset = offset;
    d.width = width;
    d.reset = reset;
    d.fields = std::move(fields);
    d.description = std::move(description);
    return d;
}

register_table make(amu_ext_format f) {
    const bool x64 = f == amu_ext_format::ext64;
    const unsigned w = x64 ? 64 : 32; // the width of the configuration and type registers
    register_table t;
    t.unit = x64 ? "amu_ext64" : "amu_ext32";
    t.title = fmt::format("AMU external view, FEAT_AMU_EXT{} (one 4 KB frame per CPU)", x64 ? 64 : 32);
    t.summary = fmt::format(
        "The memory-mapped view of one CPU's Activity Monitors Unit (DDI0487 M.a.a I4.1, I5.4, I5.5), present "
        "for each CPU with features.amu_external_view: true when the platform has a `units:` entry of type amu "
        "(params.format: {}); the frame of cpuN is at base + N * frame_stride (docs/amu.md). Every register is "
        "read-only: a write completes and is ignored. Offsets not listed read as zero. The view shows the same "
        "state as the system registers, always physical: AMUv1p1 virtual offsets and AMCR.CG1RZ do not apply. "
        "Counters and type registers with n at or above the implemented count read as zero. While the CPU is "
        "off the whole frame reads as zero (the AMU is in the core power domain). Accesses are 32-bit "
        "(either half of a 64-bit register) or 64-bit (64-bit registers only), naturally aligned; anything "
        "else is refused with a bus error. Reset values are those of a CPU without auxiliary counters with "
        "the default amiidr.",
        x64 ? "ext64" : "ext32");
    auto add = [&](register_def d) { t.registers.push_back(std::move(d)); };

    static const char* g0_names[] = {"CPU_CYCLES", "CNT_CYCLES", "INST_RETIRED", "STALL_BACKEND_MEM"};
    static const uint64_t g0_events[] = {0x0011, 0x4004, 0x0008, 0x4005};
    for (unsigned n = 0; n < 4; ++n)
        add(ro_reg(fmt::format("AMEVCNTR0{}", n), 0x000 + 8 * n, 64, 0, {{"ACNT", 0, 64, fa::ro, "count"}},
                   fmt::format("Event counter 0{} ({}): AMEVCNTR0{}_EL0, physical", n, g0_names[n], n)));
    for (unsigned n = 0; n < 16; ++n)
        add(ro_reg(fmt::format("AMEVCNTR1{}", n), 0x100 + 8 * n, 64, 0, {{"ACNT", 0, 64, fa::ro, "count"}},
                   fmt::format("Auxiliary event counter 1{}: AMEVCNTR1{}_EL0, physical (RAZ when {} >= CG1NC)", n, n,
                               n)));
    for (unsigned n = 0; n < 4; ++n)
        add(ro_reg(fmt::format("AMEVTYPER0{}", n), 0x400 + (x64 ? 8 : 4) * n, w, g0_events[n],
                   {{"RES0", 16, w - 16, fa::res0, ""}, {"evtCount", 0, 16, fa::ro, "the architected event"}},
                   fmt::format("Event type 0{}", n)));
    for (unsigned n = 0; n < 16; ++n)
        add(ro_reg(fmt::format("AMEVTYPER1{}", n), (x64 ? 0x500 + 8 * n : 0x480 + 4 * n), w, 0,
                   {{"RES0", 16, w - 16, fa::res0, ""},
                    {"evtCount", 0, 16, fa::ro, "AMEVTYPER1<n>_EL0.evtCount (pmusim: 0x300 + n)"}},
                   fmt::format("Event type 1{} (RAZ when {} >= CG1NC)", n, n)));
    if (x64) {
        const std::vector<field_def> en64 = {
            {"RES0_HI", 48, 16, fa::res0, ""},
            {"P1", ext_cnten_p1, fa::ro, "AMCNTENSET1_EL0.P: group-1 enables (RAZ for n >= CG1NC)"},
            {"RES0_MID", 16, 16, fa::res0, ""},
            {"RAZ", 4, 12, fa::raz_wi, ""},
            {"P0", ext_cnten_p0, fa::ro, "AMCNTENSET0_EL0.P: group-0 enables"}};
        add(ro_reg("AMCNTENSET", 0xC00, 64, 0, en64, "Count enable set: [31:0] AMCNTENSET0_EL0, [63:32] AMCNTENSET1_EL0"));
        add(ro_reg("AMCNTEN", 0xC10, 64, 0, en64, "Count enable: the same state as AMCNTENSET and AMCNTENCLR"));
        add(ro_reg("AMCNTENCLR", 0xC20, 64, 0, en64, "Count enable clear: [31:0] AMCNTENCLR0_EL0, [63:32] AMCNTENCLR1_EL0"));
    } else {
        const std::vector<field_def> en0 = {{"RES0", 16, 16, fa::res0, ""},
                                            {"RAZ", 4, 12, fa::raz_wi, ""},
                                            {"P", 0, 4, fa::ro, "group-0 enables"}};
        const std::vector<field_def> en1 = {{"RES0", 16, 16, fa::res0, ""},
                                            {"P", 0, 16, fa::ro, "group-1 enables (RAZ for n >= CG1NC)"}};
        add(ro_reg("AMCNTENSET0", 0xC00, 32, 0, en0, "Count enable set 0: AMCNTENSET0_EL0"));
        add(ro_reg("AMCNTENSET1", 0xC04, 32, 0, en1, "Count enable set 1: AMCNTENSET1_EL0 (RAZ without auxiliary counters)"));
        add(ro_reg("AMCNTENCLR0", 0xC20, 32, 0, en0, "Count enable clear 0: AMCNTENCLR0_EL0"));
        add(ro_reg("AMCNTENCLR1", 0xC24, 32, 0, en1, "Count enable clear 1: AMCNTENCLR1_EL0 (RAZ without auxiliary counters)"));
    }
    add(ro_reg("AMCGCR", 0xCE0, w, amcgcr_value(0),
               {{"RES0", 16, w - 16, fa::res0, ""},
                {"CG1NC", amcgcr_cg1nc, fa::ro, "number of auxiliary counters"},
                {"CG0NC", amcgcr_cg0nc, fa::ro, "number of architected counters: 4"}},
               "Counter group configuration: AMCGCR_EL0"));
    {
        std::vector<field_def> cfg = {{"NCG", amcfgr_ncg, fa::ro, "counter groups minus 1"},
                                      {"RES0_27", 25, 3, fa::res0, ""},
                                      {"HDBG", amcfgr_hdbg, fa::ro, "reads 1"},
                                      {"RAZ", 14, 10, fa::raz_wi, ""},
                                      {"SIZE", amcfgr_size, fa::ro, "counter size minus 1: 63"},
                                      {"N", amcfgr_n, fa::ro, "counters in all groups minus 1"}};
        if (x64) cfg.insert(cfg.begin(), field_def{"RES0_HI", 32, 32, fa::res0, ""});
        add(ro_reg("AMCFGR", 0xE00, w, amcfgr_value(0), cfg, "Configuration: AMCFGR_EL0"));
    }
    {
        std::vector<field_def> iidr = {{"ProductID", iidr_product_id, fa::ro, "part number (AMPIDR0.PART_0, AMPIDR1.PART_1)"},
                                       {"Variant", iidr_variant, fa::ro, "major revision (AMPIDR2.REVISION)"},
                                       {"Revision", iidr_revision, fa::ro, "minor revision (AMPIDR3.REVAND)"},
                                       {"Implementer", iidr_implementer, fa::ro,
                                        "JEP106 code of the designer: [11:8] bank - 1, [6:0] identity (0x43B: Arm)"}};
        if (x64) iidr.insert(iidr.begin(), field_def{"RES0", 32, 32, fa::res0, ""});
        add(ro_reg("AMIIDR", 0xE08, w, default_amiidr, iidr,
                   "Implementation identification (only in this view; the unit parameter amiidr)"));
    }
    {
        std::vector<field_def> cr = {{"RES0_HI", 18, w - 18, fa::res0, ""},
                                     {"CG1RZ", amcr_cg1rz, fa::ro, "AMCR_EL0.CG1RZ (does not affect this view)"},
                                     {"RES0_MID", 11, 6, fa::res0, ""},
                                     {"HDBG", 10, 1, fa::ro, "AMCR_EL0.HDBG"},
                                     {"RES0_LO", 0, 10, fa::res0, ""}};
        add(ro_reg("AMCR", x64 ? 0xE10 : 0xE04, w, 0, cr, "Control: AMCR_EL0"));
    }
    const std::vector<field_def> aff_lo = {{"RAO", devaff_rao, fa::res1, ""},
                                           {"U", 30, 1, fa::ro, "0: part of a multiprocessor system"},
                                           {"RES0_29", 25, 5, fa::res0, ""},
                                           {"MT", devaff_mt, fa::ro, "1 (DynamIQ MPIDR_EL1 layout)"},
                                           {"Aff2", devaff_aff2, fa::ro, "the CPU's cluster"},
                                           {"Aff1", devaff_aff1, fa::ro, "the CPU's position in its cluster"},
                                           {"Aff0", 0, 8, fa::ro, "0 (one thread per core)"}};
    if (x64) {
        std::vector<field_def> aff = aff_lo;
        aff.insert(aff.begin(), {{"RES0", 40, 24, fa::res0, ""}, {"Aff3", 32, 8, fa::ro, "0"}});
        add(ro_reg("AMDEVAFF", 0xFA8, 64, amu_external_devaff(0, 0), aff, "Device affinity: the CPU's MPIDR_EL1 (pmusim's DynamIQ layout)"));
    } else {
        add(ro_reg("AMDEVAFF0", 0xFA8, 32, amu_external_devaff(0, 0), aff_lo,
                   "Device affinity 0: MPIDR_EL1[31:0] (pmusim's DynamIQ layout)"));
        add(ro_reg("AMDEVAFF1", 0xFAC, 32, 0, {{"RES0", 8, 24, fa::res0, ""}, {"Aff3", 0, 8, fa::ro, "0"}},
                   "Device affinity 1: MPIDR_EL1.Aff3"));
    }
    add(ro_reg("AMDEVARCH", 0xFBC, 32, devarch(f),
               {{"ARCHITECT", devarch_architect, fa::ro, "0x23B: Arm"},
                {"PRESENT", devarch_present, fa::ro, "1"},
                {"REVISION", 16, 4, fa::ro, "0: AMUv1"},
                {"ARCHID", devarch_archid, fa::ro, x64 ? "0x0A67: AMUv1 with FEAT_AMU_EXT64" : "0x0A66: AMUv1 with FEAT_AMU_EXT32"}},
               "Device architecture"));
    add(ro_reg("AMDEVTYPE", 0xFCC, 32, 0x16,
               {{"RES0", 8, 24, fa::res0, ""},
                {"SUB", 4, 4, fa::ro, "1: a component within a PE"},
                {"MAJOR", 0, 4, fa::ro, "6: performance monitor"}},
               "Device type"));
    // The peripheral ID registers follow AMIIDR (I5.5.24); the reset column is for amiidr = 0x43B.
    add(ro_reg("AMPIDR4", 0xFD0, 32, amu_external_pidr(default_amiidr, 4),
               {{"RES0", 8, 24, fa::res0, ""}, {"SIZE", 4, 4, fa::ro, "0: one 4 KB block"},
                {"DES_2", pidr4_des_2, fa::ro, "AMIIDR.Implementer[11:8]"}},
               "Peripheral ID 4"));
    add(ro_reg("AMPIDR0", 0xFE0, 32, amu_external_pidr(default_amiidr, 0),
               {{"RES0", 8, 24, fa::res0, ""}, {"PART_0", pidr0_part_0, fa::ro, "AMIIDR.ProductID[7:0]"}}, "Peripheral ID 0"));
    add(ro_reg("AMPIDR1", 0xFE4, 32, amu_external_pidr(default_amiidr, 1),
               {{"RES0", 8, 24, fa::res0, ""}, {"DES_0", pidr1_des_0, fa::ro, "AMIIDR.Implementer[3:0]"},
                {"PART_1", pidr1_part_1, fa::ro, "AMIIDR.ProductID[11:8]"}},
               "Peripheral ID 1"));
    add(ro_reg("AMPIDR2", 0xFE8, 32, amu_external_pidr(default_amiidr, 2),
               {{"RES0", 8, 24, fa::res0, ""}, {"REVISION", pidr2_revision, fa::ro, "AMIIDR.Variant"},
                {"JEDEC", pidr2_jedec, fa::ro, "1: JEP106 code"}, {"DES_1", pidr2_des_1, fa::ro, "AMIIDR.Implementer[6:4]"}},
               "Peripheral ID 2"));
    add(ro_reg("AMPIDR3", 0xFEC, 32, amu_external_pidr(default_amiidr, 3),
               {{"RES0", 8, 24, fa::res0, ""}, {"REVAND", pidr3_revand, fa::ro, "AMIIDR.Revision"},
                {"CMOD", 0, 4, fa::ro, "0: not modified"}},
               "Peripheral ID 3"));
    static const uint64_t cidr[] = {0x0D, 0x90, 0x05, 0xB1};
    for (unsigned n = 0; n < 4; ++n)
        add(ro_reg(fmt::format("AMCIDR{}", n), 0xFF0 + 4 * n, 32, cidr[n],
                   {{"RES0", 8, 24, fa::res0, ""},
                    {n == 1 ? "CLASS_PRMBL_1" : fmt::format("PRMBL_{}", n), 0, 8, fa::ro,
                     n == 1 ? "CLASS [7:4] = 0x9 (CoreSight component), PRMBL_1 [3:0] = 0" : "preamble"}},
                   fmt::format("Component ID {}", n)));
    const std::string map = x64 ? "DDI0487 M.a.a I5.4 Table I5-162 (FEAT_AMU_EXT64)" : "DDI0487 M.a.a I5.4 Table I5-161 (FEAT_AMU_EXT32)";
    for (const char* counters : {"AMEVCNTR", "AMEVTYPER", "AMCNTEN", "AMCGCR", "AMCFGR", "AMCR$"})
        cite(t, counters, map + "; fields I5.5 as the system registers (D24.6)");
    cite(t, "AMIIDR", map + "; fields I5.5 AMIIDR; reset: pmusim's default amiidr 0x43B (UNVERIFIED: product 0)");
    cite(t, "AMDEVAFF", map + "; fields I5.5 AMDEVAFF, the CPU's MPIDR_EL1 (pmusim's DynamIQ layout)");
    for (const char* id : {"AMDEVARCH", "AMDEVTYPE", "AMPIDR", "AMCIDR"})
        cite(t, id, "DDI0487 M.a.a I5.4 Table I5-163 and I5.5 (CoreSight identification); PIDR values follow AMIIDR");
    return t;
}

} // namespace

uint64_t amu_external_pidr(uint64_t amiidr, unsigned n) {
    const uint64_t product = iidr_product_id.get(amiidr), implementer = iidr_implementer.get(amiidr);
    switch (n) {
    case 0: return pidr0_part_0.put(product);
    case 1: return pidr1_des_0.put(implementer) | pidr1_part_1.put(product >> pidr0_part_0.width);
    case 2: // the identity's bits [6:4] (DES_0 holds [3:0]), and JEDEC: a JEP106 code
        return pidr2_revision.put(iidr_variant.get(amiidr)) | pidr2_jedec.put(1) | pidr2_des_1.put(implementer >> pidr1_des_0.width);
    case 3: return pidr3_revand.put(iidr_revision.get(amiidr));
    case 4: return pidr4_des_2.put(implementer >> 8); // the continuation code, Implementer[11:8]
    default: return 0;
    }
}

uint64_t amu_external_devaff(unsigned cluster, unsigned core_in_cluster) {
    return devaff_rao.put(1) | devaff_mt.put(1) | devaff_aff2.put(cluster) | devaff_aff1.put(core_in_cluster);
}

const register_table& amu_external_table(amu_ext_format format) {
    static const register_table ext32 = make(amu_ext_format::ext32);
    static const register_table ext64 = make(amu_ext_format::ext64);
    return format == amu_ext_format::ext32 ? ext32 : ext64;
}

} // namespace pmusim
