// The generic timer's behaviour: counts from the counter clock, the timers' conditions and their
// instants, the access rules of CNTKCTL_EL1 and CNTHCTL_EL2 (generic_timer.h).
#include "devices/generic_timer/generic_timer.h"

#include <cstring>
#include <fmt/format.h>

#include "models/cpu_controls.h"
#include "models/reference_clock.h"
#include "models/reference_mode.h"

namespace pmusim {

using namespace timer_field;

namespace {
constexpr unsigned timers = unsigned(timer_kind::count);
// Register slots, in the table's order (generic_timer_table.cpp).
enum : unsigned { r_cntfrq, r_cntpct, r_cntvct, r_cntkctl, r_timer0, r_cntvoff = r_timer0 + 6, r_cnthctl, r_cnthp, r_cntps = r_cnthp + 3, r_count = r_cntps + 3 };
// The first register (TVAL, then CTL, CVAL) of timer k.
constexpr unsigned timer_base(timer_kind k) {
    return k == timer_kind::physical ? r_timer0 : k == timer_kind::virtual_ ? r_timer0 + 3 : k == timer_kind::hyp_physical ? r_cnthp : r_cntps;
}
bool timer_of(unsigned index, timer_kind& k, unsigned& which) {
    for (unsigned i = 0; i < timers; ++i) {
        const unsigned b = timer_base(timer_kind(i));
        if (index >= b && index < b + 3) {
            k = timer_kind(i);
            which = index - b; // 0 TVAL, 1 CTL, 2 CVAL
            return true;
        }
    }
    return false;
}
bool bit(uint64_t v, unsigned b) { return (v >> b) & 1; }
} // namespace

const char* timer_signal(timer_kind k) {
    // The generic timer's interrupt outputs as the GIC-400 names its PPI inputs (DDI 0471B 2.3.2).
    static const char* const names[] = {"cntpnsirq", "cntvirq", "cnthpirq", "cntpsirq"};
    return names[unsigned(k)];
}

unsigned timer_intid(timer_kind k) {
    // SBSA / Linux's arm,armv8-timer binding: PPIs 13 (secure), 14 (non-secure), 11 (virtual),
    // 10 (hyp), i.e. INTIDs 29, 30, 27, 26 (Documentation/devicetree/bindings/timer/arm,arch_timer.yaml).
    static const unsigned ids[] = {30, 27, 26, 29};
    return ids[unsigned(k)];
}

class generic_timer_unit::reference_listener : public reference_edge_listener {
public:
    explicit reference_listener(generic_timer_unit& u) : u_(u) {}
    void on_edge() override {
        const uint64_t physical = ++u_.reference_edges_;
        for (auto& c : u_.cpus_)
            for (unsigned k = 0; k < timers; ++k) {
                timer& t = c->t[k];
                if (!t.line || !ctl_enable.in(t.ctl)) continue;
                const bool level = u_.condition(*c, timer_kind(k), physical) && !ctl_imask.in(t.ctl);
                if (level && !t.line->level()) ++t.rising;
                t.line->set(level);
            }
    }

private:
    generic_timer_unit& u_;
};

generic_timer_unit::generic_timer_unit(const sc_core::sc_module_name& name, soc& system, const clock_domain& counter,
                                       generic_timer_options options,
                                       std::vector<std::array<interrupt_line*, timers>> lines)
    : unit(name, system), counter_(counter), opt_(std::move(options)) {
    if (lines.size() != opt_.cpus.size()) throw model_error("generic_timer: one set of lines per CPU");
    for (size_t i = 0; i < opt_.cpus.size(); ++i) {
        auto c = std::make_unique<cpu_timers>();
        c->cpu = opt_.cpus[i];
        for (unsigned k = 0; k < timers; ++k) {
            c->t[k].line = lines[i][k];
            cpu_timers* cp = c.get();
            if (reference_mode()) continue; // the per-edge listener checks instead
            sc_core::sc_spawn_options o;
            o.spawn_method();
            o.set_sensitivity(&c->t[k].due);
            o.dont_initialize();
            sc_core::sc_spawn([this, cp] { evaluate(*cp); }, sc_core::sc_gen_unique_name("timer_due"), &o);
        }
        cpus_.push_back(std::move(c));
    }
    if (reference_mode() && counter_.reference()) {
        reference_ = std::make_unique<reference_listener>(*this);
        counter_.reference()->subscribe(reference_.get());
    } else {
        counter_.on_change([this] { evaluate_all(); }); // a new counter frequency moves every instant
    }
    reset(true);
}

generic_timer_unit::~generic_timer_unit() {
    if (reference_ && counter_.reference()) counter_.reference()->unsubscribe(reference_.get());
}

int generic_timer_unit::slot_of_cpu(unsigned cpu) const {
    for (size_t i = 0; i < cpus_.size(); ++i)
        if (cpus_[i]->cpu == cpu) return int(i);
    return -1;
}

std::vector<const register_def*> generic_timer_unit::sysregs(unsigned cpu) const {
    std::vector<const register_def*> out;
    if (slot_of_cpu(cpu) < 0) return out;
    for (const auto& r : table().registers) out.push_back(&r);
    return out;
}

uint32_t generic_timer_unit::sysreg_slot(unsigned cpu, const register_def& reg) const {
    const unsigned index = unsigned(&reg - table().registers.data());
    return uint32_t(slot_of_cpu(cpu)) * r_count + index;
}

void generic_timer_unit::reset(bool) {
    for (auto& c : cpus_) {
        c->cntfrq = opt_.cntfrq;
        c->cntkctl = 0;
        c->cnthctl = table().registers[r_cnthctl].reset;
        c->cntvoff = 0;
        for (auto& t : c->t) {
            t.ctl = 0;
            t.cval = 0;
        }
        if (sc_core::sc_is_running()) evaluate(*c);
        else
            for (auto& t : c->t)
                if (t.line) t.line->set(false);
    }
}

uint64_t generic_timer_unit::counter() {
    if (reference_) {
        reference_world::instance().catch_up(now_fs());
        return reference_edges_;
    }
    return counter_.edges_at(now_fs());
}

bool generic_timer_unit::condition(const cpu_timers& c, timer_kind k, uint64_t physical) const {
    return view(c, k, physical) >= c.t[unsigned(k)].cval;
}

bool generic_timer_unit::output(unsigned cpu_slot, timer_kind k) const {
    const timer& t = cpus_.at(cpu_slot)->t[unsigned(k)];
    return t.line && t.line->level();
}

uint64_t generic_timer_unit::fired(unsigned cpu_slot, timer_kind k) const { return cpus_.at(cpu_slot)->t[unsigned(k)].rising; }

void generic_timer_unit::evaluate(cpu_timers& c) {
    const fs_t now = now_fs();
    const uint64_t physical = counter();
    for (unsigned k = 0; k < timers; ++k) {
        timer& t = c.t[k];
        const bool enabled = ctl_enable.in(t.ctl);
        const bool met = enabled && condition(c, timer_kind(k), physical);
        const bool level = met && !ctl_imask.in(t.ctl);
        if (t.line) {
            if (level && !t.line->level()) ++t.rising;
            t.line->set(level);
        }
        if (reference_) continue;
        t.due.cancel();
        if (!enabled || met) continue;
        // The first counter edge where view(count) >= CVAL: edge number CVAL (+ CNTVOFF for the
        // virtual timer; none when that sum passes 2^64).
        uint64_t edge = t.cval;
        if (timer_kind(k) == timer_kind::virtual_ && __builtin_add_overflow(t.cval, c.cntvoff, &edge)) continue;
        const fs_t at = counter_.time_of_edge(edge);
        if (at == fs_never || at <= now) continue;
        t.due.notify(to_sc_time(at - now));
    }
}

void generic_timer_unit::evaluate_all() {
    for (auto& c : cpus_) evaluate(*c);
}

access_outcome generic_timer_unit::sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) {
    const unsigned index = unsigned(&reg - table().registers.data());
    const int slot = slot_of_cpu(ctx.cpu);
    if (slot < 0 || index >= r_count) return refuse(ctx, access_outcome::undefined, reg, is_write, "no generic timer on this CPU");
    const cpu_timers& c = *cpus_[unsigned(slot)];
    const cpu_controls& k = system_.control_registers();
    const uint64_t hcr = k.value(ctx.cpu, control::hcr_el2), scr = k.value(ctx.cpu, control::scr_el3);
    const bool el2 = cpu_controls::el2_enabled_by(scr, ctx.secure);
    const bool e2h = bit(hcr, ctl::hcr_e2h);
    // EL0's traps go to EL1, or to EL2 when HCR_EL2.TGE routes EL0's exceptions there.
    const access_outcome el0_trap = el2 && bit(hcr, ctl::hcr_tge) ? access_outcome::trap_el2 : access_outcome::trap_el1;
    const unsigned el = ctx.el;
    timer_kind tk{};
    unsigned which = 0;
    const bool is_timer = timer_of(index, tk, which);
    switch (index) {
    case r_cntfrq:
        if (is_write && el < 3) return refuse(ctx, access_outcome::undefined, reg, is_write, "CNTFRQ_EL0 is writable at EL3 only");
        if (el == 0 && !kctl_el0pcten.in(c.cntkctl) && !kctl_el0vcten.in(c.cntkctl))
            return refuse(ctx, el0_trap, reg, is_write, "CNTKCTL_EL1.EL0PCTEN and EL0VCTEN are 0");
        return access_outcome::ok;
    case r_cntpct:
        if (is_write) return refuse(ctx, access_outcome::undefined, reg, is_write, "CNTPCT_EL0 is read-only");
        if (el == 0 && !kctl_el0pcten.in(c.cntkctl)) return refuse(ctx, el0_trap, reg, is_write, "CNTKCTL_EL1.EL0PCTEN is 0");
        if (el <= 1 && el2 && !e2h && !hctl_el1pcten.in(c.cnthctl))
            return refuse(ctx, access_outcome::trap_el2, reg, is_write, "CNTHCTL_EL2.EL1PCTEN is 0");
        return access_outcome::ok;
    case r_cntvct:
        if (is_write) return refuse(ctx, access_outcome::undefined, reg, is_write, "CNTVCT_EL0 is read-only");
        if (el == 0 && !kctl_el0vcten.in(c.cntkctl)) return refuse(ctx, el0_trap, reg, is_write, "CNTKCTL_EL1.EL0VCTEN is 0");
        return access_outcome::ok;
    case r_cntkctl:
        if (el == 0) return refuse(ctx, access_outcome::undefined, reg, is_write, "CNTKCTL_EL1 is not accessible at EL0");
        return access_outcome::ok;
    case r_cntvoff:
    case r_cnthctl:
        if (el < 2) return refuse(ctx, access_outcome::undefined, reg, is_write, reg.name + " is accessible at EL2 and EL3 only");
        return access_outcome::ok;
    default: break;
    }
    if (!is_timer) return refuse(ctx, access_outcome::undefined, reg, is_write, "not a generic timer register");
    switch (tk) {
    case timer_kind::physical:
        if (el == 0 && !kctl_el0pten.in(c.cntkctl)) return refuse(ctx, el0_trap, reg, is_write, "CNTKCTL_EL1.EL0PTEN is 0");
        if (el <= 1 && el2 && !e2h && !hctl_el1pcen.in(c.cnthctl))
            return refuse(ctx, access_outcome::trap_el2, reg, is_write, "CNTHCTL_EL2.EL1PCEN is 0");
        return access_outcome::ok;
    case timer_kind::virtual_:
        if (el == 0 && !kctl_el0vten.in(c.cntkctl)) return refuse(ctx, el0_trap, reg, is_write, "CNTKCTL_EL1.EL0VTEN is 0");
        return access_outcome::ok;
    case timer_kind::hyp_physical:
        if (el < 2) return refuse(ctx, access_outcome::undefined, reg, is_write, "the EL2 physical timer is accessible at EL2 and EL3 only");
        return access_outcome::ok;
    default: // Secure physical: EL3, and Secure EL1 when SCR_EL3.ST allows it (else trapped to EL3)
        if (el == 3) return access_outcome::ok;
        if (el == 1 && ctx.secure)
            return bit(scr, scr_st) ? access_outcome::ok
                                    : refuse(ctx, access_outcome::trap_el3, reg, is_write, "SCR_EL3.ST is 0");
        return refuse(ctx, access_outcome::undefined, reg, is_write, "CNTPS_* are accessible at EL3 and Secure EL1 only");
    }
}

