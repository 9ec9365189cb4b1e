#include "dsu_clusterpmu/dsu_clusterpmu.h"

#include <cctype>
#include <cstring>
#include <fmt/format.h>

#include "models/cpu_controls.h"
#include "models/input_error.h"
#include "models/reference_mode.h"

namespace pmusim {

using namespace dsu_field;

dsu_clusterpmu::dsu_clusterpmu(const sc_core::sc_module_name& name, soc& system, dsu_options options,
                               std::string clock, std::vector<unsigned> cpus, std::string irq, uint64_t base,
                               uint64_t size)
    : pmu_counter_unit(name, system, cycle_counter_flag), opt_(options), clock_(system.clock(clock)), cpus_(std::move(cpus)), base_(base),
      size_(size), cycles_(clock_) {
    if (!irq.empty()) irq_ = &system.irq(irq);
    bank_ = std::make_unique<register_bank>(basename(), table());
    pmauthstatus_ = (*bank_)["PMAUTHSTATUS"].def;
    pmlar_ = (*bank_)["PMLAR"].def;
    pmlsr_ = (*bank_)["PMLSR"].def;
    const unsigned width = opt_.variant == dsu_variant::original ? 32 : 64;
    for (auto& c : ctr_) c.set_width(width, 0);

    // Event feeds: per event, Secure and Non-secure sums over the cluster's cores.
    for (const auto& info : dsu_events()) {
        auto f = std::make_unique<event_feed>();
        f->info = &info;
        feeds_.push_back(std::move(f));
    }
    for (auto& f : feeds_) {
        if (f->info->clock_event) {
            f->all.add(cycles_);
            continue;
        }
        for (unsigned cpu : cpus_) {
            core_model& core = system.core(cpu);
            for (const char* key : f->info->keys) {
                const rate_stream& s = core.declare_event(key);
                filtered_.push_back(std::make_unique<filtered_source>(s, security_filter::secure_only));
                f->secure.add(*filtered_.back());
                filtered_.push_back(std::make_unique<filtered_source>(s, security_filter::nonsecure_only));
                f->nonsecure.add(*filtered_.back());
            }
        }
        // Injected events are attributed to Non-secure; a part's injections count in the whole.
        f->nonsecure.add(f->injected);
        for (uint16_t p : f->info->parts) f->nonsecure.add(feed(p)->injected);
        f->all.add(f->secure);
        f->all.add(f->nonsecure);
    }
    // Any change of a source's future moves the next overflow instant.
    auto listener = [this] { reschedule(); };
    clock_.on_change(listener);
    for (unsigned cpu : cpus_) {
        core_model& core = system.core(cpu);
        core.clock().on_change(listener);
        for (const auto& info : dsu_events())
            for (const char* key : info.keys) core.events(key).on_change(listener);
        core.on_power_change([this](power_state, power_state) {
            const bool was_powered = powered_;
            powered_ = any_core_powered();
            if (was_powered && !powered_) power_down();
            refresh_frame_open();
        });
    }
    powered_ = any_core_powered();
    for (auto& f : feeds_) f->injected.on_change(listener);
    for (unsigned n = 0; n < opt_.counters; ++n) add_event_counter(ctr_[n]);
    if (has_cc()) add_cycle_counter(cc_);
    watch_overflows();
    std::vector<event_input> inputs;
    for (const auto& f : feeds_)
        inputs.push_back({f->info->code, f->info->perf_name, f->info->mnemonic,
                          f->info->clock_event ? nullptr : &f->injected});
    accept_injections(std::move(inputs), dsu_event_code, "the DSU clock");

    bind_hooks();
    index_plain_counters();
    state_reset();
}

void dsu_clusterpmu::index_plain_counters() {
    // Only the PMU page: the model control page's registers are pins, RAZ/WI to initiators.
    plain_counters_.assign(model_control_page / 4, plain_counter{});
    for (const register_def& def : table().registers) {
        if (!def.offset || in_model_control_page(def)) continue;
        register_bank::reg* r = bank_->find_offset(*def.offset);
        if (!r || r->def != &def || !r->counter || r->read_ones || r->read_cleared) continue;
        plain_counters_[*def.offset / 4] = {r->counter, r->read_kept};
    }
}

dsu_clusterpmu::event_feed* dsu_clusterpmu::feed(uint16_t code) const {
    for (const auto& f : feeds_)
        if (f->info->code == code) return f.get();
    return nullptr;
}

std::vector<address_window> dsu_clusterpmu::mmio_windows() const {
    if (!size_) return {};
    return {{basename(), base_, size_}};
}

std::vector<const register_def*> dsu_clusterpmu::sysregs(unsigned cpu) const {
    std::vector<const register_def*> out;
    if (std::find(cpus_.begin(), cpus_.end(), cpu) == cpus_.end()) return out;
    for (const auto& r : table().registers) {
        if (!r.sysreg) continue;
        if (r.name == "CLUSTERPMMDCR_EL1" && !opt_.mdcr_el1_alias) continue;
        out.push_back(&r);
    }
    return out;
}

bool dsu_clusterpmu::any_core_powered() const {
    for (unsigned cpu : cpus_)
        if (system_.core(cpu).power() != power_state::off) return true;
    return false;
}

uint32_t dsu_clusterpmu::impl_mask() const { return event_mask() | (has_cc() ? uint32_t(cycle_counter_flag.mask()) : 0); }

// ---------------------------------------------------------------------------
// Access rules
// ---------------------------------------------------------------------------

access_outcome dsu_clusterpmu::sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) {
    const unsigned cpu = ctx.cpu;
    const cpu_controls& c = *system_.controls;
    const bool el2 = c.el2_enabled(cpu, ctx.secure);
    const bool tidcp = el2 && c.bit(cpu, control::hcr_el2, ctl::hcr_tidcp);
    if (ctx.el == 0)
        return refuse(ctx, access_outcome::undefined, reg, is_write, reg.name + " is UNDEFINED at EL0");
    if (reg.name.rfind("CLUSTERPMMDCR", 0) == 0) {
        if (ctx.el == 3) return access_outcome::ok;
        if (ctx.el == 1 && tidcp)
            return refuse(ctx, access_outcome::trap_el2, reg, is_write, "HCR_EL2.TIDCP=1 traps EL1 to EL2");
        return refuse(ctx, access_outcome::undefined, reg, is_write, reg.name + " is accessible at EL3 only");
    }
    if (ctx.el == 1 && tidcp)
        return refuse(ctx, access_outcome::trap_el2, reg, is_write, "HCR_EL2.TIDCP=1 traps EL1 to EL2");
    // The event-identification registers are read-only: an MSR has no encoding (UNDEFINED).
    if (is_write && (reg.name == "CLUSTERPMCEID0_EL1" || reg.name == "CLUSTERPMCEID1_EL1"))
        return refuse(ctx, access_outcome::undefined, reg, is_write, reg.name + " is read-only (no MSR form)");
    if (!is_write) return access_outcome::ok; // reads are not gated by CLUSTERPMUEN
    if (ctx.el == 1 && el2 && !c.bit(cpu, control::actlr_el2, ctl::actlr_clusterpmuen))
        return refuse(ctx, access_outcome::trap_el2, reg, is_write,
                      "ACTLR_EL2.CLUSTERPMUEN=0 traps EL1 writes to EL2");
    if (ctx.el <= 2 && !c.bit(cpu, control::actlr_el3, ctl::actlr_clusterpmuen))
        return refuse(ctx, access_outcome::trap_el3, reg, is_write,
                      fmt::format("ACTLR_EL3.CLUSTERPMUEN=0 traps EL{} writes to EL3", ctx.el));
    return access_outcome::ok;
}

