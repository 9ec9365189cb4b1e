#pragma once
// The Arm CoreLink CMN-600 coherent mesh network as the PMU software sees it:
// the configuration space (every node's node_info, child_info and child
// pointers, the XPs' port connect info, the CFG node's identification), the
// per-XP DTM (four 16-bit local counters, pmu_config, event selection,
// watchpoint registers, shadow registers), the node event selectors and the
// DTC (eight 32-bit global counters, the 40-bit cycle counter, overflow status,
// snapshot, the overflow interrupt). Node and XP events come from constant
// rates, injections and the flit-level traffic (cmn/cmn_traffic.h), whose flits
// the DTM watchpoints match. docs/cmn.md describes the model; tests/facts/cmn.tsv
// cites each fact's primary source (CMN-600 TRM 100180, cmn-tools regdefs, Linux arm-cmn.c).
#include <array>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <unordered_map>
#include <vector>

#include "cmn/cmn_events.h"
#include "cmn/cmn_flows.h"
#include "cmn/cmn_mesh.h"
#include "cmn/cmn_traffic.h"
#include "models/event_source.h"
#include "models/lazy_counter.h"
#include "models/overflow_scheduler.h"
#include "models/reference_mode.h"
#include "models/unit.h"
#include "models/unit_command.h"

namespace pmusim {

// The register tables, one per kind of node region (offsets from the node's base).
const register_table& cmn600_cfg_table();  // the root CFG node
const register_table& cmn600_xp_table();   // an XP and its DTM
const register_table& cmn600_dtc_table();  // the DTC
// A device node (HN-F, HN-I, DN, RN-I, RN-D, SBSX, CXRA, CXHA): its event selector's widths depend on the type.
const register_table& cmn600_node_table(cmn_node_type type);
// The table of a node's region, by the node's type (an external node has no region in this mesh).
const register_table& cmn600_table_for(const cmn_node& n);

// The positions of the fields the model reads: the tables (cmn_tables.cpp) place their fields
// with these same constants, so each position is written once.
namespace cmn_field {
// Every node's identity: node_info, child_info and the child pointers at child_pointers_at + 8n.
constexpr reg_field node_type{0, 16}, node_id{16, 16}, logical_id{32, 16};
constexpr reg_field child_count{0, 16}, child_ptr_offset{16, 16};
constexpr uint64_t child_pointers_at = 0x100; // child_ptr_offset's value
constexpr reg_field child_offset{0, 28}, child_external{31, 1};
// The CFG node's identification (por_cfgm_periph_id_0_1, _2_3) and configuration (por_info_global).
constexpr reg_field periph_part_0{0, 8}, periph_part_1{32, 4}, periph_jep106_id_3_0{36, 4};
constexpr reg_field periph_jep106_id_6_4{0, 3}, periph_jedec{3, 1}, periph_revision{4, 4};
// por_cfgm_component_id_0_1 and _2_3: two 32-bit CoreSight ID registers' bytes, at [7:0] and [39:32].
constexpr reg_field component_id_even{0, 8}, component_id_odd{32, 8};
constexpr reg_field info_chi_req_addr_width{8, 8}, info_physical_address_width{16, 8};
// XP pmu_event_sel: event n's ID [8n+7:8n]; a device node's event n in the same byte (its width
// per node type, the rest RES0) and its occupancy filter occup1_id at [35:32] at most.
constexpr reg_field xp_event_id(unsigned n) { return {8 * n, 8}; }
constexpr reg_field node_occup1_id{32, 4}; // 4 bits on DN, 3 on HN-F (the table's node_layout)
// por_dtm_wpN_config
constexpr reg_field wp_dev_sel{0, 1}, wp_chn_sel{1, 3}, wp_grp{4, 1}, wp_exclusive{5, 1}, wp_combine{6, 1};
// por_dtm_pmu_config; pmevcnt_paired's bit n pairs local counter n
constexpr reg_field dtm_pmu_en{0, 1}, dtm_pmevcnt01_combined{1, 1}, dtm_pmevcnt23_combined{2, 1},
                    dtm_pmevcnt_paired{4, 4}, dtm_cntr_rst{8, 1};
constexpr reg_field dtm_pmevcnt_paired_n(unsigned n) { return {dtm_pmevcnt_paired.lsb + n, 1}; }
constexpr reg_field dtm_global_num(unsigned n) { return {16 + 4 * n, 3}; }
constexpr reg_field dtm_input_sel(unsigned n) { return {32 + 8 * n, 6}; }
// input_sel values: 0-3 watchpoint n, 4-7 the XP's event n, and from 0x10 to 0x2F (two ports)
// 0x10 + (port << 4) + (device << 2) + k: event k of the device node(s) at (port, device).
constexpr unsigned input_sel_xp_events = 4, input_sel_node_events = 0x10, input_sel_last = 0x2F;
constexpr reg_field input_sel_port_plus_1{4, 2}, input_sel_device{2, 2}, input_sel_output{0, 2};
// por_dtm_pmevcnt: local counter n [16n+15:16n]; a combined pair is one counter of twice the width.
constexpr reg_field dtm_pmevcnt(unsigned n) { return {16 * n, 16}; }
constexpr unsigned dtm_pmevcnt_bits = dtm_pmevcnt(0).width;
// por_dt_dtc_ctl, por_dt_pmcr, por_dt_pmovsr (and the status bits of pmovsr_clr and pmssr)
constexpr reg_field dtc_dt_en{0, 1};
// por_dt_pmevcnt<pair> and por_dt_pmevcntsr<pair>: global counter 2p in the low half, 2p+1 in the high.
constexpr reg_field dtc_pmevcnt_even{0, 32}, dtc_pmevcnt_odd{32, 32};
constexpr reg_field pmcr_pmu_en{0, 1}, pmcr_cntr_rst{5, 1}, pmcr_ovfl_intr_en{6, 1};
constexpr reg_field pmovsr_cycle_counter{8, 1}; // [7:0]: the global counters
constexpr uint64_t pmovsr_all = (pmovsr_cycle_counter.mask() << 1) - 1;
constexpr reg_field pmsrr_ss_req{0, 1};
} // namespace cmn_field

enum class cmn600_revision { r1p0, r1p1, r1p2, r1p3, r2p0, r3p0, r3p1 };

struct cmn600_options {
    uint64_t periphbase = 0;
    uint64_t window_size = 64ull << 20;
    cmn600_revision revision = cmn600_revision::r1p3;
};

// A constant event rate of one node event, from the platform's `events` text.
struct cmn600_rate {
    size_t node;
    cmn_event_ref event;
    rational rate; // events per mesh-clock cycle
};

// The unit commands of this type (cmn_traffic_command.cpp): `traffic`.
unit_command cmn_traffic_command();

class cmn600 : public unit, public derived_params, private cmn_traffic_sink {
public:
    SC_HAS_PROCESS(cmn600);
    cmn600(const sc_core::sc_module_name& name, soc& system, cmn_mesh mesh, cmn600_options options,
           std::string clock, std::string irq, std::vector<cmn600_rate> rates, cmn_traffic_timing timing = {},
           std::vector<cmn_generator_config> generators = {}, std::vector<cmn_flow_config> flows = {},
           bool flows_per_request = false);

