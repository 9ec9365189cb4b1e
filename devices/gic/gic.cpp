// The GICv2 model's behaviour: state per interrupt (banked per CPU interface for SGIs and PPIs),
// the Distributor's and the CPU interfaces' registers, and the IRQ outputs (gic.h).
#include "devices/gic/gic.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

namespace pmusim {

using namespace gic_field;

gic_unit::gic_unit(const sc_core::sc_module_name& name, soc& system, gic_options options,
                   std::vector<interrupt_line*> outputs, std::vector<gic_input> inputs)
    : unit(name, system), opt_(std::move(options)), cpus_(opt_.cpus), spis_(opt_.spis) {
    if (opt_.cpus == 0 || opt_.cpus > max_cpus) throw model_error("gicv2: 1 to 8 CPU interfaces");
    if (outputs.size() != opt_.cpus) throw model_error("gicv2: one IRQ output per CPU interface");
    if (opt_.cpu_index.empty())
        for (unsigned i = 0; i < opt_.cpus; ++i) opt_.cpu_index.push_back(i);
    for (unsigned i = 0; i < opt_.cpus; ++i) cpus_[i].out = outputs[i];
    reset(true);
    for (const gic_input& in : inputs) {
        if (in.intid >= interrupts() || in.intid < first_ppi || (in.intid < first_spi_ && in.cpu >= opt_.cpus))
            throw model_error(fmt::format("gicv2: input {} cannot drive INTID {}", in.line->name(), in.intid));
        const unsigned intid = in.intid, cpu = in.cpu;
        if (intid >= first_spi_) {
            spis_[intid - first_spi_].level = in.line->level();
            in.line->on_edge([this, intid](bool level, fs_t) { set_spi_level(intid, level); });
        } else {
            cpus_[cpu].banked[intid].level = in.line->level();
            in.line->on_edge([this, cpu, intid](bool level, fs_t) { set_ppi_level(cpu, intid, level); });
        }
    }
    update();
}

std::vector<address_window> gic_unit::mmio_windows() const {
    const std::string n = basename();
    return {{n + ".distributor", opt_.base + distributor_offset, distributor_size},
            {n + ".cpu_interface", opt_.base + cpu_interface_offset, cpu_interface_size}};
}

std::optional<mmio_register> gic_unit::find_mmio_register(const std::string& name) const {
    if (const register_def* d = gic_distributor_table().find(name); d && d->offset)
        return mmio_register{d, opt_.base + distributor_offset + *d->offset};
    if (const register_def* c = gic_cpu_interface_table().find(name); c && c->offset)
        return mmio_register{c, opt_.base + cpu_interface_offset + *c->offset};
    // A word of a bank by its number ("GICD_ISENABLER1", "GICD_IPRIORITYR10"): the table's row "...n".
    const size_t digits = name.find_last_not_of("0123456789") + 1;
    if (digits == name.size() || digits == 0 || name.size() - digits > 3) return std::nullopt;
    const unsigned n = unsigned(std::stoul(name.substr(digits)));
    for (const register_table* t : {&gic_distributor_table(), &gic_cpu_interface_table()})
        if (const register_def* bank = t->find(name.substr(0, digits) + "n"); bank && bank->offset && n < 255) {
            const uint64_t frame = t == &gic_distributor_table() ? distributor_offset : cpu_interface_offset;
            return mmio_register{bank, opt_.base + frame + *bank->offset + 4 * n};
        }
    return std::nullopt;
}

void gic_unit::reset(bool) {
    gicd_ctlr_ = 0;
    acknowledged_ = 0;
    for (auto& c : cpus_) {
        for (unsigned i = 0; i < first_spi_; ++i) {
            irq_state s;
            s.level = c.banked[i].level;
            // SGIs are edge-triggered, fixed (GICD_ICFGR0 is read-only, IHI 0048B 4.3.13); PPIs reset level.
            s.edge = i < first_ppi;
            c.banked[i] = s;
        }
        c.ctlr = 0;
        c.pmr = 0;
        c.bpr = min_binary_point();
        c.abpr = min_binary_point() + 1;
        c.running.clear();
    }
    for (auto& s : spis_) {
        const bool level = s.level;
        s = irq_state{};
        s.level = level;
    }
    update();
}

int gic_unit::interface_of(const access_context& ctx) const {
    if (ctx.initiator != initiator_kind::cpu && ctx.initiator != initiator_kind::debugger) return -1;
    for (unsigned i = 0; i < opt_.cpus; ++i)
        if (opt_.cpu_index[i] == ctx.cpu) return int(i);
    return -1;
}

bool gic_unit::pending(unsigned cpu, unsigned intid) const {
    return cpu < opt_.cpus && intid < interrupts() && state(cpu, intid).is_pending();
}
bool gic_unit::active(unsigned cpu, unsigned intid) const {
    return cpu < opt_.cpus && intid < interrupts() && state(cpu, intid).active;
}

void gic_unit::set_spi_level(unsigned intid, bool level) {
    irq_state& s = spis_.at(intid - first_spi_);
    if (s.edge && level && !s.level) s.latch = true; // a rising edge latches an edge-triggered interrupt
    s.level = level;
    update();
}

void gic_unit::set_ppi_level(unsigned cpu, unsigned intid, bool level) {
    irq_state& s = cpus_.at(cpu).banked.at(intid);
    if (s.edge && level && !s.level) s.latch = true;
    s.level = level;
    update();
}

uint8_t gic_unit::group_priority(const cpu_interface& c, bool group1, uint8_t priority) const {
    // IHI 0048B 3.3.3, Tables 3-6 and 3-7: GICC_BPR = n splits at [7:n+1]; Group 1 with CBPR = 0 uses
    // GICC_ABPR, whose n splits at [7:n] (the Non-secure view's binary point).
    const unsigned bits = group1 && !gicc_cbpr.in(c.ctlr) ? c.abpr : c.bpr + 1;
    return uint8_t(priority & (0xFF << bits));
}

uint8_t gic_unit::running_priority(const cpu_interface& c) const {
    uint8_t p = 0xFF; // idle priority (IHI 0048B 4.4.6: GICC_RPR reads 0xFF when nothing is active)
    for (const auto& r : c.running) p = std::min(p, r.group_priority);
    return p;
}

gic_unit::candidate gic_unit::highest_pending(unsigned cpu) const {
    candidate best;
    for (unsigned id = 0; id < interrupts(); ++id) {
        const irq_state& s = state(cpu, id);
        if (!s.enabled || s.active || !s.is_pending() || !targets_cpu(cpu, id)) continue;
        // The Distributor forwards an interrupt only while its group is enabled (4.3.1).
        if (!(s.group1 ? ctlr_enable_grp1.in(gicd_ctlr_) : ctlr_enable_grp0.in(gicd_ctlr_))) continue;
        if (best.intid != spurious && s.priority >= best.priority) continue; // ties: the lowest INTID wins
        best.intid = id;
        best.priority = s.priority;
        best.group1 = s.group1;
        best.source = 0;
        if (id < first_ppi && s.sgi_sources) best.source = unsigned(__builtin_ctz(s.sgi_sources));
    }
    return best;
}

bool gic_unit::signals_irq(unsigned cpu, const candidate& h) const {
    if (h.intid == spurious) return false;
    const cpu_interface& c = cpus_[cpu];
    if (!(h.group1 ? gicc_enable_grp1.in(c.ctlr) : gicc_enable_grp0.in(c.ctlr))) return false;
    if (!h.group1 && gicc_fiqen.in(c.ctlr)) return false; // Group 0 as FIQ: no FIQ output is modelled
    // Priority above the mask, and a group priority above the running priority (preemption, 3.3).
    if (h.priority >= (c.pmr & priority_mask())) return false;
    const uint8_t running = running_priority(c);
    return c.running.empty() || group_priority(c, h.group1, h.priority) < running;
}

void gic_unit::update() {
    for (unsigned i = 0; i < opt_.cpus; ++i)
        if (cpus_[i].out) cpus_[i].out->set(signals_irq(i, highest_pending(i)));
}

uint32_t gic_unit::bitmap(unsigned cpu, unsigned word, bool irq_state::*flag) const {
    uint32_t v = 0;
    for (unsigned b = 0; b < 32; ++b) {
        const unsigned id = word * 32 + b;
        if (id < interrupts() && state(cpu, id).*flag) v |= 1u << b;
    }
    return v;
}

uint32_t gic_unit::pending_bitmap(unsigned cpu, unsigned word) const {
    uint32_t v = 0;
    for (unsigned b = 0; b < 32; ++b) {
        const unsigned id = word * 32 + b;
        if (id < interrupts() && state(cpu, id).is_pending()) v |= 1u << b;
    }
    return v;
}

uint32_t gic_unit::read_distributor(unsigned cpu, uint64_t off, unsigned) {
    const unsigned words = interrupts() / 32;
    auto in_bank = [&](uint64_t base, unsigned per_word) -> int {
        // The word index of `off` in a bank of registers at `base` covering the implemented INTIDs.
        if (off < base) return -1;
        const uint64_t w = (off - base) / 4;
        return w < uint64_t(words) * 32 / per_word && (off - base) < 0x80 * (32 / per_word) ? int(w) : -1;
    };
    int w;
    switch (off) {
    case dist::ctlr: return gicd_ctlr_;
    case dist::typer:
        return uint32_t(typer_itlines.put(words - 1) | typer_cpus.put(opt_.cpus - 1));
    case dist::iidr: return opt_.gicd_iidr;
    default: break;
    }
    if ((w = in_bank(dist::igroupr, 32)) >= 0) return bitmap(cpu, unsigned(w), &irq_state::group1);
    if ((w = in_bank(dist::isenabler, 32)) >= 0 || (w = in_bank(dist::icenabler, 32)) >= 0)
        return bitmap(cpu, unsigned(w), &irq_state::enabled);
    if ((w = in_bank(dist::ispendr, 32)) >= 0 || (w = in_bank(dist::icpendr, 32)) >= 0)
        return pending_bitmap(cpu, unsigned(w));
    if ((w = in_bank(dist::isactiver, 32)) >= 0 || (w = in_bank(dist::icactiver, 32)) >= 0)
        return bitmap(cpu, unsigned(w), &irq_state::active);
    if ((w = in_bank(dist::ipriorityr, 4)) >= 0) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; ++b) v |= uint32_t(state(cpu, unsigned(w) * 4 + b).priority) << (8 * b);
        return v;
    }
    if ((w = in_bank(dist::itargetsr, 4)) >= 0) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; ++b) {
            const unsigned id = unsigned(w) * 4 + b;
            // SGIs and PPIs: the accessing interface's own bit, read-only (4.3.12).
            const uint8_t t = id < first_spi_ ? uint8_t(1u << cpu) : spis_[id - first_spi_].targets;
            v |= uint32_t(t) << (8 * b);
        }
        return v;
    }
    if ((w = in_bank(dist::icfgr, 16)) >= 0) {
        if (w == 0) return 0xAAAAAAAA; // SGIs: edge-triggered, read-only (4.3.13)
        uint32_t v = 0;
        for (unsigned b = 0; b < 16; ++b)
            if (state(cpu, unsigned(w) * 16 + b).edge) v |= 2u << (2 * b);
        return v;
    }
    if (off >= dist::cpendsgir && off < dist::spendsgir + 0x10) {
        const unsigned first = unsigned((off - dist::cpendsgir) % 0x10); // SGI of byte 0
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; ++b) v |= uint32_t(cpus_[cpu].banked[first + b].sgi_sources) << (8 * b);
        return v;
    }
    // Peripheral and component ID registers (4.3.16 and the GIC-400's values, DDI 0471B 3.2).
    static const uint32_t ids[12] = {0x04, 0x00, 0x00, 0x00, 0x90, 0xB4, 0x2B, 0x00, 0x0D, 0xF0, 0x05, 0xB1};
    if (off >= dist::pidr4 && off <= 0xFFC) return ids[(off - dist::pidr4) / 4];
    return 0; // reserved and unimplemented words: RAZ/WI
}