uint64_t generic_timer_unit::read_register(cpu_timers& c, unsigned index) {
    timer_kind k{};
    unsigned which = 0;
    if (timer_of(index, k, which)) {
        const timer& t = c.t[unsigned(k)];
        const uint64_t count = view(c, k, counter());
        if (which == 0) return uint32_t(t.cval - count); // TVAL: (CVAL - count)[31:0]
        if (which == 2) return t.cval;
        const bool met = ctl_enable.in(t.ctl) && count >= t.cval;
        return t.ctl | ctl_istatus.put(met);
    }
    switch (index) {
    case r_cntfrq: return c.cntfrq;
    case r_cntpct: return counter();
    case r_cntvct: return counter() - c.cntvoff;
    case r_cntkctl: return c.cntkctl;
    case r_cntvoff: return c.cntvoff;
    case r_cnthctl: return c.cnthctl;
    default: return 0;
    }
}

void generic_timer_unit::write_register(cpu_timers& c, unsigned index, uint64_t value) {
    timer_kind k{};
    unsigned which = 0;
    if (timer_of(index, k, which)) {
        timer& t = c.t[unsigned(k)];
        if (which == 0) t.cval = view(c, k, counter()) + uint64_t(int64_t(int32_t(uint32_t(value)))); // TVAL
        else if (which == 1) t.ctl = value & (ctl_enable.mask() | ctl_imask.mask());
        else t.cval = value;
        evaluate(c);
        return;
    }
    switch (index) {
    case r_cntfrq: c.cntfrq = uint32_t(value); break;
    case r_cntkctl:
        c.cntkctl = value & (kctl_el0pcten.mask() | kctl_el0vcten.mask() | kctl_evnten.mask() | kctl_evntdir.mask() |
                             kctl_evnti.mask() | kctl_el0vten.mask() | kctl_el0pten.mask());
        break;
    case r_cnthctl:
        c.cnthctl = value & (hctl_el1pcten.mask() | hctl_el1pcen.mask() | hctl_evnten.mask() | hctl_evntdir.mask() |
                             hctl_evnti.mask());
        break;
    case r_cntvoff:
        c.cntvoff = value;
        evaluate(c); // the virtual timer's count moved
        break;
    default: break; // CNTPCT_EL0, CNTVCT_EL0: read-only (the rule refuses MSR)
    }
}