    std::string type() const override { return "cmn600"; }
    const register_table& table() const override { return cmn600_cfg_table(); }
    std::vector<address_window> mmio_windows() const override;
    // "NODE.REGISTER": "dtc0.por_dt_pmcr", "xp_1_0.por_dtm_pmu_config", "hnf0.pmu_event_sel".
    std::optional<mmio_register> find_mmio_register(const std::string& name) const override;
    void reset(bool cold) override;
    // root_node_offset and periphbase as in use (derived from the HN-D port and the unit's base).
    std::optional<std::string> param_in_use(const std::string& param) const override;
    // `inject cmn0.NODE EVENT COUNT`: a node event (by name or ID), an XP event, or wp0..wp3 on an XP.
    bool inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                std::string& error) override;
    // The `traffic` command (cmn_traffic_command.cpp), `cmn0 traffic X,Y pP[.D] off|KEY=VALUE...`: the
    // requester's generator from now on (docs/cmn.md); false with `error` set when refused.
    bool set_traffic(const std::vector<std::string>& requester, const std::vector<std::string>& settings,
                     std::string& error);
    void report(std::ostream& out) override;
    void observables(std::vector<observable>& out) override;
    void control_registers(std::vector<observable>& out) override;
    // Ground truth for `pmusim simulate`: instances `cmn0.xpN` (N the XP's logical ID) and the device nodes.
    void event_totals(std::vector<event_total>& out) override;

