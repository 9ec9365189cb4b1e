#include "models/reference_mode.h"

#include <algorithm>
#include <systemc>

#include "models/reference_clock.h"
#include "models/reference_counter.h"
#include "models/reference_sources.h"

namespace pmusim {

namespace {
bool reference_mode_on = false;
} // namespace

bool reference_mode() { return reference_mode_on; }
void set_reference_mode(bool on) { reference_mode_on = on; }

// Wakes the world at the instant of the next spread (inject ... over) event.
struct reference_world::waker {
    sc_core::sc_event event;
};

reference_world& reference_world::instance() {
    static reference_world world;
    return world;
}

void reference_world::remove_clock(reference_clock* c) {
    clocks_.erase(std::remove(clocks_.begin(), clocks_.end(), c), clocks_.end());
}

void reference_world::forget_counter(reference_counter* c) {
    wrapped_.erase(std::remove(wrapped_.begin(), wrapped_.end(), c), wrapped_.end());
}

void reference_world::catch_up(fs_t now) {
    if (busy_) return;
    busy_ = true;
    for (size_t i = 0; i < clocks_.size(); ++i) clocks_[i]->deliver_until(now);
    for (auto& w : pending_)
        if (auto twin = w.lock()) twin->deliver_until(now);
    busy_ = false;
    arm_injections();
}

void reference_world::activate(fs_t now) {
    catch_up(now);
    run_wrap_listeners();
}

void reference_world::run_wrap_listeners() {
    // Listeners may read counters (nothing is left to deliver at this instant) and change
    // enables or sources; a wrap they cause themselves is told in the same loop.
    while (!wrapped_.empty()) {
        std::vector<reference_counter*> wrapped;
        wrapped.swap(wrapped_);
        for (reference_counter* c : wrapped) c->notify_wrap();
    }
}

void reference_world::add_pending(const std::shared_ptr<reference_injected>& twin, fs_t) {
    for (auto& w : pending_)
        if (w.lock() == twin) {
            arm_injections();
            return;
        }
    pending_.push_back(twin);
    arm_injections();
}

void reference_world::arm_injections() {
    if (!sc_core::sc_is_running()) return;
    fs_t next = fs_never;
    std::vector<std::weak_ptr<reference_injected>> keep;
    const fs_t now = now_fs();
    for (auto& w : pending_) {
        auto twin = w.lock();
        if (!twin) continue;
        fs_t t = twin->deliver_until(now); // nothing new at now (already caught up): just the next instant
        if (t == fs_never) continue;
        keep.push_back(w);
        next = std::min(next, t);
    }
    pending_.swap(keep);
    if (!waker_) {
        waker_ = std::make_unique<waker>();
        sc_core::sc_spawn_options opts;
        opts.spawn_method();
        opts.set_sensitivity(&waker_->event);
        opts.dont_initialize();
        sc_core::sc_spawn([this] { on_injection_wake(); }, sc_core::sc_gen_unique_name("reference_injections"),
                          &opts);
    }
    waker_->event.cancel();
    if (!wrapped_.empty()) waker_->event.notify(sc_core::SC_ZERO_TIME); // wraps from a thread: told next delta
    else if (next != fs_never) waker_->event.notify(sc_core::sc_time::from_value(next - now));
}

void reference_world::on_injection_wake() { activate(now_fs()); }

} // namespace pmusim
