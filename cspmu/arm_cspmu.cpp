#include "cspmu/arm_cspmu.h"

#include <fmt/format.h>

namespace pmusim {

using namespace cspmu_field;

arm_cspmu::arm_cspmu(const sc_core::sc_module_name& name, soc& system, cspmu_options options, const std::string& clock,
                     std::vector<unsigned> cpus, const std::string& irq, uint64_t base, uint64_t size)
    : pmu_counter_unit(name, system, cycle_counter_flag), opt_(options), clock_(system.clock(clock)), cpus_(std::move(cpus)), base_(base), size_(size),
      cycles_(clock_), cc_(options.counter_width) {
    if (!irq.empty()) irq_ = &system.irq(irq);
    bank_ = std::make_unique<register_bank>(basename(), table());
    for (auto& c : ctr_) c.set_width(opt_.counter_width, 0);

    // Each event: the unit's clock, or a CPU workload key summed over `cpus:`, plus injections.
    auto listener = [this] { reschedule(); };
    for (const auto& info : cspmu_events()) {
        auto f = std::make_unique<event_feed>();
        f->info = &info;
        if (info.clock_event) f->all.add(cycles_);
        if (info.cpu_key)
            for (unsigned cpu : cpus_) {
                const rate_stream& s = system.core(cpu).events(info.cpu_key);
                f->all.add(s);
                s.on_change(listener);
            }
        if (!info.clock_event) f->all.add(f->injected);
        f->injected.on_change(listener);
        feeds_.push_back(std::move(f));
    }
    // Any change of a source's future moves the next overflow instant.
    clock_.on_change(listener);
    for (unsigned cpu : cpus_) system.core(cpu).clock().on_change(listener);
    for (unsigned n = 0; n < opt_.counters; ++n) add_event_counter(ctr_[n]);
    if (opt_.cycle_counter) add_cycle_counter(cc_);
    watch_overflows();
    std::vector<event_input> inputs;
    for (const auto& f : feeds_)
        inputs.push_back({f->info->code, f->info->name, f->info->name, f->info->clock_event ? nullptr : &f->injected});
    accept_injections(std::move(inputs), cspmu_event_code, "the unit's clock");

    bind_hooks();
    state_reset();
}

arm_cspmu::event_feed* arm_cspmu::feed(uint32_t code) const {
    for (const auto& f : feeds_)
        if (f->info->code == code) return f.get();
    return nullptr;
}

uint32_t arm_cspmu::implemented() const {
    const uint32_t events = opt_.counters >= 31 ? 0x7fffffffu : (1u << opt_.counters) - 1;
    return events | (opt_.cycle_counter ? uint32_t(cycle_counter_flag.mask()) : 0);
}

uint64_t arm_cspmu::pmcfgr_value() const {
    // N counts every counter, the cycle counter included, minus one (Linux: N + 1 logical counters).
    const uint64_t n = opt_.counters + (opt_.cycle_counter ? 1 : 0) - 1;
    return pmcfgr_n.put(n) | pmcfgr_size.put(opt_.counter_width - 1) | pmcfgr_cc.put(opt_.cycle_counter);
}

void arm_cspmu::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    if (ctx.path == access_path::memory_mapped) return serve_memory_mapped(trans, ctx);
    collect();
    serve_from_bank(*bank_, trans, ctx, base_);
}

void arm_cspmu::serve_memory_mapped(tlm::tlm_generic_payload& trans, access_context& ctx) {
    collect();
    const uint64_t offset = trans.get_address() - base_;
    serve_mmio(*bank_, bank_->find_offset(offset), offset, trans, ctx);
}

void arm_cspmu::bind_hooks() {
    register_bank& b = *bank_;
    auto hook = [&](const std::string& name, std::function<uint64_t()> rd, std::function<void(uint64_t)> wr) {
        register_bank::reg& r = b[name];
        if (rd) r.on_read(std::move(rd));
        if (wr) r.on_write([this, wr](const write_event& e) { wr(e.written); changed(); });
        else r.on_write([](const write_event&) {});
    };
    auto ro = std::function<void(uint64_t)>();
    auto zero = [] { return uint64_t(0); };

    hook("PMCR", [this] { return pmcr_e.put(e_); }, [this](uint64_t v) {
        e_ = pmcr_e.in(v);
        if (pmcr_p.in(v))
            for (unsigned n = 0; n < opt_.counters; ++n) ctr_[n].write(0, now_fs());
        if (pmcr_c.in(v) && opt_.cycle_counter) cc_.write(0, now_fs());
    });
    struct pair {
        const char *set, *clr;
        uint32_t arm_cspmu::*field;
    };
    for (const pair& p : {pair{"PMCNTENSET", "PMCNTENCLR", &arm_cspmu::cnten_},
                          pair{"PMINTENSET", "PMINTENCLR", &arm_cspmu::inten_},
                          pair{"PMOVSSET", "PMOVSCLR", &arm_cspmu::ovs_}}) {
        auto f = p.field;
        hook(p.set, [this, f] { return uint64_t(this->*f); }, [this, f](uint64_t v) { this->*f |= uint32_t(v) & implemented(); });
        hook(p.clr, [this, f] { return uint64_t(this->*f); }, [this, f](uint64_t v) { this->*f &= ~(uint32_t(v) & implemented()); });
    }
    // A counter register reads its lazy counter directly when the counter is implemented (no read
    // hook), and as zero when it is not; the filters of an unimplemented counter are RAZ/WI too.
    auto counter_register = [&](const std::string& name, lazy_counter* counter) {
        hook(name, counter ? std::function<uint64_t()>() : zero,
             [this, counter](uint64_t v) { if (counter) counter->write(v, now_fs()); });
        if (counter) b[name].reads_counter(*counter);
    };
    for (unsigned n = 0; n < 31; ++n) {
        const bool present = n < opt_.counters;
        counter_register(fmt::format("PMEVCNTR{}", n), present ? &ctr_[n] : nullptr);
        hook(fmt::format("PMEVTYPER{}", n), [this, n]() -> uint64_t { return evtype_[n]; },
             [this, n, present](uint64_t v) { if (present) evtype_[n] = uint32_t(v); });
        for (const char* filter : {"PMEVFILTR", "PMEVFILT2R"})
            if (!present) hook(fmt::format("{}{}", filter, n), zero, ro);
    }
    counter_register("PMCCNTR", opt_.cycle_counter ? &cc_ : nullptr);
    if (!opt_.cycle_counter) hook("PMCCFILTR", zero, ro);
    hook("PMCFGR", [this] { return pmcfgr_value(); }, ro);
    hook("PMIIDR", [this] { return uint64_t(opt_.pmiidr); }, ro);
    for (unsigned n = 0; n < 5; ++n)
        hook(fmt::format("PMPIDR{}", n), [this, n] { return uint64_t(cspmu_pidr(n, opt_.pmiidr)); }, ro);
    // The other identification registers have no fields in the table, and a register without
    // fields keeps what is written: they are read-only (IHI0091, CoreSight IHI0029).
    for (const char* id : {"PMDEVARCH", "PMDEVTYPE", "PMCIDR0", "PMCIDR1", "PMCIDR2", "PMCIDR3"})
        if (const register_def* d = table().find(id)) hook(id, [v = d->reset] { return v; }, ro);
}