    const cmn_mesh& mesh() const { return mesh_; }
    uint32_t overflow_status(); // por_dt_pmovsr after catching up to now
    uint64_t transactions() const { return traffic_ ? traffic_->transactions() : 0; }
    uint64_t flit_hops() const { return traffic_ ? traffic_->flit_hops() : 0; }
    bool irq_level() const { return irq_state_; }

protected:
    void access(tlm::tlm_generic_payload& trans, access_context& ctx) override;

private:
    // One node event as a stream: constant rate from the platform plus injected events.
    struct event_feed {
        explicit event_feed(const clock_domain& clock) : rate(clock), traffic(clock), flows(clock) {}
        rate_stream rate;
        injected_events injected;
        cmn_edge_events traffic; // flits counted as they pass
        cmn_flow_events flows;   // flows counted from time x rate (in `total` once it has a term)
        summed_source total;
        bool touched = false; // traffic added since the last overflow prediction
        std::vector<uint32_t> counters; // the DTM counters it feeds (xp * 4 + counter), set by apply()
    };
    using feed_key = uint64_t; // node << 24 | eventid << 16 | occupid << 8 | (watchpoint + 1)
    feed_key key_of(size_t node, const cmn_event_ref& e) const;
    event_feed& feed(size_t node, const cmn_event_ref& e);
    uint64_t event_count(size_t node, const cmn_event_ref& e, fs_t now) const; // 0 when nothing ever fed it

    // A DTM's local counters. With pmevcnt01_combined (23_combined) counters 0 and 1 (2 and 3)
    // are one 32-bit counter, held in counter[0] (counter[2]); its wrap leaves through the pairing
    // of the upper counter (docs/cmn.md).
    struct dtm_state {
        std::array<lazy_counter, 4> counter{
            lazy_counter(cmn_field::dtm_pmevcnt_bits), lazy_counter(cmn_field::dtm_pmevcnt_bits),
            lazy_counter(cmn_field::dtm_pmevcnt_bits), lazy_counter(cmn_field::dtm_pmevcnt_bits)};
        std::array<bool, 2> combined{};
        uint64_t shadow = 0; // por_dtm_pmevcntsr
        uint64_t pack(fs_t now);              // the por_dtm_pmevcnt value
        void unpack(uint64_t value, fs_t now);
        void set_combined(unsigned pair, bool on, fs_t now);
        // The counter whose pairing (paired bit, global_num) carries counter n's wraps.
        unsigned carry_slot(unsigned n) const { return combined[n / 2] && n % 2 == 0 ? n + 1 : n; }
        bool active(unsigned n) const { return !(combined[n / 2] && n % 2 == 1); }
        // Each counter's input feeds: its predicted wrap (overflows_) stays valid until a register
        // write, a rate change or traffic into one of them.
        std::array<std::vector<event_feed*>, 4> inputs;
        std::array<uint64_t, 4> visited{}; // the unit's pass_ when last visited through a touched feed
    };

    uint64_t reg(size_t node, const char* name) { return banks_[node]->find(name)->value; }
    void bind_hooks();
    void bind_identity(size_t node);
    uint64_t node_info(const cmn_node& n) const;
    uint64_t child_pointer(size_t node, unsigned index) const;

    // The source of DTM counter `counter` of XP `xp` (nullptr: none); `feeds` gets the feeds it sums.
    const event_source* dtm_input(size_t xp, unsigned counter, std::vector<event_feed*>& feeds);
    event_feed& traffic_feed(size_t node, const cmn_event_ref& e); // a feed receiving traffic: marked touched
    bool counting(); // DTC dt_en and pmcr.pmu_en: the PMU is enabled
    // Local wraps up to now -> global counters -> overflow status; only_fed_or_due: only the
    // counters that traffic reached since their last prediction or whose predicted wrap is due.
    void collect(bool only_fed_or_due = false);
    void take_local_wraps(size_t xp, unsigned counter, fs_t now);
    void carry_local_wraps(size_t xp, unsigned counter, uint64_t wraps); // into the paired global counter
    // Calls f(xp, counter) once for each DTM counter that a touched feed reaches.
    template <class F> void for_each_counter_reached(F&& f) {
        ++pass_;
        for (const event_feed* feed : touched_)
            for (uint32_t c : feed->counters) {
                uint64_t& visited = dtms_[c / 4].visited[c % 4];
                if (visited == pass_) continue;
                visited = pass_;
                f(size_t(c / 4), c % 4);
            }
    }
    void apply();          // counter sources and enables from the registers
    void update_irq();
    // Predicts the next paired wrap of every counter (all) or only of those fed by touched feeds.
    void reschedule(bool all = true);
    // overflows_ slots: DTM counter n of XP x in x * 4 + n, then the cycle counter.
    static size_t slot_of(size_t xp, unsigned counter) { return xp * 4 + counter; }
    size_t cycle_slot() const { return dtms_.size() * 4; }
    bool wrap_matters(size_t slot) const; // only paired DTM wraps (and the cycle counter's) have an effect
    void changed() { collect(); apply(); update_irq(); reschedule(); }
    void on_overflow();
    void snapshot();
    void state_reset();
    void add_global(unsigned index, uint64_t carries);
    // Traffic: issue every request up to now; the SC_METHOD wakes at the next issue edge.
    void advance_traffic();
    void on_traffic();
    void schedule_traffic();
    void traffic_event(size_t node, uint8_t eventid, uint8_t occupid, uint64_t edge, uint64_t count) override;
    void traffic_ramp(size_t node, uint8_t eventid, uint8_t occupid, uint64_t from_edge, uint64_t to_edge) override;
    void port_crossing(size_t xp, unsigned port, bool upload, const cmn_flit& flit, uint64_t edge) override;
    bool watchpoint_matches(size_t xp, unsigned wp, unsigned port, bool upload, const cmn_flit& flit);
    struct watchpoint_regs {
        register_bank::reg *config, *val, *mask;
    };
    std::vector<std::array<watchpoint_regs, 4>> wp_regs_; // per XP
    std::vector<register_bank::reg*> dtm_config_;       // per XP: por_dtm_pmu_config (read per request)
    register_bank::reg* pmcr_ = nullptr;                 // the DTC's por_dt_pmcr