void generic_timer_unit::serve_sysreg(uint32_t slot, tlm::tlm_generic_payload& trans, access_context& ctx) {
    const unsigned cpu_slot = slot / r_count, index = slot % r_count;
    const unsigned len = trans.get_data_length();
    if (cpu_slot >= cpus_.size() || len == 0 || len > 8) {
        ctx.outcome = access_outcome::error;
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
    }
    cpu_timers& c = *cpus_[cpu_slot];
    if (trans.is_read()) {
        const uint64_t v = read_register(c, index);
        std::memcpy(trans.get_data_ptr(), &v, len);
    } else {
        uint64_t v = 0;
        std::memcpy(&v, trans.get_data_ptr(), len);
        write_register(c, index, v);
    }
    ctx.outcome = access_outcome::ok;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void generic_timer_unit::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    // A test driving the unit alone: the address is the encoding key (as on the gate's path).
    const int slot = slot_of_cpu(ctx.cpu);
    if (ctx.path == access_path::system_register && slot >= 0)
        for (const auto& r : table().registers)
            if (r.sysreg && r.sysreg->key() == trans.get_address()) return serve_sysreg(sysreg_slot(ctx.cpu, r), trans, ctx);
    ctx.outcome = access_outcome::error;
    ctx.detail = "the generic timer has system registers only";
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
}

void generic_timer_unit::report(std::ostream& out) {
    for (const auto& c : cpus_)
        out << fmt::format("{}.cpu{}: interrupts raised: cntp {}, cntv {}, cnthp {}, cntps {}\n", basename(), c->cpu,
                           c->t[0].rising, c->t[1].rising, c->t[2].rising, c->t[3].rising);
}

void generic_timer_unit::observables(std::vector<observable>& out) { (void)out; }

} // namespace pmusim
