// The CoreSight PMU register tables (64- and 32-bit counter registers) and the event list.
#include <cctype>
#include <cstring>
#include <fmt/format.h>

#include "cspmu/arm_cspmu.h"
#include "models/values.h"

namespace pmusim {

const std::vector<cspmu_event_info>& cspmu_events() {
    // IMPLEMENTATION DEFINED numbers (IHI 0091 defines none; Linux's only default event is the
    // cycle counter, config 1<<32): pmusim's choice, listed in docs/cspmu.md.
    static const std::vector<cspmu_event_info> events = {
        {0x1, "cycles", nullptr, true},
        {0x2, "cpu_cycles", "cycles", false},
        {0x3, "inst_retired", "inst", false},
        {0x4, "mem_stall", "mem_stall", false},
        {0x5, "external", nullptr, false},
    };
    return events;
}

int cspmu_event_code(const std::string& text) {
    if (text.empty()) return -1;
    if (std::isdigit(static_cast<unsigned char>(text[0]))) {
        const auto v = values::scan_integer(text);
        if (v)
            for (const auto& e : cspmu_events())
                if (e.code == *v) return int(*v);
        return -1;
    }
    std::string lower;
    for (char c : text) lower += char(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& e : cspmu_events())
        if (lower == e.name) return int(e.code);
    return -1;
}

namespace {

using fa = field_access;
using namespace cspmu_field;

const char* const header = "Linux drivers/perf/arm_cspmu/arm_cspmu.h@04330be8dc7f";
const char* const driver = "Linux drivers/perf/arm_cspmu/arm_cspmu.c@04330be8dc7f";

register_def mreg(const std::string& name, uint64_t offset, unsigned width, uint64_t reset,
                  std::vector<field_def> fields, const std::string& description) {
    return register_def(name, std::nullopt, offset, width, reset, std::move(fields), description);
}

std::vector<field_def> bitmap_fields(const std::string& what) {
    return {{"P", event_counter_flags, fa::rw, what + " of event counter n in bit n; bits [30:counters] RAZ/WI"},
            {"C", cycle_counter_flag, fa::rw, what + " of the cycle counter (RAZ/WI without one)"}};
}

// A field IHI 0091 gives only with a feature PMCFGR says is absent: RES0 here.
field_def absent(const std::string& name, unsigned lsb, const std::string& feature) {
    return {name, lsb, 1, fa::res0, "RES0: PMCFGR." + feature + " = 0"};
}

void cite_sources(register_table& t) {
    const std::string h = header, d = driver;
    cite(t, "PMEVCNTR", d + " counter_offset(): PMEVCNTR_LO + reg_sz * idx, 64-bit registers when PMCFGR.SIZE + 1 > 32 "
                            "(use_64b_counter_reg)");
    cite(t, "PMCCNTR$", d + " counter_offset(reg_sz, ARM_CSPMU_CYCLE_CNTR_IDX); " + h + " ARM_CSPMU_CYCLE_CNTR_IDX 31");
    cite(t, "PMEVTYPER", d + " arm_cspmu_set_event(): PMEVTYPER + 4 * idx");
    cite(t, "PMCCFILTR$", h + " PMCCFILTR");
    cite(t, "PMEVFILT2R", d + " arm_cspmu_set_ev_filter(): PMEVFILT2R + 4 * idx");
    cite(t, "PMEVFILTR", d + " arm_cspmu_set_ev_filter(): PMEVFILTR + 4 * idx");
    for (const char* r : {"PMCNTENSET$", "PMCNTENCLR$", "PMINTENSET$", "PMINTENCLR$", "PMOVSCLR$", "PMOVSSET$"})
        cite(t, r, h + " " + std::string(r, std::strlen(r) - 1) + "; " + d +
                       " COUNTER_TO_SET_CLR_BIT (one register per 32 counters)");
    cite(t, "PMCFGR$", h + " PMCFGR, PMCFGR_*");
    cite(t, "PMCR$", h + " PMCR, PMCR_*");
    cite(t, "PMIIDR$", h + " PMIIDR, PMIIDR_*");
    cite(t, "PMPIDR", h + " PMPIDRn, PMPIDRn_*; values: the inverse of arm_cspmu_get_pmiidr() in " + d);
    cite(t, "PMDEVARCH$", "UNVERIFIED: IHI 0091 not at hand; the offset and value of the Armv8 PMU external block "
                          "(DDI0487 PMDEVARCH: ARCHITECT Arm, PRESENT, ARCHID 0x2A16)");
    cite(t, "PMCIDR", "CoreSight Architecture Specification (IHI0029) component identification");
}

std::vector<field_def> pidr_fields(unsigned n) {
    switch (n) {
    case 0: return {{"PART_0", 0, 8, fa::ro, "PMIIDR.PRODUCTID [7:0]"}};
    case 1: return {{"PART_1", 0, 4, fa::ro, "PMIIDR.PRODUCTID [11:8]"}, {"DES_0", 4, 4, fa::ro, "PMIIDR.IMPLEMENTER [3:0]"}};
    case 2:
        return {{"DES_1", 0, 3, fa::ro, "PMIIDR.IMPLEMENTER [6:4]"},
                {"JEDEC", 3, 1, fa::ro, "1: a JEP106 code", "CoreSight Architecture Specification (IHI0029) PIDR2.JEDEC"},
                {"REVISION", 4, 4, fa::ro, "PMIIDR.VARIANT"}};
    case 3: return {{"CMOD", 0, 4, fa::ro, "0"}, {"REVAND", 4, 4, fa::ro, "PMIIDR.REVISION"}};
    default: return {{"DES_2", 0, 4, fa::ro, "PMIIDR.IMPLEMENTER [11:8]"}, {"SIZE", 4, 4, fa::ro, "0: one 4 KB page"}};
    }
}

register_table make_table(cspmu_layout layout) {
    const bool wide = layout == cspmu_layout::ctr64;
    const unsigned cw = wide ? 64 : 32, stride = wide ? 8 : 4;
    register_table t;
    t.unit = wide ? "arm_cspmu" : "arm_cspmu_ctr32";
    t.title = fmt::format("Arm CoreSight PMU architecture counter block ({}-bit counter registers)", cw);
    t.summary = fmt::format(
        "A memory-mapped PMU of the Arm CoreSight PMU architecture (IHI 0091), laid out as Linux's "
        "arm_cspmu driver uses it: event counters PMEVCNTR<n> ({}-bit registers at {}n, for counter_width {}), "
        "the cycle counter at index 31, one SET/CLR register per bitmap, PMCFGR/PMCR/PMIIDR and the "
        "identification registers in one 4 KB page. Unimplemented offsets are RAZ/WI. Reset values are those "
        "of the default parameters (8 event counters, a cycle counter, PMIIDR 0x43B). See docs/cspmu.md.",
        cw, stride, wide ? "33..64" : "32");
    for (unsigned n = 0; n < 31; ++n)
        t.registers.push_back(mreg(fmt::format("PMEVCNTR{}", n), stride * n, cw, 0, {},
                                   fmt::format("Event counter {} (RAZ/WI when {} >= counters)", n, n)));
    t.registers.push_back(mreg("PMCCNTR", stride * cycle_counter, cw, 0, {},
                               "Cycle counter: counter 31, the unit's clock edges (RAZ/WI without one)"));
    for (unsigned n = 0; n < 31; ++n)
        t.registers.push_back(mreg(fmt::format("PMEVTYPER{}", n), 0x400 + 4 * n, 32, 0, {},
                                   fmt::format("Event type of counter {}: the event number (docs/cspmu.md)", n)));
    t.registers.push_back(mreg("PMCCFILTR", 0x47C, 32, 0, {}, "Cycle counter filter: stored, no effect (no filtering)"));
    for (unsigned n = 0; n < 31; ++n)
        t.registers.push_back(mreg(fmt::format("PMEVFILT2R{}", n), 0x800 + 4 * n, 32, 0, {},
                                   fmt::format("Event filter 2 of counter {}: stored, no effect", n)));
    for (unsigned n = 0; n < 31; ++n)
        t.registers.push_back(mreg(fmt::format("PMEVFILTR{}", n), 0xA00 + 4 * n, 32, 0, {},
                                   fmt::format("Event filter of counter {}: stored, no effect", n)));
    auto add = [&](register_def r) { t.registers.push_back(std::move(r)); };
    add(mreg("PMCNTENSET", 0xC00, 32, 0, bitmap_fields("enable"), "Counter enable set (write 1 sets)"));
    add(mreg("PMCNTENCLR", 0xC20, 32, 0, bitmap_fields("enable"), "Counter enable clear (write 1 clears)"));
    add(mreg("PMINTENSET", 0xC40, 32, 0, bitmap_fields("interrupt enable"), "Interrupt enable set"));
    add(mreg("PMINTENCLR", 0xC60, 32, 0, bitmap_fields("interrupt enable"), "Interrupt enable clear"));
    add(mreg("PMOVSCLR", 0xC80, 32, 0, bitmap_fields("overflow flag"), "Overflow flag clear (reads the flags)"));
    add(mreg("PMOVSSET", 0xCC0, 32, 0, bitmap_fields("overflow flag"), "Overflow flag set (reads the flags)"));
    const uint64_t pmcfgr_reset = pmcfgr_n.put(8) | pmcfgr_size.put(cw - 1) | pmcfgr_cc.put(1);
    add(mreg("PMCFGR", 0xE00, 32, pmcfgr_reset,
             {{"N", pmcfgr_n, fa::ro, "counters implemented - 1, the cycle counter included (Linux: N + 1 logical counters)"},
              {"SIZE", pmcfgr_size, fa::ro, "counter size - 1 (parameter counter_width)"},
              {"CC", pmcfgr_cc, fa::ro, "cycle counter implemented (parameter cycle_counter)"},
              {"CCD", 15, 1, fa::ro, "0: no cycle counter prescale"},
              {"EX", 16, 1, fa::ro, "0: no export"},
              {"NA", 17, 1, fa::ro, "0"},
              {"UEN", 19, 1, fa::ro, "0: no user enable"},
              {"MSI", 20, 1, fa::ro, "0: a wired interrupt"},
              {"FZO", 21, 1, fa::ro, "0: no freeze on overflow"},
              {"SS", 22, 1, fa::ro, "0: no snapshot"},
              {"TRO", 23, 1, fa::ro, "0"},
              {"HDBG", 24, 1, fa::ro, "0"},
              {"NCG", 28, 4, fa::ro, "0: one counter group"}},
             "Configuration: what the PMU implements"));
    add(mreg("PMCR", 0xE04, 32, 0,
             {{"E", pmcr_e, fa::rw, "enable: counters count when E = 1 and their PMCNTENSET bit is set"},
              {"P", pmcr_p, fa::wo, "write 1: every event counter to 0 (overflow flags unchanged); reads 0"},
              {"C", pmcr_c, fa::wo, "write 1: the cycle counter to 0 (overflow flag unchanged); reads 0"},
              absent("D", 3, "CCD"), absent("X", 4, "EX"), absent("DP", 5, "CC prohibition"), absent("NA", 8, "NA"),
              absent("FZO", 9, "FZO"), absent("HDBG", 10, "HDBG"), absent("TRO", 11, "TRO")},
             "Control"));
    add(mreg("PMIIDR", 0xE08, 32, 0x43B,
             {{"IMPLEMENTER", pmiidr_implementer, fa::ro, "JEP106 code (parameter pmiidr; default Arm 0x43B)"},
              {"REVISION", pmiidr_revision, fa::ro, "parameter pmiidr"},
              {"VARIANT", pmiidr_variant, fa::ro, "parameter pmiidr"},
              {"PRODUCTID", pmiidr_productid, fa::ro, "parameter pmiidr"}},
             "Implementation identification (Linux matches its vendor backends on IMPLEMENTER)"));
    add(mreg("PMDEVARCH", 0xFBC, 32, 0x47702A16, {}, "Device architecture (UNVERIFIED value)"));
    add(mreg("PMPIDR4", 0xFD0, 32, cspmu_pidr(4, 0x43B), pidr_fields(4), "Peripheral ID 4"));
    for (unsigned n = 0; n < 4; ++n)
        add(mreg(fmt::format("PMPIDR{}", n), 0xFE0 + 4 * n, 32, cspmu_pidr(n, 0x43B), pidr_fields(n),
                 fmt::format("Peripheral ID {}", n)));
    const uint32_t cidr[4] = {0x0D, 0x90, 0x05, 0xB1};
    for (unsigned n = 0; n < 4; ++n)
        add(mreg(fmt::format("PMCIDR{}", n), 0xFF0 + 4 * n, 32, cidr[n], {},
                 fmt::format("Component ID {}{}", n, n == 1 ? " (CoreSight class 0x9)" : "")));
    cite_sources(t);
    t.per_counter_banks = {"PMEVCNTR<n>", "PMEVTYPER<n>", "PMEVFILTR<n>", "PMEVFILT2R<n>"};
    return t;
}

} // namespace

// The peripheral ID registers carry PMIIDR's fields where Linux's arm_cspmu_get_pmiidr() takes them
// back from (a PMU whose PMIIDR reads 0): each PIDR field is placed by the table's own position.
uint32_t cspmu_pidr(unsigned n, uint32_t pmiidr) {
    const uint32_t implementer = uint32_t(pmiidr_implementer.get(pmiidr)), product = uint32_t(pmiidr_productid.get(pmiidr));
    const std::vector<std::pair<std::string, uint32_t>> values = {
        {"PART_0", product & 0xFF},       {"PART_1", product >> 8},     {"DES_0", implementer & 0xF},
        {"DES_1", (implementer >> 4) & 7}, {"JEDEC", 1},                 {"REVISION", uint32_t(pmiidr_variant.get(pmiidr))},
        {"REVAND", uint32_t(pmiidr_revision.get(pmiidr))}, {"DES_2", implementer >> 8}};
    uint32_t v = 0;
    for (const auto& f : pidr_fields(n))
        for (const auto& [name, value] : values)
            if (f.name == name) v |= uint32_t(value << f.lsb) & uint32_t(f.mask());
    return v;
}

const register_table& cspmu_table(cspmu_layout layout) {
    static const register_table tables[2] = {make_table(cspmu_layout::ctr64), make_table(cspmu_layout::ctr32)};
    return tables[int(layout)];
}

} // namespace pmusim
