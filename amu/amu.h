#pragma once
// The Arm Activity Monitors Unit (FEAT_AMUv1, FEAT_AMUv1p1), one per CPU that
// has the feature, modelled as a single pmusim unit named `amu` that serves
// every AMU CPU through ctx.cpu (docs/amu.md).
//
//   group 0: AMEVCNTR0<0..3>_EL0 over the core's `cycles`, `const_cycles`,
//            `inst`, `mem_stall` event streams;
//   group 1: AMEVCNTR1<n>_EL0, n < cpus[].amu_aux_counters, over injected
//            events (`inject amu.cpuN auxN COUNT [over D]`).
// Counters are 64-bit lazy_counters: never ticked, exact at every instant.
// Optionally each CPU with features.amu_external_view also has a read-only
// memory-mapped AMU frame (FEAT_AMU_EXT32 or EXT64) over the same state.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/integer_map.h"
#include "models/lazy_counter.h"
#include "models/unit.h"

namespace pmusim {

// ---------------------------------------------------------------------------
// Register table (all registers of the architecture; a CPU exposes a subset).
// ---------------------------------------------------------------------------
const register_table& amu_table();

// The memory-mapped external view (ARMARM I4.1, I5.4, I5.5): one 4 KB frame per
// CPU, laid out as FEAT_AMU_EXT32 or FEAT_AMU_EXT64. Its own table per layout
// (unit names amu_ext32 / amu_ext64 in the generated docs and C header).
enum class amu_ext_format { ext32, ext64 };
const register_table& amu_external_table(amu_ext_format format);
// AMPIDR<n> (n = 0..4) as AMIIDR `amiidr` gives it (I5.5.24), and AMDEVAFF for a CPU of pmusim's
// DynamIQ layout: the values the external view reads and its table's reset column.
uint64_t amu_external_pidr(uint64_t amiidr, unsigned n);
uint64_t amu_external_devaff(unsigned cluster, unsigned core_in_cluster);
constexpr uint64_t amu_frame_size = 0x1000;

struct amu_external_options {
    bool enabled = false;            // a `units:` entry of type amu gave the address map
    uint64_t base = 0;               // frame of cpuN at base + N * frame_stride
    uint64_t size = 0;               // the window decoded by the unit (the entry's size)
    uint64_t frame_stride = 0x10000;
    amu_ext_format format = amu_ext_format::ext64;
    uint64_t amiidr = 0x43B;         // AMIIDR (IMP DEF); the AMPIDRn registers follow from it
};

// One CPU's AMU as its `cpus[N].features` describe it (the keys the amu descriptor declares,
// amu/register.cpp).
struct amu_cpu_config {
    unsigned version = 0;       // 0 none, 1 AMUv1, 2 AMUv1p1 (ID_AA64PFR0_EL1.AMU)
    unsigned aux_counters = 0;  // 0..16
    bool external_view = false; // a frame in the external view
    bool fgt = false;           // FEAT_FGT: HAFGRTR_EL2 read traps
};

// The fields the model reads or composes (reg_field: position and width), as the Arm ARM places
// them (DDI0487 M.a.a D24.6: AMCR_EL0, AMCFGR_EL0, AMCGCR_EL0, AMCG1IDR_EL0, AMCNTENSET0_EL0): the
// table (amu_table.cpp) places its fields with these same constants, so each is written once.
namespace amu_field {
constexpr reg_field amcr_cg1rz{17, 1};
constexpr reg_field amcfgr_n{0, 8}, amcfgr_size{8, 6}, amcfgr_hdbg{24, 1}, amcfgr_ncg{28, 4};
constexpr reg_field amcgcr_cg0nc{0, 8}, amcgcr_cg1nc{8, 8};
constexpr reg_field amcg1idr_amevcntr1{0, 16}, amcg1idr_amevcntvoff1{16, 16};
constexpr unsigned architected_counters = 4;
// AMCFGR_EL0 of a CPU with `aux` auxiliary counters: counter groups - 1, HDBG supported, 64-bit
// counters (size - 1), counters in all groups - 1. AMCGCR_EL0: the counters of each group.
constexpr uint64_t amcfgr_value(unsigned aux) {
    return amcfgr_ncg.put(aux > 0 ? 1 : 0) | amcfgr_hdbg.mask() | amcfgr_size.put(63) |
           amcfgr_n.put(architected_counters - 1 + aux);
}
constexpr uint64_t amcgcr_value(unsigned aux) {
    return amcgcr_cg1nc.put(aux) | amcgcr_cg0nc.put(architected_counters);
}
// HAFGRTR_EL2 (D24.2.61): AMCNTEN0 [0], AMEVCNTR0<x> [x+1], AMCNTEN1 [17], AMEVCNTR1<x> [18+2x],
// AMEVTYPER1<x> [19+2x].
constexpr reg_field hafgrtr_amcnten0{0, 1}, hafgrtr_amcnten1{17, 1};
constexpr reg_field hafgrtr_amevcntr0(unsigned x) { return {x + 1, 1}; }
constexpr reg_field hafgrtr_amevcntr1(unsigned x) { return {18 + 2 * x, 1}; }
constexpr reg_field hafgrtr_amevtyper1(unsigned x) { return {19 + 2 * x, 1}; }
constexpr reg_field amcnten0_p{0, 4}; // AMCNTENSET0_EL0.P, AMCNTENCLR0_EL0.P: the 4 architected counters
// The external view (amu_external_table.cpp, DDI0487 I5.5): the EXT64 AMCNTEN* pair the group-0
// and group-1 enables; AMDEVAFF is MPIDR_EL1; AMDEVARCH; AMIIDR and the AMPIDRn that repeat it.
constexpr reg_field ext_cnten_p0{0, 4}, ext_cnten_p1{32, 16};
constexpr reg_field devaff_rao{31, 1}, devaff_mt{24, 1}, devaff_aff2{16, 8}, devaff_aff1{8, 8};
constexpr reg_field devarch_architect{21, 11}, devarch_present{20, 1}, devarch_archid{0, 16};
constexpr reg_field iidr_product_id{20, 12}, iidr_variant{16, 4}, iidr_revision{12, 4}, iidr_implementer{0, 12};
constexpr unsigned iidr_implementer_res0 = 7; // Implementer[7]: the JEP106 parity bit's place, RES0
constexpr reg_field pidr0_part_0{0, 8}, pidr1_des_0{4, 4}, pidr1_part_1{0, 4}, pidr2_revision{4, 4}, pidr2_jedec{3, 1},
                    pidr2_des_1{0, 3}, pidr3_revand{4, 4}, pidr4_des_2{0, 4};
} // namespace amu_field

// What kind of AMU register a table entry is, for the access rules.
enum class amu_reg_class : uint8_t {
    counter_or_control, // AMCR, AMCNTENSET/CLR0/1, AMEVCNTR0/1<n>: MSR only at the highest EL
    id,                 // AMCFGR, AMCGCR, AMCG1IDR, AMEVTYPER0<n>, and AMEVTYPER1<n> (pmusim's aux
                        // events are fixed, so MSR is UNDEFINED at every EL): no MSR form
    userenr,            // AMUSERENR_EL0
    voffset,            // AMEVCNTVOFF0<n>_EL2, AMEVCNTVOFF1<n>_EL2
    hafgrtr,            // HAFGRTR_EL2 (FEAT_FGT)
};
const char* to_string(amu_reg_class c);

struct amu_reg_info {
    amu_reg_class cls = amu_reg_class::id;
    enum kind_t : uint8_t { other, cnt0, cnt1, type0, type1, voff0, voff1, enset0, enclr0, enset1, enclr1, amcr, amcg1idr, hafgrtr } kind = other;
    unsigned index = 0; // n of the array registers
};
const amu_reg_info& amu_info(const register_def& def);

// ---------------------------------------------------------------------------
// Access rules (ARMARM D24.6 access pseudocode, M.a.a; plus the KVM policy).
// ---------------------------------------------------------------------------
struct amu_access {
    amu_reg_class cls = amu_reg_class::counter_or_control;
    bool write = false;
    unsigned el = 0;
    bool kvm_guest = false;   // a guest EL0/EL1 access under a KVM-like hypervisor (guest && !HCR_EL2.AMVOFFEN)
    bool en = false;          // AMUSERENR_EL0.EN
    bool el2_enabled = false; // EL2 enabled in the current security state
    bool tge = false;         // HCR_EL2.TGE
    bool cptr_el2_tam = false;
    bool cptr_el3_tam = false;
    bool scr_amvoffen = false; // SCR_EL3.AMVOFFEN
    bool scr_fgten = false;    // SCR_EL3.FGTEn
    // The register's HAFGRTR_EL2 bit is 1 and the fine-grained trap applies: FEAT_FGT, EL2
    // enabled, HCR_EL2.{E2H,TGE} != {1,1}, SCR_EL3.FGTEn = 1 (D24.2.61).
    bool hafgrtr_trap = false;
};

// A three-valued match: don't care, must be 0, must be 1.
enum class amu_tri : int8_t { any = -1, no = 0, yes = 1 };

struct amu_trap_row {
    const char* id;
    unsigned classes; // bit per amu_reg_class
    unsigned els;     // bit per EL
    amu_tri write, kvm_guest, en, el2_enabled, tge, cptr_el2_tam, cptr_el3_tam, scr_amvoffen, scr_fgten, hafgrtr_trap;
    access_outcome outcome;
    const char* why;
    bool matches(const amu_access& a) const;
};

// The rows in priority order; the first matching row decides. The last row matches everything.
const std::vector<amu_trap_row>& amu_trap_table();
const amu_trap_row& amu_decide(const amu_access& a);

// ---------------------------------------------------------------------------
// The HAFGRTR_EL2 bit that traps MRS of `info`'s register, or -1 when none does.
int amu_hafgrtr_bit(const amu_reg_info& info);

// ---------------------------------------------------------------------------
// Linux's frequency-invariance arithmetic (arch/arm64/kernel/topology.c).
// ---------------------------------------------------------------------------
// arch_max_freq_scale = (ref_rate << 20) / max_rate  (both in Hz, truncating).
uint64_t linux_amu_max_freq_scale(uint64_t const_rate_hz, uint64_t max_rate_hz);
// scale = min(((d_core * max_freq_scale) >> 10) / d_const, 1024); 0 when Linux
// skips the update (a counter did not advance: d_core or d_const is 0).
uint64_t linux_amu_freq_scale(uint64_t d_core, uint64_t d_const, uint64_t max_freq_scale);

// ---------------------------------------------------------------------------
// The unit.
// ---------------------------------------------------------------------------
class amu_unit : public unit, public sysreg_slots, public firmware_profile_code {
public:
    // `cpus[N]` is cpuN's AMU (version 0: none).
    amu_unit(const sc_core::sc_module_name& name, soc& system, std::vector<amu_cpu_config> cpus,
             amu_external_options external = {});

