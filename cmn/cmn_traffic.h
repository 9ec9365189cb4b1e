#pragma once
// Flit-level traffic on the CMN-600 mesh (docs/cmn.md "Traffic"): seeded
// request generators at requester ports, HN-F selection by address hash, a
// set-associative HN-F cache for hits and misses, SN-F/SBSX memory, RN-F tag
// stores with a precise HN-F snoop filter (snoops on SNP), I/O ranges served by
// HN-Is, and REQ/RSP/SNP/DAT flits routed dimension-ordered (X first, then Y)
// with a fixed latency per hop.
// Work is per transaction and per flit, never per cycle: when a request issues,
// the whole transaction is worked out and every flit's passage through every
// XP is reported to a sink as events at future mesh-clock edges.
#include <cstdint>
#include <deque>
#include <queue>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "cmn/cmn_edge_events.h"
#include "cmn/cmn_events.h"
#include "cmn/cmn_mesh.h"
#include "models/clock_domain.h"
#include "models/event_source.h"
#include "models/rational.h"

namespace pmusim {

// A flit as the watchpoints see it: the fields of the CMN-600 match groups.
struct cmn_flit {
    cmn_channel channel = cmn_channel::req;
    uint16_t srcid = 0, tgtid = 0, homenid = 0;
    uint8_t opcode = 0;
    uint64_t addr = 0;
    uint8_t size = 6;  // log2 bytes (64-byte line)
    uint8_t dataid = 0;
    uint8_t dbid = 0;
    bool ns = true;
    bool donotgotosd = false, rettosrc = false; // SNP only
    // The 64-bit value of match group `group` (0 primary, 1 secondary) for a flit crossing a
    // device port in direction `upload` (device to XP).
    uint64_t match_value(unsigned group, bool upload) const;
};

// CHI opcodes used by the model.
namespace chi {
constexpr uint8_t req_read_shared = 0x01, req_read_once = 0x03, req_read_no_snp = 0x04, req_read_unique = 0x07,
                  req_write_back_full = 0x1B, req_write_no_snp_full = 0x1D;
constexpr uint8_t rsp_snp_resp = 0x1, rsp_comp_ack = 0x2, rsp_comp_dbid_resp = 0x5, rsp_dbid_resp = 0x6;
constexpr uint8_t dat_snp_resp_data = 0x1, dat_copy_back_wr_data = 0x2, dat_non_copy_back_wr_data = 0x3,
                  dat_comp_data = 0x4;
constexpr uint8_t snp_shared = 0x01, snp_once = 0x03, snp_unique = 0x07;
} // namespace chi
// Opcode by CHI name ("ReadShared"); -1 if not a request the generators issue.
int chi_request_opcode(const std::string& name);

// An address range served by an HN-I instead of the HN-Fs (the `io` platform text).
struct cmn_io_range {
    uint64_t lo = 0, hi = 0; // inclusive
    size_t hni = 0;          // node index of the HN-I
};

// Latencies, cache sizes and the I/O address map of the traffic model.
struct cmn_traffic_timing {
    unsigned hop_cycles = 2;    // XP to neighbouring XP
    unsigned port_cycles = 1;   // device port to its XP and back
    unsigned hnf_cycles = 8;    // HN-F lookup to response (or to its snoops)
    unsigned snf_cycles = 40;   // SN-F (memory) request to data
    unsigned hnf_sets = 512;    // HN-F cache: sets x ways lines of 64 bytes per HN-F
    unsigned hnf_ways = 16;
    // Requests one requester may have in flight (its request tracker): a request finding them
    // all taken waits until the first of them completes, so a saturated mesh throttles the
    // requesters instead of queueing without bound (docs/cmn.md "Traffic").
    unsigned max_outstanding = 32;
    unsigned rnf_sets = 64;     // RN-F tag store: sets x ways lines per RN-F device
    unsigned rnf_ways = 4;
    unsigned rnf_snoop_cycles = 4; // RN-F snoop arrival to its response
    unsigned hni_cycles = 16;   // HN-I request to read data or write response (the AXI side)
    std::vector<cmn_io_range> io_ranges;
};

struct cmn_generator_config {
    size_t xp = 0;
    unsigned port = 0, device = 0;
    rational rate;           // requests per mesh cycle
    uint64_t lo = 0, hi = 0; // address range (inclusive), 64-byte lines
    std::vector<std::pair<uint8_t, unsigned>> mix; // opcode, weight
    uint64_t seed = 1;
    uint64_t start_cycle = 0;          // requests issue from this mesh cycle on (after time 0 or a reset)
    uint64_t count = UINT64_MAX;       // then stop after this many requests
    unsigned line = 0;
    // A flow's stream run per request (cmn/cmn_flows.h, flow_mode: per-request): every request goes
    // to `target` (an HN-F or HN-I node), hits or misses as `miss` says (the SLC is not looked up),
    // a miss reads memory `memory`; no link contention, no tracker limit, no watchpoint crossings,
    // and its requests stay anchored at start_cycle across resets (docs/cmn.md "Flows").
    struct flow_stream {
        bool active = false;
        size_t target = 0;
        bool miss = false;
        size_t memory = 0;
    } flow;
};

// Where the traffic reports what happens.
class cmn_traffic_sink {
public:
    virtual ~cmn_traffic_sink() = default;
    // `count` occurrences of a node (or XP) event at mesh edge `edge`.
    virtual void traffic_event(size_t node, uint8_t eventid, uint8_t occupid, uint64_t edge, uint64_t count) = 0;
    // One occurrence per mesh edge in (from_edge, to_edge] (occupancy).
    virtual void traffic_ramp(size_t node, uint8_t eventid, uint8_t occupid, uint64_t from_edge,
                              uint64_t to_edge) = 0;
    // A flit crossing device port `port` of XP `xp` (upload: device to XP) at `edge`.
    virtual void port_crossing(size_t xp, unsigned port, bool upload, const cmn_flit& flit, uint64_t edge) = 0;
};

class cmn_traffic {
public:
    cmn_traffic(const cmn_mesh& mesh, cmn_traffic_timing timing, std::vector<cmn_generator_config> generators);
    bool empty() const { return gens_.empty(); }
    // The `traffic` sequence statement: from mesh edge `now_edge` on, the generator at the requester of
    // `g` runs with `g` (request k issues at now_edge + start + ceil(k / rate)), replacing the one there;
    // `keep_stream` keeps the replaced generator's random stream (no seed= written). nullopt `g`: the
    // generator there stops. Requests due up to `now_edge` must have been issued (advance) first.
    void set_generator(size_t xp, unsigned port, unsigned device, const cmn_generator_config* g,
                       bool keep_stream, uint64_t now_edge);
    // The generator at a requester (nullptr if none, or stopped by `off`); it may have issued its count.
    const cmn_generator_config* generator_at(size_t xp, unsigned port, unsigned device) const;
    // Issues every request whose issue edge is <= `edge` (in edge order), reporting to `sink`.
    void advance(uint64_t edge, cmn_traffic_sink& sink);
    // The edge of the next request to issue (UINT64_MAX when none).
    uint64_t next_issue_edge() const;
    // Back to the platform's generators, from their first request, counted from edge `start_edge`;
    // the HN-F caches, RN-F tag stores and snoop filters empty.
    void reset(uint64_t start_edge);

