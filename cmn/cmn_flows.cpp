// Mesh traffic as flows (docs/cmn.md "Flows"): the `flows` text, each flow's transaction worked
// out once as offsets from its issue edge, and the exact counts of those offsets by mesh edge.
#include "cmn/cmn_flows.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

#include "cmn/cmn_events.h"
#include "cmn/cmn_traffic.h"
#include "cmn/cmn_traffic_text.h"
#include "models/input_error.h"
#include "models/values.h"

namespace pmusim {

using u128 = unsigned __int128;

namespace {
u128 gcd128(u128 a, u128 b) {
    while (b) {
        const u128 r = a % b;
        a = b, b = r;
    }
    return a;
}
} // namespace

// ---------------------------------------------------------------------------
// Exact counts
// ---------------------------------------------------------------------------

u128 cmn_floor_sum(uint64_t n_in, uint64_t m_in, uint64_t a_in, uint64_t b_in) {
    // sum_{i<n} floor((a i + b) / m): take the whole parts of a/m and b/m out, then count the
    // lattice points under the line with the roles of a and m swapped (AtCoder Library's floor_sum).
    u128 n = n_in, m = m_in, a = a_in, b = b_in, sum = 0;
    for (;;) {
        if (a >= m) {
            sum += (n * (n - 1) / 2) * (a / m); // n (n - 1) / 2 is whole before it is multiplied
            a %= m;
        }
        if (b >= m) {
            sum += n * (b / m);
            b %= m;
        }
        const u128 y_max = a * n + b;
        if (y_max < m) return sum;
        n = y_max / m;
        b = y_max % m;
        std::swap(m, a);
    }
}

namespace {
// floor(x * p / q) for x > 0, else 0: the requests a stream issued x edges after its start.
uint64_t issued(int64_t x, const rational& r) {
    return x <= 0 ? 0 : uint64_t(u128(uint64_t(x)) * r.num / r.den);
}
// sum_{u < x} floor(u * p / q): one occupancy per edge per request in flight since its issue.
u128 issued_sum(int64_t x, const rational& r) { return x <= 0 ? 0 : cmn_floor_sum(uint64_t(x), r.den, r.num, 0); }

// With a stop edge (the stream issues in (start, start + L] only, L = stop - start): N(min(x, L))
// requests by x edges after the start, and sum_{u < x} N(min(u, L)) = F(min(x, L)) + max(0, x - L) N(L).
uint64_t issued_until(int64_t x, const rational& r, uint64_t length) {
    return issued(length != UINT64_MAX && x > int64_t(length) ? int64_t(length) : x, r);
}
u128 issued_sum_until(int64_t x, const rational& r, uint64_t length) {
    if (length == UINT64_MAX || x <= int64_t(length)) return issued_sum(x, r);
    return issued_sum(int64_t(length), r) + u128(uint64_t(x) - length) * issued(int64_t(length), r);
}
} // namespace

uint64_t cmn_flow_events::count_by_edge(uint64_t edge) const {
    u128 total = 0;
    for (const cmn_flow_term& t : terms_) {
        const int64_t since = int64_t(edge) - int64_t(t.start);
        const uint64_t length = t.stop == UINT64_MAX ? UINT64_MAX : t.stop - t.start;
        if (!t.ramp) {
            total += u128(t.weight) * issued_until(since - int64_t(t.offset), t.rate, length);
        } else {
            // Each request issued at i holds one per edge in (i + offset, i + until]: by edge e,
            // max(0, e - i - offset) - max(0, e - i - until), summed over the requests.
            total += u128(t.weight) * (issued_sum_until(since - int64_t(t.offset), t.rate, length) -
                                       issued_sum_until(since - int64_t(t.until), t.rate, length));
        }
    }
    return uint64_t(total); // counters take it modulo their width
}

// ---------------------------------------------------------------------------
// One request's transaction as offsets from its issue edge
// ---------------------------------------------------------------------------

namespace {

struct endpoint {
    size_t xp;
    unsigned port;
};

// Works out one flow's transactions (a hit stream and a miss stream) the way the traffic engine does
// (cmn_traffic.cpp: send(), transaction(), io_transaction()), without link contention.
class flow_compiler {
public:
    flow_compiler(const cmn_mesh& mesh, const cmn_traffic_timing& t, std::vector<cmn_flow_term>& out)
        : mesh_(mesh), t_(t), out_(out) {}