void gic_unit::write_distributor(unsigned cpu, uint64_t off, unsigned len, uint32_t value) {
    const unsigned words = interrupts() / 32;
    // Byte-accessible banks (IPRIORITYR, ITARGETSR, CPENDSGIR, SPENDSGIR: 4.1.4): one byte at a time.
    auto bytes = [&](uint64_t base, uint64_t size, auto&& apply) {
        if (off < base || off >= base + size) return false;
        for (unsigned b = 0; b < len; ++b) apply(unsigned(off - base) + b, uint8_t(value >> (8 * b)));
        return true;
    };
    if (bytes(dist::ipriorityr, 0x400, [&](unsigned id, uint8_t v) {
            if (id < interrupts()) state(cpu, id).priority = v & priority_mask();
        }) ||
        bytes(dist::itargetsr, 0x400, [&](unsigned id, uint8_t v) {
            if (id >= first_spi_ && id < interrupts())
                spis_[id - first_spi_].targets = uint8_t(v & ((1u << opt_.cpus) - 1));
        }) ||
        bytes(dist::cpendsgir, 0x10, [&](unsigned id, uint8_t v) {
            cpus_[cpu].banked[id].sgi_sources &= uint8_t(~v);
        }) ||
        bytes(dist::spendsgir, 0x10, [&](unsigned id, uint8_t v) {
            cpus_[cpu].banked[id].sgi_sources |= uint8_t(v & ((1u << opt_.cpus) - 1));
        })) {
        update();
        return;
    }
    if (len != 4) return; // other registers are word-accessible only (the caller refuses)
    auto each_bit = [&](uint64_t base, auto&& apply) {
        if (off < base || off >= base + 0x80) return false;
        const unsigned w = unsigned(off - base) / 4;
        if (w >= words) return true; // beyond the implemented INTIDs: WI
        for (unsigned b = 0; b < 32; ++b)
            if (value >> b & 1) apply(state(cpu, w * 32 + b), w * 32 + b);
        return true;
    };
    const bool set = true;
    if (off == dist::ctlr) gicd_ctlr_ = value & uint32_t(ctlr_enable_grp0.mask() | ctlr_enable_grp1.mask());
    else if (off == dist::sgir) send_sgi(cpu, value);
    else if (off >= dist::igroupr && off < dist::igroupr + 0x80) {
        const unsigned w = unsigned(off - dist::igroupr) / 4;
        if (w < words)
            for (unsigned b = 0; b < 32; ++b) state(cpu, w * 32 + b).group1 = value >> b & 1;
    } else if (each_bit(dist::isenabler, [&](irq_state& s, unsigned) { s.enabled = set; })) {
    } else if (each_bit(dist::icenabler, [&](irq_state& s, unsigned) { s.enabled = false; })) {
    } else if (each_bit(dist::ispendr, [&](irq_state& s, unsigned id) {
                   if (id >= first_ppi) s.latch = true; // SGIs: WI here, GICD_SPENDSGIR sets them (4.3.7)
               })) {
    } else if (each_bit(dist::icpendr, [&](irq_state& s, unsigned id) {
                   if (id >= first_ppi) s.latch = false; // a level interrupt stays pending while its input is high
               })) {
    } else if (each_bit(dist::isactiver, [&](irq_state& s, unsigned) { s.active = true; })) {
    } else if (each_bit(dist::icactiver, [&](irq_state& s, unsigned) { s.active = false; })) {
    } else if (off >= dist::icfgr + 4 && off < dist::icfgr + 0x100) {
        const unsigned w = unsigned(off - dist::icfgr) / 4;
        if (w < words * 2)
            for (unsigned b = 0; b < 16; ++b) {
                irq_state& s = state(cpu, w * 16 + b);
                // Int_config[1] of each field: 1 edge, 0 level; Int_config[0] is reserved in GICv2.
                const bool edge = value >> (2 * b + 1) & 1;
                if (edge && !s.edge) s.latch = false;
                s.edge = edge;
            }
    }
    update();
}

