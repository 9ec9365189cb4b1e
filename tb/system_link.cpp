// The linked system model (tb/system_link.h, docs/whatif.md "Linked system model").
#include "tb/system_link.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "models/input_error.h"
#include "tb/scenario.h"
#include "tb/sequence_parser.h"

namespace pmusim {
namespace {

using u128 = unsigned __int128;

// Exact rational arithmetic; a result beyond 64 bits is reported by the caller.
struct exact {
    u128 num = 0, den = 1;
    static exact of(const rational& r) { return {r.num, r.den}; }
    void reduce() {
        u128 a = num, b = den;
        while (b) {
            const u128 t = a % b;
            a = b;
            b = t;
        }
        if (a > 1) num /= a, den /= a;
        if (num == 0) den = 1;
    }
    exact operator*(const exact& o) const {
        exact r{num * o.num, den * o.den};
        r.reduce();
        return r;
    }
    exact operator+(const exact& o) const {
        exact r{num * o.den + o.num * den, den * o.den};
        r.reduce();
        return r;
    }
    bool fits() const { return num <= UINT64_MAX && den <= UINT64_MAX; }
    rational to_rational() const { return rational(uint64_t(num), uint64_t(den)); }
};

const char* const derived_keys[] = {"l3_refill_rd", "l3_refill_wr", "bus_access_rd", "bus_access_wr"};

rational rate_of(const scenario_workload& w, const std::string& key) {
    for (const auto& [k, r] : w.rates)
        if (k == key) return r;
    return rational(0);
}

} // namespace

void apply_links(scenario& s) {
    const platform_config& pc = s.platform;
    for (const scenario_link& link : s.links) {
        auto fail = [&](unsigned line, const std::string& m) { throw input_error(s.file, line ? line : link.line, m); };
        const unit_config* dsu = pc.find_unit(link.dsu);
        std::set<unsigned> cluster;
        for (const auto& name : dsu->cpus) cluster.insert(pc.find_cpu(name)->index);
        const std::string mesh_clock = pc.find_unit(link.cmn)->clock;
        const exact miss = exact::of(link.miss_ratio);

        // 1. The DSU: every workload phase of a cluster CPU gets the derived keys.
        std::map<unsigned, exact> no_refills;
        for (auto& w : s.workloads) {
            if (!cluster.count(w.cpu)) continue;
            for (const auto& [k, r] : w.rates)
                for (const char* d : derived_keys)
                    if (k == d)
                        fail(w.line, fmt::format("workload key '{}' of cpu{} is derived by the link at line {} "
                                                 "(refills = accesses x l3_miss_ratio); remove it here",
                                                 k, w.cpu, link.line));
            const exact rd = exact::of(rate_of(w, "l3_access_rd")) * miss;
            const exact wr = exact::of(rate_of(w, "l3_access_wr")) * miss;
            const exact reads = rd + wr;
            if (!rd.fits() || !wr.fits() || !reads.fits()) fail(w.line, "link: a refill rate beyond 64-bit rationals");
            w.rates.emplace_back("l3_refill_rd", rd.to_rational());
            w.rates.emplace_back("l3_refill_wr", wr.to_rational());
            w.rates.emplace_back("bus_access_rd", reads.to_rational());
            w.rates.emplace_back("bus_access_wr", rate_of(w, "l3_writeback"));
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

        bool running_generator = false, first = true;
        rational previous(0);
        for (const fs_t t : instants) {
            // The state after every action at t (actions at one instant run in file order).
            // dvfs entries are applied in time order (stable): take the last by time, then file order.
            auto last_hz = [&](const std::string& clock) {
                fs_t best = 0;
                bool found = false;
                uint64_t hz = pc.find_clock(clock)->frequency_hz;
                for (const auto& d : s.dvfs)
                    if (d.at <= t && clock_of(d.clock) == clock && (!found || d.at >= best)) hz = d.hz, best = d.at, found = true;
                return hz;
            };
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
                const exact per_cycle = exact::of(rate_of(*now, "l3_refill_rd")) + exact::of(rate_of(*now, "l3_refill_wr"));
                demand = demand + per_cycle * exact{last_hz(pc.cpus[c].clock), 1};
            }
            const exact rate = demand * exact{1, last_hz(mesh_clock)};
            if (!rate.fits()) fail(0, "link: the cluster's request rate is beyond 64-bit rationals");
            if (rate.num > rate.den)
                fail(0, fmt::format("link: at {} the cluster asks {} requests per mesh cycle of its CMN-600 port {}, more than "
                                    "the 1 the port takes: lower l3_miss_ratio or the L3 access rates",
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
                text = fmt::format("{} traffic {} rate={} range={} mix={}{}", link.cmn, link.requester, r.str(), link.range,
                                   link.mix, first || !running_generator ? fmt::format(" seed={}", link.seed) : "");
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
    }
}

} // namespace pmusim
