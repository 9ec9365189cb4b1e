#pragma once
// The linked system model (docs/whatif.md "Linked system model"): a scenario's `link:` entry ties a
// DSU cluster's CPU workloads to a CMN-600 requester, so that a design change in the cluster moves
// the mesh's and memory's counters:
//
//   CPU workload (l3_access_rd/_wr per CPU cycle)
//     -> DSU L3: refills = accesses x l3_miss_ratio (l3_refill_rd/_wr), each refill one bus read
//        (bus_access_rd); writebacks (l3_writeback) one bus write (bus_access_wr)
//     -> the cluster's CMN-600 requester port: one read request per refill and one write per
//        write-back, at D = sum over running CPUs of (requests per CPU cycle x f_cpu) / f_mesh per
//        mesh cycle; with flows a DSU-side queue sends at most port_rate per mesh cycle, the rest
//        waits (a fluid queue: occupancy and stall cycles exact, Little's law)
//     -> the CMN-600 model: the address hash homes each line at an HN-F, whose SLC misses go to
//        an SN-F (memory); links and HN-F queues give stalls and occupancy from the load.
//
// Done when the scenario is loaded, in exact rational arithmetic: the linked CPUs' workload
// phases get the derived keys; at every instant where D changes (a workload, DVFS or power
// change of a linked CPU, a DVFS step of the mesh clock) either (mesh: flows, the default) a new
// set of CMN flows starts, one per HN-F and memory by the address hash's share of the lines, or
// (mesh: traffic) a `cmn0 traffic X,Y pP rate=R ...` statement runs (a generated scenario sequence).
#include <cstdint>
#include <string>
#include <vector>

#include "models/rational.h"

namespace pmusim {

struct scenario;

// link: { dsu, cmn, requester: "X,Y pP", l3_miss_ratio, writeback_ratio, mesh, port_rate,
//         slc_miss_ratio, range, mix, seed }
struct scenario_link {
    std::string dsu;            // a dsu_clusterpmu instance: its CPUs are the cluster
    std::string cmn;            // a cmn600 instance
    std::string requester;      // the cluster's CMN port, "X,Y pP[.D]" as the traffic statement takes it
    rational miss_ratio{1, 10}; // l3_miss_ratio: refills per L3 access
    rational writeback_ratio{0}; // write-backs (dirty victims) per refill: CMN writes
    bool flows = true;          // mesh: flows (the CMN's `flows`, counted from rates) or traffic (per request)
    rational port_rate{1, 4};   // flows: requests per mesh cycle the port accepts; more demand queues
    rational slc_miss_ratio{1}; // flows: the share of the requests that miss the HN-Fs' SLC
    std::string range = "0x80000000-0x8fffffff"; // the lines refills read (hashed over the HN-Fs)
    std::string mix = "ReadShared"; // traffic: the CHI request a refill is
    uint64_t seed = 1;          // traffic: the generator's address stream
    unsigned line = 0;
};

// What the link worked out for one cluster in flow mode: the port's schedule and its queue
// (docs/whatif.md "The DSU-side queue"), in mesh edges, exact rationals.
struct link_segment {
    uint64_t start_edge = 0, stop_edge = 0; // the port issues in (start, stop]
    rational demand, issue;                 // requests per mesh cycle asked and sent
};
struct link_report {
    std::string dsu, cmn, requester;
    rational port_rate;
    std::vector<link_segment> segments;
    std::string arrived, issued, occupancy, peak; // exact rationals as text: requests, request-cycles
    uint64_t arrived_floor = 0, issued_floor = 0, occupancy_floor = 0, peak_floor = 0;
    uint64_t stall_cycles = 0;              // edges with requests waiting in the queue
    uint64_t edges = 0;                     // mesh edges of the run
    std::vector<std::pair<std::string, rational>> homes; // each HN-F's share of the lines
};

// Applies every `link:` of `s` (workload keys and traffic statements or flows). Throws input_error
// naming the link's line for a workload phase that sets a derived key itself, or a rate beyond 64 bits.
void apply_links(scenario& s);

} // namespace pmusim
