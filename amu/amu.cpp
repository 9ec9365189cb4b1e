// The AMU unit: per-CPU register banks, lazy counters, access rules, TF-A
// bring-up and power-down save/restore (docs/amu.md).
#include "amu/amu.h"

#include <cstring>
#include <map>
#include <fmt/format.h>

#include "models/cpu_controls.h"
#include "models/input_error.h"

namespace pmusim {

namespace {
// The architected group-0 events (AMEVTYPER0<n>_EL0.evtCount) and the core keys they count.
struct amu_group0_event {
    uint64_t code;
    const char* name; // Arm event mnemonic, lower case as Linux perf names events
    const char* key;  // core workload key
};
const amu_group0_event group0_events[4] = {
    {0x0011, "cpu_cycles", "cycles"},
    {0x4004, "cnt_cycles", "const_cycles"},
    {0x0008, "inst_retired", "inst"},
    {0x4005, "stall_backend_mem", "mem_stall"},
};
} // namespace

namespace {
constexpr uint64_t amcr_cg1rz_mask = amu_field::amcr_cg1rz.mask();
const char* const g0_keys[4] = {"cycles", "const_cycles", "inst", "mem_stall"};
} // namespace

amu_unit::amu_unit(const sc_core::sc_module_name& name, soc& system, std::vector<amu_cpu_config> cpus,
                   amu_external_options external)
    : unit(name, system), external_(external) {
    cpus_.resize(system.cpus.size());
    std::map<unsigned, unsigned> cores_in_cluster; // for AMDEVAFF (MPIDR_EL1.Aff1)
    for (const auto& d : system.cpus) {
        const unsigned core_in_cluster = cores_in_cluster[d.cluster]++;
        const amu_cpu_config f = d.index < cpus.size() ? cpus[d.index] : amu_cpu_config{};
        if (f.version == 0 || d.power_arch) continue;
        auto c = std::make_unique<cpu_amu>();
        c->cpu = d.index;
        c->version = f.version;
        c->aux = std::min(f.aux_counters, 16u);
        c->fgt = f.fgt;
        c->bank = std::make_unique<register_bank>(fmt::format("cpu{}.amu", d.index), table());
        core_model& core = system.core(d.index);
        fs_t now = now_fs();
        for (unsigned n = 0; n < 4; ++n) c->g0[n].set_source(&core.events(g0_keys[n]), now);
        for (unsigned n = 0; n < 16; ++n) c->g1[n].set_source(&c->aux_in[n], now);

        cpu_amu* cp = c.get();
        register_bank& b = *c->bank;
        c->userenr = &b["AMUSERENR_EL0"];
        c->hafgrtr = &b["HAFGRTR_EL2"];
        c->amcr = &b["AMCR_EL0"];
        for (unsigned n : {0u, 2u, 3u}) c->voff0[n] = &b[fmt::format("AMEVCNTVOFF0{}_EL2", n)];
        for (unsigned n = 0; n < 16; ++n) c->voff1[n] = &b[fmt::format("AMEVCNTVOFF1{}_EL2", n)];
        for (unsigned n = 0; n < 4; ++n) {
            auto& r = b[fmt::format("AMEVCNTR0{}_EL0", n)];
            r.reads_counter(cp->g0[n]);
            r.on_write([cp, n](const write_event& e) { cp->g0[n].write(e.written, now_fs()); });
        }
        for (unsigned n = 0; n < 16; ++n) {
            auto& r = b[fmt::format("AMEVCNTR1{}_EL0", n)];
            r.reads_counter(cp->g1[n]);
            r.on_write([cp, n](const write_event& e) { cp->g1[n].write(e.written, now_fs()); });
        }
        b["AMCNTENSET0_EL0"].on_read([cp] { return uint64_t(cp->en0); });
        b["AMCNTENCLR0_EL0"].on_read([cp] { return uint64_t(cp->en0); });
        b["AMCNTENSET1_EL0"].on_read([cp] { return uint64_t(cp->en1); });
        b["AMCNTENCLR1_EL0"].on_read([cp] { return uint64_t(cp->en1); });
        b["AMCNTENSET0_EL0"].on_write([this, cp](const write_event& e) {
            cp->en0 |= uint16_t(e.written & amu_field::amcnten0_p.mask());
            apply_enables(*cp, now_fs());
        });
        b["AMCNTENCLR0_EL0"].on_write([this, cp](const write_event& e) {
            cp->en0 &= uint16_t(~e.written & amu_field::amcnten0_p.mask());
            apply_enables(*cp, now_fs());
        });
        b["AMCNTENSET1_EL0"].on_write([this, cp](const write_event& e) {
            cp->en1 |= uint16_t(e.written & cp->aux_mask());
            apply_enables(*cp, now_fs());
        });
        b["AMCNTENCLR1_EL0"].on_write([this, cp](const write_event& e) {
            cp->en1 &= uint16_t(~e.written & cp->aux_mask());
            apply_enables(*cp, now_fs());
        });
        auto& hafgrtr = b["HAFGRTR_EL2"];
        hafgrtr.on_write([cp, &hafgrtr](const write_event&) {
            // Bits of auxiliary counters that do not exist are RES0 (D24.2.61).
            using namespace amu_field;
            for (unsigned x = cp->aux; x < 16; ++x)
                hafgrtr.value &= ~(hafgrtr_amevcntr1(x).mask() | hafgrtr_amevtyper1(x).mask());
            if (cp->aux == 0) hafgrtr.value &= ~hafgrtr_amcnten1.mask();
        });
        auto& amcr = b["AMCR_EL0"];
        amcr.on_write([cp, &amcr](const write_event&) {
            if (cp->version < 2) amcr.value &= ~amcr_cg1rz_mask; // CG1RZ is RES0 on AMUv1
        });
        const cpu_controls& k = system.control_registers();
        c->scr_el3 = &k.entry(d.index, control::scr_el3);
        c->hcr_el2 = &k.entry(d.index, control::hcr_el2);
        c->cptr_el2 = &k.entry(d.index, control::cptr_el2);
        c->cptr_el3 = &k.entry(d.index, control::cptr_el3);
        for (const register_def& def : table().registers) {
            const amu_reg_info& info = amu_info(def);
            if (def.sysreg && implemented(*c, info)) {
                slot_of_.assign(uint64_t(d.index) << 32 | def.sysreg->key(), uint32_t(served_.size()));
                served_.push_back({c.get(), &b[def.name], &info});
            }
        }
        core.on_power_change([this, cp](power_state, power_state to) { on_power(*cp, to); });
        if (external_.enabled && f.external_view) build_frame(*c, d.cluster, core_in_cluster);
        amu_reset(*c, now);
        cpus_[d.index] = std::move(c);
    }
}

bool amu_unit::implemented(unsigned cpu, const register_def& def) const {
    return has_amu(cpu) && implemented(*cpus_[cpu], amu_info(def));
}

bool amu_unit::implemented(const cpu_amu& c, const amu_reg_info& i) {
    bool v1p1 = c.version >= 2;
    switch (i.kind) {
    case amu_reg_info::amcg1idr: return v1p1;
    case amu_reg_info::hafgrtr: return c.fgt;
    case amu_reg_info::voff0: return v1p1;
    case amu_reg_info::voff1: return v1p1 && i.index < c.aux;
    case amu_reg_info::enset1:
    case amu_reg_info::enclr1: return c.aux > 0;
    case amu_reg_info::cnt1:
    case amu_reg_info::type1: return i.index < c.aux;
    default: return true;
    }
}

std::vector<const register_def*> amu_unit::sysregs(unsigned cpu) const {
    std::vector<const register_def*> out;
    if (!has_amu(cpu)) return out;
    for (const auto& r : table().registers)
        if (implemented(cpu, r)) out.push_back(&r);
    return out;
}

void amu_unit::amu_reset(cpu_amu& c, fs_t now) {
    register_bank& b = *c.bank;
    b.reset();
    const unsigned aux = c.aux;
    using namespace amu_field;
    b["AMCFGR_EL0"].value = amcfgr_value(aux);
    b["AMCGCR_EL0"].value = amcgcr_value(aux);
    b["AMCG1IDR_EL0"].value =
        c.version >= 2 ? amcg1idr_amevcntvoff1.put(c.aux_mask()) | amcg1idr_amevcntr1.put(c.aux_mask()) : 0;
    c.en0 = c.en1 = 0;
    for (auto& k : c.g0) k.write(0, now);
    for (auto& k : c.g1) k.write(0, now);
    apply_enables(c, now);
}

void amu_unit::apply_enables(cpu_amu& c, fs_t now) {
    // None of the counters increments in WFI, WFE or off. The core's streams are
    // already 0 then; the gate matters for injected auxiliary events.
    bool running = system_.core(c.cpu).power() == power_state::run;
    for (unsigned n = 0; n < 4; ++n) c.g0[n].set_enabled(running && ((c.en0 >> n) & 1), now);
    for (unsigned n = 0; n < 16; ++n) c.g1[n].set_enabled(running && n < c.aux && ((c.en1 >> n) & 1), now);
}

void amu_unit::on_power(cpu_amu& c, power_state to) {
    fs_t now = now_fs();
    if (to == power_state::off) {
        if (tf_a()) {
            // TF-A's save area: its psci_suspend_pwrdown_start code (firmware_power_down, run
            // by the sequence runner just before this instant) disabled the counters and read
            // them at EL3; these are the values those reads returned.
            for (unsigned n = 0; n < 4; ++n) c.saved_g0[n] = c.g0[n].read(now);
            for (unsigned n = 0; n < c.aux; ++n) c.saved_g1[n] = c.g1[n].read(now);
            c.saved = true;
        }
        amu_reset(c, now); // the AMU is in the core power domain: its state is lost
        return;
    }
    apply_enables(c, now); // leaving off, TF-A's restore follows as firmware_power_up
}

firmware_code amu_unit::firmware_power_down(const std::string& profile, unsigned cpu) {
    using step = firmware_access;
    firmware_code out;
    if (profile != "tf-a" || !has_amu(cpu)) return out; // "none": nothing is saved
    const cpu_amu& c = *cpus_[cpu];
    // TF-A amu_context_save (psci_suspend_pwrdown_start): stop, then read every counter.
    out.push_back(step::as_el(cpu, 3));
    out.push_back(step::write("AMCNTENCLR0_EL0", 0xf));
    if (c.aux) out.push_back(step::write("AMCNTENCLR1_EL0", c.aux_mask()));
    for (unsigned n = 0; n < 4; ++n) out.push_back(step::read(fmt::format("AMEVCNTR0{}_EL0", n)));
    for (unsigned n = 0; n < c.aux; ++n) out.push_back(step::read(fmt::format("AMEVCNTR1{}_EL0", n)));
    return out;
}

firmware_code amu_unit::firmware_power_up(const std::string& profile, unsigned cpu) {
    using step = firmware_access;
    firmware_code out;
    if (profile != "tf-a" || !has_amu(cpu) || !cpus_[cpu]->saved) return out;
    cpu_amu& c = *cpus_[cpu];
    // TF-A amu_context_restore (psci_suspend_pwrdown_finish) writes the counters back while
    // they are disabled (the AMU reset left AMCNTENCLR0_EL0 at 0, so its "disable first" step
    // does nothing), then the warm boot's amu_init_el3 and el3_exit re-enable them.
    out.push_back(step::as_el(cpu, 3));
    for (unsigned n = 0; n < 4; ++n) out.push_back(step::write(fmt::format("AMEVCNTR0{}_EL0", n), c.saved_g0[n]));
    for (unsigned n = 0; n < c.aux; ++n) out.push_back(step::write(fmt::format("AMEVCNTR1{}_EL0", n), c.saved_g1[n]));
    out.push_back(step::write("AMCNTENSET0_EL0", 0x3));
    if (c.aux) out.push_back(step::write("AMCNTENSET1_EL0", c.aux_mask()));
    if (c.version >= 2) out.push_back(step::write("AMCR_EL0", amcr_cg1rz_mask));
    out.push_back(step::write("AMCNTENSET0_EL0", 0xf));
    c.saved = false; // the save area is consumed
    return out;
}

void amu_unit::reset(bool cold) {
    (void)cold; // warm and cold resets both reset the AMU (its reset is the core's reset in pmusim)
    fs_t now = now_fs();
    for (auto& c : cpus_)
        if (c) {
            c->saved = false;
            for (auto& i : c->aux_in) i = injected_events();
            for (unsigned n = 0; n < 16; ++n) c->g1[n].set_source(&c->aux_in[n], now);
            amu_reset(*c, now);
        }
}

access_outcome amu_unit::sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) {
    if (!has_amu(ctx.cpu)) return refuse_access(ctx, reg, is_write, nullptr);
    return decide(ctx, *cpus_[ctx.cpu], reg, is_write);
}