    std::string type() const override { return "amu"; }
    const register_table& table() const override { return amu_table(); }
    std::vector<const register_def*> sysregs(unsigned cpu) const override;
    access_outcome sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) override;
    uint32_t sysreg_slot(unsigned cpu, const register_def& reg) const override;
    void serve_sysreg(uint32_t slot, tlm::tlm_generic_payload& trans, access_context& ctx) override;
    void reset(bool cold) override;
    bool inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                std::string& error) override;
    firmware_code firmware_boot(const std::string& profile) override;
    firmware_code firmware_power_down(const std::string& profile, unsigned cpu) override;
    firmware_code firmware_power_up(const std::string& profile, unsigned cpu) override;
    std::vector<address_window> mmio_windows() const override;
    std::optional<mmio_register> find_mmio_register(const std::string& name) const override;
    void report(std::ostream& out) override;
    void observables(std::vector<observable>& out) override;
    void event_totals(std::vector<event_total>& out) override;

    // For tests and tools: the physical value of a counter now, and the enables.
    bool has_amu(unsigned cpu) const { return cpu < cpus_.size() && cpus_[cpu] != nullptr; }
    uint64_t counter(unsigned cpu, unsigned group, unsigned n);
    uint16_t enables(unsigned cpu, unsigned group) const;
    // Whether register `def` exists on `cpu` (version and aux-counter count).
    bool implemented(unsigned cpu, const register_def& def) const;
    // Whether `cpu` has an external AMU frame, and its absolute base address.
    bool has_frame(unsigned cpu) const { return has_amu(cpu) && cpus_[cpu]->frame != nullptr; }
    uint64_t frame_base(unsigned cpu) const { return external_.base + cpu * external_.frame_stride; }

    static constexpr uint64_t aux_event_base = 0x0300; // AMEVTYPER1<n>.evtCount = 0x300 + n (IMP DEF choice)

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    struct cpu_amu {
        unsigned cpu = 0;
        unsigned version = 0; // 1 AMUv1, 2 AMUv1p1
        unsigned aux = 0;     // implemented group-1 counters (0..16)
        bool fgt = false;     // FEAT_FGT: HAFGRTR_EL2 exists
        std::unique_ptr<register_bank> bank;
        // Bank entries the access rules and reads consult on every access, resolved once.
        register_bank::reg* userenr = nullptr;
        register_bank::reg* hafgrtr = nullptr;
        register_bank::reg* amcr = nullptr;
        std::array<register_bank::reg*, 4> voff0{};  // null for counter 1 (CNT_CYCLES has no offset)
        std::array<register_bank::reg*, 16> voff1{};
        // The CPU's control registers the rule reads (cpu_controls' bank entries), resolved once.
        const register_bank::reg* scr_el3 = nullptr;
        const register_bank::reg* hcr_el2 = nullptr;
        const register_bank::reg* cptr_el2 = nullptr;
        const register_bank::reg* cptr_el3 = nullptr;
        std::unique_ptr<register_bank> frame; // the external view; null without features.amu_external_view
        std::array<lazy_counter, 4> g0;
        std::array<lazy_counter, 16> g1;
        std::array<injected_events, 16> aux_in;
        uint16_t en0 = 0, en1 = 0;
        // TF-A's save area for power-down (psci_suspend_pwrdown_start/finish): the values its
        // EL3 reads returned, taken at the power-off instant while the counters are disabled.
        bool saved = false;
        std::array<uint64_t, 4> saved_g0{};
        std::array<uint64_t, 16> saved_g1{};
        uint16_t aux_mask() const { return uint16_t(aux >= 16 ? 0xffff : (1u << aux) - 1); }
    };

    void amu_reset(cpu_amu& c, fs_t now);
    [[gnu::cold]] void answer_undefined(tlm::tlm_generic_payload& trans, access_context& ctx) const;
    access_outcome decide(access_context& ctx, const cpu_amu& c, const register_def& reg, bool is_write) const;
    void apply_enables(cpu_amu& c, fs_t now);
    void on_power(cpu_amu& c, power_state to);
    // The per-access steps take the register's amu_info, looked up once per access.
    static bool implemented(const cpu_amu& c, const amu_reg_info& info);
    // What a read returns: the virtual offsets and CG1RZ apply to counter reads below EL3 only,
    // so EL3's and every non-counter read return the value as is (inline: the common case).
    uint64_t adjust_read(cpu_amu& c, const amu_reg_info& info, uint64_t value, const access_context& ctx) const {
        if (ctx.el >= 3 || (info.kind != amu_reg_info::cnt0 && info.kind != amu_reg_info::cnt1)) return value;
        return adjust_counter_read(c, info, value, ctx);
    }
    uint64_t adjust_counter_read(cpu_amu& c, const amu_reg_info& info, uint64_t value, const access_context& ctx) const;
    [[gnu::cold]] access_outcome refuse_access(access_context& ctx, const register_def& reg, bool is_write,
                                 const amu_trap_row* row) const; // out of the hot path: builds the message
    void build_frame(cpu_amu& c, unsigned cluster, unsigned core_in_cluster);     // amu_external.cpp
    void frame_access(tlm::tlm_generic_payload& trans, access_context& ctx);     // amu_external.cpp
    bool tf_a() const { return system_.firmware_profile == "tf-a"; }

    std::vector<std::unique_ptr<cpu_amu>> cpus_; // by CPU index; null for CPUs without the AMU
    // Every CPU's implemented system registers, numbered (the gate's slots), with the CPU and the
    // rule information: nothing to look up per access instead of the CPU's, the bank's, amu_info's
    // and implemented()'s. slot_of_ numbers them by (cpu << 32 | encoding key).
    struct served {
        cpu_amu* cpu = nullptr;
        register_bank::reg* reg = nullptr;
        const amu_reg_info* info = nullptr;
    };
    std::vector<served> served_;
    [[gnu::noinline]] void serve_sysreg_otherwise(const served& s, tlm::tlm_generic_payload& trans,
                                                  access_context& ctx); // MSR, and reads shorter than 8 bytes
    integer_map<uint32_t> slot_of_;
    amu_external_options external_;
};

} // namespace pmusim