void gic_unit::send_sgi(unsigned from, uint32_t sgir) {
    const unsigned intid = unsigned(sgir_intid.get(sgir));
    uint8_t targets = 0;
    const uint8_t all = uint8_t((1u << opt_.cpus) - 1);
    switch (sgir_filter.get(sgir)) {
    case 0: targets = uint8_t(sgir_targets.get(sgir)) & all; break; // the CPUTargetList
    case 1: targets = all & uint8_t(~(1u << from)); break;            // every interface but the requester
    case 2: targets = uint8_t(1u << from); break;                     // the requester only
    default: return;                                                  // reserved: no SGI
    }
    for (unsigned c = 0; c < opt_.cpus; ++c)
        if (targets >> c & 1) cpus_[c].banked[intid].sgi_sources |= uint8_t(1u << from);
}

uint32_t gic_unit::acknowledge(unsigned cpu, bool alias) {
    cpu_interface& c = cpus_[cpu];
    const candidate h = highest_pending(cpu);
    if (alias || !signals_irq(cpu, h)) return spurious;
    // Group 1 through GICC_IAR needs AckCtl (IHI 0048B 4.4.4, no Security Extensions).
    if (h.group1 && !gicc_ackctl.in(c.ctlr)) return group1_not_acked;
    irq_state& s = state(cpu, h.intid);
    if (h.intid < first_ppi) s.sgi_sources &= uint8_t(~(1u << h.source));
    else s.latch = false; // an edge interrupt's pending state ends; a level one stays pending while high
    s.active = true;
    c.running.push_back({h.intid, h.source, group_priority(c, h.group1, h.priority)});
    ++acknowledged_;
    update();
    return uint32_t(iar_cpuid.put(h.source) | iar_intid.put(h.intid));
}