void arm_cspmu::apply() {
    const fs_t now = now_fs();
    for (unsigned n = 0; n < opt_.counters; ++n) {
        const event_feed* f = feed(evtype_[n]);
        const event_source* src = f ? &f->all : nullptr;
        if (ctr_[n].source() != src) ctr_[n].set_source(src, now);
        ctr_[n].set_enabled(e_ && counter_flag(n).in(cnten_), now);
    }
    if (cc_.source() != &cycles_) cc_.set_source(&cycles_, now);
    cc_.set_enabled(opt_.cycle_counter && e_ && cycle_counter_flag.in(cnten_), now);
}

void arm_cspmu::update_irq() {
    irq_level_ = (ovs_ & inten_) != 0;
    if (irq_) irq_->set(irq_level_);
}

void arm_cspmu::state_reset() {
    const fs_t now = now_fs();
    bank_->reset();
    for (auto& c : ctr_) c.write(0, now), c.take_overflows(now);
    cc_.write(0, now);
    cc_.take_overflows(now);
    evtype_.fill(0);
    e_ = false;
    cnten_ = inten_ = ovs_ = 0;
    apply();
    update_irq();
    reschedule();
}

void arm_cspmu::reset(bool cold) {
    (void)cold;
    state_reset();
}

void arm_cspmu::report(std::ostream& out) {
    collect();
    const fs_t now = now_fs();
    out << fmt::format("{} ({}, {} counters of {} bits{}): PMCR.E={} CNTEN={:#x} INTEN={:#x} OVS={:#x} irq={}\n",
                       basename(), type(), opt_.counters, opt_.counter_width,
                       opt_.cycle_counter ? " and a cycle counter" : "", e_, cnten_, inten_, ovs_,
                       irq_level_ ? "high" : "low");
    for (unsigned n = 0; n < opt_.counters; ++n)
        out << fmt::format("  counter {}: event {:#x} value {:#x}\n", n, evtype_[n], ctr_[n].read(now));
    if (opt_.cycle_counter) out << fmt::format("  cycle counter: {:#x}\n", cc_.read(now));
}

void arm_cspmu::observables(std::vector<observable>& out) {
    for (unsigned n = 0; n < opt_.counters; ++n)
        out.push_back({fmt::format("{}.PMEVCNTR{}", basename(), n), opt_.counter_width,
                       [this, n] { return ctr_[n].read(now_fs()); },
                       [this, n] {
                           const event_feed* f = feed(evtype_[n]);
                           return fmt::format("{:#x} {}", evtype_[n], f ? f->info->name : "unimplemented");
                       }});
    if (opt_.cycle_counter)
        out.push_back({std::string(basename()) + ".PMCCNTR", opt_.counter_width, [this] { return cc_.read(now_fs()); },
                       [] { return std::string("cycles"); }});
    out.push_back({std::string(basename()) + ".PMOVS", 32, [this] { return uint64_t(overflow_flags()); }});
}

void arm_cspmu::control_registers(std::vector<observable>& out) {
    const std::string p = std::string(basename()) + ".";
    out.push_back({p + "PMCR", 32, [this] { return pmcr_e.put(e_); }});
    out.push_back({p + "PMCNTENSET", 32, [this] { return uint64_t(cnten_); }});
    out.push_back({p + "PMINTENSET", 32, [this] { return uint64_t(inten_); }});
}

void arm_cspmu::event_totals(std::vector<event_total>& out) {
    const fs_t now = now_fs();
    for (const auto& f : feeds_) out.push_back({basename(), f->info->name, f->info->code, f->all.count_at(now)});
}

} // namespace pmusim
