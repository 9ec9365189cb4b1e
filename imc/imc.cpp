// The POWER9 IMC unit: construction, memory as a bus master, XSCOM/LDBAR access and the
// testbench interface (docs/imc.md). The engines are in imc_nest.cpp and imc_core.cpp.
#include "imc/imc_state.h"

#include "models/input_error.h"

namespace pmusim {

using namespace imc;

// ---------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------

imc_unit::imc_unit(const sc_core::sc_module_name& name, soc& system, const imc_options& options,
                   imc::catalog events)
    : unit(name, system), to_memory("to_memory"), options_(options), catalog_(std::move(events)) {
    timebase_ = std::make_unique<clock_edges>(system.clock(options_.timebase_clock));
    ref32_ = std::make_unique<divided_source>(*timebase_, 16);
    add_meter(*timebase_);
    add_meter(*ref32_);
    threads_.resize(system.cpus.size());
    std::map<std::pair<unsigned, unsigned>, core_imc*> core_of;
    for (const auto& cc : options_.threads) {
        core_imc*& c = core_of[{cc.chip, cc.core}];
        if (!c) {
            auto nc = std::make_unique<core_imc>();
            nc->chip = cc.chip;
            nc->core = cc.core;
            nc->bank = std::make_unique<register_bank>(fmt::format("{}.chip{}.core{}", basename(), cc.chip, cc.core),
                                                       imc_table());
            nc->cycles = std::make_unique<clock_edges>(system.clock(cc.clock));
            nc->non_idle_cycles = std::make_unique<gated_source>(*nc->cycles);
            c = nc.get();
            cores_.push_back(std::move(nc));
        }
        auto t = std::make_unique<thread_imc>();
        t->cpu = cc.cpu;
        t->chip = cc.chip;
        t->core = cc.core;
        t->thread = cc.thread;
        t->owner = c;
        t->bank = std::make_unique<register_bank>(fmt::format("{}.imc", cc.name), imc_table());
        thread_imc* tp = t.get();
        (*t->bank)["LDBAR"].on_write([this, tp](const write_event& e) {
            tp->ldbar = e.new_value;
            ldbar_written(*tp);
        });
        core_model& cm = system.core(cc.cpu);
        c->inst.add(cm.events("inst"));
        t->ref32_running = std::make_unique<gated_source>(*ref32_);
        // Idle (WFI, WFE, off) and running periods gate the non-idle and user-state sources.
        cm.on_power_change([this, tp](power_state, power_state) { power_changed(*tp); });
        c->threads.push_back(tp);
        // A change of the thread's activity moves its next trace record.
        cm.events("inst").on_change([this, tp] {
            if (tp->trace_active) schedule_trace(*tp);
        });
        threads_[cc.cpu] = std::move(t);
    }
    system.clock(options_.timebase_clock).on_change([this] {
        for (auto& t : threads_)
            if (t && t->trace_active) schedule_trace(*t);
    });

    // Accumulation counters: the catalog events pmusim has a source for (docs/imc.md).
    const catalog_unit* core_unit = catalog_.domain_unit(imc_domain::core);
    const catalog_unit* thread_unit = catalog_.domain_unit(imc_domain::thread);
    for (auto& c : cores_) {
        if (core_unit)
            for (const auto& e : core_unit->events) {
                const event_source* s = nullptr;
                if (e.event_name == "PCYC" || e.event_name == "CS_PCYC") s = c->cycles.get();
                else if (e.event_name == "NON_IDLE_PCYC") s = c->non_idle_cycles.get();
                else if (e.event_name == "INST" || e.event_name == "NON_IDLE_INST") s = &c->inst;
                else if (e.event_name == "32MHZ_CYC") s = ref32_.get();
                if (s) c->counters.push_back({e.value, scale_of(e.scale), s, 0, 0, e.name});
            }
        for (const auto& k : c->counters) add_meter(*k.source);
        core_imc* cp = c.get();
        sc_core::sc_spawn_options o;
        o.spawn_method();
        o.dont_initialize();
        o.set_sensitivity(&c->update);
        sc_core::sc_spawn([this, cp] { core_update(*cp); }, sc_core::sc_gen_unique_name("core_update"), &o);
        for (thread_imc* t : c->threads) {
            core_model& cm = system.core(t->cpu);
            if (thread_unit)
                for (const auto& e : thread_unit->events) {
                    const event_source* s = nullptr;
                    if (e.event_name == "CS_PCYC_USER") s = &cm.events("cycles");
                    else if (e.event_name == "CS_INST_USER") s = &cm.events("inst");
                    else if (e.event_name == "CS_32MHZ_CYC_USER") s = t->ref32_running.get();
                    if (s) t->counters.push_back({e.value, scale_of(e.scale), s, 0, 0, e.name});
                }
            for (const auto& k : t->counters) add_meter(*k.source);
            // Trace records read the timebase, the CPMCs' sources, instructions and cycles.
            add_meter(cm.events("inst"));
            add_meter(cm.events("cycles"));
            // Reference mode: the sampling CPMC's wrap is seen at its edge; the record is
            // written then, before any thread resumes at that instant (as in the fast mode).
            t->trace_wraps.add(t->sampler);
            t->trace_wraps.on_reference_wrap([this, t] { trace_overflow(*t); });
            sc_core::sc_spawn_options to;
            to.spawn_method();
            to.dont_initialize();
            to.set_sensitivity(&t->trace_wraps.event());
            sc_core::sc_spawn([this, t] { trace_overflow(*t); }, sc_core::sc_gen_unique_name("trace_overflow"), &to);
        }
        // SCOM side effects.
        for (const char* r : {"PDBAR", "EVENT_MASK", "HTM_MODE", "TRACE_IMC"})
            (*c->bank)[r].on_write([this, cp](const write_event&) { refresh_core(*cp); });
    }

    for (auto& t : threads_)
        if (t) power_changed(*t);

    for (unsigned chip = 0; chip < options_.chips; ++chip) {
        auto c = std::make_unique<nest_chip>();
        c->id = chip;
        c->homer = homer_base(chip);
        build_nest(*c);
        nest_chip* cp = c.get();
        sc_core::sc_spawn_options o;
        o.spawn_method();
        o.dont_initialize();
        o.set_sensitivity(&c->tick);
        sc_core::sc_spawn([this, cp] { occ_tick(*cp); }, sc_core::sc_gen_unique_name("occ_tick"), &o);
        chips_.push_back(std::move(c));
    }
}

imc_unit::~imc_unit() = default;

// ---------------------------------------------------------------------------
// Memory as a bus master
// ---------------------------------------------------------------------------

// One 8-byte access to memory as the microcontroller at hypervisor privilege; false when no
// memory answers.
bool imc_unit::memory_access(bool write, uint64_t address, uint8_t (&data)[8]) {
    tlm::tlm_generic_payload trans;
    access_context ctx;
    ctx.initiator = initiator_kind::microcontroller;
    ctx.is_power = true;
    ctx.privilege = power_privilege::hypervisor;
    ctx.path = access_path::memory_mapped;
    trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(address);
    trans.set_data_ptr(data);
    trans.set_data_length(8);
    trans.set_streaming_width(8);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    trans.set_extension(&ctx);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    to_memory->b_transport(trans, delay);
    trans.clear_extension(&ctx);
    return trans.is_response_ok();
}

bool imc_unit::load64(uint64_t address, uint64_t& value) {
    uint8_t data[8] = {};
    if (!memory_access(false, address, data)) {
        fault_ = {address, false};
        return false;
    }
    std::memcpy(&value, data, 8);
    return true;
}

bool imc_unit::store64(uint64_t address, uint64_t value) {
    uint8_t data[8];
    std::memcpy(data, &value, 8);
    if (!memory_access(true, address, data)) {
        fault_ = {address, true};
        return false;
    }
    ++memory_writes_;
    return true;
}

uint64_t imc_unit::peek64(uint64_t address) {
    uint8_t data[8] = {};
    if (!memory_access(false, address, data)) return 0;
    uint64_t v;
    std::memcpy(&v, data, 8);
    return v;
}

bool imc_unit::add64(uint64_t address, uint64_t delta) {
    uint64_t v = 0;
    return load64(address, v) && store64(address, v + delta);
}

// ---------------------------------------------------------------------------
// Register access: XSCOM windows and LDBAR
// ---------------------------------------------------------------------------

std::vector<address_window> imc_unit::mmio_windows() const {
    std::vector<address_window> w;
    for (unsigned chip = 0; chip < options_.chips; ++chip)
        w.push_back({fmt::format("{}.xscom{}", basename(), chip), xscom_base(chip), xscom_size});
    return w;
}

std::vector<const register_def*> imc_unit::sysregs(unsigned cpu) const {
    if (cpu < threads_.size() && threads_[cpu]) return {imc_table().find("LDBAR")};
    return {};
}

access_outcome imc_unit::sysreg_rule(access_context& ctx, const register_def& reg, bool is_write) {
    // LDBAR is hypervisor privileged: mtspr/mfspr in problem state is a privileged-instruction
    // Program interrupt (to the OS: `trap el1`); in supervisor state a Hypervisor Emulation
    // Assistance interrupt (to the hypervisor: `trap el2`). docs/imc.md "Privilege".
    if (!ctx.is_power || ctx.privilege == power_privilege::hypervisor) return access_outcome::ok;
    if (ctx.privilege == power_privilege::problem)
        return refuse(ctx, access_outcome::trap_el1, reg, is_write,
                      "LDBAR (SPR 850) is hypervisor privileged: Program interrupt (privileged instruction)");
    return refuse(ctx, access_outcome::trap_el2, reg, is_write,
                  "LDBAR (SPR 850) is hypervisor privileged: Hypervisor Emulation Assistance interrupt");
}

void imc_unit::access(tlm::tlm_generic_payload& trans, access_context& ctx) {
    if (ctx.path == access_path::system_register) {
        thread_imc* t = ctx.cpu < threads_.size() ? threads_[ctx.cpu].get() : nullptr;
        if (!t) {
            trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
            ctx.outcome = access_outcome::undefined;
            return;
        }
        serve_from_bank(*t->bank, trans, ctx);
        return;
    }
    auto fail = [&](std::string why) {
        trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        ctx.outcome = access_outcome::error;
        ctx.detail = std::move(why);
    };
    uint64_t address = trans.get_address();
    unsigned chip = 0;
    while (chip < options_.chips && !(address >= xscom_base(chip) && address - xscom_base(chip) < xscom_size)) ++chip;
    if (chip == options_.chips) return fail(fmt::format("{:#x} is outside every XSCOM window", address));
    // XSCOM is reached by the hypervisor in real mode (and by the service processor); an OS or
    // user access never reaches the PCB.
    if (ctx.initiator == initiator_kind::cpu && !(ctx.is_power && ctx.privilege == power_privilege::hypervisor))
        return fail("XSCOM accesses need hypervisor privilege");
    if (trans.get_data_length() != 8) return fail("XSCOM accesses are 8 bytes");
    auto pcb = pcb_of_offset(address - xscom_base(chip));
    if (!pcb) return fail(fmt::format("{:#x} is not a doubleword XSCOM address", address));
    for (auto& c : cores_) {
        if (c->chip != chip) continue;
        const char* name = *pcb == scom_pdbar(c->core)        ? "PDBAR"
                         : *pcb == scom_htm_mode(c->core)     ? "HTM_MODE"
                         : *pcb == scom_event_mask(c->core)   ? "EVENT_MASK"
                         : *pcb == scom_trace(c->core) && options_.trace_supported ? "TRACE_IMC"
                                                              : nullptr;
        if (!name) continue;
        register_bank::reg& r = (*c->bank)[name];
        uint64_t v = 0;
        if (trans.is_read()) {
            v = c->bank->read(r);
            std::memcpy(trans.get_data_ptr(), &v, 8);
        } else {
            std::memcpy(&v, trans.get_data_ptr(), 8);
            c->bank->write(r, v);
        }
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    fail(fmt::format("SCOM {:#010x} on chip {} is not modelled (pmusim models the IMC SCOMs of the platform's cores)",
                     *pcb, chip));
}

// ---------------------------------------------------------------------------
// Testbench interface
// ---------------------------------------------------------------------------

void imc_unit::reset(bool cold) {
    fs_t now = now_fs();
    for (auto& c : cores_) {
        c->bank->reset();
        c->acc_active = false;
        c->update_pending = false;
        c->update.cancel();
        for (thread_imc* t : c->threads) {
            t->bank->reset();
            t->ldbar = 0;
            t->acc_active = false;
            t->trace_active = false;
            t->sampler.set_enabled(false, now);
            schedule_trace(*t); // cancels the next record
        }
    }
    if (cold)
        for (auto& c : chips_) {
            nest_chip* cp = c.get();
            c->tick.cancel();
            if (guarded(fmt::format("the chip {} nest microcode", c->id), [&] { return init_control_block(*cp); }))
                c->tick.notify(to_sc_time(options_.occ_tick));
        }
}

bool imc_unit::inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                      std::string& error) {
    auto chip = index_after(node, "chip");
    if (!chip || *chip >= chips_.size()) {
        error = fmt::format("inject {}: expected a node chipN with N below {} (inject {}.chip0 EVENT COUNT)",
                            node.empty() ? basename() : node, chips_.size(), basename());
        return false;
    }
    nest_chip& c = *chips_[*chip];
    auto it = c.by_name.find(event);
    if (it == c.by_name.end()) {
        std::string known;
        for (const auto& [n, k] : c.by_name) known += (known.empty() ? "" : ", ") + n;
        error = fmt::format("inject {}.{}: unknown nest event '{}': expected one of {}", basename(), node, event, known);
        return false;
    }
    it->second->injected.add(count, now_fs(), over);
    return true;
}

uint64_t imc_unit::trace_records(unsigned cpu) const {
    return cpu < threads_.size() && threads_[cpu] ? threads_[cpu]->records : 0;
}

std::optional<imc_unit::thread_engine_state> imc_unit::thread_engines(unsigned cpu) const {
    if (cpu >= threads_.size() || !threads_[cpu]) return std::nullopt;
    const thread_imc& t = *threads_[cpu];
    thread_engine_state s;
    s.chip = t.chip;
    s.core = t.core;
    s.core_accumulating = t.owner->acc_active;
    s.thread_accumulating = t.acc_active;
    s.tracing = t.trace_active;
    if (t.trace_active) {
        s.trace_buffer = t.buffer;
        s.trace_entries = t.entries;
        s.next_record = t.buffer + (t.records % t.entries) * 64; // where imc_core.cpp writes the next one
    }
    return s;
}

uint64_t imc_unit::nest_postings(unsigned chip) const { return chip < chips_.size() ? chips_[chip]->postings : 0; }

dt_node imc_unit::device_tree() const {
    std::vector<chip_homer> chips;
    for (unsigned c = 0; c < options_.chips; ++c) chips.push_back({c, homer_base(c)});
    return imc_counters_node(catalog_, chips, options_.avl_vector, true, options_.trace_supported);
}

void imc_unit::report(std::ostream& out) {
    for (auto& c : chips_)
        out << fmt::format("imc chip{}: OCC ticks {}, nest postings {}, {}\n", c->id, c->ticks, c->postings,
                           c->collecting ? "collecting" : "not collecting");
    uint64_t records = 0;
    for (auto& t : threads_)
        if (t) records += t->records;
    out << fmt::format("imc: trace records {}, memory writes {}, memory faults {}, interrupts raised {}\n", records,
                       memory_writes_, memory_faults_, interrupts_raised_);
}

void imc_unit::observables(std::vector<observable>& out) {
    // Nest: the posted big-endian word of every counter slot in the chip's HOMER.
    for (auto& c : chips_) {
        const std::string instance = fmt::format("{}.chip{}", basename(), c->id);
        for (auto& k : c->counters) {
            uint64_t address = c->homer + nest_offset + k->value;
            std::string ev = fmt::format("{:#x} {}", k->value, k->names.front());
            out.push_back({instance + "." + k->names.front(), 64, [this, address] { return peek64(address); },
                           [ev] { return ev; }});
        }
    }
    // Core and thread: the accumulated words at PDBAR and LDBAR (0 while no page is programmed).
    for (auto& c : cores_) {
        core_imc* cp = c.get();
        const std::string instance = fmt::format("{}.chip{}.core{}", basename(), c->chip, c->core);
        for (const auto& k : c->counters) {
            uint64_t offset = k.offset;
            std::string ev = fmt::format("{:#x} {}", k.offset, k.name);
            out.push_back({instance + "." + k.name, 64,
                           [this, cp, offset] {
                               uint64_t page = cp->reg("PDBAR") & imc_field::pdbar_address.mask();
                               return page ? peek64(page + offset) : 0;
                           },
                           [ev] { return ev; }});
        }
    }
    for (auto& t : threads_) {
        if (!t) continue;
        thread_imc* tp = t.get();
        const std::string instance = fmt::format("cpu{}.imc", tp->cpu);
        out.push_back({instance + ".LDBAR", 64, [tp] { return tp->ldbar; }});
        out.push_back({instance + ".trace_records", 64, [tp] { return tp->records; }});
        for (const auto& k : tp->counters) {
            uint64_t offset = k.offset;
            std::string ev = fmt::format("{:#x} {}", k.offset, k.name);
            out.push_back({instance + "." + k.name, 64,
                           [this, tp, offset] {
                               uint64_t page = tp->ldbar & imc_field::ldbar_address.mask();
                               bool accumulating = (tp->ldbar & ldbar_enable) && !(tp->ldbar & ldbar_trace_mode);
                               return accumulating && page ? peek64(page + offset) : 0;
                           },
                           [ev] { return ev; }});
        }
    }
    out.push_back({"imc.interrupts_raised", 64, [this] { return interrupts_raised_; }});
}

void imc_unit::event_totals(std::vector<event_total>& out) {
    // Ground truth at the inputs, unscaled (memory holds events / scale), from time 0.
    const fs_t now = now_fs();
    for (auto& c : chips_)
        for (const auto& [name, k] : c->by_name)
            out.push_back({fmt::format("{}.chip{}", basename(), c->id), name, k->value, k->source.count_at(now)});
    for (auto& c : cores_)
        for (const auto& k : c->counters)
            out.push_back({fmt::format("{}.chip{}.core{}", basename(), c->chip, c->core), k.name, k.offset,
                           k.source->count_at(now)});
    for (auto& t : threads_) {
        if (!t) continue;
        for (const auto& k : t->counters)
            out.push_back({fmt::format("cpu{}.imc", t->cpu), k.name, k.offset, k.source->count_at(now)});
    }
}

} // namespace pmusim
