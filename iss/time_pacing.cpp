// Time and interrupt pacing: instructions retired advance the CPU's local time; sync() brings
// SystemC time to it; how far the engine may run before anything else is due (one CPU: the next
// pending activity; several: a quantum, docs/firmware.md "SMP"); WFI's wait; a pending IRQ taken at
// an instruction boundary. Members of aarch64_iss.
#include "iss/aarch64_iss.h"
#include "iss/a64_encoding.h"
#include "iss/run_pacing.h"
#include "iss/unicorn_calls.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <fmt/format.h>
#include <unicorn/unicorn.h>

#include "models/core.h"
#include "models/cpu_controls.h"
#include "models/input_error.h"
#include "models/interrupt_line.h"
#include "models/memory.h"
#include "models/register_access.h"

namespace pmusim {

using namespace sc_core;
using namespace a64;

void aarch64_iss::retire(uint64_t instructions) {
    if (instructions == 0) return;
    retired_ += instructions;
    t_pos_ = run_pacing(core_.clock(), cycles_per_instruction_).after(t_pos_, instructions);
}

void aarch64_iss::sync() {
    fs_t now = now_fs();
    if (t_pos_ > now) {
        qk_.set(to_sc_time(t_pos_ - now));
        qk_.sync(); // wait() for the local time offset: SystemC time is now t_pos_
    }
    // Other processes due at this instant (an overflow raising an interrupt line, a sequence
    // statement) act first, so the instruction sees the state of its own instant. Bounded: two
    // ISSs yielding to each other would otherwise never stop.
    for (int i = 0; i < 8 && sc_pending_activity_at_current_time(); ++i) wait(SC_ZERO_TIME);
}

bool aarch64_iss::irq_pending() const {
    for (auto* l : irqs_)
        if (l->level()) return true;
    return false;
}

bool aarch64_iss::try_take_irq() {
    if (!irq_pending()) return false;
    unsigned target = irq_target();
    if (!target) return false;
    take_exception(target, true, 0, engine_pc(), std::nullopt);
    return true;
}

// The time to the next instant anything else is due, leaving out the other CPUs' waits for their
// quantum boundaries (nothing the firmware sees changes there): their boundary events leave
// SystemC's queue for the look and go back (sc_event::cancel, notify).
sc_time aarch64_iss::time_to_next_event(bool smp) {
    std::vector<aarch64_iss*> parked;
    if (smp)
        for (aarch64_iss* other : on_gate(gate_))
            if (other != this && other->boundary_at_ > now_fs()) {
                other->boundary_event_.cancel();
                parked.push_back(other);
            }
    sc_time gap = sc_time_to_pending_activity();
    if (gap == SC_ZERO_TIME && smp) {
        // What is still runnable at this instant after sync()'s yields is the other CPUs'
        // ISSs, each about to run its own quantum: not a reason to stop.
        sc_time next = sc_max_time();
        gap = sc_get_curr_simcontext()->next_time(next) ? next - sc_time_stamp() : sc_max_time() - sc_time_stamp();
    }
    for (aarch64_iss* other : parked) other->boundary_event_.notify(to_sc_time(other->boundary_at_ - now_fs()));
    return gap;
}

// Run ahead: up to the next instant anything else is due (nothing else can change what the
// firmware sees before then) or the time limit; at most `cap` instructions, at least one. With
// other CPUs running, also to the end of the quantum, as a soft limit: the run ends at the first
// block boundary after it (a run ended inside a block translates that block twice more: the part
// and the whole again; 587 thousand times in a 4-CPU boot), an event before that exactly at its
// instant. 0: an event is due at or before this CPU's own time (it ran up to a block past the last
// quantum's end): that event has now happened, the caller goes round again.
uint64_t aarch64_iss::run_budget(uint64_t cap) {
    const bool smp = other_cpus_running();
    const sc_time gap = time_to_next_event(smp);
    const run_pacing::plan p =
        run_pacing(core_.clock(), cycles_per_instruction_).plan_run(now_fs(), t_pos_, gap.value(), deadline_, smp, cap);
    if (p.wait_first) {
        sync();
        return 0;
    }
    run_limit_fs_ = p.limit;
    soft_budget_ = p.soft_budget;
    quantum_end_ = p.quantum_end;
    return p.budget;
}

// After a run: one that ended at its quantum's end waits for the quantum boundary only (the block
// boundary is at or after it; the clock's edges may put the last instruction's end just before it).
void aarch64_iss::after_run() {
    boundary_due_ = run_pacing::boundary_after(soft_budget_, quantum_end_, engine_.soft_stopped() && engine_.stop().kind == stop_kind::budget, t_pos_);
    soft_budget_ = ~uint64_t(0);
}

// Before a run: SystemC time to the CPU's own (sync), or, after a quantum's run, to the boundary.
void aarch64_iss::pace() {
    const fs_t boundary = std::exchange(boundary_due_, 0);
    if (!boundary) return sync();
    wait_for_boundary(boundary);
}

void aarch64_iss::wait_for_boundary(fs_t boundary) {
    if (boundary > now_fs()) {
        boundary_at_ = boundary;
        boundary_event_.notify(to_sc_time(boundary - now_fs()));
        while (now_fs() < boundary) wait(boundary_event_);
        boundary_at_ = 0;
    }
    for (int i = 0; i < 8 && sc_pending_activity_at_current_time(); ++i) wait(SC_ZERO_TIME);
}

// WFI: the CPU waits (the AMU stops counting) until its IRQ input is high; it wakes even when
// PSTATE.I masks the interrupt (Arm ARM D1.16.2). The WFI has retired.
void aarch64_iss::wait_for_interrupt() {
    sync();
    if (irq_pending()) return;
    core_.set_power(power_state::wfi, now_fs());
    sc_event_or_list wake;
    for (auto* l : irqs_) wake |= l->changed_event();
    wake |= wake_;
    while (!irq_pending() && now_fs() < deadline_ && running()) wait(to_sc_time(deadline_ - now_fs()), wake);
    if (!running()) return;
    core_.set_power(power_state::run, now_fs());
    t_pos_ = now_fs();
}

} // namespace pmusim
