#pragma once
// The access type of each register of a PMU's external (memory-mapped) block, by name, as the
// architecture gives it: DDI0487 M.a.a chapter I5 "Performance Monitors external register
// descriptions" (and the CoreSight PMU architecture, IHI0091, which keeps the same names), CoreSight
// IHI0029 for the management and identification registers. The access matrices and the write/read-
// back test take it from here, never from the model's tables.
#include <regex>
#include <string>

namespace pmusim::pmu_external {

enum class kind { rw, ro, w1s, w1c, other };

inline kind access_kind(const std::string& name) {
    static const std::regex ro(R"(PMCFGR|PMCEID\d|PMDEVAFF\d?|PMDEVARCH|PMDEVID|PMDEVTYPE|PMPIDR\d|PMCIDR\d|)"
                               R"(PMAUTHSTATUS|PMLSR|PMIIDR|PMMIR|PMEVCNTSR\d+|PMCCNTSR|PMOVSSR|PMSSSR)");
    static const std::regex rw(R"(PMEVCNTR\d+|PMEVTYPER\d+|PMCCNTR|PMSSRR)");
    static const std::regex w1s(R"(PMCNTENSET|PMINTENSET|PMOVSSET|PMCLAIMSET)");
    static const std::regex w1c(R"(PMCNTENCLR|PMINTENCLR|PMOVSCLR|PMCLAIMCLR)");
    if (std::regex_match(name, ro)) return kind::ro;
    if (std::regex_match(name, rw)) return kind::rw;
    if (std::regex_match(name, w1s)) return kind::w1s;
    if (std::regex_match(name, w1c)) return kind::w1c;
    // PMCR (write-only and RW fields), PMLAR (WO), PMSSCR (WO), the filter registers (present or
    // RAZ/WI by implementation): their own tests
    return kind::other;
}

// Whether an allowed write may be dropped: the register is read-only, or it is write-only with
// nothing to read back (PMLAR, PMSSCR), or an event counter/type the platform does not implement.
inline bool write_may_be_ignored(const std::string& name, unsigned implemented_counters) {
    static const std::regex indexed(R"((?:PMEVCNTR|PMEVTYPER|PMEVFILTR|PMEVCNTSR)(\d+))");
    std::smatch m;
    if (std::regex_match(name, m, indexed) && std::stoul(m[1]) >= implemented_counters) return true;
    return access_kind(name) == kind::ro;
}

} // namespace pmusim::pmu_external