    uint64_t transactions() const { return transactions_; }
    // XP transmissions (one per flit per crosspoint it leaves, device port included) so far.
    uint64_t flit_hops() const { return flit_hops_; }

private:
    struct endpoint {
        size_t xp;
        unsigned port, device;
        uint16_t id;
    };
    struct generator {
        cmn_generator_config cfg;
        endpoint ep;
        size_t rn_node = SIZE_MAX; // the RN-I/RN-D node, for its events
        int rnf = -1;              // the RN-F's index in rnfs_ (a caching requester), else -1
        uint64_t issued = 0;
        uint64_t rng = 0;
        uint64_t next_edge = 0;
        uint64_t start_edge = 0;
        // Completion edges of the requests in flight (earliest on top).
        std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> in_flight;
    };
    struct cache_set {
        std::vector<uint64_t> tags; // most recently used first
        std::vector<bool> dirty;
    };
    // A line held by RN-Fs: who holds it, and whether one of them holds it unique (then it is the
    // only holder) and dirty. Precise: it lists exactly the lines in the RN-F tag stores.
    struct sf_entry {
        std::vector<int> holders; // RN-F indexes
        bool unique = false, dirty = false;
    };
    struct home {
        size_t node;
        endpoint ep;
        std::vector<cache_set> sets;
        std::unordered_map<uint64_t, sf_entry> snoop_filter; // line -> holders
    };
    // An RN-F device's tag store (which lines it holds, LRU per set; states in the snoop filter).
    struct rnf_store {
        endpoint ep;
        std::vector<std::vector<uint64_t>> sets; // tags, most recently used first
    };
    struct memory_target {
        endpoint ep;
        size_t sbsx_node = SIZE_MAX; // an SBSX's node (its events), else an SN-F
    };

