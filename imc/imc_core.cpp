// The core, thread and trace engines (docs/imc.md "Core IMC", "Thread IMC", "Trace IMC").
#include "imc/imc_state.h"

namespace pmusim {

using namespace imc;

namespace {
// What a CPMC counts for its CPMCnSEL value: the 32 MHz reference, or instructions otherwise.
const event_source& cpmc_source(unsigned sel, const event_source& ref32, core_model& cm) {
    return sel == imc_field::cpmc_sel_32mhz ? ref32 : static_cast<const event_source&>(cm.events("inst"));
}
} // namespace

// ---------------------------------------------------------------------------
// Core, thread and trace
// ---------------------------------------------------------------------------

void imc_unit::add_meter(const event_source& source) {
    auto& m = meters_[&source];
    if (m) return;
    // Built with the unit (time 0, when every source's count is 0): the meter reads the source's count.
    m = std::make_unique<lazy_counter>(64);
    m->set_source(&source, now_fs());
    m->set_enabled(true, now_fs());
}

uint64_t imc_unit::metered(const event_source& source, fs_t now) {
    auto it = meters_.find(&source);
    if (it == meters_.end()) throw model_error(fmt::format("{}: an IMC source without a meter", basename()));
    return it->second->read(now);
}

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
    bool running = imc_field::htm_imc_select.get(htm) == imc_field::htm_imc_select_imc && imc_field::htm_imc_on.in(htm);
    bool trace_mode = false;
    for (thread_imc* t : c.threads) trace_mode = trace_mode || (t->ldbar & ldbar_trace_mode);
    uint64_t trace_scom = c.reg("TRACE_IMC");

    bool core_acc = running && !trace_mode;
    if (core_acc && !c.acc_active)
        for (auto& k : c.counters) {
            k.baseline = metered(*k.source, now);
            k.posted = 0;
        }
    c.acc_active = core_acc;
    bool any_thread_acc = false;
    for (thread_imc* t : c.threads) {
        bool acc = running && !trace_mode && (t->ldbar & ldbar_enable);
        if (acc && !t->acc_active)
            for (auto& k : t->counters) {
                k.baseline = metered(*k.source, now);
                k.posted = 0;
            }
        t->acc_active = acc;
        any_thread_acc = any_thread_acc || acc;

        bool trace = running && (t->ldbar & ldbar_trace_mode) && trace_scom != 0;
        if (trace && !t->trace_active) {
            // The write pointer starts at the LDBAR address (docs/imc.md).
            core_model& cm = system_.core(t->cpu);
            t->buffer = t->ldbar & imc_field::ldbar_address.mask();
            unsigned bufsize = unsigned(imc_field::trace_buffersize.get(trace_scom));
            t->entries = uint64_t(4096) << (bufsize > 4 ? 0 : bufsize);
            t->records = 0;
            t->sampsel = unsigned(imc_field::trace_sampsel.get(trace_scom)) & 1; // 0 CPMC1, 1 CPMC2 (2, 3: taken as 0, 1)
            t->sel[0] = unsigned(imc_field::trace_cpmc1sel.get(trace_scom));
            t->sel[1] = unsigned(imc_field::trace_cpmc2sel.get(trace_scom));
            t->load = imc_field::trace_cpmc_load.get(trace_scom);
            for (unsigned i = 0; i < 2; ++i)
                t->cpmc_base[i] = metered(cpmc_source(t->sel[i], *ref32_, cm), now);
            t->inst_base = metered(cm.events("inst"), now);
            t->cycles_base = metered(cm.events("cycles"), now);
            const event_source& sampled = cpmc_source(t->sel[t->sampsel], *ref32_, cm);
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
            schedule_trace(*t); // cancels the next record
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
    if (guarded(fmt::format("core {} of chip {} (core/thread accumulation)", c.core, c.chip), [&] { return core_update_step(c); }))
        return;
    c.acc_active = false; // counting restarts when the core's SCOMs or a LDBAR are written again
    for (thread_imc* t : c.threads) t->acc_active = false;
    c.update_pending = false;
}

bool imc_unit::core_update_step(core_imc& c) {
    fs_t now = now_fs();
    auto post = [&](std::vector<acc_counter>& counters, uint64_t base) {
        for (auto& k : counters) {
            uint64_t scaled = (metered(*k.source, now) - k.baseline) / k.scale;
            if (scaled != k.posted && !add64(base + k.offset, scaled - k.posted)) return false;
            k.posted = scaled;
        }
        return true;
    };
    if (c.acc_active && !post(c.counters, c.reg("PDBAR") & imc_field::pdbar_address.mask())) return false;
    for (thread_imc* t : c.threads)
        if (t->acc_active && !post(t->counters, t->ldbar & imc_field::ldbar_address.mask())) return false;
    c.update_pending = c.acc_active;
    for (thread_imc* t : c.threads) c.update_pending = c.update_pending || t->acc_active;
    if (c.update_pending) c.update.notify(to_sc_time(options_.core_update_period));
    return true;
}

// The sampler's wrap is the next record: the shared overflow skeleton predicts it while tracing
// (and cancels it when tracing stops); a record reloads the sampler and predicts again.
void imc_unit::schedule_trace(thread_imc& t) {
    t.trace_wraps.predict_all(now_fs(), [&t](size_t) { return t.trace_active; });
}

void imc_unit::trace_overflow(thread_imc& t) {
    if (!t.trace_active) return;
    fs_t now = now_fs();
    uint64_t wraps = 0;
    t.trace_wraps.collect(now, [&wraps](size_t, uint64_t w) { wraps = w; });
    if (wraps == 0) { // a stale notification after a rate change
        schedule_trace(t);
        return;
    }
    if (guarded(fmt::format("cpu{} trace", t.cpu), [&] { return trace_record(t); })) return;
    t.trace_active = false; // tracing restarts when LDBAR or the core's SCOMs are written again
    t.sampler.set_enabled(false, now);
}

bool imc_unit::trace_record(thread_imc& t) {
    constexpr uint64_t cpmc_ones = imc_field::trace_cpmc_load.ones(); // the CPMCs are 32-bit, as their load value
    fs_t now = now_fs();
    core_model& cm = system_.core(t.cpu);
    uint64_t tb = metered(*timebase_, now);
    uint64_t inst = metered(cm.events("inst"), now);
    uint64_t cpmc[2];
    for (unsigned i = 0; i < 2; ++i) {
        if (i == t.sampsel) cpmc[i] = t.sampler.read(now); // the wrapped sampling counter
        else {
            cpmc[i] = (metered(cpmc_source(t.sel[i], *ref32_, cm), now) - t.cpmc_base[i]) & cpmc_ones;
        }
    }
    const uint64_t record[8] = {
        tb,
        0x10000000ULL + 4 * (inst % 0x100000), // synthetic program counter (docs/imc.md)
        0,                                     // PIDR information: 0
        cpmc[0],
        cpmc[1],
        (inst - t.inst_base) & cpmc_ones,
        (metered(cm.events("cycles"), now) - t.cycles_base) & cpmc_ones,
        tb & trace_tb_mask,
    };
    uint64_t slot = t.buffer + (t.records % t.entries) * 64;
    for (unsigned i = 0; i < 8; ++i)
        if (!store64(slot + 8 * i, record[i])) return false;
    ++t.records;
    t.sampler.write(t.load, now); // reload for the next sampling period
    schedule_trace(t);
    return true;
}

} // namespace pmusim
