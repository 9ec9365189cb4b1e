#pragma once
// A CPU's identity as software reads it: MPIDR_EL1 in pmusim's DynamIQ layout, the same value the
// device tree's cpu `reg` (linux/device_tree.cpp) and the AMU's AMDEVAFF report.
#include <cstdint>

#include "vp/platform_config.h"

namespace pmusim {

// Arm ARM D17.2.101 MPIDR_EL1: bit 31 RES1, U [30] = 0 (part of a multiprocessor system), MT [24] = 1
// (DynamIQ: affinity level 0 is the thread), Aff2 [23:16] = the cluster, Aff1 [15:8] = the core in
// its cluster, Aff0 [7:0] = 0 (one thread per core).
inline uint64_t cpu_mpidr(const platform_config& cfg, unsigned cpu) {
    const cpu_config& c = cfg.cpus.at(cpu);
    unsigned core_in_cluster = 0;
    for (unsigned i = 0; i < cpu; ++i)
        if (cfg.cpus[i].cluster == c.cluster) ++core_in_cluster;
    return (uint64_t(1) << 31) | (uint64_t(1) << 24) | (uint64_t(c.cluster) << 16) | (uint64_t(core_in_cluster) << 8);
}

} // namespace pmusim