    void compile(const cmn_flow_config& f, size_t flow_index) {
        flow_ = flow_index;
        const rational hits = scale(f.rate, f.miss.den - f.miss.num, f.miss.den, f);
        const rational misses = scale(f.rate, f.miss.num, f.miss.den, f);
        if (!hits.is_zero()) stream(f, hits, false);
        if (!misses.is_zero()) stream(f, misses, true);
    }
    // The flow each term came from (parallel to out_), for the load checks' messages.
    std::vector<size_t> term_flow;
    // Per stream: requester (xp, port, device), its rate and its requests' time in the requester's
    // tracker (issue to its last data flit received or sent), for Little's law.
    struct occupancy {
        size_t flow;
        rational rate;
        uint64_t held;
    };
    std::vector<occupancy> trackers;

private:
    static rational scale(const rational& r, uint64_t n, uint64_t d, const cmn_flow_config& f) {
        const u128 num = u128(r.num) * n, den = u128(r.den) * d;
        if (num == 0) return rational(0);
        const u128 a = gcd128(num, den);
        const u128 nn = num / a, dd = den / a;
        if (nn > UINT64_MAX || dd > UINT64_MAX)
            throw input_error("", f.line, "rate x miss share does not fit in 64-bit integers: use smaller denominators");
        return rational(uint64_t(nn), uint64_t(dd));
    }

    void event(size_t node, uint8_t id, uint64_t at, uint8_t occupid = 0) {
        cmn_flow_term t;
        t.node = node, t.eventid = id, t.occupid = occupid, t.start = start_, t.stop = stop_, t.rate = rate_,
        t.offset = at;
        out_.push_back(t);
        term_flow.push_back(flow_);
    }
    void ramp(size_t node, uint8_t id, uint8_t occupid, uint64_t from, uint64_t to) {
        if (to <= from) return;
        cmn_flow_term t;
        t.node = node, t.eventid = id, t.occupid = occupid, t.start = start_, t.stop = stop_, t.rate = rate_,
        t.offset = from, t.until = to, t.ramp = true;
        out_.push_back(t);
        term_flow.push_back(flow_);
    }
    // A flit sent by the device at `from` at offset `at`: one txflit_valid per XP it leaves, X first,
    // then Y (east +X, north +Y); returns its arrival at the device at `to`.
    uint64_t send(cmn_channel c, endpoint from, endpoint to, uint64_t at) {
        uint64_t t = at + t_.port_cycles;
        unsigned x = mesh_.xps[from.xp].x, y = mesh_.xps[from.xp].y;
        const unsigned tx = mesh_.xps[to.xp].x, ty = mesh_.xps[to.xp].y;
        auto leave = [&](cmn_xp_interface i) {
            event(mesh_.xps[y * mesh_.mesh_x + x].node, cmn_xp_eventid(cmn_xp_kind::txflit_valid, i, c), t);
        };
        for (; x != tx; x = tx > x ? x + 1 : x - 1, t += t_.hop_cycles)
            leave(tx > x ? cmn_xp_interface::east : cmn_xp_interface::west);
        for (; y != ty; y = ty > y ? y + 1 : y - 1, t += t_.hop_cycles)
            leave(ty > y ? cmn_xp_interface::north : cmn_xp_interface::south);
        leave(to.port ? cmn_xp_interface::p1 : cmn_xp_interface::p0);
        return t + t_.port_cycles;
    }

