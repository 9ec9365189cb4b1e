// The POWER9 IMC unit: nest (OCC microcode model), core, thread and trace engines (docs/imc.md).
#include "imc/imc.h"

#include <cstring>
#include <fmt/format.h>

#include "models/input_error.h"
#include "tb/platform_config.h"

namespace pmusim {

using namespace imc;

namespace {

// OCC 24x7 posting groups: header word, counters, trailer word = header + 0x108.
constexpr uint64_t group_header[7] = {0x0, 0x110, 0x220, 0x330, 0x440, 0x550, 0x660};
constexpr uint64_t group_span = 0x108;
constexpr unsigned nest_groups = 7;

// The group whose posting block holds a nest offset, or nest_groups when none does.
unsigned group_of(uint64_t offset) {
    for (unsigned g = 0; g < nest_groups; ++g)
        if (offset > group_header[g] && offset < group_header[g] + group_span) return g;
    return nest_groups;
}

// Whether group g posts in round-robin state s (1..8): G1/G2 odd, G3 even, G4..G7 in 2, 4, 6, 8.
bool group_posts_in(unsigned g, unsigned s) {
    if (g < 2) return s % 2 == 1;
    if (g == 2) return s % 2 == 0;
    return s == 2 * (g - 2);
}

uint64_t scale_of(const std::optional<std::string>& scale) {
    if (!scale) return 1;
    try {
        size_t used = 0;
        uint64_t v = std::stoull(*scale, &used, 10);
        if (used == scale->size() && v > 0) return v;
    } catch (const std::logic_error&) {
    }
    return 1; // a non-integer scale (e.g. "1.5e-3") is a display factor only: no prescale
}

// "chip3" -> 3 for prefix "chip"; nullopt when not prefix + decimal digits (at most 9).
std::optional<unsigned> index_after(const std::string& word, const char* prefix) {
    size_t n = std::strlen(prefix);
    if (word.compare(0, n, prefix) != 0 || word.size() == n || word.size() > n + 9 ||
        word.find_first_not_of("0123456789", n) != std::string::npos)
        return std::nullopt;
    return unsigned(std::stoul(word.substr(n)));
}

// Every 16th timebase edge: the 32 MHz reference of a 512 MHz timebase (CPM_32MHZ_CYC).
class divided_source : public event_source {
public:
    divided_source(const event_source& base, uint64_t divisor) : base_(base), divisor_(divisor) {}
    uint64_t count_at(fs_t t) const override { return base_.count_at(t) / divisor_; }

private:
    const event_source& base_;
    uint64_t divisor_;
};

// A source counted only while a gate is open (e.g. the core's clock while any of its
// threads runs). Exact: the count of each open interval is taken from the base source.
class gated_source : public event_source {
public:
    explicit gated_source(const event_source& base) : base_(base) {}
    void set_open(bool open, fs_t now) {
        if (open == open_) return;
        if (open_) closed_total_ += base_.count_at(now) - base_.count_at(open_since_);
        open_ = open;
        open_since_ = now;
        notify_change();
    }
    uint64_t count_at(fs_t t) const override {
        return closed_total_ + (open_ && t > open_since_ ? base_.count_at(t) - base_.count_at(open_since_) : 0);
    }

private:
    const event_source& base_;
    bool open_ = false;
    fs_t open_since_ = 0;
    uint64_t closed_total_ = 0;
};

} // namespace

// ---------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------

struct imc_unit::nest_counter {
    uint64_t value = 0; // offset in the nest region (unit reg + event reg)
    uint64_t scale = 1; // the microcode's prescale: memory counts scale events
    unsigned group = nest_groups;
    std::vector<std::string> names;
    injected_events injected;
    summed_source source;
    uint64_t baseline = 0, posted = 0;
};

struct imc_unit::nest_chip {
    unsigned id = 0;
    uint64_t homer = 0;
    std::vector<std::unique_ptr<nest_counter>> counters; // stable addresses: sources point into them
    std::map<std::string, nest_counter*> by_name;
    uint64_t ticks = 0;
    bool paused = false;
    unsigned reinit_left = 0;
    uint64_t error_status = 0; // status_bad_speed / status_bad_mode, 0 when none
    uint64_t speed = 0, mode = 0;
    bool collecting = true;
    std::array<uint64_t, nest_groups> countdown{};
    uint64_t postings = 0;
    sc_core::sc_event tick;
    std::unique_ptr<clock_edges> nest_edges;
    uint64_t cb() const { return homer + nest_offset + cb_offset; }
};

struct imc_unit::acc_counter {
    uint64_t offset = 0;
    uint64_t scale = 1;
    const event_source* source = nullptr;
    uint64_t baseline = 0, posted = 0;
};

struct imc_unit::thread_imc {
    unsigned cpu = 0, chip = 0, core = 0, thread = 0;
    core_imc* owner = nullptr;
    std::unique_ptr<register_bank> bank;
    uint64_t ldbar = 0;
    bool acc_active = false;
    std::vector<acc_counter> counters;
    std::unique_ptr<gated_source> ref32_running; // the 32 MHz reference while the thread runs
    // trace
    bool trace_active = false;
    uint64_t buffer = 0, entries = 4096, records = 0, load = 0;
    lazy_counter sampler{32};
    unsigned sampsel = 0, sel[2] = {0, 0};
    uint64_t cpmc_base[2] = {0, 0}, inst_base = 0, cycles_base = 0;
    sc_core::sc_event overflow;
};

struct imc_unit::core_imc {
    unsigned chip = 0, core = 0;
    std::unique_ptr<register_bank> bank;
    std::vector<thread_imc*> threads;
    std::unique_ptr<clock_edges> cycles;
    std::unique_ptr<gated_source> non_idle_cycles; // core clock while any thread runs
    summed_source inst;
    bool acc_active = false;
    std::vector<acc_counter> counters;
    bool update_pending = false;
    sc_core::sc_event update;
    uint64_t reg(const char* name) { return (*bank)[name].value; }
};

// ---------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------

imc_unit::imc_unit(const sc_core::sc_module_name& name, soc& system, const imc_options& options,
                   const platform_config& platform, const unit_config& config)
    : unit(name, system), to_memory("to_memory"), options_(options) {
    catalog_ = load_catalog_file(options_.catalog_path.empty() ? builtin_catalog_path() : options_.catalog_path);
    timebase_ = std::make_unique<clock_edges>(system.clock(options_.timebase_clock));
    ref32_ = std::make_unique<divided_source>(*timebase_, 16);
    threads_.resize(system.cpus.size());
    std::map<std::pair<unsigned, unsigned>, core_imc*> core_of;
    for (const auto& cpu_name : config.cpus) {
        const cpu_config* cc = platform.find_cpu(cpu_name);
        if (!cc) throw config.key_error("cpus", "unknown CPU " + cpu_name);
        if (cc->chip >= options_.chips)
            throw config.key_error("cpus", fmt::format("{} is on chip {}, but params.chips is {}", cpu_name, cc->chip,
                                                       options_.chips));
        core_imc*& c = core_of[{cc->chip, cc->core}];
        if (!c) {
            auto nc = std::make_unique<core_imc>();
            nc->chip = cc->chip;
            nc->core = cc->core;
            nc->bank = std::make_unique<register_bank>(fmt::format("{}.chip{}.core{}", basename(), cc->chip, cc->core),
                                                       imc_table());
            nc->cycles = std::make_unique<clock_edges>(system.clock(cc->clock));
            nc->non_idle_cycles = std::make_unique<gated_source>(*nc->cycles);
            c = nc.get();
            cores_.push_back(std::move(nc));
        }
        auto t = std::make_unique<thread_imc>();
        t->cpu = cc->index;
        t->chip = cc->chip;
        t->core = cc->core;
        t->thread = cc->thread;
        t->owner = c;
        t->bank = std::make_unique<register_bank>(fmt::format("{}.imc", cpu_name), imc_table());
        thread_imc* tp = t.get();
        (*t->bank)["LDBAR"].on_write([this, tp](const write_event& e) {
            tp->ldbar = e.new_value;
            ldbar_written(*tp);
        });
        core_model& cm = system.core(cc->index);
        c->inst.add(cm.events("inst"));
        t->ref32_running = std::make_unique<gated_source>(*ref32_);
        // Idle (WFI, WFE, off) and running periods gate the non-idle and user-state sources.
        cm.on_power_change([this, tp](power_state, power_state) { power_changed(*tp); });
        c->threads.push_back(tp);
        // A change of the thread's activity moves its next trace record.
        cm.events("inst").on_change([this, tp] {
            if (tp->trace_active) schedule_trace(*tp);
        });
        threads_[cc->index] = std::move(t);
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
                if (s) c->counters.push_back({e.value, scale_of(e.scale), s, 0, 0});
            }
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
                    if (s) t->counters.push_back({e.value, scale_of(e.scale), s, 0, 0});
                }
            sc_core::sc_spawn_options to;
            to.spawn_method();
            to.dont_initialize();
            to.set_sensitivity(&t->overflow);
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

void imc_unit::build_nest(nest_chip& c) {
    for (const auto& u : catalog_.units) {
        if (u.domain != imc_domain::nest || !nest_unit_kept(u.name, options_.avl_vector)) continue;
        for (const auto& e : u.events) {
            nest_counter* k = nullptr;
            for (auto& existing : c.counters)
                if (existing->value == e.value) k = existing.get(); // units sharing a slot share the counter
            if (!k) {
                auto nk = std::make_unique<nest_counter>();
                nk->value = e.value;
                nk->scale = scale_of(e.scale);
                nk->group = group_of(e.value);
                nk->source.add(nk->injected);
                k = nk.get();
                c.counters.push_back(std::move(nk));
            }
            k->names.push_back(e.name);
            c.by_name[e.name] = k;
        }
    }
    // Sources from the platform (docs/imc.md "Nest events"): the PowerBus cycle counter counts
    // the nest clock; MCS dispatches come from the workloads of the chip's CPUs.
    c.nest_edges = std::make_unique<clock_edges>(system_.clock(options_.nest_clock));
    if (auto it = c.by_name.find("PM_PB_CYC"); it != c.by_name.end()) it->second->source.add(*c.nest_edges);
    const std::pair<const char*, const char*> workload_keys[] = {
        {"mcs_read_64b", "PM_MCS01_64B_RD_DISP_PORT01"},
        {"mcs_read_128b", "PM_MCS01_128B_RD_DISP_PORT01"},
        {"mcs_write_128b", "PM_MCS01_128B_WR_DISP_PORT01"},
    };
    for (const auto& [key, event] : workload_keys) {
        auto it = c.by_name.find(event);
        for (auto& t : threads_) {
            if (!t || t->chip != c.id) continue;
            const rate_stream& s = system_.core(t->cpu).declare_event(key);
            if (it != c.by_name.end()) it->second->source.add(s);
        }
    }
}

// ---------------------------------------------------------------------------
// Memory as a bus master
// ---------------------------------------------------------------------------

uint64_t imc_unit::load64(uint64_t address) {
    tlm::tlm_generic_payload trans;
    uint8_t data[8] = {};
    access_context ctx;
    ctx.initiator = initiator_kind::microcontroller;
    ctx.is_power = true;
    ctx.privilege = power_privilege::hypervisor;
    ctx.path = access_path::memory_mapped;
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(address);
    trans.set_data_ptr(data);
    trans.set_data_length(8);
    trans.set_streaming_width(8);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    trans.set_extension(&ctx);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    to_memory->b_transport(trans, delay);
    trans.clear_extension(&ctx);
    if (!trans.is_response_ok())
        throw input_error("", 0, fmt::format("{}: IMC read of {:#x} failed: no memory there (check the platform's "
                                             "memory regions against the IMC addresses)", basename(), address));
    uint64_t v;
    std::memcpy(&v, data, 8);
    return v;
}

void imc_unit::store64(uint64_t address, uint64_t value) {
    tlm::tlm_generic_payload trans;
    uint8_t data[8];
    std::memcpy(data, &value, 8);
    access_context ctx;
    ctx.initiator = initiator_kind::microcontroller;
    ctx.is_power = true;
    ctx.privilege = power_privilege::hypervisor;
    ctx.path = access_path::memory_mapped;
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(address);
    trans.set_data_ptr(data);
    trans.set_data_length(8);
    trans.set_streaming_width(8);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    trans.set_extension(&ctx);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    to_memory->b_transport(trans, delay);
    trans.clear_extension(&ctx);
    if (!trans.is_response_ok())
        throw input_error("", 0, fmt::format("{}: IMC write of {:#x} failed: no memory there (check the platform's "
                                             "memory regions against the IMC addresses)", basename(), address));
    ++memory_writes_;
}

void imc_unit::add64(uint64_t address, uint64_t delta) { store64(address, load64(address) + delta); }

// ---------------------------------------------------------------------------
// Nest: the OCC 24x7 microcode
// ---------------------------------------------------------------------------

void imc_unit::init_control_block(nest_chip& c) {
    // The OCC has run for a while when the host boots: initialised, collecting.
    for (uint64_t w = 0; w < nest_posting_words; ++w) store64(c.homer + nest_offset + 8 * w, 0);
    store64(c.homer + version_offset, uint64_t(2) << 60); // v2.0.0
    store64(c.cb() + cb_run_status, status_running);
    store64(c.cb() + cb_command, cmd_nop);
    store64(c.cb() + cb_speed, 0);
    store64(c.cb() + cb_avl_vector, options_.avl_vector);
    store64(c.cb() + cb_run_mode, 0);
    c.paused = false;
    c.reinit_left = 0;
    c.error_status = 0;
    c.speed = c.mode = 0;
    c.collecting = true;
    c.countdown.fill(0);
    restart_nest_baselines(c, now_fs());
}

void imc_unit::restart_nest_baselines(nest_chip& c, fs_t now) {
    for (auto& k : c.counters) {
        k->baseline = k->source.count_at(now);
        k->posted = 0;
    }
}

void imc_unit::start_of_simulation() {
    for (auto& c : chips_) {
        init_control_block(*c);
        c->ticks = 0;
        c->tick.notify(to_sc_time(options_.occ_tick));
    }
}

void imc_unit::occ_tick(nest_chip& c) {
    fs_t now = now_fs();
    ++c.ticks;
    unsigned state = unsigned((c.ticks - 1) % 8) + 1;
    bool was_collecting = c.collecting;
    bool reinit_started = false;
    uint64_t cmd = load64(c.cb() + cb_command);
    if (cmd != cmd_nop) {
        store64(c.cb() + cb_command, cmd_nop); // consumed
        if (cmd == cmd_resume) c.paused = false;
        else if (cmd == cmd_pause) c.paused = true;
        else if (cmd == cmd_clear) {
            for (uint64_t w = 0; w < nest_posting_words; ++w) store64(c.homer + nest_offset + 8 * w, 0);
            c.reinit_left = 4;
            reinit_started = true;
        }
    }
    uint64_t speed = load64(c.cb() + cb_speed), mode = load64(c.cb() + cb_run_mode);
    if (speed != c.speed || mode != c.mode) {
        c.speed = speed;
        c.mode = mode;
        c.error_status = speed > 0xB ? uint64_t(status_bad_speed) : mode > 1 ? uint64_t(status_bad_mode) : 0;
        if (!c.error_status) {
            c.reinit_left = 4;
            reinit_started = true;
        }
    }
    // A re-initialisation takes the next four ticks (OCC states 1..4 write the PMU configuration).
    if (!reinit_started && c.reinit_left > 0) --c.reinit_left;
    if (reinit_started) was_collecting = false; // counting restarts after the re-initialisation
    uint64_t status = c.error_status ? c.error_status
                    : c.reinit_left ? status_init
                    : c.paused      ? status_paused
                                    : status_running;
    store64(c.cb() + cb_run_status, status);
    c.collecting = status == status_running;
    if (c.collecting && !was_collecting) {
        restart_nest_baselines(c, now);
        c.countdown.fill(0);
    }
    if (c.collecting)
        for (unsigned g = 0; g < nest_groups; ++g) {
            if (!group_posts_in(g, state)) continue;
            if (c.countdown[g] == 0) {
                post_group(c, g);
                c.countdown[g] = g < 3 ? c.speed : c.speed / 8;
            } else {
                --c.countdown[g];
            }
        }
    c.tick.notify(to_sc_time(options_.occ_tick));
}

void imc_unit::post_group(nest_chip& c, unsigned g) {
    fs_t now = now_fs();
    uint64_t base = c.homer + nest_offset;
    add64(base + group_header[g], 1);
    for (auto& k : c.counters) {
        if (k->group != g) continue;
        uint64_t events = k->source.count_at(now) - k->baseline;
        uint64_t scaled = events / k->scale;
        if (scaled != k->posted) add64(base + k->value, scaled - k->posted);
        k->posted = scaled;
    }
    add64(base + group_header[g] + group_span, 1);
    ++c.postings;
}

// ---------------------------------------------------------------------------
// Core, thread and trace
// ---------------------------------------------------------------------------

void imc_unit::ldbar_written(thread_imc& t) { refresh_core(*t.owner); }

void imc_unit::power_changed(thread_imc& t) {
    fs_t now = now_fs();
    t.ref32_running->set_open(system_.core(t.cpu).power() == power_state::run, now);
    bool any = false;
    for (thread_imc* x : t.owner->threads) any = any || system_.core(x->cpu).power() == power_state::run;
    t.owner->non_idle_cycles->set_open(any, now);
}

void imc_unit::refresh_core(core_imc& c) {
    fs_t now = now_fs();
    uint64_t htm = c.reg("HTM_MODE");
    bool running = (htm >> 61) == 7 && ((htm >> 59) & 1);
    bool trace_mode = false;
    for (thread_imc* t : c.threads) trace_mode = trace_mode || (t->ldbar & ldbar_trace_mode);
    uint64_t trace_scom = c.reg("TRACE_IMC");

    bool core_acc = running && !trace_mode;
    if (core_acc && !c.acc_active)
        for (auto& k : c.counters) {
            k.baseline = k.source->count_at(now);
            k.posted = 0;
        }
    c.acc_active = core_acc;
    bool any_thread_acc = false;
    for (thread_imc* t : c.threads) {
        bool acc = running && !trace_mode && (t->ldbar & ldbar_enable);
        if (acc && !t->acc_active)
            for (auto& k : t->counters) {
                k.baseline = k.source->count_at(now);
                k.posted = 0;
            }
        t->acc_active = acc;
        any_thread_acc = any_thread_acc || acc;

        bool trace = running && (t->ldbar & ldbar_trace_mode) && trace_scom != 0;
        if (trace && !t->trace_active) {
            // The write pointer starts at the LDBAR address (docs/imc.md).
            core_model& cm = system_.core(t->cpu);
            t->buffer = t->ldbar & 0x00FFFFFFFFFFE000ULL;
            unsigned bufsize = unsigned((trace_scom >> 13) & 7);
            t->entries = uint64_t(4096) << (bufsize > 4 ? 0 : bufsize);
            t->records = 0;
            t->sampsel = unsigned(trace_scom >> 62) & 1;
            t->sel[0] = unsigned(trace_scom >> 23) & 0x7f;
            t->sel[1] = unsigned(trace_scom >> 16) & 0x7f;
            t->load = (trace_scom >> 30) & 0xffffffffULL;
            for (unsigned i = 0; i < 2; ++i)
                t->cpmc_base[i] = (t->sel[i] == 2 ? *ref32_ : static_cast<const event_source&>(cm.events("inst"))).count_at(now);
            t->inst_base = cm.events("inst").count_at(now);
            t->cycles_base = cm.events("cycles").count_at(now);
            const event_source& sampled =
                t->sel[t->sampsel] == 2 ? *ref32_ : static_cast<const event_source&>(cm.events("inst"));
            t->sampler.set_enabled(false, now);
            t->sampler.set_source(&sampled, now);
            t->sampler.write(t->load, now);
            t->sampler.set_enabled(true, now);
            t->sampler.take_overflows(now);
            t->trace_active = true;
            schedule_trace(*t);
        } else if (!trace && t->trace_active) {
            t->trace_active = false;
            t->sampler.set_enabled(false, now);
            t->overflow.cancel();
        }
    }
    bool want_updates = core_acc || any_thread_acc;
    if (want_updates && !c.update_pending) {
        c.update_pending = true;
        c.update.notify(to_sc_time(options_.core_update_period));
    } else if (!want_updates && c.update_pending) {
        c.update_pending = false;
        c.update.cancel();
    }
}

void imc_unit::core_update(core_imc& c) {
    fs_t now = now_fs();
    auto post = [&](std::vector<acc_counter>& counters, uint64_t base) {
        for (auto& k : counters) {
            uint64_t scaled = (k.source->count_at(now) - k.baseline) / k.scale;
            if (scaled != k.posted) add64(base + k.offset, scaled - k.posted);
            k.posted = scaled;
        }
    };
    if (c.acc_active) post(c.counters, c.reg("PDBAR") & ldbar_address_mask);
    for (thread_imc* t : c.threads)
        if (t->acc_active) post(t->counters, t->ldbar & 0x00FFFFFFFFFFE000ULL);
    c.update_pending = c.acc_active;
    for (thread_imc* t : c.threads) c.update_pending = c.update_pending || t->acc_active;
    if (c.update_pending) c.update.notify(to_sc_time(options_.core_update_period));
}

void imc_unit::schedule_trace(thread_imc& t) {
    fs_t now = now_fs();
    t.overflow.cancel();
    auto next = t.sampler.next_overflow(now);
    if (next) t.overflow.notify(to_sc_time(*next > now ? *next - now : 0));
}

void imc_unit::trace_overflow(thread_imc& t) {
    if (!t.trace_active) return;
    fs_t now = now_fs();
    if (t.sampler.take_overflows(now) == 0) { // a stale notification after a rate change
        schedule_trace(t);
        return;
    }
    core_model& cm = system_.core(t.cpu);
    uint64_t tb = timebase_->count_at(now);
    uint64_t inst = cm.events("inst").count_at(now);
    uint64_t cpmc[2];
    for (unsigned i = 0; i < 2; ++i) {
        if (i == t.sampsel) cpmc[i] = t.sampler.read(now); // the wrapped sampling counter
        else {
            const event_source& s = t.sel[i] == 2 ? *ref32_ : static_cast<const event_source&>(cm.events("inst"));
            cpmc[i] = (s.count_at(now) - t.cpmc_base[i]) & 0xffffffffULL;
        }
    }
    const uint64_t record[8] = {
        tb,
        0x10000000ULL + 4 * (inst % 0x100000), // synthetic program counter (docs/imc.md)
        0,                                     // PIDR information: 0
        cpmc[0],
        cpmc[1],
        (inst - t.inst_base) & 0xffffffffULL,
        (cm.events("cycles").count_at(now) - t.cycles_base) & 0xffffffffULL,
        tb & trace_tb_mask,
    };
    uint64_t slot = t.buffer + (t.records % t.entries) * 64;
    for (unsigned i = 0; i < 8; ++i) store64(slot + 8 * i, record[i]);
    ++t.records;
    t.sampler.write(t.load, now); // reload for the next sampling period
    schedule_trace(t);
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
                         : *pcb == scom_trace(c->core)        ? "TRACE_IMC"
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
            t->overflow.cancel();
        }
    }
    if (cold)
        for (auto& c : chips_) init_control_block(*c);
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

