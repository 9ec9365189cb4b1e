#include "cmn/cmn600.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "cmn/cmn_traffic_text.h"
#include "models/reference_mode.h"

namespace pmusim {

namespace {
constexpr uint32_t kRegionShift = 14; // node regions are 16 KB on CMN-600
} // namespace

using namespace cmn_field;

const register_table& cmn600_table_for(const cmn_node& n) {
    switch (n.type) {
    case cmn_node_type::cfg: return cmn600_cfg_table();
    case cmn_node_type::xp: return cmn600_xp_table();
    case cmn_node_type::dtc: return cmn600_dtc_table();
    default: return cmn600_node_table(n.type);
    }
}

cmn600::cmn600(const sc_core::sc_module_name& name, soc& system, cmn_mesh mesh, cmn600_options options,
               std::string clock, std::string irq, std::vector<cmn600_rate> rates, cmn_traffic_timing timing,
               std::vector<cmn_generator_config> generators, std::vector<cmn_flow_config> flows,
               bool flows_per_request)
    : unit(name, system), mesh_(std::move(mesh)), opt_(options), clock_(system.clock(clock)), cycles_(clock_) {
    timing_ = timing;
    // Flows (docs/cmn.md "Flows"): counted from time x rate, or issued request by request through the
    // traffic engine (flow_mode: per-request, and always in the reference mode, which counts edge by edge).
    const bool per_request = flows_per_request || reference_mode();
    if (per_request)
        for (auto& g : cmn_flow_generators(flows)) generators.push_back(g);
    if (!generators.empty()) traffic_ = std::make_unique<cmn_traffic>(mesh_, timing, std::move(generators));
    if (!irq.empty()) irq_ = &system.irq(irq);
    banks_.resize(mesh_.nodes.size());
    for (size_t i = 0; i < mesh_.nodes.size(); ++i) {
        const cmn_node& n = mesh_.nodes[i];
        if (n.type == cmn_node_type::dtc) dtc_node_ = i;
        if (n.external) continue;
        banks_[i] = std::make_unique<register_bank>(fmt::format("{}.{}", basename(), n.name), cmn600_table_for(n));
        region_to_node_[n.offset >> kRegionShift] = i;
    }
    dtms_.resize(mesh_.xps.size());
    wp_regs_.resize(mesh_.xps.size());
    for (const auto& xp : mesh_.xps) dtm_config_.push_back(banks_[xp.node]->find("por_dtm_pmu_config"));
    pmcr_ = banks_[dtc_node_]->find("por_dt_pmcr");
    for (size_t x = 0; x < mesh_.xps.size(); ++x)
        for (unsigned w = 0; w < 4; ++w) {
            register_bank& b = *banks_[mesh_.xps[x].node];
            wp_regs_[x][w] = {b.find(fmt::format("por_dtm_wp{}_config", w)), b.find(fmt::format("por_dtm_wp{}_val", w)),
                              b.find(fmt::format("por_dtm_wp{}_mask", w))};
        }
    for (const auto& r : rates) feed(r.node, r.event).rate.set_rate(r.rate, 0);
    if (!per_request)
        for (const cmn_flow_term& t : compile_cmn_flows(mesh_, timing_, flows)) {
            cmn_event_ref e;
            e.eventid = t.eventid;
            e.occupid = t.occupid;
            event_feed& f = feed(t.node, e);
            if (f.flows.empty()) f.total.add(f.flows);
            f.flows.add(t);
        }
    cycle_counter_.set_source(&cycles_, 0);
    // Reference mode (docs/reference-mode.md): a wrap found edge by edge runs what the overflow
    // process runs, so a DTM carry reaches its global counter, and the cycle counter's wrap
    // pmovsr, at the edge of the wrap. No-op in the fast mode.
    for (auto& d : dtms_)
        for (auto& c : d.counter) overflows_.add(c);
    overflows_.add(cycle_counter_);
    overflows_.on_reference_wrap([this] { on_overflow(); });
    clock_.on_change([this] {
        reschedule();
        schedule_traffic();
    });

    bind_hooks();
    state_reset();

    SC_METHOD(on_overflow);
    sensitive << overflows_.event() << dtc_overflow_;
    dont_initialize();
    SC_METHOD(on_traffic);
    sensitive << traffic_wakeup_;
    // Runs once at the start of simulation to schedule the first request.
}

std::vector<address_window> cmn600::mmio_windows() const {
    return {{basename(), opt_.periphbase, opt_.window_size}};
}

std::optional<mmio_register> cmn600::find_mmio_register(const std::string& name) const {
    auto dot = name.find('.');
    if (dot == std::string::npos) return std::nullopt;
    const cmn_node* n = mesh_.find(name.substr(0, dot));
    if (!n || n->external) return std::nullopt;
    const register_def* def = cmn600_table_for(*n).find(name.substr(dot + 1));
    if (!def || !def->offset) return std::nullopt;
    return mmio_register{def, opt_.periphbase + n->offset + *def->offset};
}

// ---------------------------------------------------------------------------
// Event inputs
// ---------------------------------------------------------------------------

cmn600::feed_key cmn600::key_of(size_t node, const cmn_event_ref& e) const {
    const cmn_node& n = mesh_.nodes[node];
    const uint8_t occupid = cmn_event_uses_occupid(n.type, e.eventid) ? e.occupid : 0;
    return uint64_t(node) << 24 | uint64_t(e.watchpoint >= 0 ? 0 : e.eventid) << 16 | uint64_t(occupid) << 8 |
           uint64_t(e.watchpoint + 1);
}

cmn600::event_feed& cmn600::feed(size_t node, const cmn_event_ref& e) {
    auto& slot = feeds_[key_of(node, e)];
    if (!slot) {
        slot = std::make_unique<event_feed>(clock_);
        slot->total.add(slot->rate);
        slot->total.add(slot->injected);
        slot->total.add(slot->traffic);
        slot->rate.on_change([this] { reschedule(); });
        slot->injected.on_change([this] { reschedule(); });
    }
    return *slot;
}

cmn600::event_feed& cmn600::traffic_feed(size_t node, const cmn_event_ref& e) {
    if (traffic_feeds_.empty()) traffic_feeds_.resize(mesh_.nodes.size(), {});
    event_feed* cached = nullptr;
    event_feed** slot = e.watchpoint >= 0 ? &traffic_feeds_[node][256 + unsigned(e.watchpoint)]
                        : e.occupid == 0  ? &traffic_feeds_[node][e.eventid]
                                          : &cached;
    if (!*slot) *slot = &feed(node, e);
    event_feed& f = **slot;
    if (!f.touched) {
        f.touched = true;
        touched_.push_back(&f);
    }
    return f;
}

const event_source* cmn600::dtm_input(size_t xp, unsigned counter, std::vector<event_feed*>& feeds) {
    feeds.clear();
    const size_t xp_node = mesh_.xps[xp].node;
    const uint64_t cfg = reg(xp_node, "por_dtm_pmu_config");
    const unsigned sel = unsigned(dtm_input_sel(counter).get(cfg));
    if (sel < input_sel_xp_events) {
        cmn_event_ref wp;
        wp.watchpoint = int(sel);
        feeds.push_back(&feed(xp_node, wp));
        return &feeds.back()->total;
    }
    if (sel < input_sel_xp_events + 4) {
        const uint8_t id = uint8_t(xp_event_id(sel - input_sel_xp_events).get(reg(xp_node, "pmu_event_sel")));
        if (!id) return nullptr;
        cmn_event_ref e;
        e.eventid = id;
        feeds.push_back(&feed(xp_node, e));
        return &feeds.back()->total;
    }
    if (sel < input_sel_node_events || sel > input_sel_last) return nullptr; // no such input on a two-port CMN-600 XP
    const unsigned port = unsigned(input_sel_port_plus_1.get(sel)) - 1, device = unsigned(input_sel_device.get(sel)),
                   output = unsigned(input_sel_output.get(sel));
    std::vector<const event_source*> parts;
    for (size_t node : mesh_.event_nodes_at(xp, port, device)) {
        const uint64_t sel_reg = reg(node, "pmu_event_sel");
        cmn_event_ref e;
        e.eventid = uint8_t(xp_event_id(output).get(sel_reg));
        if (!e.eventid) continue;
        e.occupid = uint8_t(node_occup1_id.get(sel_reg));
        feeds.push_back(&feed(node, e));
        parts.push_back(&feeds.back()->total);
    }
    if (parts.empty()) return nullptr;
    if (parts.size() == 1) return parts.front();
    // Nodes sharing one (port, device), like the HN-D's DN and HN-I: their outputs add up (docs/cmn.md).
    auto& sum = sums_[parts];
    if (!sum) {
        sum = std::make_unique<summed_source>();
        for (const auto* p : parts) sum->add(*p);
    }
    return sum.get();
}

// ---------------------------------------------------------------------------
// Counting and overflow
// ---------------------------------------------------------------------------

bool cmn600::counting() {
    return dtc_dt_en.in(reg(dtc_node_, "por_dt_dtc_ctl")) && pmcr_pmu_en.in(reg(dtc_node_, "por_dt_pmcr"));
}

void cmn600::add_global(unsigned index, uint64_t carries) {
    const uint64_t sum = uint64_t(global_[index]) + carries;
    if (sum > 0xFFFFFFFFull) overflow_ |= 1u << index;
    global_[index] = uint32_t(sum);
}

void cmn600::collect(bool only_fed_or_due) {
    advance_traffic();
    const fs_t now = now_fs();
    // After traffic alone (on_traffic), only a counter whose feeds received flits since its last
    // prediction can have wrapped unannounced; the others wrap at their predicted instants, so
    // unless one of those is due they are skipped, and a traffic wakeup costs what its flits reached,
    // not every counter of the mesh (docs/performance.md, scenario 3). An unpaired counter's wraps
    // have no effect; left pending, they are taken by the full collect that precedes every register
    // access and every configuration change.
    const std::optional<fs_t> earliest = overflows_.earliest();
    if (only_fed_or_due && predicted_all_ && !(earliest && *earliest <= now)) {
        for_each_counter_reached([&](size_t x, unsigned n) { take_local_wraps(x, n, now); });
        if (cycle_counter_.take_overflows(now)) overflow_ |= uint32_t(pmovsr_cycle_counter.mask());
    } else {
        overflows_.collect(now, [&](size_t slot, uint64_t wraps) {
            if (slot == cycle_slot()) overflow_ |= uint32_t(pmovsr_cycle_counter.mask());
            else carry_local_wraps(slot / 4, unsigned(slot % 4), wraps);
        });
    }
}

void cmn600::take_local_wraps(size_t x, unsigned n, fs_t now) {
    if (const uint64_t wraps = dtms_[x].counter[n].take_overflows(now)) carry_local_wraps(x, n, wraps);
}

void cmn600::carry_local_wraps(size_t x, unsigned n, uint64_t wraps) {
    // An unpaired counter just wraps; a paired one carries into its global counter.
    const uint64_t cfg = dtm_config_[x]->value;
    const unsigned slot = dtms_[x].carry_slot(n);
    if (dtm_pmevcnt_paired_n(slot).in(cfg)) add_global(unsigned(dtm_global_num(slot).get(cfg)), wraps);
}

void cmn600::apply() {
    const fs_t now = now_fs();
    const bool on = counting();
    for (size_t x = 0; x < dtms_.size(); ++x) {
        const bool dtm_on = on && dtm_pmu_en.in(dtm_config_[x]->value);
        for (unsigned n = 0; n < 4; ++n) {
            lazy_counter& c = dtms_[x].counter[n];
            std::vector<event_feed*>& feeds = dtms_[x].inputs[n];
            const event_source* src = dtms_[x].active(n) ? dtm_input(x, n, feeds) : (feeds.clear(), nullptr);
            if (c.source() != src) c.set_source(src, now);
            c.set_enabled(dtm_on && src, now);
        }
    }
    cycle_counter_.set_enabled(on, now);
    // Which counters each feed reaches (for the traffic's partial collect and re-prediction), and
    // every prediction to be made afresh.
    for (auto& [key, f] : feeds_) f->counters.clear();
    for (size_t x = 0; x < dtms_.size(); ++x)
        for (unsigned n = 0; n < 4; ++n)
            for (event_feed* f : dtms_[x].inputs[n]) f->counters.push_back(uint32_t(x * 4 + n));
    // The DTM counters whose wraps carry into each DTC counter (for the lazy carries).
    for (auto& c : carries_) c.counters.clear();
    for (size_t x = 0; x < dtms_.size(); ++x) {
        const uint64_t cfg = dtm_config_[x]->value;
        for (unsigned n = 0; n < 4; ++n) {
            const unsigned slot = dtms_[x].carry_slot(n);
            if (dtms_[x].active(n) && dtm_pmevcnt_paired_n(slot).in(cfg))
                carries_[dtm_global_num(slot).get(cfg)].counters.push_back(&dtms_[x].counter[n]);
        }
    }
    predicted_all_ = false;
}

void cmn600::update_irq() {
    const bool intr_en = pmcr_ovfl_intr_en.in(pmcr_->value);
    irq_state_ = intr_en && (overflow_ & pmovsr_all);
    if (irq_) irq_->set(irq_state_);
}

void cmn600::reschedule(bool all) {
    if (!sc_core::sc_is_running()) return;
    const fs_t now = now_fs();
    // A prediction stays right while nothing feeding its counter changes: traffic marks the
    // feeds it adds to, and everything else (register writes, rates, injections, DVFS) asks
    // for all. Re-predicting, or even visiting, every counter on every request made the cost per
    // flit grow with the mesh (docs/performance.md "Scenario 3").
    if (all || !predicted_all_) {
        overflows_.predict_all(now, [this](size_t slot) { return wrap_matters(slot); });
        predicted_all_ = true;
    } else {
        for_each_counter_reached([&](size_t x, unsigned n) {
            const size_t slot = slot_of(x, n);
            overflows_.predict(slot, now, wrap_matters(slot));
        });
        overflows_.arm(now);
    }
    for (event_feed* f : touched_) f->touched = false;
    touched_.clear();
    if (lazy_carries()) predict_dtc_overflow();
}

void cmn600::predict_dtc_overflow() {
    // Every wrap up to now has been taken (collect() precedes every change), so DTC counter g
    // overflows when the wraps paired to it reach 2^32 - its value: at that instant, exactly.
    const fs_t now = now_fs();
    std::optional<fs_t> earliest;
    for (unsigned g = 0; g < carries_.size(); ++g) {
        if (carries_[g].counters.empty()) continue;
        const uint64_t needed = (uint64_t(1) << 32) - global_[g];
        if (auto t = first_time_reaching(carries_[g], needed, now); t && (!earliest || *t < *earliest)) earliest = t;
    }
    dtc_overflow_.cancel();
    if (earliest) dtc_overflow_.notify(to_sc_time(*earliest > now ? *earliest - now : 0));
}

bool cmn600::wrap_matters(size_t slot) const {
    if (slot == cycle_slot()) return true;
    if (lazy_carries()) return false; // carried lazily: the DTC counter's overflow is predicted instead
    const size_t x = slot / 4;
    const unsigned n = unsigned(slot % 4);
    const dtm_state& d = dtms_[x];
    return d.active(n) && dtm_pmevcnt_paired_n(d.carry_slot(n)).in(dtm_config_[x]->value);
}

void cmn600::on_overflow() { changed(); }

uint32_t cmn600::overflow_status() {
    collect();
    update_irq();
    return overflow_;
}

void cmn600::snapshot() {
    const fs_t now = now_fs();
    global_shadow_ = global_;
    cycle_shadow_ = cycle_counter_.read(now);
    const bool dtc_reset = pmcr_cntr_rst.in(reg(dtc_node_, "por_dt_pmcr"));
    if (dtc_reset) {
        global_.fill(0);
        cycle_counter_.write(0, now);
    }
    for (size_t x = 0; x < dtms_.size(); ++x) {
        dtm_state& d = dtms_[x];
        d.shadow = d.pack(now);
        if (dtm_cntr_rst.in(dtm_config_[x]->value)) d.unpack(0, now);
    }
    snapshot_status_ = pmovsr_all;
}

uint64_t cmn600::dtm_state::pack(fs_t now) {
    uint64_t v = 0;
    for (unsigned p = 0; p < 2; ++p) {
        v |= counter[2 * p].read(now) << dtm_pmevcnt(2 * p).lsb; // the pair's whole value when combined
        if (!combined[p]) v |= counter[2 * p + 1].read(now) << dtm_pmevcnt(2 * p + 1).lsb;
    }
    return v;
}

void cmn600::dtm_state::unpack(uint64_t value, fs_t now) {
    for (unsigned p = 0; p < 2; ++p) {
        if (combined[p]) {
            counter[2 * p].write(reg_field{dtm_pmevcnt(2 * p).lsb, 2 * dtm_pmevcnt_bits}.get(value), now);
            counter[2 * p + 1].write(0, now);
        } else {
            counter[2 * p].write(dtm_pmevcnt(2 * p).get(value), now);
            counter[2 * p + 1].write(dtm_pmevcnt(2 * p + 1).get(value), now);
        }
    }
}

void cmn600::dtm_state::set_combined(unsigned pair, bool on, fs_t now) {
    if (combined[pair] == on) return;
    const uint64_t v = pack(now);
    combined[pair] = on;
    counter[2 * pair].set_width(on ? 2 * dtm_pmevcnt_bits : dtm_pmevcnt_bits, now);
    unpack(v, now);
}

// ---------------------------------------------------------------------------
// Registers
// ---------------------------------------------------------------------------

uint64_t cmn600::node_info(const cmn_node& n) const {
    return cmn_field::node_type.put(uint64_t(n.type)) | cmn_field::node_id.put(n.node_id) | cmn_field::logical_id.put(n.logical_id);
}

uint64_t cmn600::child_pointer(size_t node, unsigned index) const {
    const cmn_node& n = mesh_.nodes[node];
    if (n.type == cmn_node_type::cfg) return index < mesh_.xps.size() ? mesh_.nodes[mesh_.xps[index].node].offset : 0;
    if (n.type != cmn_node_type::xp) return 0;
    const auto& children = mesh_.xps[size_t(n.xp)].children;
    if (index >= children.size()) return 0;
    const cmn_node& c = mesh_.nodes[children[index]];
    return c.offset | child_external.put(c.external);
}

void cmn600::bind_identity(size_t i) {
    register_bank& b = *banks_[i];
    const cmn_node& n = mesh_.nodes[i];
    b["node_info"].on_read([this, &n] { return node_info(n); });
    size_t children = 0;
    if (n.type == cmn_node_type::cfg) children = mesh_.xps.size();
    if (n.type == cmn_node_type::xp) children = mesh_.xps[size_t(n.xp)].children.size();
    const uint64_t child_info = children ? child_count.put(children) | child_ptr_offset.put(child_pointers_at) : 0;
    b["child_info"].on_read([child_info] { return child_info; });
    for (unsigned c = 0;; ++c) {
        register_bank::reg* r = b.find(fmt::format("child_pointer_{}", c));
        if (!r) break;
        r->on_read([this, i, c] { return child_pointer(i, c); });
    }
}

void cmn600::bind_hooks() {
    auto then_changed = [this](const write_event&) { changed(); };
    for (size_t i = 0; i < mesh_.nodes.size(); ++i) {
        if (!banks_[i]) continue;
        bind_identity(i);
        register_bank& b = *banks_[i];
        const cmn_node& n = mesh_.nodes[i];
        switch (n.type) {
        case cmn_node_type::cfg: {
            const uint64_t rev = uint64_t(opt_.revision);
            // Part 0x434, Arm's JEP106 identity 0x3B (JEDEC-assigned).
            b["periph_id_01"].on_read([] { return periph_part_0.put(0x34) | periph_part_1.put(0x4) | periph_jep106_id_3_0.put(0xB); });
            b["periph_id_23"].on_read(
                [rev] { return periph_jep106_id_6_4.put(0x3) | periph_jedec.put(1) | periph_revision.put(rev); });
            // The CoreSight preamble 0x0D, 0xF0, 0x05, 0xB1.
            b["component_id_01"].on_read([] { return component_id_odd.put(0xF0) | component_id_even.put(0x0D); });
            b["component_id_23"].on_read([] { return component_id_odd.put(0xB1) | component_id_even.put(0x05); });
            b["por_info_global"].on_read([] { return info_physical_address_width.put(48) | info_chi_req_addr_width.put(48); });
            break;
        }
        case cmn_node_type::xp: {
            const cmn_xp& xp = mesh_.xps[size_t(n.xp)];
            for (unsigned p = 0; p < 2; ++p) {
                const uint64_t kind = uint64_t(xp.ports[p].kind);
                b[fmt::format("device_port_connect_info_p{}", p)].on_read([kind] { return kind; });
            }
            b["pmu_event_sel"].on_write(then_changed);
            dtm_state& d = dtms_[size_t(n.xp)];
            b["por_dtm_pmu_config"].on_write([this, &d](const write_event& e) {
                d.set_combined(0, dtm_pmevcnt01_combined.in(e.new_value), now_fs());
                d.set_combined(1, dtm_pmevcnt23_combined.in(e.new_value), now_fs());
                changed();
            });
            b["por_dtm_pmevcnt"].on_read([&d] { return d.pack(now_fs()); });
            b["por_dtm_pmevcnt"].on_write([this, &d](const write_event& e) {
                d.unpack(e.new_value, now_fs());
                changed();
            });
            b["por_dtm_pmevcntsr"].on_read([&d] { return d.shadow; });
            b["por_dtm_pmevcntsr"].on_write([&d](const write_event& e) { d.shadow = e.new_value; });
            break;
        }
        case cmn_node_type::dtc: {
            b["por_dt_dtc_ctl"].on_write(then_changed);
            b["por_dt_pmcr"].on_write(then_changed);
            const char* pairs[] = {"ab", "cd", "ef", "gh"};
            for (unsigned p = 0; p < 4; ++p) {
                b[fmt::format("por_dt_pmevcnt{}", pairs[p])].on_read(
                    [this, p] { return dtc_pmevcnt_odd.put(global_[2 * p + 1]) | dtc_pmevcnt_even.put(global_[2 * p]); });
                b[fmt::format("por_dt_pmevcnt{}", pairs[p])].on_write([this, p](const write_event& e) {
                    global_[2 * p] = uint32_t(dtc_pmevcnt_even.get(e.new_value));
                    global_[2 * p + 1] = uint32_t(dtc_pmevcnt_odd.get(e.new_value));
                    if (lazy_carries()) predict_dtc_overflow(); // the carries its overflow needs changed
                });
                b[fmt::format("por_dt_pmevcntsr{}", pairs[p])].on_read(
                    [this, p] { return dtc_pmevcnt_odd.put(global_shadow_[2 * p + 1]) | dtc_pmevcnt_even.put(global_shadow_[2 * p]); });
                // The shadows are RW (cmn-tools regdefs por_dt_pmevcntsrAB..GH; SCP-firmware FWK_RW).
                b[fmt::format("por_dt_pmevcntsr{}", pairs[p])].on_write([this, p](const write_event& e) {
                    global_shadow_[2 * p] = uint32_t(dtc_pmevcnt_even.get(e.new_value));
                    global_shadow_[2 * p + 1] = uint32_t(dtc_pmevcnt_odd.get(e.new_value));
                });
            }
            b["por_dt_pmccntr"].on_read([this] { return cycle_counter_.read(now_fs()); });
            b["por_dt_pmccntr"].on_write([this](const write_event& e) {
                cycle_counter_.write(e.new_value, now_fs());
                changed();
            });
            b["por_dt_pmccntrsr"].on_read([this] { return cycle_shadow_; });
            b["por_dt_pmccntrsr"].on_write([this](const write_event& e) { cycle_shadow_ = e.new_value & ((1ULL << 40) - 1); });
            b["por_dt_pmovsr"].on_read([this] { return uint64_t(overflow_); });
            b["por_dt_pmovsr_clr"].on_write([this](const write_event& e) {
                // Clearing needs the PMU enabled (Linux "perf/arm-cmn: Fix DTC reset").
                if (pmcr_pmu_en.in(reg(dtc_node_, "por_dt_pmcr"))) overflow_ &= ~uint32_t(e.new_value & pmovsr_all);
                changed();
            });
            b["por_dt_pmssr"].on_read([this] { return uint64_t(snapshot_status_); });
            b["por_dt_pmsrr"].on_write([this](const write_event& e) {
                if (pmsrr_ss_req.in(e.new_value)) snapshot();
                changed();
            });
            break;
        }
        default:
            b["pmu_event_sel"].on_write(then_changed);
            break;
        }
    }
}

std::optional<std::string> cmn600::param_in_use(const std::string& param) const {
    if (param == "root_node_offset") return std::to_string(mesh_.root_offset);
    if (param == "periphbase") return std::to_string(opt_.periphbase);
    return std::nullopt;
}

void cmn600::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    collect();
    const uint64_t offset = trans.get_address() - opt_.periphbase;
    auto it = region_to_node_.find(uint32_t(offset >> kRegionShift));
    if (it == region_to_node_.end()) {
        // No node there: the configuration space reads as zero and ignores writes.
        const unsigned len = trans.get_data_length();
        if ((len != 4 && len != 8) || offset % len != 0) {
            trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            ctx.outcome = access_outcome::error;
            ctx.detail = fmt::format("{}: {}-byte access at offset {:#x} is not a naturally aligned 4- or 8-byte "
                                     "access",
                                     basename(), len, offset);
            return;
        }
        if (trans.is_read()) std::memset(trans.get_data_ptr(), 0, len);
        else ctx.outcome = access_outcome::ignored;
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    // por_cfgm_secure_access (CFG +0x980) controls Non-secure access to the Secure register
    // groups, so it is Secure-only itself: a Non-secure access reads zero and its write is
    // ignored, whatever the override says (docs/cmn.md "Secure access").
    const cmn_node& node = mesh_.nodes[it->second];
    const uint64_t in_node = offset - node.offset;
    const unsigned len = trans.get_data_length();
    if (node.type == cmn_node_type::cfg && !ctx.secure && in_node >= 0x980 && in_node < 0x988 &&
        (len == 4 || len == 8) && in_node % len == 0) {
        if (trans.is_read()) std::memset(trans.get_data_ptr(), 0, len);
        else ctx.outcome = access_outcome::ignored;
        ctx.detail = "por_cfgm_secure_access is Secure-only (Non-secure: RAZ/WI)";
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    serve_from_bank(*banks_[it->second], trans, ctx, opt_.periphbase + node.offset);
}

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------

void cmn600::state_reset() {
    const fs_t now = now_fs();
    if (traffic_) { // requests restart from the current edge; flits in flight are lost
        const uint64_t edge = clock_.edges_at(now);
        traffic_->reset(edge);
        for (auto& f : feeds_) f.second->traffic.drop_after(edge);
        schedule_traffic();
    }
    for (auto& b : banks_)
        if (b) b->reset();
    for (auto& d : dtms_) {
        d.set_combined(0, false, now);
        d.set_combined(1, false, now);
        for (auto& c : d.counter) c.write(0, now), c.take_overflows(now);
        d.shadow = 0;
    }
    cycle_counter_.write(0, now);
    cycle_counter_.take_overflows(now);
    global_.fill(0);
    global_shadow_.fill(0);

    cycle_shadow_ = 0;
    overflow_ = 0;
    snapshot_status_ = 0;
    apply();
    update_irq();
    reschedule();
}

void cmn600::reset(bool cold) {
    (void)cold; // the PMU has no state that survives a warm reset in the model
    // The requests due at this edge issue before the reset takes effect, whichever process
    // runs first at this instant (as before any register access), so both modes agree.
    advance_traffic();
    state_reset();
}

// ---------------------------------------------------------------------------
// Traffic
// ---------------------------------------------------------------------------

void cmn600::advance_traffic() {
    if (!traffic_ || in_traffic_) return;
    in_traffic_ = true;
    traffic_edge_ = clock_.edges_at(now_fs());
    traffic_->advance(traffic_edge_, *this);
    in_traffic_ = false;
}

void cmn600::schedule_traffic() {
    if (!traffic_ || !sc_core::sc_is_running()) return;
    traffic_wakeup_.cancel();
    const uint64_t e = traffic_->next_issue_edge();
    if (e == UINT64_MAX) return;
    const fs_t t = clock_.time_of_edge(e), now = now_fs();
    if (t == fs_never) return;
    traffic_wakeup_.notify(to_sc_time(t > now ? t - now : 0));
}

void cmn600::on_traffic() {
    // Issue the requests due now; their flits may move the next overflow earlier, or wrap a
    // counter at this very edge (a flit uploaded at its issue edge), which no prediction would
    // announce: collect such wraps now. Nothing in the configuration changed, so the counters'
    // sources and enables stay as they are. (The reference mode cannot predict: it takes them all.)
    collect(!reference_mode());
    update_irq();
    reschedule(false);
    schedule_traffic();
}

bool cmn600::set_traffic(const std::vector<std::string>& requester, const std::vector<std::string>& settings,
                         std::string& error) {
    try {
        const cmn_traffic_change c = resolve_cmn_traffic_statement(
            mesh_, timing_.io_ranges, requester, settings, [this](size_t xp, unsigned port, unsigned device) {
                return traffic_ ? traffic_->generator_at(xp, port, device) : nullptr;
            });
        advance_traffic(); // requests due up to now issue under the old settings
        const uint64_t edge = clock_.edges_at(now_fs());
        if (!traffic_ && !c.off) {
            collect(); // the wraps so far carried lazily; from now on each is scheduled (lazy_carries())
            traffic_ = std::make_unique<cmn_traffic>(mesh_, timing_, std::vector<cmn_generator_config>{});
            dtc_overflow_.cancel();
            apply();
            reschedule();
        }
        if (traffic_)
            traffic_->set_generator(c.config.xp, c.config.port, c.config.device, c.off ? nullptr : &c.config,
                                    c.keep_stream, edge);
        schedule_traffic();
        return true;
    } catch (const input_error& e) {
        error = fmt::format("{}: traffic: {}", basename(), e.message());
        return false;
    }
}

void cmn600::traffic_event(size_t node, uint8_t eventid, uint8_t occupid, uint64_t edge, uint64_t count) {
    cmn_event_ref e;
    e.eventid = eventid;
    e.occupid = occupid;
    traffic_feed(node, e).traffic.add(edge, count, traffic_edge_);
}

void cmn600::traffic_ramp(size_t node, uint8_t eventid, uint8_t occupid, uint64_t from_edge, uint64_t to_edge) {
    cmn_event_ref e;
    e.eventid = eventid;
    e.occupid = occupid;
    traffic_feed(node, e).traffic.add_ramp(from_edge, to_edge, traffic_edge_);
}

bool cmn600::watchpoint_matches(size_t xp, unsigned wp, unsigned port, bool upload, const cmn_flit& flit) {
    const watchpoint_regs& w = wp_regs_[xp][wp];
    const uint64_t cfg = w.config->value;
    if (wp_dev_sel.get(cfg) != port || wp_chn_sel.get(cfg) != unsigned(flit.channel)) return false;
    const uint64_t value = flit.match_value(unsigned(wp_grp.get(cfg)), upload);
    bool match = ((value ^ w.val->value) & ~w.mask->value) == 0;
    if (wp_exclusive.in(cfg)) match = !match; // wp_exclusive: count the flits that do not match (docs/cmn.md)
    return match;
}

void cmn600::port_crossing(size_t xp, unsigned port, bool upload, const cmn_flit& flit, uint64_t edge) {
    const size_t node = mesh_.xps[xp].node;
    const unsigned primary = upload ? 0 : 2; // WP0/WP1 watch uploads, WP2/WP3 downloads
    auto count = [&](unsigned wp) {
        cmn_event_ref e;
        e.watchpoint = int(wp);
        traffic_feed(node, e).traffic.add(edge, 1, traffic_edge_);
    };
    if (wp_combine.in(wp_regs_[xp][primary].config->value)) {
        // Combined pair: one count, on the primary, when both match groups match the flit.
        if (watchpoint_matches(xp, primary, port, upload, flit) && watchpoint_matches(xp, primary + 1, port, upload, flit))
            count(primary);
        return;
    }
    for (unsigned wp = primary; wp < primary + 2; ++wp)
        if (watchpoint_matches(xp, wp, port, upload, flit)) count(wp);
}

bool cmn600::inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                    std::string& error) {
    auto node_names = [this] {
        std::string s;
        for (const auto& n : mesh_.nodes)
            if (!n.external && (has_pmu_events(n.type) || n.type == cmn_node_type::xp))
                s += (s.empty() ? "" : ", ") + n.name;
        return s;
    };
    if (node.empty()) {
        error = fmt::format("{}: name the node: inject {}.NODE EVENT COUNT (nodes: {})", basename(), basename(),
                            node_names());
        return false;
    }
    const cmn_node* n = mesh_.find(node);
    if (!n) {
        error = fmt::format("{}: no node '{}' (nodes: {})", basename(), node, node_names());
        return false;
    }
    if (n->external || !(has_pmu_events(n->type) || n->type == cmn_node_type::xp)) {
        error = fmt::format("{}: node {} ({}) has no PMU events", basename(), node, to_string(n->type));
        return false;
    }
    auto ref = resolve_cmn_event(n->type, event, error);
    if (!ref) {
        error = fmt::format("{}.{}: {}", basename(), node, error);
        return false;
    }
    collect();
    feed(size_t(n - mesh_.nodes.data()), *ref).injected.add(count, now_fs(), over);
    changed();
    return true;
}

void cmn600::report(std::ostream& out) {
    collect();
    const fs_t now = now_fs();
    out << fmt::format("{} (cmn600 {}x{}, {} nodes, {} transactions): pmcr={:#x} dtc_ctl={:#x} pmovsr={:#x} irq={}\n",
                       basename(), mesh_.mesh_x, mesh_.mesh_y, mesh_.nodes.size(), transactions(),
                       reg(dtc_node_, "por_dt_pmcr"), reg(dtc_node_, "por_dt_dtc_ctl"), overflow_,
                       irq_state_ ? "high" : "low");
    for (unsigned g = 0; g < 8; ++g)
        if (global_[g]) out << fmt::format("  global counter {}: {:#x}\n", g, global_[g]);
    out << fmt::format("  cycle counter: {:#x}\n", cycle_counter_.read(now));
}

uint64_t cmn600::event_count(size_t node, const cmn_event_ref& e, fs_t now) const {
    auto it = feeds_.find(key_of(node, e));
    return it == feeds_.end() ? 0 : it->second->total.count_at(now);
}

void cmn600::event_totals(std::vector<event_total>& out) {
    // Every event at the unit's inputs since time 0 (docs/whatif.md): per crosspoint `cmn0.xpN`
    // (N its logical ID, row-major: N = y * mesh_x + x) the XP events and watchpoint matches, per
    // device node (`cmn0.hnf0`, ...) its node events, occupancy events once per filter value.
    advance_traffic();
    const fs_t now = now_fs();
    const std::string unit_name = basename();
    for (size_t i = 0; i < mesh_.nodes.size(); ++i) {
        const cmn_node& n = mesh_.nodes[i];
        if (n.external) continue;
        if (n.type == cmn_node_type::xp) {
            const std::string instance = fmt::format("{}.xp{}", unit_name, n.logical_id);
            uint64_t all_valid = 0;
            for (unsigned kind = 1; kind <= 3; ++kind)
                for (unsigned iface = 0; iface < 6; ++iface)
                    for (unsigned chan = 0; chan < 4; ++chan) {
                        cmn_event_ref e;
                        e.eventid = cmn_xp_eventid(cmn_xp_kind(kind), cmn_xp_interface(iface), cmn_channel(chan));
                        const uint64_t c = event_count(i, e, now);
                        if (kind == unsigned(cmn_xp_kind::txflit_valid)) all_valid += c;
                        out.push_back({instance, cmn_xp_event_name(e.eventid), e.eventid, c});
                    }
            // Every flit the XP transmitted, on any interface and channel (no event code: a sum).
            out.push_back({instance, "txflit_valid", 0, all_valid});
            for (int wp = 0; wp < 4; ++wp) {
                cmn_event_ref e;
                e.watchpoint = wp;
                out.push_back({instance, fmt::format("wp{}", wp), 0, event_count(i, e, now)});
            }
            continue;
        }
        if (!has_pmu_events(n.type)) continue;
        const cmn_node_type events_of = n.type == cmn_node_type::rnd ? cmn_node_type::rni : n.type;
        for (const auto& d : cmn_node_events()) {
            if (d.type != events_of) continue;
            cmn_event_ref e;
            e.eventid = d.eventid;
            e.occupid = uint8_t(d.occupid < 0 ? 0 : d.occupid);
            out.push_back({unit_name + "." + n.name, d.name, d.eventid, event_count(i, e, now)});
        }
    }
}

void cmn600::observables(std::vector<observable>& out) {
    for (unsigned g = 0; g < 8; ++g)
        out.push_back({fmt::format("{}.dtc0.pmevcnt{}", basename(), g), 32, [this, g] {
                           collect();
                           return uint64_t(global_[g]);
                       }});
    // What Linux counts for the event on global counter g (drivers/perf/arm-cmn.c@v6.1,
    // arm_cmn_event_read: the DTM counters' 16-bit values summed, plus the DTC counter << 16, the
    // DTC counting the carries out of the DTM counters paired to it). pmevcntG alone is only those
    // carries: 0 until a DTM counter wraps. Combined (32-bit) DTM pairs, which Linux 6.1 does not
    // program, are left out.
    for (unsigned g = 0; g < 8; ++g)
        out.push_back({fmt::format("{}.dtc0.count{}", basename(), g), 48, [this, g] {
                           collect();
                           const fs_t now = now_fs();
                           uint64_t local = 0;
                           for (size_t x = 0; x < dtms_.size(); ++x) {
                               const uint64_t cfg = dtm_config_[x]->value;
                               for (unsigned n = 0; n < 4; ++n) {
                                   if (dtms_[x].combined[n / 2] || !dtm_pmevcnt_paired_n(n).in(cfg) ||
                                       dtm_global_num(n).get(cfg) != g)
                                       continue;
                                   local += dtms_[x].counter[n].read(now);
                               }
                           }
                           return ((uint64_t(global_[g]) << dtm_pmevcnt_bits) + local) & ((uint64_t(1) << 48) - 1);
                       }});
    out.push_back({std::string(basename()) + ".dtc0.pmccntr", 40, [this] { return cycle_counter_.read(now_fs()); }});
    out.push_back({std::string(basename()) + ".dtc0.pmovsr", 9, [this] { return uint64_t(overflow_status()); }});
}

void cmn600::control_registers(std::vector<observable>& out) {
    // The DTC's global enables (CMN-600 TRM: por_dt_dtc_ctl.dt_en, por_dt_pmcr.pmu_en and ovfl_intr_en).
    const std::string p = std::string(basename()) + ".dtc0.";
    out.push_back({p + "por_dt_dtc_ctl", 64, [this] { return reg(dtc_node_, "por_dt_dtc_ctl"); }});
    out.push_back({p + "por_dt_pmcr", 64, [this] { return reg(dtc_node_, "por_dt_pmcr"); }});
}

} // namespace pmusim