    void stream(const cmn_flow_config& f, const rational& rate, bool miss) {
        start_ = f.start_cycle, stop_ = f.stop_cycle, rate_ = rate;
        const endpoint rn{f.xp, f.port};
        // The RN-I or RN-D node of the requester (an RN-F has no PMU node in CMN-600).
        size_t rn_node = SIZE_MAX;
        for (size_t c : mesh_.xps[f.xp].children) {
            const cmn_node& n = mesh_.nodes[c];
            if ((n.type == cmn_node_type::rni || n.type == cmn_node_type::rnd) && n.port == f.port &&
                n.device == f.device)
                rn_node = c;
        }
        auto rn_event = [&](uint8_t id, uint64_t at) {
            if (rn_node != SIZE_MAX) event(rn_node, id, at);
        };
        const cmn_node& home = mesh_.nodes[f.target];
        const endpoint hn{size_t(home.xp), home.port};
        const bool write = f.op == chi::req_write_no_snp_full;
        rn_event(0x06, 0); // rnid_txreq_flits_total
        const uint64_t at_home = send(cmn_channel::req, rn, hn, 0);
        uint64_t held = 0;
        if (home.type == cmn_node_type::hni) { // io_transaction()
            const uint64_t axi_done = at_home + t_.hni_cycles;
            if (write) {
                event(f.target, 0x26, at_home); // hni_rrt_wr_alloc
                const uint64_t at_rn = send(cmn_channel::rsp, hn, rn, axi_done);
                for (uint64_t k = 0; k < 2; ++k) {
                    rn_event(0x05, at_rn + k); // rnid_txdat_flits
                    const uint64_t in = send(cmn_channel::dat, rn, hn, at_rn + k);
                    if (k == 0) event(f.target, 0x29, in); // hni_wdb_alloc
                }
                held = at_rn + 1;
            } else {
                event(f.target, 0x25, at_home);  // hni_rrt_rd_alloc
                event(f.target, 0x27, axi_done); // hni_rdt_rd_alloc
                for (uint64_t k = 0; k < 2; ++k) {
                    held = send(cmn_channel::dat, hn, rn, axi_done + k);
                    rn_event(0x04, held); // rnid_rxdat_flits
                }
            }
            trackers.push_back({flow_, rate, held});
            return;
        }
        event(f.target, 0x05, at_home); // hnf_pocq_reqs_recvd
        event(f.target, 0x02, at_home); // hnf_slc_sf_cache_access
        if (miss) event(f.target, 0x01, at_home); // hnf_cache_miss
        uint64_t respond = at_home + t_.hnf_cycles, done = 0;
        if (write) {
            if (miss) event(f.target, 0x03, at_home); // hnf_cache_fill: the written line is allocated
            const uint64_t at_rn = send(cmn_channel::rsp, hn, rn, respond);
            for (uint64_t k = 0; k < 2; ++k) {
                rn_event(0x05, at_rn + k);
                done = send(cmn_channel::dat, rn, hn, at_rn + k);
            }
            held = at_rn + 1;
        } else {
            if (miss) {
                const auto& mem = memory(f.memory);
                event(f.target, 0x0d, respond); // hnf_mc_reqs
                const uint64_t at_mem = send(cmn_channel::req, hn, mem.first, respond);
                if (mem.second != SIZE_MAX) event(mem.second, 0x01, at_mem); // sbsx_rd_req
                uint64_t filled = 0;
                for (uint64_t k = 0; k < 2; ++k) {
                    if (mem.second != SIZE_MAX) event(mem.second, 0x05, at_mem + t_.snf_cycles + k); // sbsx_txdat_flitv
                    filled = send(cmn_channel::dat, mem.first, hn, at_mem + t_.snf_cycles + k);
                }
                event(f.target, 0x03, filled); // hnf_cache_fill
                respond = filled;
            }
            for (uint64_t k = 0; k < 2; ++k) {
                held = send(cmn_channel::dat, hn, rn, respond + k);
                rn_event(0x04, held);
            }
            done = respond + 1;
        }
        // POCQ occupancy from the request's arrival to its completion, all and by type (read 1, write 2).
        ramp(f.target, 0x0f, 0, at_home, done);
        ramp(f.target, 0x0f, write ? 2 : 1, at_home, done);
        trackers.push_back({flow_, rate, held});
    }