void gic_unit::end_of_interrupt(unsigned cpu, uint32_t value) {
    cpu_interface& c = cpus_[cpu];
    const unsigned intid = unsigned(iar_intid.get(value)), source = unsigned(iar_cpuid.get(value));
    if (intid >= interrupts()) return;
    // Priority drop of the matching acknowledged interrupt (the newest, as software nests them).
    for (auto it = c.running.rbegin(); it != c.running.rend(); ++it)
        if (it->intid == intid && (intid >= first_ppi || it->source == source)) {
            c.running.erase(std::next(it).base());
            if (!gicc_eoimode.in(c.ctlr)) state(cpu, intid).active = false; // EOImode 0: deactivate too
            break;
        }
    update();
}

void gic_unit::deactivate(unsigned cpu, uint32_t value) {
    const unsigned intid = unsigned(iar_intid.get(value));
    // GICC_DIR deactivates only with EOImode = 1 (4.4.15); otherwise the write is ignored.
    if (intid >= interrupts() || !gicc_eoimode.in(cpus_[cpu].ctlr)) return;
    state(cpu, intid).active = false;
    update();
}

uint32_t gic_unit::read_cpu_interface(unsigned cpu, uint64_t off) {
    cpu_interface& c = cpus_[cpu];
    switch (off) {
    case cpuif::ctlr: return c.ctlr;
    case cpuif::pmr: return c.pmr & priority_mask();
    case cpuif::bpr: return c.bpr;
    case cpuif::abpr: return c.abpr;
    case cpuif::iar: return acknowledge(cpu, false);
    case cpuif::aiar: return acknowledge(cpu, true);
    case cpuif::rpr: return running_priority(c);
    case cpuif::hppir: {
        const candidate h = highest_pending(cpu);
        if (h.intid == spurious) return spurious;
        if (h.group1 && !gicc_ackctl.in(c.ctlr)) return group1_not_acked;
        return uint32_t(iar_cpuid.put(h.source) | iar_intid.put(h.intid));
    }
    case cpuif::ahppir: return spurious;
    case cpuif::iidr: return opt_.gicc_iidr;
    default: return 0; // GICC_APRn/NSAPRn RAZ (see docs/devices.md), EOIR/DIR write-only, reserved
    }
}

