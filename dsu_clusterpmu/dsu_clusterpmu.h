#pragma once
// The Arm DynamIQ Shared Unit cluster PMU (CLUSTERPMU): one per DSU cluster,
// seen through the cores' CLUSTERPM*_EL1 system registers and through the
// memory-mapped (Debug APB) CLUSTERPMU frame. Both views are one state.
// docs/dsu_clusterpmu.md describes the model; tests/facts/dsu.tsv cites each fact's primary source.
#include <array>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "models/direct_mmio_target.h"
#include "models/event_source.h"
#include "models/lazy_counter.h"
#include "models/pmu_counter_unit.h"
#include "models/unit_capabilities.h"

namespace pmusim {

enum class dsu_variant { original, dsu110, dsu120 };
const char* to_string(dsu_variant v);

// The positions of the fields the model reads or composes: the tables (dsu_tables.cpp) place
// their fields with these same constants, so each position is written once.
namespace dsu_field {
constexpr reg_field pmcr_e{0, 1}, pmcr_p{1, 1}, pmcr_c{2, 1}, pmcr_x{4, 1}, pmcr_lc{6, 1}, pmcr_fzo{9, 1}, pmcr_n{11, 5},
                    pmcr_imp{24, 8};
constexpr uint32_t pmcr_imp_arm = 0x41;           // CLUSTERPMCR_EL1.IMP as the model reads it
constexpr unsigned cycle_counter = 31;            // C: the cycle counter's index in the CNTEN/INTEN/OVS/SSRR bitmaps
// Counter n's flag in those bitmaps: bit n, the cycle counter's at 31.
constexpr reg_field counter_flag(unsigned n) { return {n, 1}; }
constexpr reg_field cycle_counter_flag = counter_flag(cycle_counter);
constexpr reg_field evtype_count{0, 16};          // evtCount [15:0]
constexpr reg_field evtype_ns{29, 1}, evtype_s{31, 1}; // PMEVTYPER.NS, .S
constexpr reg_field mdcr_spme{0, 1}, mdcr_epmad{1, 1}; // CLUSTERPMMDCR_EL3.SPME, .EPMAD
constexpr reg_field pmcfgr_n{0, 8}, pmcfgr_size{8, 6}, pmcfgr_cc{14, 1}, pmcfgr_ex{16, 1}, pmcfgr_fzo{21, 1},
                    pmcfgr_ss{22, 1};
constexpr reg_field selr_sel{0, 5};               // CLUSTERPMSELR_EL1.SEL
// The external frame's CoreSight pages: claim tags, software lock, authentication status.
constexpr reg_field claim{0, 4};                  // PMCLAIMSET/CLR.CLAIM
constexpr reg_field lsr_sli{0, 1}, lsr_slk{1, 1}; // PMLSR: lock implemented, locked
constexpr reg_field authstatus_sid{4, 2}, authstatus_snid{6, 2};
constexpr uint64_t auth_secure_enabled = 0b11, auth_secure_disabled = 0b10; // PMAUTHSTATUS.SID/SNID values
constexpr reg_field pidr0_part_0{0, 8}, pidr1_part_1{0, 4}, pidr1_des_0{4, 4}; // PMPIDR0/1: part number, JEP106 [3:0]
constexpr reg_field devaff_aff1{8, 8}; // PMDEVAFF0: the cluster number in Aff1, as MPIDR_EL1 places it
constexpr reg_field sscr_ss{0, 1};                // PMSSCR.SS: capture now
// The model control page: CTL_OSLOCK.OSLK, CTL_DLOCK.DLK and CTL_AUTH, the authentication inputs.
constexpr reg_field ctl_oslk{0, 1}, ctl_dlk{0, 1};
constexpr reg_field ctl_dbgen{0, 1}, ctl_niden{1, 1}, ctl_spiden{2, 1}, ctl_spniden{3, 1};
constexpr uint32_t ctl_auth_all = ctl_dbgen.mask() | ctl_niden.mask() | ctl_spiden.mask() | ctl_spniden.mask();
// PMAUTHSTATUS from CTL_AUTH: SID = SNID = 0b11 when DBGEN and SPIDEN are set, else 0b10
// ([TRM120] CLUSTERPMU_PMAUTHSTATUS); the Non-secure fields read 0.
constexpr uint64_t authstatus_value(uint32_t ctl_auth) {
    const uint64_t sid = ctl_dbgen.in(ctl_auth) && ctl_spiden.in(ctl_auth) ? auth_secure_enabled : auth_secure_disabled;
    return authstatus_sid.put(sid) | authstatus_snid.put(sid);
}
constexpr uint32_t evtype_writable = evtype_count.mask() | evtype_ns.mask() | evtype_s.mask();
constexpr uint32_t mdcr_writable = mdcr_spme.mask() | mdcr_epmad.mask();
} // namespace dsu_field

// The unit's register table for a variant (system registers and memory-mapped
// frame in one table; the names differ: CLUSTERPMCR_EL1 vs PMCR).
const register_table& dsu_table(dsu_variant v);

// One implemented event.
struct dsu_event_info {
    uint16_t code;
    const char* mnemonic;   // TRM name
    const char* perf_name;  // Linux arm_dsu_pmu sysfs name or lower-case mnemonic
    std::vector<const char*> keys;   // core workload keys summed (empty for clock events)
    std::vector<uint16_t> parts;     // events whose injections also count here
    bool clock_event;                // counts DSU clock edges (CYCLES, BUS_CYCLES)
};
const std::vector<dsu_event_info>& dsu_events();
// Event code by number ("0x2b", "43") or name (perf or mnemonic, any case); -1 if unknown.
int dsu_event_code(const std::string& text);
// CLUSTERPMCEID0/1 for the implemented events.
uint32_t dsu_ceid(unsigned word);

struct dsu_options {
    dsu_variant variant = dsu_variant::dsu110;
    unsigned counters = 6;
    bool filter_reading_b = false; // PMEVTYPER S/NS reading (docs/dsu_clusterpmu.md); false = reading A
    bool irq_needs_enable = false; // nCLUSTERPMUIRQ also needs PMCR.E
    bool software_lock = false;    // PMLAR/PMLSR implemented (memory-mapped CPU accesses)
    bool mdcr_el1_alias = false;   // CLUSTERPMMDCR also at op1=0 (Linux header's CLUSTERPMMDCR_EL1)
};

class dsu_clusterpmu : public pmu_counter_unit, public direct_mmio_target, public model_inputs, public firmware_profile_code {
public:
    SC_HAS_PROCESS(dsu_clusterpmu);
    dsu_clusterpmu(const sc_core::sc_module_name& name, soc& system, dsu_options options, std::string clock,
                   std::vector<unsigned> cpus, std::string irq, uint64_t base, uint64_t size);