// The rule itself (ARMARM D24.6 through amu_trap_table), from the registers' current values.
access_outcome amu_unit::decide(access_context& ctx, const cpu_amu& c, const register_def& reg, bool is_write) const {
    const amu_reg_info& info = amu_info(reg);
    if (!implemented(c, info)) return refuse_access(ctx, reg, is_write, nullptr);
    const uint64_t scr = c.scr_el3->value, hcr = c.hcr_el2->value, cptr2 = c.cptr_el2->value,
                   cptr3 = c.cptr_el3->value;
    auto bit = [](uint64_t v, unsigned i) { return bool((v >> i) & 1); };
    amu_access a;
    a.cls = info.cls;
    a.write = is_write;
    a.el = ctx.el;
    a.kvm_guest = ctx.guest && ctx.el <= 1 && !bit(hcr, ctl::hcr_amvoffen);
    a.en = c.userenr->value & 1;
    a.el2_enabled = cpu_controls::el2_enabled_by(scr, ctx.secure);
    a.tge = bit(hcr, ctl::hcr_tge);
    a.cptr_el2_tam = bit(cptr2, ctl::cptr_tam);
    a.cptr_el3_tam = bit(cptr3, ctl::cptr_tam);
    a.scr_amvoffen = bit(scr, ctl::scr_amvoffen);
    a.scr_fgten = bit(scr, ctl::scr_fgten);
    if (c.fgt && ctx.el <= 1 && a.el2_enabled && a.scr_fgten && !(bit(hcr, ctl::hcr_e2h) && a.tge)) {
        const int fgt_bit = amu_hafgrtr_bit(info);
        a.hafgrtr_trap = fgt_bit >= 0 && ((c.hafgrtr->value >> fgt_bit) & 1);
    }
    const amu_trap_row& row = amu_decide(a);
    if (row.outcome == access_outcome::ok) return access_outcome::ok;
    return refuse_access(ctx, reg, is_write, &row);
}

