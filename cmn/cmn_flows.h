#pragma once
// Mesh traffic as flows (docs/cmn.md "Flows"): a flow is a steady stream of requests from one
// requester port to one home node (HN-F or HN-I) at a rational rate, XY-routed like every flit.
// Its counts come from time and rate in exact integer arithmetic, never per request: request k
// of a flow issues at mesh edge start + ceil(k / rate), so by edge e it has issued floor((e -
// start) * rate) requests, and every flit of the request's transaction passes each XP on its
// route at a fixed offset from the issue edge. An event counted at offset d therefore has
// floor((e - start - d) * rate) events by edge e, and an occupancy held from offset a to offset
// b adds F(e - start - a) - F(e - start - b), F(x) = sum over u < x of floor(u * rate) (a floor
// sum, O(log) to evaluate). The per-request mode (flow_mode: per-request) issues the same
// requests one by one through the traffic engine (cmn_traffic.h), the reference the flows are
// checked against (tests/differential: cmn flows).
#include <cstdint>
#include <string>
#include <vector>

#include "cmn/cmn_mesh.h"
#include "models/clock_domain.h"
#include "models/event_source.h"
#include "models/rational.h"

namespace pmusim {

struct cmn_traffic_timing;
struct cmn_generator_config;

struct cmn_flow_config {
    size_t xp = 0;              // the requester: crosspoint index, port, device
    unsigned port = 0, device = 0;
    size_t target = 0;          // node index of the home: an HN-F or an HN-I
    uint8_t op = 0;             // chi::req_read_no_snp or chi::req_write_no_snp_full
    rational rate;              // requests per mesh cycle
    rational miss{0};           // HN-F only: the share of the requests that miss the SLC
    size_t memory = 0;          // the memory a miss reads (mem=K: SN-Fs and SBSXs in XP order)
    uint64_t start_cycle = 0;   // requests issue from this mesh edge on
    uint64_t stop_cycle = UINT64_MAX; // stop=C: and at edges up to C only (a flow for a time window)
    unsigned line = 0;          // where the platform text declared it
};

// Parses the `flows` text: `X,Y pP[.D] to=NODE op=read|write rate=R [miss=M] [mem=K] [start=C]
// [stop=C]` per line; checks, at every edge where a flow starts, each XP output's load (at most one flit per cycle per interface and channel) and each
// requester's outstanding requests against `max_outstanding` (Little's law). Throws input_error.
std::vector<cmn_flow_config> parse_cmn_flows(const cmn_mesh& mesh, const std::string& text,
                                             const cmn_text_origin& origin, const cmn_traffic_timing& timing);

// One contribution of a flow's requests to one node event (XP events included): requests issue at
// start + ceil(k * num / den)... (rate num/den); `weight` events at `offset` after each issue edge, or
// (ramp) one per edge in (issue + offset, issue + until].
struct cmn_flow_term {
    size_t node = 0;
    uint8_t eventid = 0, occupid = 0;
    uint64_t start = 0;       // the stream's start edge
    uint64_t stop = UINT64_MAX; // its last possible issue edge (requests issue in (start, stop])
    rational rate;            // its requests per edge
    uint64_t offset = 0;
    uint64_t until = 0;       // ramps only: > offset
    bool ramp = false;
    uint64_t weight = 1;
};

// Every term of every flow: each flow is two request streams (hits at rate * (1 - miss), misses at
// rate * miss; docs/cmn.md), each request worked out as the traffic engine's transaction would, with
// no link contention (flows are a fluid model: stalls are not counted).
std::vector<cmn_flow_term> compile_cmn_flows(const cmn_mesh& mesh, const cmn_traffic_timing& timing,
                                             const std::vector<cmn_flow_config>& flows);

// The generators the per-request mode runs for the same flows (one per stream).
std::vector<cmn_generator_config> cmn_flow_generators(const std::vector<cmn_flow_config>& flows);

// The events of one node event from flows: the sum of its terms by mesh edge. Exact: floor(x * p /
// q) and floor sums in 128-bit integers.
class cmn_flow_events : public event_source {
public:
    explicit cmn_flow_events(const clock_domain& clock) : clock_(clock) {}
    void add(const cmn_flow_term& t) {
        terms_.push_back(t);
        note_change();
    }
    bool empty() const { return terms_.empty(); }
    uint64_t count_at(fs_t t) const override { return count_by_edge(clock_.edges_at(t)); }
    uint64_t count_by_edge(uint64_t edge) const;
    uint64_t version() const override { return changes() + clock_.changes(); }

private:
    const clock_domain& clock_;
    std::vector<cmn_flow_term> terms_;
};

// sum_{i=0}^{n-1} floor((a * i + b) / m), m > 0 (the classic floor-sum recursion, O(log m)).
unsigned __int128 cmn_floor_sum(uint64_t n, uint64_t m, uint64_t a, uint64_t b);

} // namespace pmusim