access_outcome dsu_clusterpmu::refuse_external(access_context& ctx, access_outcome outcome, const char* why) const {
    ctx.outcome = outcome;
    ctx.detail = fmt::format("{}: {}", basename(), why);
    return outcome;
}

access_outcome dsu_clusterpmu::external_rule_in_full(access_context& ctx, const register_def& def, bool is_write) const {
    if (!cluster_powered()) return refuse_external(ctx, access_outcome::error, "cluster powered down");
    if (&def == pmauthstatus_) return access_outcome::ok;
    if (dlk_) return refuse_external(ctx, access_outcome::error, "double lock set");
    if (oslk_) return refuse_external(ctx, access_outcome::error, "OS lock set");
    if (!external_authenticated(ctx.secure))
        return refuse_external(ctx, access_outcome::error,
                               ctx.secure ? "external Secure PMU access not allowed (authentication)"
                                          : "external Non-secure PMU access not allowed (EPMAD or authentication)");
    if (&def == pmlar_ || &def == pmlsr_) return access_outcome::ok;
    // The software lock applies to memory-mapped accesses from the system side, not to the debugger.
    if (opt_.software_lock && slk_ && ctx.initiator != initiator_kind::debugger && is_write)
        return refuse_external(ctx, access_outcome::ignored, "software lock set (PMLSR.SLK=1)");
    return access_outcome::ok;
}

