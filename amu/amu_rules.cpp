// The AMU access rules as one priority-ordered table (docs/amu.md "Access rules").
// Source: DDI0487 M.a.a D24.6 access pseudocode (../shared/reference/amu.md §4),
// plus KVM's policy of injecting UNDEFINED for every guest AMU access (§8.3).
#include "amu/amu.h"

namespace pmusim {

namespace {

constexpr unsigned cls_bit(amu_reg_class c) { return 1u << unsigned(c); }
constexpr unsigned CC = cls_bit(amu_reg_class::counter_or_control);
constexpr unsigned ID = cls_bit(amu_reg_class::id);
constexpr unsigned UE = cls_bit(amu_reg_class::userenr);
constexpr unsigned VO = cls_bit(amu_reg_class::voffset);
constexpr unsigned ALL = CC | ID | UE | VO;
constexpr unsigned EL0 = 1, EL1 = 2, EL2 = 4, EL3 = 8;
constexpr amu_tri X = amu_tri::any, N = amu_tri::no, Y = amu_tri::yes;

bool match(amu_tri t, bool v) { return t == amu_tri::any || (t == amu_tri::yes) == v; }

} // namespace

bool amu_trap_row::matches(const amu_access& a) const {
    return (classes & cls_bit(a.cls)) && a.el <= 3 && (els & (1u << a.el)) && match(write, a.write) &&
           match(kvm_guest, a.kvm_guest) && match(en, a.en) && match(el2_enabled, a.el2_enabled) &&
           match(tge, a.tge) && match(cptr_el2_tam, a.cptr_el2_tam) && match(cptr_el3_tam, a.cptr_el3_tam) &&
           match(scr_amvoffen, a.scr_amvoffen);
}

const std::vector<amu_trap_row>& amu_trap_table() {
    using o = access_outcome;
    //                 id              classes  ELs              write kvm en el2 tge tam2 tam3 amvoffen outcome
    static const std::vector<amu_trap_row> rows = {
        {"id-write",        ID, EL0 | EL1 | EL2 | EL3, Y, X, X, X, X, X, X, X, o::undefined,
         "the register has no MSR form"},
        {"write-below-el3", CC, EL0 | EL1 | EL2,       Y, X, X, X, X, X, X, X, o::undefined,
         "AMU controls and counters are writable only at the highest implemented EL (EL3)"},
        {"el3",             ALL, EL3,                  X, X, X, X, X, X, X, X, o::ok,
         "EL3 accesses every AMU register"},
        {"voff-below-el2",  VO, EL0 | EL1,             X, X, X, X, X, X, X, X, o::undefined,
         "virtual offset registers are UNDEFINED at EL0 and EL1 (FEAT_NV2 not modelled)"},
        {"voff-amvoffen",   VO, EL2,                   X, X, X, X, X, X, X, N, o::trap_el3,
         "SCR_EL3.AMVOFFEN = 0 traps EL2 accesses to the virtual offsets to EL3"},
        {"voff-tam3",       VO, EL2,                   X, X, X, X, X, X, Y, X, o::trap_el3,
         "CPTR_EL3.TAM = 1 traps EL2 AMU accesses to EL3"},
        {"voff-el2",        VO, EL2,                   X, X, X, X, X, X, X, X, o::ok,
         "EL2 accesses the virtual offsets"},
        {"userenr-el0-write", UE, EL0,                 Y, X, X, X, X, X, X, X, o::undefined,
         "EL0 cannot write AMUSERENR_EL0"},
        {"en-tge",          CC | ID, EL0,              X, X, N, Y, Y, X, X, X, o::trap_el2,
         "AMUSERENR_EL0.EN = 0 traps EL0 reads to EL2 when EL2 is enabled and HCR_EL2.TGE = 1"},
        {"en",              CC | ID, EL0,              X, X, N, X, X, X, X, X, o::trap_el1,
         "AMUSERENR_EL0.EN = 0 traps EL0 reads to EL1"},
        {"kvm-guest",       CC | ID | UE, EL0 | EL1,   X, Y, X, X, X, X, X, X, o::undefined,
         "KVM sets CPTR_EL2.TAM for guests and injects UNDEFINED for every AMU access"},
        {"tam2",            CC | ID | UE, EL0 | EL1,   X, X, X, Y, X, Y, X, X, o::trap_el2,
         "CPTR_EL2.TAM = 1 traps EL0/EL1 AMU accesses to EL2 (EL2 enabled)"},
        {"tam3",            CC | ID | UE, EL0 | EL1 | EL2, X, X, X, X, X, X, Y, X, o::trap_el3,
         "CPTR_EL3.TAM = 1 traps EL0-EL2 AMU accesses to EL3"},
        {"allowed",         ALL, EL0 | EL1 | EL2 | EL3, X, X, X, X, X, X, X, X, o::ok,
         "access allowed"},
    };
    return rows;
}

const amu_trap_row& amu_decide(const amu_access& a) {
    for (const auto& r : amu_trap_table())
        if (r.matches(a)) return r;
    return amu_trap_table().back();
}

uint64_t linux_amu_max_freq_scale(uint64_t const_rate_hz, uint64_t max_rate_hz) {
    if (max_rate_hz == 0) return 0;
    return (const_rate_hz << 20) / max_rate_hz;
}

uint64_t linux_amu_freq_scale(uint64_t d_core, uint64_t d_const, uint64_t max_freq_scale) {
    if (d_core == 0 || d_const == 0) return 0;
    uint64_t scale = ((d_core * max_freq_scale) >> 10) / d_const;
    return scale > 1024 ? 1024 : scale;
}

} // namespace pmusim