access_outcome amu_unit::refuse_access(access_context& ctx, const register_def& reg, bool is_write,
                                       const amu_trap_row* row) const {
    if (!row)
        return refuse(ctx, access_outcome::undefined, reg, is_write,
                      reg.name + " is not implemented on cpu" + std::to_string(ctx.cpu));
    return refuse(ctx, row->outcome, reg, is_write, fmt::format("{} {} at EL{}: {} [rule {}]", is_write ? "MSR" : "MRS",
                                                                 reg.name, ctx.el, row->why, row->id));
}

uint64_t amu_unit::adjust_counter_read(cpu_amu& c, const amu_reg_info& i, uint64_t value,
                                       const access_context& ctx) const {
    bool cg1rz = c.version >= 2 && (c.amcr->value & amcr_cg1rz_mask);
    if (i.kind == amu_reg_info::cnt1 && cg1rz) return 0;
    // AMUv1p1 virtual offsets: EL0/EL1 reads with HCR_EL2.AMVOFFEN = SCR_EL3.AMVOFFEN = 1,
    // EL2 enabled and {E2H,TGE} != {1,1}. Counter 1 (CNT_CYCLES) has no offset.
    if (c.version < 2 || ctx.el > 1) return value;
    const cpu_controls& k = *system_.controls;
    if (!k.bit(c.cpu, control::hcr_el2, ctl::hcr_amvoffen) || !k.bit(c.cpu, control::scr_el3, ctl::scr_amvoffen))
        return value;
    if (!k.el2_enabled(c.cpu, ctx.secure)) return value;
    if (k.bit(c.cpu, control::hcr_el2, ctl::hcr_e2h) && k.bit(c.cpu, control::hcr_el2, ctl::hcr_tge)) return value;
    if (i.kind == amu_reg_info::cnt0 && i.index == 1) return value;
    const register_bank::reg* offset = i.kind == amu_reg_info::cnt0 ? c.voff0[i.index] : c.voff1[i.index];
    return value - offset->value;
}

