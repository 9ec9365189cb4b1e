// The nest engine: the OCC 24x7 microcode model (docs/imc.md "Nest").
#include "imc/imc_state.h"

namespace pmusim {

using namespace imc;

// ---------------------------------------------------------------------------
// Nest counters and their sources
// ---------------------------------------------------------------------------

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
    for (auto& k : c.counters) add_meter(k->source);
}


// ---------------------------------------------------------------------------
// Nest: the OCC 24x7 microcode
// ---------------------------------------------------------------------------

bool imc_unit::init_control_block(nest_chip& c) {
    // The OCC has run for a while when the host boots: initialised, collecting.
    for (uint64_t w = 0; w < nest_posting_words; ++w)
        if (!store64(c.homer + nest_offset + 8 * w, 0)) return false;
    if (!store64(c.homer + version_offset, imc_field::version_major.put(2)) || // v2.0.0
        !store64(c.cb() + cb_run_status, status_running) || !store64(c.cb() + cb_command, cmd_nop) ||
        !store64(c.cb() + cb_speed, 0) || !store64(c.cb() + cb_avl_vector, options_.avl_vector) ||
        !store64(c.cb() + cb_run_mode, 0))
        return false;
    c.paused = false;
    c.reinit_left = 0;
    c.error_status = 0;
    c.speed = c.mode = 0;
    c.collecting = true;
    c.countdown.fill(0);
    restart_nest_baselines(c, now_fs());
    return true;
}

void imc_unit::restart_nest_baselines(nest_chip& c, fs_t now) {
    for (auto& k : c.counters) {
        k->baseline = metered(k->source, now);
        k->posted = 0;
    }
}

void imc_unit::start_of_simulation() {
    for (auto& c : chips_) {
        nest_chip* cp = c.get();
        c->ticks = 0;
        if (guarded(fmt::format("the chip {} nest microcode", c->id), [&] { return init_control_block(*cp); }))
            c->tick.notify(to_sc_time(options_.occ_tick));
    }
}

void imc_unit::occ_tick(nest_chip& c) {
    // A fault leaves the next tick unscheduled: that chip's microcode stops.
    guarded(fmt::format("the chip {} nest microcode", c.id), [&] { return occ_step(c); });
}

bool imc_unit::occ_step(nest_chip& c) {
    fs_t now = now_fs();
    ++c.ticks;
    unsigned state = unsigned((c.ticks - 1) % 8) + 1;
    bool was_collecting = c.collecting;
    bool reinit_started = false;
    uint64_t cmd = cmd_nop;
    if (!load64(c.cb() + cb_command, cmd)) return false;
    if (cmd != cmd_nop) {
        if (!store64(c.cb() + cb_command, cmd_nop)) return false; // consumed
        if (cmd == cmd_resume) c.paused = false;
        else if (cmd == cmd_pause) c.paused = true;
        else if (cmd == cmd_clear) {
            for (uint64_t w = 0; w < nest_posting_words; ++w)
                if (!store64(c.homer + nest_offset + 8 * w, 0)) return false;
            c.reinit_left = 4;
            reinit_started = true;
        }
    }
    uint64_t speed = 0, mode = 0;
    if (!load64(c.cb() + cb_speed, speed) || !load64(c.cb() + cb_run_mode, mode)) return false;
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
    if (!store64(c.cb() + cb_run_status, status)) return false;
    c.collecting = status == status_running;
    if (c.collecting && !was_collecting) {
        restart_nest_baselines(c, now);
        c.countdown.fill(0);
    }
    if (c.collecting)
        for (unsigned g = 0; g < nest_groups; ++g) {
            if (!group_posts_in(g, state)) continue;
            if (c.countdown[g] == 0) {
                if (!post_group(c, g)) return false;
                c.countdown[g] = g < 3 ? c.speed : c.speed / 8;
            } else {
                --c.countdown[g];
            }
        }
    c.tick.notify(to_sc_time(options_.occ_tick));
    return true;
}

bool imc_unit::post_group(nest_chip& c, unsigned g) {
    fs_t now = now_fs();
    uint64_t base = c.homer + nest_offset;
    if (!add64(base + group_header[g], 1)) return false;
    for (auto& k : c.counters) {
        if (k->group != g) continue;
        uint64_t events = metered(k->source, now) - k->baseline;
        uint64_t scaled = events / k->scale;
        if (scaled != k->posted && !add64(base + k->value, scaled - k->posted)) return false;
        k->posted = scaled;
    }
    if (!add64(base + group_header[g] + group_span, 1)) return false;
    ++c.postings;
    return true;
}

} // namespace pmusim