void gic_unit::write_cpu_interface(unsigned cpu, uint64_t off, uint32_t value) {
    cpu_interface& c = cpus_[cpu];
    switch (off) {
    case cpuif::ctlr:
        c.ctlr = value & uint32_t(gicc_enable_grp0.mask() | gicc_enable_grp1.mask() | gicc_ackctl.mask() |
                                  gicc_fiqen.mask() | gicc_cbpr.mask() | gicc_bypass.mask() | gicc_eoimode.mask());
        break;
    case cpuif::pmr: c.pmr = value & priority_mask(); break;
    // A binary point below the minimum reads back as the minimum (3.3.3).
    case cpuif::bpr: c.bpr = std::max(unsigned(bpr_binary_point.get(value)), min_binary_point()); break;
    case cpuif::abpr: c.abpr = std::max(unsigned(bpr_binary_point.get(value)), min_binary_point() + 1); break;
    case cpuif::eoir: end_of_interrupt(cpu, value); return;
    case cpuif::dir: deactivate(cpu, value); return;
    default: break; // GICC_AEOIR, APRn, NSAPRn: ignored (docs/devices.md); read-only registers: WI
    }
    update();
}

void gic_unit::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    const uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length();
    const bool in_dist = addr >= opt_.base + distributor_offset && addr - (opt_.base + distributor_offset) < distributor_size;
    const bool in_cpu =
        addr >= opt_.base + cpu_interface_offset && addr - (opt_.base + cpu_interface_offset) < cpu_interface_size;
    const uint64_t off = addr - opt_.base - (in_dist ? distributor_offset : cpu_interface_offset);
    auto refuse_access = [&](const std::string& why) {
        ctx.outcome = access_outcome::error;
        ctx.detail = why;
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    };
    if (ctx.path != access_path::memory_mapped || !(in_dist || in_cpu))
        return refuse_access("the GIC has memory-mapped registers only");
    const bool byte_bank = in_dist && ((off >= dist::ipriorityr && off < dist::icfgr) ||
                                       (off >= dist::cpendsgir && off < dist::spendsgir + 0x10));
    // Word accesses everywhere, byte accesses to the byte-accessible banks (IHI 0048B 4.1.4).
    if (!((len == 4 && (off & 3) == 0) || (len == 1 && byte_bank)))
        return refuse_access(fmt::format("{}-byte access at offset {:#x}: the GIC takes aligned words{}", len, off,
                                         byte_bank ? " or bytes" : ""));
    const int cpu = interface_of(ctx);
    uint32_t data = 0;
    if (trans.is_write()) std::memcpy(&data, trans.get_data_ptr(), len);
    if (cpu < 0) { // not one of this GIC's CPUs: no banked view to use (RAZ/WI)
        if (trans.is_read()) std::memset(trans.get_data_ptr(), 0, len);
    } else if (trans.is_read()) {
        const uint32_t word =
            in_dist ? read_distributor(unsigned(cpu), off & ~uint64_t(3), len) : read_cpu_interface(unsigned(cpu), off);
        const uint32_t v = word >> (8 * (off & 3));
        std::memcpy(trans.get_data_ptr(), &v, len);
    } else if (in_dist) {
        write_distributor(unsigned(cpu), off, len, data);
    } else {
        write_cpu_interface(unsigned(cpu), off, data);
    }
    ctx.outcome = access_outcome::ok;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void gic_unit::report(std::ostream& out) {
    out << fmt::format("{}: {} interrupts acknowledged\n", basename(), acknowledged_);
}

void gic_unit::control_registers(std::vector<observable>& out) {
    out.emplace_back(std::string(basename()) + ".GICD_CTLR", 32, [this] { return uint64_t(gicd_ctlr_); });
}

} // namespace pmusim