void amu_unit::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    if (ctx.path != access_path::system_register) return frame_access(trans, ctx);
    const uint32_t* slot = slot_of_.find(uint64_t(ctx.cpu) << 32 | uint32_t(trans.get_address()));
    if (!slot) return answer_undefined(trans, ctx);
    serve_sysreg(*slot, trans, ctx);
}

uint32_t amu_unit::sysreg_slot(unsigned cpu, const register_def& reg) const {
    const uint32_t* slot = reg.sysreg ? slot_of_.find(uint64_t(cpu) << 32 | reg.sysreg->key()) : nullptr;
    if (!slot) throw model_error(fmt::format("amu: {} is not implemented on cpu{}", reg.name, cpu));
    return *slot;
}

void amu_unit::serve_sysreg(uint32_t slot, tlm::tlm_generic_payload& trans, access_context& ctx) {
    const served& s = served_[slot];
    // The common case here, an MRS (always 8 bytes); the rest out of line, so that it costs this
    // path no saved registers (docs/performance.md, scenario 2).
    if (!trans.is_read() || trans.get_data_length() < 8) return serve_sysreg_otherwise(s, trans, ctx);
    const uint64_t data = adjust_read(*s.cpu, *s.info, s.cpu->bank->read(*s.reg), ctx);
    std::memcpy(trans.get_data_ptr(), &data, 8);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    ctx.outcome = access_outcome::ok;
}

