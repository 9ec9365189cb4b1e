// The AMU access rules as one priority-ordered table (docs/amu.md "Access rules").
// Source: DDI0487 M.a.a D24.6 access pseudocode (each AMU register's MRS/MSR accessibility),
// plus KVM's policy of injecting UNDEFINED for every guest AMU access (Linux
// arch/arm64/kvm/sys_regs.c@v6.1: undef_access on every AMU register of sys_reg_descs), and
// HAFGRTR_EL2 (D24.2.61, FEAT_FGT) for the CPUs with features.fgt.
#include "amu/amu.h"

#include <array>

namespace pmusim {

namespace {

constexpr unsigned cls_bit(amu_reg_class c) { return 1u << unsigned(c); }
constexpr unsigned CC = cls_bit(amu_reg_class::counter_or_control);
constexpr unsigned ID = cls_bit(amu_reg_class::id);
constexpr unsigned UE = cls_bit(amu_reg_class::userenr);
constexpr unsigned VO = cls_bit(amu_reg_class::voffset);
constexpr unsigned FG = cls_bit(amu_reg_class::hafgrtr);
constexpr unsigned ALL = CC | ID | UE | VO | FG;
constexpr unsigned EL0 = 1, EL1 = 2, EL2 = 4, EL3 = 8;
constexpr amu_tri X = amu_tri::any, N = amu_tri::no, Y = amu_tri::yes;

bool match(amu_tri t, bool v) { return t == amu_tri::any || (t == amu_tri::yes) == v; }

} // namespace

bool amu_trap_row::matches(const amu_access& a) const {
    return (classes & cls_bit(a.cls)) && a.el <= 3 && (els & (1u << a.el)) && match(write, a.write) &&
           match(kvm_guest, a.kvm_guest) && match(en, a.en) && match(el2_enabled, a.el2_enabled) &&
           match(tge, a.tge) && match(cptr_el2_tam, a.cptr_el2_tam) && match(cptr_el3_tam, a.cptr_el3_tam) &&
           match(scr_amvoffen, a.scr_amvoffen) && match(scr_fgten, a.scr_fgten) && match(hafgrtr_trap, a.hafgrtr_trap);
}

const std::vector<amu_trap_row>& amu_trap_table() {
    using o = access_outcome;
    //                 id              classes  ELs              write kvm en el2 tge tam2 tam3 amvoffen fgten hafgrtr outcome
    static const std::vector<amu_trap_row> rows = {
        {"id-write",        ID, EL0 | EL1 | EL2 | EL3, Y, X, X, X, X, X, X, X, X, X, o::undefined,
         "the register has no MSR form"},
        {"write-below-el3", CC, EL0 | EL1 | EL2,       Y, X, X, X, X, X, X, X, X, X, o::undefined,
         "AMU controls and counters are writable only at the highest implemented EL (EL3)"},
        {"el3",             ALL, EL3,                  X, X, X, X, X, X, X, X, X, X, o::ok,
         "EL3 accesses every AMU register"},
        {"voff-below-el2",  VO, EL0 | EL1,             X, X, X, X, X, X, X, X, X, X, o::undefined,
         "virtual offset registers are UNDEFINED at EL0 and EL1 (FEAT_NV2 not modelled)"},
        {"voff-amvoffen",   VO, EL2,                   X, X, X, X, X, X, X, N, X, X, o::trap_el3,
         "SCR_EL3.AMVOFFEN = 0 traps EL2 accesses to the virtual offsets to EL3"},
        {"voff-tam3",       VO, EL2,                   X, X, X, X, X, X, Y, X, X, X, o::trap_el3,
         "CPTR_EL3.TAM = 1 traps EL2 AMU accesses to EL3"},
        {"voff-el2",        VO, EL2,                   X, X, X, X, X, X, X, X, X, X, o::ok,
         "EL2 accesses the virtual offsets"},
        {"fgt-below-el2",   FG, EL0 | EL1,             X, X, X, X, X, X, X, X, X, X, o::undefined,
         "HAFGRTR_EL2 is UNDEFINED at EL0 and EL1 (FEAT_NV not modelled)"},
        {"fgt-fgten",       FG, EL2,                   X, X, X, X, X, X, X, X, N, X, o::trap_el3,
         "SCR_EL3.FGTEn = 0 traps EL2 accesses to HAFGRTR_EL2 to EL3"},
        {"userenr-el0-write", UE, EL0,                 Y, X, X, X, X, X, X, X, X, X, o::undefined,
         "EL0 cannot write AMUSERENR_EL0"},
        {"en-tge",          CC | ID, EL0,              X, X, N, Y, Y, X, X, X, X, X, o::trap_el2,
         "AMUSERENR_EL0.EN = 0 traps EL0 reads to EL2 when EL2 is enabled and HCR_EL2.TGE = 1"},
        {"en",              CC | ID, EL0,              X, X, N, X, X, X, X, X, X, X, o::trap_el1,
         "AMUSERENR_EL0.EN = 0 traps EL0 reads to EL1"},
        {"kvm-guest",       CC | ID | UE, EL0 | EL1,   X, Y, X, X, X, X, X, X, X, X, o::undefined,
         "KVM sets CPTR_EL2.TAM for guests and injects UNDEFINED for every AMU access"},
        {"tam2",            CC | ID | UE, EL0 | EL1,   X, X, X, Y, X, Y, X, X, X, X, o::trap_el2,
         "CPTR_EL2.TAM = 1 traps EL0/EL1 AMU accesses to EL2 (EL2 enabled)"},
        {"hafgrtr",         CC | ID, EL0 | EL1,        N, X, X, X, X, X, X, X, X, Y, o::trap_el2,
         "the register's HAFGRTR_EL2 bit traps EL0/EL1 reads to EL2 (FEAT_FGT, SCR_EL3.FGTEn = 1, {E2H,TGE} != {1,1})"},
        {"tam3",            CC | ID | UE, EL0 | EL1 | EL2, X, X, X, X, X, X, Y, X, X, X, o::trap_el3,
         "CPTR_EL3.TAM = 1 traps EL0-EL2 AMU accesses to EL3"},
        {"allowed",         ALL, EL0 | EL1 | EL2 | EL3, X, X, X, X, X, X, X, X, X, X, o::ok,
         "access allowed"},
    };
    return rows;
}

namespace {

const amu_trap_row& first_matching_row(const amu_access& a) {
    for (const auto& r : amu_trap_table())
        if (r.matches(a)) return r;
    return amu_trap_table().back();
}

// The decision depends on nothing but the fifteen bits of amu_access (class, EL, ten flags), and it
// is asked on every AMU access: each distinct input walks the table once, and its row is kept.
constexpr unsigned decision_inputs = 3 + 2 + 10;

size_t decision_index(const amu_access& a) {
    return (size_t(a.cls) << 12) | (size_t(a.el) << 10) | (size_t(a.write) << 9) | (size_t(a.kvm_guest) << 8) |
           (size_t(a.en) << 7) | (size_t(a.el2_enabled) << 6) | (size_t(a.tge) << 5) | (size_t(a.cptr_el2_tam) << 4) |
           (size_t(a.cptr_el3_tam) << 3) | (size_t(a.scr_amvoffen) << 2) | (size_t(a.scr_fgten) << 1) |
           size_t(a.hafgrtr_trap);
}

} // namespace

const amu_trap_row& amu_decide(const amu_access& a) {
    if (a.el > 3 || unsigned(a.cls) >= 8) return first_matching_row(a); // outside the kept inputs
    static std::array<uint8_t, size_t(1) << decision_inputs> decided{}; // row index + 1; 0: not walked yet
    static_assert(sizeof(decided) == 32768, "15 input bits");
    const std::vector<amu_trap_row>& rows = amu_trap_table();
    uint8_t& known = decided[decision_index(a)];
    if (known) return rows[known - 1];
    const amu_trap_row& row = first_matching_row(a);
    known = uint8_t(&row - rows.data() + 1);
    return row;
}

int amu_hafgrtr_bit(const amu_reg_info& i) {
    using namespace amu_field;
    switch (i.kind) {
    case amu_reg_info::enset0:
    case amu_reg_info::enclr0: return int(hafgrtr_amcnten0.lsb);
    case amu_reg_info::cnt0: return int(hafgrtr_amevcntr0(i.index).lsb);
    case amu_reg_info::enset1:
    case amu_reg_info::enclr1: return int(hafgrtr_amcnten1.lsb);
    case amu_reg_info::cnt1: return int(hafgrtr_amevcntr1(i.index).lsb);
    case amu_reg_info::type1: return int(hafgrtr_amevtyper1(i.index).lsb);
    default: return -1;
    }
}

// Linux's fixed point: SCHED_CAPACITY_SHIFT (include/linux/sched.h); arch_max_freq_scale carries
// twice its fraction bits (arch/arm64/kernel/topology.c).
constexpr unsigned sched_capacity_shift = 10;
constexpr uint64_t sched_capacity_scale = uint64_t(1) << sched_capacity_shift;

uint64_t linux_amu_max_freq_scale(uint64_t const_rate_hz, uint64_t max_rate_hz) {
    if (max_rate_hz == 0) return 0;
    return (const_rate_hz << (2 * sched_capacity_shift)) / max_rate_hz;
}

uint64_t linux_amu_freq_scale(uint64_t d_core, uint64_t d_const, uint64_t max_freq_scale) {
    if (d_core == 0 || d_const == 0) return 0;
    uint64_t scale = ((d_core * max_freq_scale) >> sched_capacity_shift) / d_const;
    return scale > sched_capacity_scale ? sched_capacity_scale : scale;
}

} // namespace pmusim
