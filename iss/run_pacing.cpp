// Time and interrupt pacing's arithmetic (iss/run_pacing.h).
#include "iss/run_pacing.h"

#include <algorithm>

namespace pmusim {

run_pacing::plan run_pacing::plan_run(fs_t now, fs_t t_pos, fs_t gap, fs_t deadline, bool smp, uint64_t cap) const {
    plan p;
    fs_t limit = deadline;
    if (gap != 0 && gap < limit - now) limit = now + gap;
    if (gap == 0) limit = now;
    // Several CPUs: this one ran up to a block past the last quantum's end, and an event is due at
    // or before its own time: that event happens first.
    if (smp && t_pos > now && limit <= t_pos) {
        p.wait_first = true;
        return p;
    }
    p.limit = limit;
    const uint64_t edges = clock_.edges_at(limit) - clock_.edges_at(t_pos);
    p.quantum_end = quantum_end(t_pos);
    if (smp && cap == no_limit && p.quantum_end < limit)
        p.soft_budget = std::max<uint64_t>(1, (clock_.edges_at(p.quantum_end) - clock_.edges_at(t_pos)) / cpi_);
    p.budget = std::min(cap, std::max<uint64_t>(1, edges / cpi_));
    return p;
}

} // namespace pmusim