void amu_unit::serve_sysreg_otherwise(const served& s, tlm::tlm_generic_payload& trans, access_context& ctx) {
    cpu_amu* c = s.cpu;
    uint64_t data = 0;
    const unsigned bytes = std::min<unsigned>(trans.get_data_length(), 8);
    if (trans.is_read()) {
        data = adjust_read(*c, *s.info, c->bank->read(*s.reg), ctx);
        std::memcpy(trans.get_data_ptr(), &data, bytes);
    } else {
        std::memcpy(&data, trans.get_data_ptr(), bytes);
        c->bank->write(*s.reg, data);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    ctx.outcome = access_outcome::ok;
}

void amu_unit::answer_undefined(tlm::tlm_generic_payload& trans, access_context& ctx) const {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    ctx.outcome = access_outcome::undefined;
    ctx.syndrome = esr::undefined;
    ctx.detail = has_amu(ctx.cpu) ? "AMU encoding not implemented on this CPU" : fmt::format("cpu{} has no AMU", ctx.cpu);
}

bool amu_unit::inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                      std::string& error) {
    unsigned cpu = 0;
    if (node.size() < 4 || node.rfind("cpu", 0) != 0 || node.find_first_not_of("0123456789", 3) != std::string::npos) {
        error = fmt::format("inject amu: expected a node cpuN (inject amu.cpu0 aux0 COUNT), found '{}'", node);
        return false;
    }
    cpu = unsigned(std::stoul(node.substr(3)));
    if (!has_amu(cpu)) {
        error = fmt::format("inject amu.{}: cpu{} has no AMU", node, cpu);
        return false;
    }
    cpu_amu& c = *cpus_[cpu];
    std::string idx = event.rfind("aux", 0) == 0 ? event.substr(3) : event;
    if (idx.empty() || idx.size() > 2 || idx.find_first_not_of("0123456789") != std::string::npos) {
        error = fmt::format("inject amu.{}: expected an auxiliary counter event auxN or N, found '{}'", node, event);
        return false;
    }
    unsigned n = unsigned(std::stoul(idx));
    if (n >= c.aux) {
        error = fmt::format("inject amu.{}: cpu{} has {} auxiliary counters, no aux{}", node, cpu, c.aux, n);
        return false;
    }
    c.aux_in[n].add(count, now_fs(), over);
    return true;
}

firmware_code amu_unit::firmware_boot(const std::string& profile) {
    using step = firmware_access;
    firmware_code out;
    if (profile != "tf-a") return out; // "none": no firmware support, counters stay disabled and read 0
    // Control-register bits are changed by read-modify-write (`mask`), as TF-A's mrs/bic/orr/msr
    // do, so that other units' boots changing other bits of the same registers are kept.
    const uint64_t tam = 1ULL << ctl::cptr_tam, hcr_amvoffen = 1ULL << ctl::hcr_amvoffen,
                   scr_amvoffen = 1ULL << ctl::scr_amvoffen, fgten = 1ULL << ctl::scr_fgten;
    for (const auto& cp : cpus_) {
        if (!cp) continue;
        const cpu_amu& c = *cp;
        const unsigned i = c.cpu;
        out.push_back(step::as_el(i, 3));
        out.push_back(step::write("CPTR_EL3", 0, tam)); // amu_enable_per_world (NS)
        if (c.fgt) out.push_back(step::write("SCR_EL3", fgten, fgten)); // FEAT_FGT for NS
        out.push_back(step::as_el(i, 2));
        out.push_back(step::write("CPTR_EL2", 0, tam)); // amu_init_el2_unused
        if (c.version >= 2) out.push_back(step::write("HCR_EL2", 0, hcr_amvoffen));
        if (c.fgt) out.push_back(step::write("HAFGRTR_EL2", 0)); // EL2 unused: no AMU read traps (as Linux's __init_el2_fgt)
        out.push_back(step::as_el(i, 3));
        out.push_back(step::write("AMCNTENSET0_EL0", 0x3)); // amu_init_el3: Pn_ALWAYS_ON
        if (c.aux) out.push_back(step::write("AMCNTENSET1_EL0", c.aux_mask())); // plat_amu_aux_enables
        if (c.version >= 2) {
            out.push_back(step::write("AMCR_EL0", amcr_cg1rz_mask)); // AMU_RESTRICT_COUNTERS=1
            out.push_back(step::write("SCR_EL3", scr_amvoffen, scr_amvoffen));
        }
        out.push_back(step::write("AMCNTENSET0_EL0", 0xf)); // el3_exit: restore_el3_runtime_regs
    }
    return out;
}