    cmn_mesh mesh_;
    cmn600_options opt_;
    const clock_domain& clock_;
    interrupt_line* irq_ = nullptr;
    bool irq_state_ = false;
    size_t dtc_node_ = 0;
    std::vector<std::unique_ptr<register_bank>> banks_; // per node (nullptr for external nodes)
    std::map<uint32_t, size_t> region_to_node_;          // (offset >> 14) -> node

    std::unordered_map<feed_key, std::unique_ptr<event_feed>> feeds_;
    std::map<std::vector<const event_source*>, std::unique_ptr<summed_source>> sums_;
    std::vector<dtm_state> dtms_; // per XP

    clock_edges cycles_;
    lazy_counter cycle_counter_{40};
    std::array<uint32_t, 8> global_{};
    std::array<uint32_t, 8> global_shadow_{};
    uint64_t cycle_shadow_ = 0;
    uint32_t overflow_ = 0; // por_dt_pmovsr [8:0]
    uint32_t snapshot_status_ = 0;

    overflow_scheduler overflows_;
    // Lazy carries (fast mode without per-request traffic, e.g. flows): a paired DTM counter's wraps
    // are not scheduled one by one; they are taken at the next register access or configuration change,
    // and what has an instant of its own, a DTC counter's overflow, is predicted from the sum of the
    // wraps of the DTM counters paired to it (docs/cmn.md "Flows", docs/performance.md). With
    // per-request traffic (flits added as requests issue) each wrap is scheduled as before.
    struct carry_source : event_source {
        std::vector<const lazy_counter*> counters; // the DTM counters paired to one DTC counter
        uint64_t count_at(fs_t t) const override {
            uint64_t n = 0;
            for (const lazy_counter* c : counters) n += c->overflows_at(t);
            return n;
        }
    };
    bool lazy_carries() const { return !traffic_ && !reference_mode(); }
    std::array<carry_source, 8> carries_;
    void predict_dtc_overflow(); // notifies dtc_overflow_ at the earliest DTC counter overflow
    sc_core::sc_event dtc_overflow_;
    bool predicted_all_ = false;        // every prediction made since the last apply()
    uint64_t pass_ = 0;                 // visits counters once per pass over the touched feeds
    std::vector<event_feed*> touched_;
    // Feeds by node and event as the traffic finds them per flit (index: eventid with occupancy
    // filter 0, or 256 + watchpoint), so a flit costs no hashing.
    std::vector<std::array<event_feed*, 260>> traffic_feeds_;

    cmn_traffic_timing timing_; // for a traffic model a `traffic` statement creates
    std::unique_ptr<cmn_traffic> traffic_;
    bool in_traffic_ = false;
    uint64_t traffic_edge_ = 0; // the mesh edge of the current advance_traffic (its settled edge)

    sc_core::sc_event traffic_wakeup_;
};

struct unit_entry;
struct platform_view;
std::unique_ptr<unit> make_cmn600(soc& system, const unit_entry& u, const platform_view& p);

} // namespace pmusim