std::vector<std::string> imc_unit::firmware_boot(const std::string& profile) {
    if (profile != "opal") return {};
    // skiboot imc_init -> pause_microcode_at_boot: pause the nest microcode of every chip.
    std::vector<std::string> s;
    unsigned hv_cpu = 0;
    for (auto& t : threads_)
        if (t) {
            hv_cpu = t->cpu;
            break;
        }
    s.push_back(fmt::format("as cpu{} hv", hv_cpu));
    for (auto& c : chips_) s.push_back(fmt::format("write64 {:#x} {:#x}", c->cb() + cb_command, uint64_t(cmd_pause)));
    return s;
}

bool imc_unit::firmware_call(const std::string& call, const std::vector<std::string>& args,
                             std::vector<std::string>& s, std::string& error) {
    // opal imc_counters_init|start|stop nest|core|trace [ADDRESS] cpuN  (skiboot hw/imc.c)
    const bool init = call == "imc_counters_init", start = call == "imc_counters_start",
               stop = call == "imc_counters_stop";
    if (!init && !start && !stop) {
        error = fmt::format("unknown OPAL call '{}': expected imc_counters_init, imc_counters_start or "
                            "imc_counters_stop", call);
        return false;
    }
    if (args.empty() || (args[0] != "nest" && args[0] != "core" && args[0] != "trace")) {
        error = fmt::format("opal {}: expected a domain nest, core or trace", call);
        return false;
    }
    const std::string& domain = args[0];
    size_t want = init ? 3 : 2;
    if (args.size() != want) {
        error = init ? fmt::format("opal {} {}: expected ADDRESS cpuN", call, domain)
                     : fmt::format("opal {} {}: expected cpuN", call, domain);
        return false;
    }
    const std::string& cpu_word = args.back();
    auto cpu_index = index_after(cpu_word, "cpu");
    if (!cpu_index || *cpu_index >= threads_.size() || !threads_[*cpu_index]) {
        error = fmt::format("opal {} {}: {} is not a CPU served by {} (OPAL_PARAMETER)", call, domain, cpu_word,
                            basename());
        return false;
    }
    unsigned cpu = *cpu_index;
    uint64_t address = 0;
    if (init) {
        try {
            address = std::stoull(args[1], nullptr, 0);
        } catch (const std::logic_error&) {
            error = fmt::format("opal {} {}: expected an address, found '{}'", call, domain, args[1]);
            return false;
        }
    }
    const thread_imc& t = *threads_[cpu];
    uint64_t xs = xscom_base(t.chip);
    auto scom = [&](uint32_t pcb, uint64_t value) {
        s.push_back(fmt::format("write64 {:#x} {:#x}", xs + xscom_offset(pcb), value));
    };
    if (domain == "nest") {
        if (!init) s.push_back(fmt::format("write64 {:#x} {:#x}", chips_[t.chip]->cb() + cb_command,
                                           uint64_t(start ? cmd_resume : cmd_pause)));
        return true; // init nest: nothing to do
    }
    if (init && domain == "core") {
        scom(scom_pdbar(t.core), address & ldbar_address_mask);
        scom(scom_event_mask(t.core), core_event_mask);
        scom(scom_htm_mode(t.core), htm_mode_disable);
    } else if (init) { // trace
        scom(scom_htm_mode(t.core), htm_mode_disable);
        scom(scom_trace(t.core), skiboot_trace_scom);
    } else {
        scom(scom_htm_mode(t.core), start ? htm_mode_enable : htm_mode_disable);
    }
    return true;
}