namespace {
// A write to an event counter or type register beyond CLUSTERPMCR_EL1.N (directly, or through
// CLUSTERPMSELR_EL1.SEL >= N) is ignored, as on silicon; the access log says so (its `detail`).
std::string unimplemented_counter_note(const register_def& def, unsigned selected, unsigned implemented) {
    const std::string& n = def.name;
    unsigned counter = 0;
    if (n == "CLUSTERPMXEVTYPER_EL1" || n == "CLUSTERPMXEVCNTR_EL1") {
        counter = selected;
    } else {
        size_t digits = 0;
        for (const char* prefix : {"PMEVTYPER", "PMEVCNTR"})
            if (n.rfind(prefix, 0) == 0 && n.size() > std::strlen(prefix) &&
                std::isdigit(static_cast<unsigned char>(n[std::strlen(prefix)])))
                digits = std::strlen(prefix);
        if (!digits) return {};
        counter = unsigned(std::stoul(n.substr(digits)));
    }
    if (counter < implemented) return {};
    return fmt::format("{}: counter {} is not implemented (CLUSTERPMCR_EL1.N = {}): write ignored", n, counter,
                       implemented);
}
} // namespace

void dsu_clusterpmu::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    if (ctx.path == access_path::memory_mapped) return serve_memory_mapped(trans, ctx);
    collect();
    if (trans.is_write())
        if (register_bank::reg* target = bank_->find_sysreg(uint32_t(trans.get_address())))
            note_unimplemented_counter(*target->def, ctx);
    serve_from_bank(*bank_, trans, ctx, base_);
}

void dsu_clusterpmu::note_unimplemented_counter(const register_def& def, access_context& ctx) const {
    if (ctx.detail.empty()) ctx.detail = unimplemented_counter_note(def, selr_, opt_.counters);
}

void dsu_clusterpmu::serve_memory_mapped(tlm::tlm_generic_payload& trans, access_context& ctx) {
    const uint64_t offset = trans.get_address() - base_;
    const unsigned len = trans.get_data_length();
    const fs_t now = now_fs();
    // The plain read (plain_counters_): what serve_memory_mapped_in_full would do for it, with every
    // condition it checks known in advance. The address is within the PMU page (the subtraction
    // wraps below base_), the rule passes (frame_open_), collect() would find nothing (quiet).
    if (offset < model_control_page && trans.is_read() && (len == 8 || len == 4) && (offset & (len - 1)) == 0 &&
        (frame_open_ >> unsigned(ctx.secure) & 1) && overflows_.quiet(now)) {
        const plain_counter& p = plain_counters_[offset >> 2];
        if (p.counter) {
            const uint64_t data = p.counter->read(now) & p.kept;
            if (len == 8) std::memcpy(trans.get_data_ptr(), &data, 8);
            else std::memcpy(trans.get_data_ptr(), &data, 4);
            trans.set_response_status(tlm::TLM_OK_RESPONSE);
            return;
        }
    }
    serve_memory_mapped_in_full(trans, ctx);
}

