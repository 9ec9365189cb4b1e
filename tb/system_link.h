#pragma once
// The linked system model (docs/whatif.md "Linked system model"): a scenario's `link:` entry ties a
// DSU cluster's CPU workloads to a CMN-600 requester, so that a design change in the cluster moves
// the mesh's and memory's counters:
//
//   CPU workload (l3_access_rd/_wr per CPU cycle)
//     -> DSU L3: refills = accesses x l3_miss_ratio (l3_refill_rd/_wr), each refill one bus read
//        (bus_access_rd); writebacks (l3_writeback) one bus write (bus_access_wr)
//     -> the cluster's CMN-600 requester port: one read request per refill, at
//        R = sum over running CPUs of (refills per CPU cycle x f_cpu) / f_mesh per mesh cycle
//     -> the CMN-600 model: the address hash homes each line at an HN-F, whose SLC misses go to
//        an SN-F (memory); links and HN-F queues give stalls and occupancy from the load.
//
// Done when the scenario is loaded, in exact rational arithmetic: the linked CPUs' workload
// phases get the derived keys, and at every instant where R changes (a workload, DVFS or power
// change of a linked CPU, a DVFS step of the mesh clock) a `cmn0 traffic X,Y pP rate=R ...`
// statement runs (a generated scenario sequence, after that instant's timeline).
#include <cstdint>
#include <string>

#include "models/rational.h"

namespace pmusim {

struct scenario;

// link: { dsu, cmn, requester: "X,Y pP", l3_miss_ratio, range, mix, seed }
struct scenario_link {
    std::string dsu;            // a dsu_clusterpmu instance: its CPUs are the cluster
    std::string cmn;            // a cmn600 instance
    std::string requester;      // the cluster's CMN port, "X,Y pP[.D]" as the traffic statement takes it
    rational miss_ratio{1, 10}; // l3_miss_ratio: refills per L3 access
    std::string range = "0x80000000-0x8fffffff"; // the lines the refills read (hashed over the HN-Fs)
    std::string mix = "ReadShared";
    uint64_t seed = 1;
    unsigned line = 0;
};

// Applies every `link:` of `s` (workload keys and traffic statements). Throws input_error naming
// the link's line for a workload phase that sets a derived key itself, or a rate beyond 64 bits.
void apply_links(scenario& s);

} // namespace pmusim
