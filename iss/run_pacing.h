#pragma once
// Time and interrupt pacing's arithmetic, apart from SystemC: how far the CPU's local time moves
// when instructions retire, how many instructions the next engine run may retire (up to the next
// pending activity, the time limit, a cap; with other CPUs running, the 1 us quantum's end as a
// soft limit), and which quantum boundary a CPU waits for after a run (docs/firmware.md "SMP: runs
// in quanta"). aarch64_iss (iss/time_pacing.cpp) asks SystemC for the gap to the next activity,
// asks this class, and does the waiting.
#include <cstdint>

#include "models/clock_domain.h"
#include "models/sim_time.h"

namespace pmusim {

class run_pacing {
public:
    // With more than one CPU running, each runs ahead up to the next multiple of this quantum of
    // simulated time (or an earlier timed event) before it lets the others run.
    static constexpr fs_t smp_quantum_fs = 1'000'000'000; // 1 us
    static constexpr uint64_t no_limit = ~uint64_t(0);

    run_pacing(const clock_domain& clock, unsigned cycles_per_instruction) : clock_(clock), cpi_(cycles_per_instruction) {}

    // The instant the next instruction starts after `instructions` retired from `from`: each takes
    // cycles_per_instruction clock edges, the last one ending on an edge.
    fs_t after(fs_t from, uint64_t instructions) const { return clock_.time_after_edges(from, instructions * cpi_); }

    // The end of the quantum local time `t` lies in (a boundary itself starts the next quantum).
    static fs_t quantum_end(fs_t t) { return (t / smp_quantum_fs + 1) * smp_quantum_fs; }

    struct plan {
        bool wait_first = false; // an event is due at or before the CPU's own time: sync, go round again
        fs_t limit = 0;          // the run ends by this instant
        uint64_t budget = 0;     // at most this many instructions (at least 1)
        uint64_t soft_budget = no_limit; // the quantum's end, in instructions: stop at the first block boundary past it
        fs_t quantum_end = 0;
    };
    // The next run from SystemC time `now`, local time `t_pos`, with the next pending activity
    // `gap` femtoseconds away (0: one is due now), the time limit `deadline`, other CPUs running
    // (`smp`), and at most `cap` instructions (a debugger's step; no_limit: none).
    plan plan_run(fs_t now, fs_t t_pos, fs_t gap, fs_t deadline, bool smp, uint64_t cap) const;

    // After a run planned with `soft_budget`/`quantum_end` that stopped on its budget at the soft
    // limit (`stopped_at_quantum`), local time `t_pos`: the boundary to wait for, or 0 (none).
    static fs_t boundary_after(uint64_t soft_budget, fs_t quantum_end, bool stopped_at_quantum, fs_t t_pos) {
        return soft_budget != no_limit && stopped_at_quantum ? (quantum_end < t_pos ? quantum_end : t_pos) : 0;
    }

private:
    const clock_domain& clock_;
    unsigned cpi_;
};

} // namespace pmusim
