// The linked system model (tb/system_link.h, docs/whatif.md "Linked system model").
#include "tb/system_link.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

#include "cmn/cmn_flows.h"
#include "cmn/cmn_mesh.h"
#include "cmn/cmn_traffic.h"
#include "cmn/cmn_traffic_text.h"
#include "models/clock_domain.h"
#include "models/input_error.h"
#include "models/values.h"
#include "tb/scenario.h"
#include "tb/sequence_parser.h"

namespace pmusim {
namespace {

using u128 = unsigned __int128;

// Exact rational arithmetic in 128 bits; an intermediate beyond that throws (reported at the link).
struct exact {
    u128 num = 0, den = 1;
    static exact of(const rational& r) { return {r.num, r.den}; }
    static u128 gcd(u128 a, u128 b) {
        while (b) {
            const u128 t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
    static u128 mul(u128 a, u128 b) {
        u128 r;
        if (__builtin_mul_overflow(a, b, &r)) throw std::overflow_error("link arithmetic beyond 128 bits");
        return r;
    }
    static u128 add(u128 a, u128 b) {
        u128 r;
        if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("link arithmetic beyond 128 bits");
        return r;
    }
    exact& reduce() {
        const u128 a = gcd(num, den);
        if (a > 1) num /= a, den /= a;
        if (num == 0) den = 1;
        return *this;
    }
    exact operator*(const exact& o) const {
        const u128 g1 = gcd(num, o.den), g2 = gcd(o.num, den);
        exact r{mul(num / (g1 ? g1 : 1), o.num / (g2 ? g2 : 1)), mul(den / (g2 ? g2 : 1), o.den / (g1 ? g1 : 1))};
        return r.reduce();
    }
    exact operator/(const exact& o) const { return *this * exact{o.den, o.num}; }
    exact operator+(const exact& o) const {
        const u128 g = gcd(den, o.den);
        exact r{add(mul(num, o.den / g), mul(o.num, den / g)), mul(den / g, o.den)};
        return r.reduce();
    }
    exact operator-(const exact& o) const { // callers keep it non-negative
        const u128 g = gcd(den, o.den);
        exact r{mul(num, o.den / g) - mul(o.num, den / g), mul(den / g, o.den)};
        return r.reduce();
    }
    bool operator<(const exact& o) const { return mul(num, o.den) < mul(o.num, den); }
    bool operator<=(const exact& o) const { return !(o < *this); }
    bool operator==(const exact& o) const { return num == o.num && den == o.den; }
    bool is_zero() const { return num == 0; }
    u128 floor() const { return num / den; }
    u128 ceil() const { return (num + den - 1) / den; }
    bool fits() const { return num <= UINT64_MAX && den <= UINT64_MAX; }
    rational to_rational() const { return rational(uint64_t(num), uint64_t(den)); }
    std::string str() const {
        auto s = [](u128 v) {
            std::string t;
            do t.insert(t.begin(), char('0' + int(v % 10))), v /= 10;
            while (v);
            return t;
        };
        return den == 1 ? s(num) : s(num) + "/" + s(den);
    }
};

const char* const derived_keys[] = {"l3_refill_rd", "l3_refill_wr", "l3_writeback", "bus_access_rd", "bus_access_wr"};

rational rate_of(const scenario_workload& w, const std::string& key) {
    for (const auto& [k, r] : w.rates)
        if (k == key) return r;
    return rational(0);
}

} // namespace

namespace {

// The mesh's homes and memories (as cmn_traffic lists them: HN-Fs in node order, SN-F devices and
// SBSX bridges in XP order) and each (home, memory) pair's share of the range's lines under
// CMN-600's hash (cmn_traffic::home_of: line ^ line >> 6 ^ ... ^ line >> 30, mod the HN-Fs; memory
// line mod the memories), counted line by line.
struct line_shares {
    std::vector<std::string> homes;
    size_t memories = 0;
    std::vector<std::vector<uint64_t>> lines; // [home][memory]
    uint64_t total = 0;
};

line_shares shares_of(const cmn_mesh& mesh, uint64_t lo, uint64_t hi) {
    line_shares r;
    for (const auto& n : mesh.nodes)
        if (n.type == cmn_node_type::hnf) r.homes.push_back(n.name);
    for (const auto& xp : mesh.xps)
        for (const auto& port : xp.ports) {
            if (port.kind == cmn_port_kind::snf) r.memories += port.devices;
            if (port.kind == cmn_port_kind::sbsx) ++r.memories;
        }
    if (r.homes.empty() || r.memories == 0) return r;
    r.lines.assign(r.homes.size(), std::vector<uint64_t>(r.memories, 0));
    for (uint64_t line = lo / 64; line <= hi / 64; ++line) {
        const uint64_t hash = line ^ (line >> 6) ^ (line >> 12) ^ (line >> 18) ^ (line >> 24) ^ (line >> 30);
        ++r.lines[hash % r.homes.size()][line % r.memories];
        ++r.total;
    }
    return r;
}

} // namespace

void apply_links(scenario& s) {
    platform_config& pc = s.platform;
    for (const scenario_link& link : s.links) {
        auto fail = [&](unsigned line, const std::string& m) { throw input_error(s.file, line ? line : link.line, m); };
        try {
        const unit_config* dsu = pc.find_unit(link.dsu);
        std::set<unsigned> cluster;
        for (const auto& name : dsu->cpus) cluster.insert(pc.find_cpu(name)->index);
        const std::string mesh_clock = pc.find_unit(link.cmn)->clock;
        const exact miss = exact::of(link.miss_ratio);
        const exact writebacks = exact::of(link.writeback_ratio);
        if (!link.flows && !writebacks.is_zero())
            fail(0, "link: writeback_ratio needs mesh: flows (the per-request link sends refills only)");

        // 1. The DSU: every workload phase of a cluster CPU gets the derived keys.
        for (auto& w : s.workloads) {
            if (!cluster.count(w.cpu)) continue;
            for (const auto& [k, r] : w.rates)
                for (const char* d : derived_keys)
                    if (k == d)
                        fail(w.line, fmt::format("workload key '{}' of cpu{} is derived by the link at line {} "
                                                 "(refills = accesses x l3_miss_ratio, write-backs = refills x "
                                                 "writeback_ratio); remove it here",
                                                 k, w.cpu, link.line));
            const exact rd = exact::of(rate_of(w, "l3_access_rd")) * miss;
            const exact wr = exact::of(rate_of(w, "l3_access_wr")) * miss;
            const exact reads = rd + wr;
            const exact wb = reads * writebacks;
            if (!rd.fits() || !wr.fits() || !reads.fits() || !wb.fits())
                fail(w.line, "link: a refill rate beyond 64-bit rationals");
            w.rates.emplace_back("l3_refill_rd", rd.to_rational());
            w.rates.emplace_back("l3_refill_wr", wr.to_rational());
            w.rates.emplace_back("l3_writeback", wb.to_rational());
            w.rates.emplace_back("bus_access_rd", reads.to_rational());
            w.rates.emplace_back("bus_access_wr", wb.to_rational());
        }

        // 2. The instants where the cluster's request rate may change, and the rate at each.
        auto clock_of = [&](const std::string& name) {
            const cpu_config* c = pc.find_cpu(name);
            return c ? c->clock : name;
        };
        std::set<fs_t> instants{0};
        std::set<std::string> clocks{mesh_clock};
        for (unsigned c : cluster) clocks.insert(pc.cpus[c].clock);
        for (const auto& w : s.workloads)
            if (cluster.count(w.cpu)) instants.insert(w.at);
        for (const auto& d : s.dvfs)
            if (clocks.count(clock_of(d.clock))) instants.insert(d.at);
        for (const auto& q : s.power)
            if (cluster.count(q.cpu)) instants.insert(q.at);

        // The state after every action at t (actions at one instant run in file order).
        // dvfs entries are applied in time order (stable): take the last by time, then file order.
        auto last_hz = [&](const std::string& clock, fs_t t) {
            fs_t best = 0;
            bool found = false;
            uint64_t hz = pc.find_clock(clock)->frequency_hz;
            for (const auto& d : s.dvfs)
                if (d.at <= t && clock_of(d.clock) == clock && (!found || d.at >= best)) hz = d.hz, best = d.at, found = true;
            return hz;
        };
        // Requests per mesh cycle the cluster asks at t: reads (refills) and writes (write-backs).
        auto demand_at = [&](fs_t t) {
            exact demand{0, 1};
            for (unsigned c : cluster) {
                bool running = true;
                fs_t power_at = 0;
                for (const auto& q : s.power)
                    if (q.cpu == c && q.at <= t && q.at >= power_at) running = q.state == seq::cpu_power_state::run, power_at = q.at;
                if (!running) continue;
                const scenario_workload* now = nullptr;
                for (const auto& w : s.workloads)
                    if (w.cpu == c && w.at <= t && (!now || w.at >= now->at)) now = &w;
                if (!now) continue; // the reset workload: no L3 accesses
                const exact per_cycle = exact::of(rate_of(*now, "bus_access_rd")) + exact::of(rate_of(*now, "bus_access_wr"));
                demand = demand + per_cycle * exact{last_hz(pc.cpus[c].clock, t), 1};
            }
            const uint64_t mesh_hz = last_hz(mesh_clock, t);
            if (mesh_hz == 0) fail(0, fmt::format("link: the mesh clock {} is stopped at {}", mesh_clock, format_time(t)));
            return demand * exact{1, mesh_hz};
        };

        if (!link.flows) {
            // 3a. mesh: traffic: a `traffic` statement per change of the rate (one request per refill).
            bool running_generator = false, first = true;
            rational previous(0);
            for (const fs_t t : instants) {
                const exact rate = demand_at(t);
                if (!rate.fits()) fail(0, "link: the cluster's request rate is beyond 64-bit rationals");
                if (rate.num > rate.den)
                    fail(0, fmt::format("link: at {} the cluster asks {} requests per mesh cycle of its CMN-600 port {}, "
                                        "more than the 1 the port takes: lower l3_miss_ratio or the L3 access rates",
                                        format_time(t), rate.to_rational().str(), link.requester));
                const rational r = rate.to_rational();
                if (!first && r == previous) continue;
                std::string text;
                if (r.is_zero()) {
                    if (!running_generator) {
                        first = false;
                        previous = r;
                        continue;
                    }
                    text = fmt::format("{} traffic {} off", link.cmn, link.requester);
                    running_generator = false;
                } else {
                    text = fmt::format("{} traffic {} rate={} range={} mix={}{}", link.cmn, link.requester, r.str(),
                                       link.range, link.mix,
                                       first || !running_generator ? fmt::format(" seed={}", link.seed) : "");
                    running_generator = true;
                }
                first = false;
                previous = r;
                scenario_sequence q;
                q.at = t;
                q.line = link.line;
                q.bodies.push_back(seq::parse_sequence(text, s.file, link.line));
                s.sequences.push_back(std::move(q));
            }
            continue;
        }

        // 3b. mesh: flows. The mesh clock's edges (with its DVFS steps) number the instants.
        unit_config& cmn = const_cast<unit_config&>(*pc.find_unit(link.cmn)); // the platform is this scenario's own copy
        const param_values params = cmn.typed_params();
        const cmn_mesh mesh = build_cmn_mesh(unsigned(params.integer("mesh_x")), unsigned(params.integer("mesh_y")),
                                             params.text("nodes"), {pc.file, cmn.line, "units." + cmn.name + ".params.nodes"});
        {
            const auto sp = link.requester.find(' ');
            cmn_generator_config probe;
            try {
                if (sp == std::string::npos) throw input_error("", 0, "expected 'X,Y pP'");
                parse_cmn_requester(mesh, link.requester.substr(0, sp), link.requester.substr(sp + 1), probe, "", 0);
            } catch (const input_error& e) {
                fail(0, "link.requester: " + e.message());
            }
        }
        uint64_t lo = 0, hi = 0;
        {
            const auto dash = link.range.find('-');
            const auto l = values::scan_integer(link.range.substr(0, dash));
            const auto h = dash == std::string::npos ? l : values::scan_integer(link.range.substr(dash + 1));
            if (dash == std::string::npos || !l || !h || *h < *l)
                fail(0, fmt::format("link.range: expected LO-HI (inclusive, LO <= HI), found '{}'", link.range));
            lo = *l, hi = *h;
            if (hi / 64 - lo / 64 >= (uint64_t(1) << 26))
                fail(0, fmt::format("link.range: {} holds more than 2^26 lines (4 GiB): the link counts each line's "
                                    "home; use a smaller range",
                                    link.range));
        }
        const line_shares shares = shares_of(mesh, lo, hi);
        if (shares.homes.empty()) fail(0, fmt::format("link: {} has no HN-F to home the cluster's lines", link.cmn));
        if (shares.memories == 0) fail(0, fmt::format("link: {} has no memory (SN-F or SBSX) for SLC misses", link.cmn));

        clock_domain mclk(mesh_clock, pc.find_clock(mesh_clock)->frequency_hz);
        {
            std::vector<const scenario_dvfs*> steps;
            for (const auto& d : s.dvfs)
                if (clock_of(d.clock) == mesh_clock) steps.push_back(&d);
            std::stable_sort(steps.begin(), steps.end(), [](auto* a, auto* b) { return a->at < b->at; });
            for (auto* d : steps) mclk.set_frequency(d->hz, d->at);
        }
        const uint64_t end_edge = mclk.edges_at(s.duration);
        std::vector<std::pair<uint64_t, exact>> changes; // (edge, demand from the next edge on)
        for (const fs_t t : instants) {
            const uint64_t e = mclk.edges_at(t);
            if (e >= end_edge) continue;
            const exact d = demand_at(t);
            if (!changes.empty() && changes.back().first == e) changes.back().second = d;
            else changes.emplace_back(e, d);
        }

        // The DSU-side queue (fluid, exact): the port sends min(demand, port_rate) while nothing
        // waits; what it cannot take waits and drains at port_rate - demand; a backlog Q that would
        // be gone within a segment drains in ceil(Q / (port_rate - demand)) edges at exactly
        // demand + Q / those edges.
        const exact B = exact::of(link.port_rate);
        link_report rep;
        rep.dsu = link.dsu, rep.cmn = link.cmn, rep.requester = link.requester, rep.port_rate = link.port_rate;
        rep.edges = end_edge;
        exact Q{0, 1}, occupancy{0, 1}, arrived{0, 1}, issued{0, 1}, peak{0, 1};
        auto emit = [&](uint64_t a, uint64_t b, const exact& d, const exact& r) {
            if (b <= a) return;
            if (!d.fits() || !r.fits()) fail(0, "link: a request rate beyond 64-bit rationals");
            rep.segments.push_back({a, b, d.to_rational(), r.to_rational()});
            issued = issued + r * exact{b - a, 1};
        };
        for (size_t k = 0; k < changes.size(); ++k) {
            const uint64_t a = changes[k].first, b = k + 1 < changes.size() ? changes[k + 1].first : end_edge;
            const exact& D = changes[k].second;
            const exact L{b - a, 1};
            arrived = arrived + D * L;
            if (Q.is_zero() && D <= B) {
                emit(a, b, D, D);
            } else if (B <= D) {
                emit(a, b, D, B);
                const exact grow = (D - B) * L;
                occupancy = occupancy + Q * L + grow * L * exact{1, 2};
                Q = Q + grow;
                rep.stall_cycles += b - a;
            } else {
                const exact T = Q / (B - D); // edges until the backlog is gone
                if (L <= T) {
                    emit(a, b, D, B);
                    const exact shrink = (B - D) * L;
                    occupancy = occupancy + Q * L - shrink * L * exact{1, 2};
                    Q = Q - shrink;
                    rep.stall_cycles += b - a;
                } else {
                    const uint64_t te = uint64_t(T.ceil());
                    emit(a, a + te, D, D + Q / exact{te, 1});
                    occupancy = occupancy + Q * exact{te, 2};
                    Q = exact{0, 1};
                    rep.stall_cycles += te;
                    emit(a + te, b, D, D);
                }
            }
            if (peak < Q) peak = Q;
        }
        rep.arrived = arrived.str(), rep.issued = issued.str(), rep.occupancy = occupancy.str(), rep.peak = peak.str();
        rep.arrived_floor = uint64_t(arrived.floor()), rep.issued_floor = uint64_t(issued.floor());
        rep.occupancy_floor = uint64_t(occupancy.floor()), rep.peak_floor = uint64_t(peak.floor());

        // The flows: per segment, reads (1 / (1 + w) of the requests) per (HN-F, memory) pair and
        // writes (w / (1 + w)) per HN-F, by the pairs' share of the lines; misses as slc_miss_ratio.
        const exact read_share = exact{1, 1} / (exact{1, 1} + writebacks);
        const exact write_share = writebacks / (exact{1, 1} + writebacks);
        const exact slc = exact::of(link.slc_miss_ratio);
        std::string text;
        auto flow = [&](size_t home, const char* op, const exact& rate, size_t memory, const link_segment& g) {
            if (rate.is_zero()) return;
            if (!rate.fits()) fail(0, "link: a flow's rate beyond 64-bit rationals: use a range of fewer lines");
            text += fmt::format("{} to={} op={} rate={} miss={} mem={} start={} stop={}\n", link.requester,
                                shares.homes[home], op, rate.to_rational().str(), slc.to_rational().str(), memory,
                                g.start_edge, g.stop_edge);
        };
        for (size_t h = 0; h < shares.homes.size(); ++h) {
            uint64_t home_lines = 0;
            for (uint64_t n : shares.lines[h]) home_lines += n;
            rep.homes.emplace_back(shares.homes[h], rational(home_lines, shares.total));
        }
        for (const link_segment& g : rep.segments) {
            const exact r = exact::of(g.issue);
            for (size_t h = 0; h < shares.homes.size(); ++h) {
                uint64_t home_lines = 0;
                for (size_t m = 0; m < shares.memories; ++m) {
                    home_lines += shares.lines[h][m];
                    flow(h, "read", r * read_share * exact{shares.lines[h][m], shares.total}, m, g);
                }
                flow(h, "write", r * write_share * exact{home_lines, shares.total}, 0, g);
            }
        }
        std::string& flows = cmn.params["flows"];
        if (!flows.empty() && flows.back() != '\n') flows += '\n';
        flows += text;
        // The mesh's own checks of flows (each XP output at most one flit per cycle, the requester's
        // requests in flight within max_outstanding), reported here at the link's line.
        cmn_traffic_timing timing;
        auto cycles = [&](const char* name) { return unsigned(params.integer(name)); };
        timing.hop_cycles = cycles("hop_latency"), timing.port_cycles = cycles("port_latency");
        timing.hnf_cycles = cycles("hnf_latency"), timing.snf_cycles = cycles("snf_latency");
        timing.hni_cycles = cycles("hni_latency"), timing.max_outstanding = cycles("max_outstanding");
        try {
            parse_cmn_flows(mesh, flows, {pc.file, cmn.line, "units." + cmn.name + ".params.flows"}, timing);
        } catch (const input_error& e) {
            fail(0, fmt::format("link: {}'s flows refuse what the link sends (port_rate {}): {}; lower port_rate or "
                                "the demand",
                                link.cmn, link.port_rate.str(), e.message()));
        }
        s.link_reports.push_back(std::move(rep));
        } catch (const std::overflow_error&) {
            fail(0, "link: the exact arithmetic needs more than 128 bits: use rates with smaller denominators");
        }
    }
}

} // namespace pmusim