    // Memory K (SN-F devices and SBSX bridges in XP order, as the traffic engine lists them): its
    // endpoint and its SBSX node (SIZE_MAX for an SN-F).
    std::pair<endpoint, size_t> memory(size_t k) const {
        size_t i = 0;
        for (size_t x = 0; x < mesh_.xps.size(); ++x)
            for (unsigned p = 0; p < 2; ++p) {
                const cmn_port& port = mesh_.xps[x].ports[p];
                if (port.kind == cmn_port_kind::snf)
                    for (unsigned d = 0; d < port.devices; ++d)
                        if (i++ == k) return {{x, p}, SIZE_MAX};
                if (port.kind == cmn_port_kind::sbsx && i++ == k) {
                    size_t node = SIZE_MAX;
                    for (size_t c : mesh_.xps[x].children)
                        if (mesh_.nodes[c].type == cmn_node_type::sbsx && mesh_.nodes[c].port == p) node = c;
                    return {{x, p}, node};
                }
            }
        return {{0, 0}, SIZE_MAX}; // checked by the parser
    }

    const cmn_mesh& mesh_;
    const cmn_traffic_timing& t_;
    std::vector<cmn_flow_term>& out_;
    size_t flow_ = 0;
    uint64_t start_ = 0, stop_ = UINT64_MAX;
    rational rate_;
};

size_t memory_count(const cmn_mesh& mesh) {
    size_t n = 0;
    for (const auto& xp : mesh.xps)
        for (const auto& port : xp.ports) {
            if (port.kind == cmn_port_kind::snf) n += port.devices;
            if (port.kind == cmn_port_kind::sbsx) ++n;
        }
    return n;
}

const char* const flow_form = "'X,Y pP[.D] to=NODE op=read|write rate=R [miss=M] [mem=K] [start=C] [stop=C]'";

// a/b + c/d compared with limit (exact, in 128 bits): the sums the load checks add stay small
// fractions, so they are kept as (num, den) with den the product and reduced.
struct fraction {
    u128 num = 0, den = 1;
    void add(const rational& r, uint64_t times = 1) {
        num = num * r.den + u128(r.num) * times * den;
        den *= r.den;
        const u128 a = gcd128(num, den);
        if (a > 1) num /= a, den /= a;
    }
    bool above(uint64_t limit) const { return num > u128(limit) * den; }
    std::string str() const {
        auto s = [](u128 v) { return std::to_string(uint64_t(v)); };
        return den == 1 ? s(num) : s(num) + "/" + s(den);
    }
};

} // namespace

std::vector<cmn_flow_term> compile_cmn_flows(const cmn_mesh& mesh, const cmn_traffic_timing& timing,
                                             const std::vector<cmn_flow_config>& flows) {
    std::vector<cmn_flow_term> out;
    flow_compiler c(mesh, timing, out);
    for (size_t i = 0; i < flows.size(); ++i) c.compile(flows[i], i);
    return out;
}

std::vector<cmn_generator_config> cmn_flow_generators(const std::vector<cmn_flow_config>& flows) {
    std::vector<cmn_generator_config> out;
    for (const auto& f : flows)
        for (bool miss : {false, true}) {
            const uint64_t share = miss ? f.miss.num : f.miss.den - f.miss.num;
            if (share == 0 || f.rate.is_zero()) continue;
            cmn_generator_config g;
            g.xp = f.xp, g.port = f.port, g.device = f.device;
            const u128 num = u128(f.rate.num) * share, den = u128(f.rate.den) * f.miss.den;
            const u128 a = gcd128(num, den);
            g.rate = rational(uint64_t(num / a), uint64_t(den / a)); // the parser checked it fits
            g.mix = {{f.op, 1}};
            g.start_cycle = f.start_cycle;
            if (f.stop_cycle != UINT64_MAX) // the requests of (start, stop]: floor((stop - start) x rate)
                g.count = uint64_t(u128(f.stop_cycle - f.start_cycle) * g.rate.num / g.rate.den);
            g.line = f.line;
            g.flow.active = true;
            g.flow.target = f.target;
            g.flow.miss = miss;
            g.flow.memory = f.memory;
            out.push_back(g);
        }
    return out;
}

std::vector<cmn_flow_config> parse_cmn_flows(const cmn_mesh& mesh, const std::string& text,
                                             const cmn_text_origin& o, const cmn_traffic_timing& timing) {
    std::vector<cmn_flow_config> out;
    for_each_cmn_text_entry(text, o, false, [&](const cmn_text_entry& e) {
        try {
            const auto& t = e.words;
            if (t.size() < 2) throw input_error("", 0, fmt::format("expected {}, found '{}'", flow_form, e.text));
            cmn_generator_config requester;
            parse_cmn_requester(mesh, t[0], t[1], requester, "", 0);
            cmn_flow_config f;
            f.xp = requester.xp, f.port = requester.port, f.device = requester.device, f.line = e.line;
            std::vector<std::string> given;
            for (size_t i = 2; i < t.size(); ++i) {
                const auto eq = t[i].find('=');
                const std::string key = t[i].substr(0, eq), value = eq == std::string::npos ? "" : t[i].substr(eq + 1);
                if (std::find(given.begin(), given.end(), key) != given.end())
                    throw input_error("", 0, fmt::format("{}= is written twice, found '{}'", key, t[i]));
                if (key == "to") {
                    const cmn_node* n = mesh.find(value);
                    if (!n || (n->type != cmn_node_type::hnf && n->type != cmn_node_type::hni)) {
                        std::string names;
                        for (const auto& m : mesh.nodes)
                            if (m.type == cmn_node_type::hnf || m.type == cmn_node_type::hni)
                                names += (names.empty() ? "" : ", ") + m.name;
                        throw input_error("", 0,
                                          fmt::format("expected to= a home node of the mesh (an HN-F or HN-I: {}), "
                                                      "found '{}'",
                                                      names, t[i]));
                    }
                    f.target = size_t(n - mesh.nodes.data());
                } else if (key == "op") {
                    if (value == "read" || value == "ReadNoSnp") f.op = chi::req_read_no_snp;
                    else if (value == "write" || value == "WriteNoSnpFull") f.op = chi::req_write_no_snp_full;
                    else
                        throw input_error("", 0,
                                          fmt::format("expected op=read (ReadNoSnp) or op=write (WriteNoSnpFull), "
                                                      "found '{}'",
                                                      t[i]));
                } else if (key == "rate") {
                    f.rate = values::parse_rational(value, "", 0, "as the request rate");
                } else if (key == "miss") {
                    f.miss = values::parse_rational(value, "", 0, "as the share of requests that miss");
                    if (f.miss.num > f.miss.den)
                        throw input_error("", 0, fmt::format("expected miss= a share from 0 to 1, found '{}'", t[i]));
                } else if (key == "mem" || key == "start" || key == "stop") {
                    const auto v = values::scan_integer(value);
                    if (!v || (key == "stop" && *v == UINT64_MAX))
                        throw input_error("", 0, fmt::format("expected {}=N (a number), found '{}'", key, t[i]));
                    (key == "mem" ? f.memory : key == "start" ? f.start_cycle : f.stop_cycle) = *v;
                } else {
                    throw input_error("", 0,
                                      fmt::format("unknown key '{}': expected to=, op=, rate=, miss=, mem=, start= or stop=",
                                                  key));
                }
                given.push_back(key);
            }
            for (const char* k : {"to", "op", "rate"})
                if (std::find(given.begin(), given.end(), k) == given.end())
                    throw input_error("", 0, fmt::format("a flow needs to=, op= and rate=: expected {}", flow_form));
            if (f.stop_cycle != UINT64_MAX && f.stop_cycle <= f.start_cycle)
                throw input_error("", 0, fmt::format("stop={} is not after start={}: a flow issues in (start, stop]",
                                                     f.stop_cycle, f.start_cycle));
            if (f.stop_cycle != UINT64_MAX && f.stop_cycle - f.start_cycle > uint64_t(INT64_MAX))
                throw input_error("", 0, "stop - start beyond 2^63 edges");
            const bool to_hni = mesh.nodes[f.target].type == cmn_node_type::hni;
            if (to_hni && !f.miss.is_zero())
                throw input_error("", 0, "miss= is for flows to an HN-F (an HN-I has no cache)");
            if (!to_hni && !f.miss.is_zero() && f.op == chi::req_read_no_snp && f.memory >= memory_count(mesh))
                throw input_error("", 0,
                                  fmt::format("mem={} names no memory: the mesh has {} (SN-F devices and SBSX "
                                              "bridges in crosspoint order, from 0)",
                                              f.memory, memory_count(mesh)));
            out.push_back(f);
        } catch (const input_error& error) {
            throw input_error(o.file, e.line, o.param_path + ": " + error.message());
        }
    });

    // Bandwidth and trackers. Each XP output carries one flit per cycle per channel (docs/cmn.md
    // "Traffic": links carry one flit per cycle); flows are a fluid model, so a load above that would
    // count flits no mesh can move: refused. A requester's requests in flight average rate x time held
    // (Little's law); more than its tracker holds (max_outstanding) would be throttled on silicon.
    std::vector<cmn_flow_term> terms;
    flow_compiler c(mesh, timing, terms);
    for (size_t i = 0; i < out.size(); ++i) {
        try {
            c.compile(out[i], i);
        } catch (const input_error& error) {
            throw input_error(o.file, out[i].line, o.param_path + ": " + error.message());
        }
    }
    // Flows with a stop edge load the mesh only in their window: the loads are summed over the flows
    // issuing after each edge where some flow starts (a load only grows where a flow starts).
    std::set<uint64_t> starts;
    for (const auto& f : out) starts.insert(f.start_cycle);
    std::vector<std::vector<size_t>> terms_of(out.size()); // each flow's terms, in order
    for (size_t i = 0; i < terms.size(); ++i) terms_of[c.term_flow[i]].push_back(i);
    for (const uint64_t s : starts) {
        auto active = [&](size_t flow) { return out[flow].start_cycle <= s && out[flow].stop_cycle > s; };
        std::map<std::pair<size_t, uint8_t>, fraction> link_load;
        std::map<std::pair<size_t, uint8_t>, size_t> first_over; // the flow whose flits took it past 1
        for (size_t flow = 0; flow < out.size(); ++flow) {
            if (!active(flow)) continue;
            for (const size_t i : terms_of[flow]) {
                const cmn_flow_term& t = terms[i];
                if (mesh.nodes[t.node].type != cmn_node_type::xp || t.ramp) continue;
                fraction& load = link_load[{t.node, t.eventid}];
                load.add(t.rate, t.weight);
                if (load.above(1)) first_over.emplace(std::make_pair(t.node, t.eventid), flow);
            }
        }
        if (!first_over.empty()) {
            auto worst = std::min_element(first_over.begin(), first_over.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
            const auto& [node, eventid] = worst->first;
            throw input_error(o.file, out[worst->second].line,
                              fmt::format("{}: with this flow {} transmits {} flits per cycle on {} (at most 1: one "
                                          "flit per cycle per output and channel); lower the rates",
                                          o.param_path, mesh.nodes[node].name, link_load[worst->first].str(),
                                          cmn_xp_event_name(eventid)));
        }
        std::map<std::tuple<size_t, unsigned, unsigned>, fraction> in_flight;
        for (const auto& tr : c.trackers) {
            if (!active(tr.flow)) continue;
            const cmn_flow_config& f = out[tr.flow];
            fraction& l = in_flight[{f.xp, f.port, f.device}];
            l.add(tr.rate, tr.held);
            if (l.above(timing.max_outstanding))
                throw input_error(o.file, f.line,
                                  fmt::format("{}: with this flow the requester {},{} p{}.{} has {} requests in flight "
                                              "on average (rate x cycles each is held), more than max_outstanding = {}",
                                              o.param_path, mesh.xps[f.xp].x, mesh.xps[f.xp].y, f.port, f.device,
                                              l.str(), timing.max_outstanding));
        }
    }
    return out;
}

} // namespace pmusim