    std::string type() const override { return "dsu_clusterpmu"; }
    const register_table& table() const override { return dsu_table(opt_.variant); }
    std::vector<address_window> mmio_windows() const override;
    // The model control page (base + 0x1000: CTL_OSLOCK, CTL_DLOCK, CTL_AUTH, CTL_PWRSTAT) holds
    // the cluster's lock inputs and authentication pins: testbench-only (unit.h).
    static constexpr uint64_t model_control_page = 0x1000;
    bool is_model_input(const register_def& def) const override;
    bool testbench_input(const register_def& def, bool is_write, uint64_t& value) override;
    std::vector<const register_def*> sysregs(unsigned cpu) const override;
    access_outcome sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) override;
    void reset(bool cold) override;
    firmware_code firmware_boot(const std::string& profile) override;
    void report(std::ostream& out) override;
    void observables(std::vector<observable>& out) override;
    void control_registers(std::vector<observable>& out) override;
    void event_totals(std::vector<event_total>& out) override;

    const dsu_options& options() const { return opt_; }
    // Whether any core of the cluster is on: kept by the cores' power-change listeners, so that the
    // frame's access rule reads one flag instead of walking the cores on every access.
    bool cluster_powered() const { return powered_; }
    bool irq_level() const { return irq_ ? irq_->level() : irq_state_; }