void dsu_clusterpmu::serve_memory_mapped_in_full(tlm::tlm_generic_payload& trans, access_context& ctx) {
    collect();
    const uint64_t offset = trans.get_address() - base_;
    register_bank::reg* r = bank_->find_offset(offset);
    if (r && trans.is_write()) note_unimplemented_counter(*r->def, ctx);
    if (r && in_model_control_page(*r->def)) r = nullptr; // pins, not registers: RAZ/WI to every initiator
    if (r) {
        const access_outcome o = external_rule(ctx, *r->def, trans.is_write());
        if (o == access_outcome::error) {
            std::memset(trans.get_data_ptr(), 0, trans.get_data_length());
            trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        if (o == access_outcome::ignored) return trans.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    serve_mmio(*bank_, r, offset, trans, ctx);
}

bool dsu_clusterpmu::is_model_input(const register_def& def) const {
    return def.offset && in_model_control_page(def) && &def >= &table().registers.front() &&
           &def <= &table().registers.back();
}

bool dsu_clusterpmu::testbench_input(const register_def& def, bool is_write, uint64_t& value) {
    if (!is_model_input(def)) return false;
    register_bank::reg* r = bank_->find(def.name);
    if (!r) return false;
    if (!is_write) {
        value = bank_->read(*r);
        return true;
    }
    if (def.name == "CTL_PWRSTAT") return false; // a status the cluster's power decides
    bank_->write(*r, value);
    return true;
}

// ---------------------------------------------------------------------------
// Registers
// ---------------------------------------------------------------------------

uint64_t dsu_clusterpmu::pmcr_value() const {
    uint64_t v = pmcr_e.put(e_) | pmcr_n.put(opt_.counters);
    if (opt_.variant == dsu_variant::original) v |= pmcr_lc.mask();
    if (opt_.variant == dsu_variant::dsu110 && x_) v |= pmcr_x.mask();
    if (opt_.variant == dsu_variant::dsu120 && fzo_) v |= pmcr_fzo.mask();
    if (opt_.variant != dsu_variant::dsu120) v |= pmcr_imp.put(pmcr_imp_arm);
    return v;
}

uint64_t dsu_clusterpmu::pmcfgr_value() const {
    const bool d120 = opt_.variant == dsu_variant::dsu120;
    uint64_t n = d120 ? opt_.counters - 1 : opt_.counters;
    uint64_t size = opt_.variant == dsu_variant::original ? 31 : 63;
    return pmcfgr_n.put(n) | pmcfgr_size.put(size) | pmcfgr_cc.put(has_cc()) |
           pmcfgr_ex.put(opt_.variant == dsu_variant::dsu110) | pmcfgr_fzo.put(d120) | pmcfgr_ss.mask();
}

uint64_t dsu_clusterpmu::read_counter(unsigned n) {
    if (n >= opt_.counters) return 0;
    return ctr_[n].read(now_fs());
}

void dsu_clusterpmu::write_counter(unsigned n, uint64_t v) {
    if (n >= opt_.counters) return;
    ctr_[n].write(v, now_fs());
}

void dsu_clusterpmu::bind_hooks() {
    register_bank& b = *bank_;
    auto hook = [&](const std::string& name, std::function<uint64_t()> rd, std::function<void(uint64_t)> wr) {
        register_bank::reg* r = b.find(name);
        if (!r) return;
        r->on_read(std::move(rd));
        if (wr) r->on_write([this, wr](const write_event& e) { wr(e.written); changed(); });
        else r->on_write([](const write_event&) {});
    };
    auto ro = std::function<void(uint64_t)>();

    auto pmcr_w = [this](uint64_t v) {
        e_ = pmcr_e.in(v);
        if (pmcr_p.in(v))
            for (unsigned n = 0; n < opt_.counters; ++n) ctr_[n].write(0, now_fs());
        if (pmcr_c.in(v) && has_cc()) cc_.write(0, now_fs());
        if (opt_.variant == dsu_variant::dsu110) x_ = pmcr_x.in(v);
        if (opt_.variant == dsu_variant::dsu120) fzo_ = pmcr_fzo.in(v);
    };
    hook("CLUSTERPMCR_EL1", [this] { return pmcr_value(); }, pmcr_w);
    // The memory-mapped PMCR is a window onto the control fields its table lists (dsu_tables.cpp):
    // it reads those, and a write leaves the fields outside it (FZO on DSU-120) as they are.
    if (const register_def* ext = table().find("PMCR")) {
        uint64_t readable = 0, writable = 0;
        for (const auto& f : ext->fields) {
            if (f.access == field_access::rw || f.access == field_access::ro) readable |= f.mask();
            if (f.access == field_access::rw || f.access == field_access::wo) writable |= f.mask();
        }
        hook("PMCR", [this, readable] { return pmcr_value() & readable; },
             [this, pmcr_w, writable](uint64_t v) { pmcr_w((v & writable) | (pmcr_value() & ~writable)); });
    }
    struct pair {
        const char *set, *clr;
        uint32_t dsu_clusterpmu::*field;
    };
    for (const pair& p : {pair{"CLUSTERPMCNTENSET_EL1", "CLUSTERPMCNTENCLR_EL1", &dsu_clusterpmu::cnten_},
                          pair{"PMCNTENSET", "PMCNTENCLR", &dsu_clusterpmu::cnten_},
                          pair{"CLUSTERPMINTENSET_EL1", "CLUSTERPMINTENCLR_EL1", &dsu_clusterpmu::inten_},
                          pair{"PMINTENSET", "PMINTENCLR", &dsu_clusterpmu::inten_},
                          pair{"CLUSTERPMOVSSET_EL1", "CLUSTERPMOVSCLR_EL1", &dsu_clusterpmu::ovs_},
                          pair{"PMOVSSET", "PMOVSCLR", &dsu_clusterpmu::ovs_}}) {
        auto f = p.field;
        hook(p.set, [this, f] { return uint64_t(this->*f); }, [this, f](uint64_t v) { this->*f |= uint32_t(v) & impl_mask(); });
        hook(p.clr, [this, f] { return uint64_t(this->*f); }, [this, f](uint64_t v) { this->*f &= ~(uint32_t(v) & impl_mask()); });
    }
    hook("CLUSTERPMSELR_EL1", [this] { return uint64_t(selr_); }, [this](uint64_t v) { selr_ = uint32_t(selr_sel.get(v)); });
    // A counter register reads its lazy counter directly when the counter is implemented (no read
    // hook), and as zero when it is not.
    auto counter_register = [&](const std::string& name, lazy_counter* counter, std::function<void(uint64_t)> wr) {
        hook(name, counter ? std::function<uint64_t()>() : [] { return uint64_t(0); }, std::move(wr));
        if (register_bank::reg* r = counter ? b.find(name) : nullptr) r->reads_counter(*counter);
    };
    auto cc_w = [this](uint64_t v) { if (has_cc()) cc_.write(v, now_fs()); };
    for (const char* n : {"CLUSTERPMCCNTR_EL1", "PMCCNTR"}) counter_register(n, has_cc() ? &cc_ : nullptr, cc_w);
    hook("CLUSTERPMXEVTYPER_EL1", [this]() -> uint64_t { return selr_ < opt_.counters ? evtype_[selr_] : 0; },
         [this](uint64_t v) { if (selr_ < opt_.counters) evtype_[selr_] = uint32_t(v) & evtype_writable; });
    hook("CLUSTERPMXEVCNTR_EL1", [this] { return read_counter(selr_); }, [this](uint64_t v) { write_counter(selr_, v); });
    for (unsigned n = 0; n < 31; ++n) {
        counter_register(fmt::format("PMEVCNTR{}", n), n < opt_.counters ? &ctr_[n] : nullptr,
                         [this, n](uint64_t v) { write_counter(n, v); });
        hook(fmt::format("PMEVTYPER{}", n), [this, n]() -> uint64_t { return n < opt_.counters ? evtype_[n] : 0; },
             [this, n](uint64_t v) { if (n < opt_.counters) evtype_[n] = uint32_t(v) & evtype_writable; });
        hook(fmt::format("PMEVCNTSR{}", n), [this, n]() -> uint64_t { return n < opt_.counters ? cntsr_[n] : 0; }, ro);
    }
    for (const char* n : {"CLUSTERPMMDCR_EL3", "CLUSTERPMMDCR_EL1"})
        hook(n, [this] { return mdcr_; }, [this](uint64_t v) { mdcr_ = v & mdcr_writable; });
    hook("CLUSTERPMCEID0_EL1", [] { return uint64_t(dsu_ceid(0)); }, ro);
    hook("CLUSTERPMCEID1_EL1", [] { return uint64_t(dsu_ceid(1)); }, ro);
    hook("PMCEID0", [] { return uint64_t(dsu_ceid(0)); }, ro);
    hook("PMCEID1", [] { return uint64_t(dsu_ceid(1)); }, ro);
    hook("PMCFGR", [this] { return pmcfgr_value(); }, ro);
    // Snapshot
    hook("PMSSSR", [this] { return uint64_t(nc_); }, ro);
    hook("PMOVSSR", [this] { return uint64_t(ovssr_); }, ro);
    hook("PMCCNTSR", [this] { return ccntsr_; }, ro);
    hook("PMSSCR", [] { return uint64_t(0); }, [this](uint64_t v) { if (sscr_ss.in(v)) capture(); });
    hook("PMSSRR", [this] { return uint64_t(ssrr_); }, [this](uint64_t v) { ssrr_ = uint32_t(v) & impl_mask(); });
    // Identification, claim, lock
    hook("PMCLAIMSET", [] { return claim.mask(); }, [this](uint64_t v) { claim_ |= uint32_t(v & claim.mask()); });
    hook("PMCLAIMCLR", [this] { return uint64_t(claim_); }, [this](uint64_t v) { claim_ &= ~uint32_t(v & claim.mask()); });
    hook("PMLAR", [] { return uint64_t(0); }, [this](uint64_t v) { if (opt_.software_lock) slk_ = v != 0xC5ACCE55u; });
    hook("PMLSR", [this]() -> uint64_t { return opt_.software_lock ? lsr_sli.put(1) | lsr_slk.put(slk_) : 0; }, ro);
    hook("PMAUTHSTATUS", [this]() -> uint64_t { return authstatus_value(auth_); }, ro);
    hook("PMDEVAFF0", [this]() -> uint64_t { return devaff_aff1.put(system_.cpus.at(cpus_.front()).cluster); }, ro);
    // The other identification registers have no fields in the tables, and a register without
    // fields keeps what is written: they are read-only (CoreSight IHI0029, DDI0487 I5), so they
    // read their reset value whatever a write says (tests/unit/test_access_readback.cpp).
    for (const char* id : {"PMDEVAFF1", "PMDEVARCH", "PMDEVID", "PMDEVTYPE", "PMIIDR", "PMPIDR0", "PMPIDR1", "PMPIDR2",
                           "PMPIDR3", "PMPIDR4", "PMCIDR0", "PMCIDR1", "PMCIDR2", "PMCIDR3"})
        if (const register_def* d = table().find(id)) hook(id, [v = d->reset] { return v; }, ro);
    // Model control page
    hook("CTL_OSLOCK", [this] { return uint64_t(oslk_); }, [this](uint64_t v) { oslk_ = ctl_oslk.in(v); });
    hook("CTL_DLOCK", [this] { return uint64_t(dlk_); }, [this](uint64_t v) { dlk_ = ctl_dlk.in(v); });
    hook("CTL_AUTH", [this] { return uint64_t(auth_); }, [this](uint64_t v) { auth_ = uint32_t(v) & ctl_auth_all; });
    hook("CTL_PWRSTAT", [this] { return uint64_t(cluster_powered()); }, ro);
}

void dsu_clusterpmu::capture() {
    const fs_t now = now_fs();
    for (unsigned n = 0; n < opt_.counters; ++n) cntsr_[n] = ctr_[n].read(now);
    ccntsr_ = has_cc() ? cc_.read(now) : 0;
    ovssr_ = ovs_;
    nc_ = false;
    for (unsigned n = 0; n < opt_.counters; ++n)
        if (counter_flag(n).in(ssrr_)) {
            ctr_[n].write(0, now);
            ovs_ &= ~uint32_t(counter_flag(n).mask());
        }
    if (cycle_counter_flag.in(ssrr_) && has_cc()) {
        cc_.write(0, now);
        ovs_ &= ~uint32_t(cycle_counter_flag.mask());
    }
}

// ---------------------------------------------------------------------------
// Counting and overflow
// ---------------------------------------------------------------------------

const event_source* dsu_clusterpmu::source_for(unsigned n) const {
    const uint32_t t = evtype_[n];
    event_feed* f = feed(uint16_t(evtype_count.get(t)));
    if (!f) return nullptr;
    if (f->info->clock_event) return &f->all; // not attributed to a security state
    const bool s = evtype_s.in(t), ns = evtype_ns.in(t), spme = mdcr_spme.in(mdcr_);
    const bool count_s = !s && spme;
    const bool count_ns = opt_.filter_reading_b ? !ns : (ns == s);
    if (count_s && count_ns) return &f->all;
    if (count_s) return &f->secure;
    if (count_ns) return &f->nonsecure;
    return nullptr;
}

void dsu_clusterpmu::apply() {
    const fs_t now = now_fs();
    const bool frozen = fzo_ && (ovs_ & event_mask());
    for (unsigned n = 0; n < 31; ++n) {
        if (n >= opt_.counters) {
            ctr_[n].set_enabled(false, now);
            continue;
        }
        const event_source* src = source_for(n);
        if (ctr_[n].source() != src) ctr_[n].set_source(src, now);
        ctr_[n].set_enabled(e_ && counter_flag(n).in(cnten_) && !frozen, now);
    }
    if (cc_.source() != &cycles_) cc_.set_source(&cycles_, now);
    cc_.set_enabled(has_cc() && e_ && cycle_counter_flag.in(cnten_), now);
    refresh_frame_open(); // every hooked register write ends here (changed())
}

void dsu_clusterpmu::update_irq() {
    bool level = (ovs_ & inten_ & impl_mask()) != 0 && (!opt_.irq_needs_enable || e_);
    irq_state_ = level;
    if (irq_) irq_->set(level);
}

void dsu_clusterpmu::state_reset() {
    const fs_t now = now_fs();
    for (auto& c : ctr_) c.write(0, now), c.take_overflows(now);
    cc_.write(0, now);
    cc_.take_overflows(now);
    evtype_.fill(0);
    e_ = x_ = fzo_ = false;
    cnten_ = inten_ = ovs_ = selr_ = 0;
    mdcr_ = 0;
    cntsr_.fill(0);
    ccntsr_ = 0;
    ovssr_ = ssrr_ = 0;
    nc_ = true;
    claim_ = 0;
    slk_ = true;
    apply();
    update_irq();
    reschedule();
}

void dsu_clusterpmu::power_down() { state_reset(); }

void dsu_clusterpmu::reset(bool cold) {
    (void)cold;
    state_reset();
    oslk_ = dlk_ = false;
    auth_ = ctl_auth_all;
    powered_ = any_core_powered();
    refresh_frame_open();
}

// ---------------------------------------------------------------------------
// Testbench interfaces
// ---------------------------------------------------------------------------

firmware_code dsu_clusterpmu::firmware_boot(const std::string& profile) {
    if (profile != "tf-a") return {};
    // TF-A dsu_driver_init on each core of the cluster: clear SPME, ACTLR_EL3 |= PWREN|CLUSTERPMUEN,
    // ACTLR_EL2 |= CLUSTERPMUEN, as read-modify-writes (`mask`) that keep the other bits.
    const uint64_t a3 = (1u << ctl::actlr_pwren) | (1u << ctl::actlr_clusterpmuen);
    const uint64_t a2 = 1u << ctl::actlr_clusterpmuen;
    firmware_code out;
    for (unsigned cpu : cpus_) {
        out.push_back(firmware_access::as_el(cpu, 3));
        out.push_back(firmware_access::write("CLUSTERPMMDCR_EL3", mdcr_ & ~uint64_t(1)));
        out.push_back(firmware_access::write("ACTLR_EL3", a3, a3));
        out.push_back(firmware_access::write("ACTLR_EL2", a2, a2));
    }
    return out;
}

void dsu_clusterpmu::report(std::ostream& out) {
    collect();
    const fs_t now = now_fs();
    out << fmt::format("{} ({} {}, N={}): PMCR.E={} CNTEN={:#x} INTEN={:#x} OVS={:#x} irq={}\n", basename(), type(),
                       to_string(opt_.variant), opt_.counters, e_, cnten_, inten_, ovs_, irq_level() ? "high" : "low");
    for (unsigned n = 0; n < opt_.counters; ++n)
        out << fmt::format("  counter {}: event {:#x} value {:#x}\n", n, evtype_count.get(evtype_[n]), ctr_[n].read(now));
    if (has_cc()) out << fmt::format("  cycle counter: {:#x}\n", cc_.read(now));
}

void dsu_clusterpmu::observables(std::vector<observable>& out) {
    for (unsigned n = 0; n < opt_.counters; ++n)
        out.push_back({fmt::format("{}.PMEVCNTR{}", basename(), n), ctr_[n].width(),
                       [this, n] { return ctr_[n].read(now_fs()); },
                       [this, n] {
                           const uint16_t code = uint16_t(evtype_count.get(evtype_[n]));
                           const event_feed* f = feed(code);
                           return fmt::format("{:#x} {}", code, f ? f->info->perf_name : "unimplemented");
                       }});
    if (has_cc())
        out.push_back({std::string(basename()) + ".PMCCNTR", 64, [this] { return cc_.read(now_fs()); },
                       [] { return std::string("0x11 cycles"); }});
    out.push_back({std::string(basename()) + ".PMOVS", 32, [this] { return uint64_t(overflow_flags()); }});
}

void dsu_clusterpmu::control_registers(std::vector<observable>& out) {
    // Names as in the DSU TRM's memory-mapped view (PMCR, PMCNTENSET, PMINTENSET; PMOVS is an observable).
    const std::string p = std::string(basename()) + ".";
    out.push_back({p + "PMCR", 32, [this] { return pmcr_value() & 0xFFFFFFFF; }});
    out.push_back({p + "PMCNTENSET", 32, [this] { return uint64_t(cnten_); }});
    out.push_back({p + "PMINTENSET", 32, [this] { return uint64_t(inten_); }});
}

void dsu_clusterpmu::event_totals(std::vector<event_total>& out) {
    const fs_t now = now_fs();
    for (const auto& f : feeds_) out.push_back({basename(), f->info->perf_name, f->info->code, f->all.count_at(now)});
}

} // namespace pmusim