uint64_t amu_unit::counter(unsigned cpu, unsigned group, unsigned n) {
    if (!has_amu(cpu)) throw model_error(fmt::format("cpu{} has no AMU", cpu));
    cpu_amu& c = *cpus_[cpu];
    if (group == 0 && n < 4) return c.g0[n].read(now_fs());
    if (group == 1 && n < c.aux) return c.g1[n].read(now_fs());
    throw model_error(fmt::format("cpu{} has no AMU counter {}{}", cpu, group, n));
}

uint16_t amu_unit::enables(unsigned cpu, unsigned group) const {
    if (!has_amu(cpu)) return 0;
    return group == 0 ? cpus_[cpu]->en0 : cpus_[cpu]->en1;
}

void amu_unit::report(std::ostream& out) {
    for (auto& cp : cpus_) {
        if (!cp) continue;
        cpu_amu& c = *cp;
        out << fmt::format("amu cpu{} (AMUv1{}): AMCNTENSET0={:#x}", c.cpu, c.version >= 2 ? "p1" : "", c.en0);
        if (c.aux) out << fmt::format(" AMCNTENSET1={:#x}", c.en1);
        for (unsigned n = 0; n < 4; ++n) out << fmt::format(" AMEVCNTR0{}={}", n, c.g0[n].read(now_fs()));
        for (unsigned n = 0; n < c.aux; ++n) out << fmt::format(" AMEVCNTR1{}={}", n, c.g1[n].read(now_fs()));
        out << '\n'; // every report line ends with a newline
    }
}

void amu_unit::observables(std::vector<observable>& out) {
    for (auto& cp : cpus_) {
        if (!cp) continue;
        cpu_amu* c = cp.get();
        std::string p = fmt::format("cpu{}.amu.", c->cpu);
        out.push_back({p + "AMCNTENSET0", 4, [c] { return uint64_t(c->en0); }});
        if (c->aux) out.push_back({p + "AMCNTENSET1", 16, [c] { return uint64_t(c->en1); }});
        for (unsigned n = 0; n < 4; ++n) {
            std::string ev = fmt::format("{:#x} {}", group0_events[n].code, group0_events[n].name);
            out.push_back({p + fmt::format("AMEVCNTR0{}", n), 64, [c, n] { return c->g0[n].read(now_fs()); },
                           [ev] { return ev; }});
        }
        for (unsigned n = 0; n < c->aux; ++n) {
            std::string ev = fmt::format("{:#x} aux{}", aux_event_base + n, n);
            out.push_back({p + fmt::format("AMEVCNTR1{}", n), 64, [c, n] { return c->g1[n].read(now_fs()); },
                           [ev] { return ev; }});
        }
    }
}

void amu_unit::event_totals(std::vector<event_total>& out) {
    const fs_t now = now_fs();
    for (auto& cp : cpus_) {
        if (!cp) continue;
        const core_model& core = system_.core(cp->cpu);
        const std::string cpu = core.name();
        // The core's own event streams: what the group-0 counters count while enabled.
        for (const auto& e : group0_events) out.push_back({cpu, e.name, e.code, core.events(e.key).count_at(now)});
        for (unsigned n = 0; n < cp->aux; ++n)
            out.push_back({cpu, fmt::format("aux{}", n), aux_event_base + n, cp->aux_in[n].count_at(now)});
    }
}

} // namespace pmusim