uint64_t imc_unit::trace_records(unsigned cpu) const {
    return cpu < threads_.size() && threads_[cpu] ? threads_[cpu]->records : 0;
}

uint64_t imc_unit::nest_postings(unsigned chip) const { return chip < chips_.size() ? chips_[chip]->postings : 0; }

dt_node imc_unit::device_tree() const {
    std::vector<chip_homer> chips;
    for (unsigned c = 0; c < options_.chips; ++c) chips.push_back({c, homer_base(c)});
    return imc_counters_node(catalog_, chips, options_.avl_vector, true, true);
}

void imc_unit::report(std::ostream& out) {
    for (auto& c : chips_)
        out << fmt::format("imc chip{}: OCC ticks {}, nest postings {}, {}\n", c->id, c->ticks, c->postings,
                           c->collecting ? "collecting" : "not collecting");
    uint64_t records = 0;
    for (auto& t : threads_)
        if (t) records += t->records;
    out << fmt::format("imc: trace records {}, memory writes {}, interrupts raised {}\n", records, memory_writes_,
                       interrupts_raised_);
}

void imc_unit::observables(std::vector<observable>& out) {
    for (auto& t : threads_) {
        if (!t) continue;
        thread_imc* tp = t.get();
        out.push_back({fmt::format("cpu{}.imc.LDBAR", tp->cpu), 64, [tp] { return tp->ldbar; }});
        out.push_back({fmt::format("cpu{}.imc.trace_records", tp->cpu), 64, [tp] { return tp->records; }});
    }
    out.push_back({"imc.interrupts_raised", 64, [this] { return interrupts_raised_; }});
}

} // namespace pmusim