    generator make_generator(const cmn_generator_config& cfg, size_t index) const;
    uint64_t issue_edge(const generator& g, uint64_t k) const;
    // The edge the generator's next request issues: its rate's edge, later if every tracker entry is taken.
    uint64_t next_request_edge(generator& g) const;
    home& home_of(uint64_t line);
    // The RN-F `rnf` now holds `line` in its tag store (the caller sets the snoop filter's state); its LRU
    // victim leaves the snoop filter of the victim's home.
    void rnf_allocate(int rnf, uint64_t line);
    // Removes `line` from the tag store of `rnf` only (the caller updates the snoop filter).
    void rnf_forget(int rnf, uint64_t line);
    // Removes `rnf` from the snoop-filter entry of `line` (dropping the entry when nobody holds it).
    void sf_remove(int rnf, uint64_t line);
    // Marks `line` dirty in the SLC of `h` (it is there: looked up before).
    void slc_mark_dirty(home& h, uint64_t line);
    // Snoops for a coherent read of `line` by `g` at home `h`, sent at `edge`; returns the edge the
    // last response reaches the HN-F (edge when none is needed) and whether dirty data came back.
    uint64_t snoop(generator& g, home& h, uint64_t line, uint8_t op, uint64_t edge, bool& dirty_data,
                   cmn_traffic_sink& sink);
    // As transaction(), for a request to an I/O range: returns the edge the requester is done with it.
    uint64_t io_transaction(generator& g, uint8_t op, uint64_t line, size_t hni, uint64_t e0, cmn_traffic_sink& sink,
                            bool fluid = false);
    uint64_t random(generator& g);
    // Sends a flit; returns the edge it reaches the destination device.
    // A flow's flits (`fluid`) take no link edge and cross no watchpoint.
    uint64_t send(cmn_flit f, const endpoint& from, const endpoint& to, uint64_t edge, cmn_traffic_sink& sink,
                  bool fluid = false);
    // Works out one request issued at `edge`; returns the edge the requester is done with it (its
    // tracker entry frees): a read's last data flit received, a write's last data flit sent.
    uint64_t transaction(generator& g, uint64_t edge, cmn_traffic_sink& sink);
    // HN-F cache lookup: true on hit; on a miss the line is filled and a dirty victim returned.
    bool lookup(home& h, uint64_t line, bool write, bool& evicted_dirty, uint64_t& victim);

    // One flit per cycle per link (XP, interface, channel): the edges already taken. A flit finding
    // its edge taken waits (txflit_stall) for the next free one. Links are granted in issue order.
    uint64_t reserve_link(size_t xp, cmn_xp_interface i, cmn_channel c, uint64_t edge);
    struct link {
        uint64_t base = 0;           // edge of bit 0 of words.front() (a multiple of 64)
        std::deque<uint64_t> words;  // bit b of words[w]: edge base + 64w + b is taken
        uint64_t full_until = 0;     // every edge from base up to (not including) this one is taken
    };
    std::vector<link> links_;
    uint64_t issue_edge_now_ = 0; // no flit of the current or a later request uses an earlier edge

    const cmn_mesh& mesh_;
    cmn_traffic_timing t_;
    std::vector<cmn_generator_config> platform_gens_; // what a reset returns to
    std::vector<generator> gens_;
    std::vector<home> homes_;
    std::vector<memory_target> memories_;
    std::vector<rnf_store> rnfs_;
    uint64_t transactions_ = 0;
    uint64_t flit_hops_ = 0;
};

} // namespace pmusim