    // The memory-mapped frame, from the system bus directly (models/direct_mmio_target.h) or
    // through the register socket. A plain read (see plain_counters_) is served here; everything
    // else by serve_memory_mapped_in_full.
    void serve_memory_mapped(tlm::tlm_generic_payload& trans, access_context& ctx) override;

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    // A register of this unit's frame (def.offset set) on the model control page.
    static bool in_model_control_page(const register_def& def) { return *def.offset >= model_control_page; }
    // The access log's note for a write to an event counter or type register beyond N.
    [[gnu::noinline]] void note_unimplemented_counter(const register_def& def, access_context& ctx) const;
    struct event_feed {
        const dsu_event_info* info = nullptr;
        summed_source secure, nonsecure, all;
        injected_events injected;
    };
    // External (memory-mapped) access conditions: ok, ignored (writes) or error (then ctx.outcome
    // and ctx.detail say why). Inline for the common case: a read of the control page, or of the
    // PMU while the cluster is powered, unlocked and external access is allowed.
    access_outcome external_rule(access_context& ctx, const register_def& def, bool is_write) const {
        if (!is_write && !dlk_ && !oslk_ && external_authenticated(ctx.secure) && cluster_powered())
            return access_outcome::ok;
        return external_rule_in_full(ctx, def, is_write);
    }
    access_outcome external_rule_in_full(access_context& ctx, const register_def& def, bool is_write) const;
    // What serve_memory_mapped does not serve itself: decode, frame rule, notes, bank access.
    [[gnu::noinline]] void serve_memory_mapped_in_full(tlm::tlm_generic_payload& trans, access_context& ctx);
    // Whether a read from security state `secure` passes the frame rule now (powered, neither lock
    // set, authenticated): frame_open_ caches it, one bit per state; refresh_frame_open() recomputes
    // it after every change of its inputs (apply(), which every hooked register write runs; reset;
    // a core's power change).
    void refresh_frame_open() {
        const bool open = !dlk_ && !oslk_ && cluster_powered();
        frame_open_ = uint8_t((open && external_authenticated(false)) | (open && external_authenticated(true)) << 1);
    }
    // Builds plain_counters_ from the bank (after bind_hooks).
    void index_plain_counters();
    // DBGEN/NIDEN (and SPIDEN/SPNIDEN for Secure; not EPMAD for Non-secure) allow external access.
    bool external_authenticated(bool secure) const {
        using namespace dsu_field;
        const bool dbgen = ctl_dbgen.in(auth_), niden = ctl_niden.in(auth_), spiden = ctl_spiden.in(auth_),
                   spniden = ctl_spniden.in(auth_);
        return (dbgen || niden) && (secure ? (spiden || spniden) : !mdcr_epmad.in(mdcr_));
    }
    [[gnu::cold]] access_outcome refuse_external(access_context& ctx, access_outcome outcome, const char* why) const;
    void bind_hooks();
    void apply() override; // counter sources and enables from the registers
    void update_irq() override;
    void power_down();  // the cluster lost power: the PMU state is lost
    void state_reset();
    void capture();     // snapshot (PMSSCR.SS)
    const event_source* source_for(unsigned n) const;
    uint32_t impl_mask() const;
    uint32_t event_mask() const { return opt_.counters >= 32 ? 0x7fffffffu : ((1u << opt_.counters) - 1); }
    bool has_cc() const { return opt_.variant != dsu_variant::dsu120; }
    uint64_t pmcr_value() const;
    uint64_t pmcfgr_value() const;
    uint64_t read_counter(unsigned n);
    void write_counter(unsigned n, uint64_t v);

    dsu_options opt_;
    const clock_domain& clock_;
    std::vector<unsigned> cpus_;
    interrupt_line* irq_ = nullptr;
    bool irq_state_ = false;
    uint64_t base_, size_;
    std::unique_ptr<register_bank> bank_;
    // The frame registers the external access rule singles out, resolved once (not by name per access).
    const register_def* pmauthstatus_ = nullptr;
    const register_def* pmlar_ = nullptr;
    const register_def* pmlsr_ = nullptr;

    clock_edges cycles_;
    std::vector<std::unique_ptr<filtered_source>> filtered_;
    std::vector<std::unique_ptr<event_feed>> feeds_;
    event_feed* feed(uint16_t code) const;

    // State
    std::array<lazy_counter, 31> ctr_;
    lazy_counter cc_{64};
    std::array<uint32_t, 31> evtype_{};
    bool e_ = false, x_ = false, fzo_ = false;
    uint32_t cnten_ = 0, inten_ = 0, selr_ = 0;
    uint64_t mdcr_ = 0;
    // Snapshot
    std::array<uint64_t, 31> cntsr_{};
    uint64_t ccntsr_ = 0;
    uint32_t ovssr_ = 0, ssrr_ = 0;
    bool nc_ = true;
    uint32_t claim_ = 0;
    bool slk_ = true;
    // Model inputs (control page): cluster OS lock, double lock, authentication signals.
    bool oslk_ = false, dlk_ = false;
    uint32_t auth_ = dsu_field::ctl_auth_all; // DBGEN, NIDEN, SPIDEN, SPNIDEN
    bool any_core_powered() const;
    bool powered_ = true; // cluster_powered()
    uint8_t frame_open_ = 0; // bit 0: Non-secure reads pass the frame rule, bit 1: Secure ones
    // The plain read, scenario 2's memory-mapped path (docs/performance.md): an aligned 4- or 8-byte
    // read at the offset of a counter register of the PMU page that reads its count through no field
    // rule but the width, while the frame is open and no overflow can have happened. It is the bank
    // read without the decode's indirections, the rule's walk or the hooks: entry offset / 4 of
    // plain_counters_ is that register's counter and kept bits (counter null: not such a register).
    struct plain_counter {
        lazy_counter* counter = nullptr;
        uint64_t kept = 0;
    };
    std::vector<plain_counter> plain_counters_;
};

// Builds a dsu_clusterpmu from a platform unit entry (registered by register_dsu_units).
struct unit_entry;
struct platform_view;
std::unique_ptr<unit> make_dsu_clusterpmu(soc& system, const unit_entry& u, const platform_view& p);

} // namespace pmusim
