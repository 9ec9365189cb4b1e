#pragma once
// A CPU's identity as software reads it: MPIDR_EL1 in pmusim's DynamIQ layout, the same value the
// device tree's cpu `reg` (linux/device_tree.cpp) and the AMU's AMDEVAFF report. The host computes
// a CPU's place (vp/platform_iss.h cpu_mpidr: cluster, core in the cluster) and gives the ISS the
// value (iss/cpu_host.h cpu_wiring::mpidr).
#include <cstdint>

namespace pmusim {

// Arm ARM D17.2.101 MPIDR_EL1: bit 31 RES1, U [30] = 0 (part of a multiprocessor system), MT [24] = 1
// (DynamIQ: affinity level 0 is the thread), Aff2 [23:16] = the cluster, Aff1 [15:8] = the core in
// its cluster, Aff0 [7:0] = 0 (one thread per core).
inline uint64_t dynamiq_mpidr(unsigned cluster, unsigned core_in_cluster) {
    return (uint64_t(1) << 31) | (uint64_t(1) << 24) | (uint64_t(cluster) << 16) | (uint64_t(core_in_cluster) << 8);
}

} // namespace pmusim
