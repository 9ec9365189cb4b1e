// perf-style multiplexing (tb/perf_multiplex.h, docs/whatif.md "Multiplexing").
#include "tb/perf_multiplex.h"

#include <fmt/format.h>

#include "cspmu/arm_cspmu.h"
#include "dsu_clusterpmu/dsu_clusterpmu.h"
#include "models/input_error.h"
#include "vp/platform.h"

namespace pmusim {

using namespace sc_core;

namespace {
constexpr unsigned on_cycle_counter = 31; // both PMUs' cycle counter index (PMCCNTR's enable bit)

// arm_dsu_pmu.c@v6.1: dsu_pmu_enable sets CLUSTERPMCR_EL1.E; dsu_pmu_start selects the counter
// (CLUSTERPMSELR_EL1), writes its type and value; CYCLES (0x11) goes to the cycle counter.
multiplex_pmu dsu_ops(const dsu_clusterpmu& d, const std::string& name) {
    multiplex_pmu m;
    m.counters = d.options().counters; // CLUSTERPMCR_EL1.N, as arm_dsu_pmu reads it at probe
    m.cycle_counter = d.options().variant != dsu_variant::dsu120;
    m.cycle_event = 0x11;
    m.counter_prefix = name;
    m.cnten_set = "CLUSTERPMCNTENSET_EL1", m.cnten_clr = "CLUSTERPMCNTENCLR_EL1", m.cycle_reset = "CLUSTERPMCCNTR_EL1";
    m.enable = {{"CLUSTERPMCR_EL1", 1}};
    m.program = [](unsigned n, uint16_t code) {
        return std::vector<std::pair<std::string, uint64_t>>{
            {"CLUSTERPMSELR_EL1", n}, {"CLUSTERPMXEVTYPER_EL1", code}, {"CLUSTERPMXEVCNTR_EL1", 0}};
    };
    return m;
}

// drivers/perf/arm_cspmu/arm_cspmu.c@v6.1: arm_cspmu_enable writes PMCR.E; arm_cspmu_start writes
// PMEVTYPER<n> (arm_cspmu_set_event) and the counter, then PMCNTENSET; stop writes PMCNTENCLR. The
// cycle event (pmusim's 0x1, the unit's clock) goes to counter 31 while free, as Linux's cycle
// event does (arm_cspmu_get_event_idx).
multiplex_pmu cspmu_ops(const arm_cspmu& c, const std::string& name) {
    multiplex_pmu m;
    m.counters = c.options().counters;
    m.cycle_counter = c.options().cycle_counter;
    m.cycle_event = 0x1;
    m.counter_prefix = name;
    m.cnten_set = name + ".PMCNTENSET", m.cnten_clr = name + ".PMCNTENCLR", m.cycle_reset = name + ".PMCCNTR";
    m.enable = {{name + ".PMCR", 1}};
    m.program = [name](unsigned n, uint16_t code) {
        return std::vector<std::pair<std::string, uint64_t>>{{fmt::format("{}.PMEVTYPER{}", name, n), code},
                                                             {fmt::format("{}.PMEVCNTR{}", name, n), 0}};
    };
    return m;
}

// floor(a x b / c) without overflow (a, b < 2^64, c > 0, the result < 2^64 here: b <= c... or close).
uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c) {
    return uint64_t((static_cast<unsigned __int128>(a) * b) / c);
}
} // namespace

perf_multiplexer::perf_multiplexer(const sc_module_name& name, const scenario_multiplex& m,
                                   const std::string& scenario_file, platform& p, fs_t end,
                                   std::function<bool(const seq::statement&)> execute)
    : sc_module(name), m_(m), file_(scenario_file), p_(p), end_(end), execute_(std::move(execute)),
      raw_(m.events.size(), 0), running_(m.events.size(), 0), truth_at_enable_(m.events.size(), 0) {
    unit_ = p_.find_unit(m_.unit);
    if (auto* dsu = dynamic_cast<dsu_clusterpmu*>(unit_)) pmu_ = dsu_ops(*dsu, m_.unit);
    else if (auto* cs = dynamic_cast<arm_cspmu*>(unit_)) pmu_ = cspmu_ops(*cs, m_.unit);
    else throw input_error(file_, m_.line, "multiplex: unit '" + m_.unit + "' is not a DSU CLUSTERPMU or a CoreSight PMU");
    std::vector<observable> obs;
    unit_->observables(obs);
    for (unsigned n = 0; n < pmu_.counters; ++n)
        for (const auto& o : obs)
            if (o.name == fmt::format("{}.PMEVCNTR{}", pmu_.counter_prefix, n)) counter_obs_.push_back(o);
    for (const auto& o : obs)
        if (o.name == pmu_.counter_prefix + ".PMCCNTR") cycle_obs_.push_back(o);
    if (counter_obs_.size() != pmu_.counters) throw model_error("multiplex: " + m_.unit + " does not publish its counters");
    if (pmu_.cycle_counter && cycle_obs_.empty()) pmu_.cycle_counter = false;
    for (size_t i = 0; i < m_.events.size(); ++i) order_.push_back(i);
}

const char* perf_multiplexer::csv_header() {
    return "time_fs,unit,event,code,raw,time_enabled_fs,time_running_fs,running_pct,estimate,truth,error_pct";
}

void perf_multiplexer::write_csv_row(std::ostream& out, const multiplex_reading& r) {
    const std::string pct = r.enabled_fs ? fmt::format("{:.2f}", double(r.running_fs) * 100.0 / double(r.enabled_fs)) : "";
    const std::string err = r.truth ? fmt::format("{:.6f}", (double(r.estimate) - double(r.truth)) * 100.0 / double(r.truth)) : "";
    out << fmt::format("{},{},{},{:#x},{},{},{},{},{},{},{}\n", r.time_fs, r.unit, r.event, r.code, r.raw, r.enabled_fs,
                       r.running_fs, pct, r.estimate, r.truth, err);
}

nlohmann::ordered_json perf_multiplexer::to_json(const multiplex_reading& r) {
    nlohmann::ordered_json j{{"unit", r.unit},          {"event", r.event},       {"code", r.code},
                             {"raw", r.raw},            {"time_enabled_fs", r.enabled_fs},
                             {"time_running_fs", r.running_fs}, {"estimate", r.estimate}, {"truth", r.truth}};
    j["error_pct"] = r.truth ? nlohmann::ordered_json((double(r.estimate) - double(r.truth)) * 100.0 / double(r.truth))
                             : nlohmann::ordered_json(nullptr);
    return j;
}

void perf_multiplexer::wait_after_timeline(fs_t t) {
    // As a scenario sequence starting at t: after the samples and the timeline's actions at t.
    if (t > now_fs()) wait(to_sc_time(t - now_fs()));
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
}

bool perf_multiplexer::write(const std::string& reg, uint64_t value, std::optional<uint64_t> mask) {
    seq::reg_write w;
    w.reg = reg;
    w.value = value;
    w.mask = mask;
    return execute_(seq::statement{file_, m_.line, w});
}

uint64_t perf_multiplexer::counter_value(const slot& s) const {
    return s.cycles ? cycle_obs_.front().value() : counter_obs_[s.counter].value();
}

uint64_t perf_multiplexer::truth_now(uint16_t code) {
    std::vector<event_total> totals;
    unit_->event_totals(totals);
    for (const auto& t : totals)
        if (t.instance == m_.unit && t.code == code) return t.count;
    return 0;
}

bool perf_multiplexer::schedule_in() {
    // merge_sched_in in list order: each event on the lowest free counter (or CYCLES on the cycle
    // counter while free); the first event that does not fit stops the walk.
    on_.clear();
    unsigned next = 0;
    bool cycle_counter_used = false;
    for (size_t i : order_) {
        slot s;
        if (m_.events[i].second == pmu_.cycle_event && pmu_.cycle_counter && !cycle_counter_used) {
            s.cycles = true;
            s.counter = on_cycle_counter;
            cycle_counter_used = true;
        } else if (next < pmu_.counters) {
            s.counter = next++;
        } else {
            break;
        }
        on_[i] = s;
    }
    // dsu_pmu_start: select the counter, write its event type, start it from a known value; then
    // enable the scheduled counters together.
    if (!execute_(seq::statement{file_, m_.line, seq::as_cpu{m_.cpu, 1u, std::nullopt, false, std::nullopt}})) return false;
    uint64_t enable = 0;
    for (size_t i : order_) { // in list order, as merge_sched_in adds and starts them
        const auto found = on_.find(i);
        if (found == on_.end()) continue;
        const slot& s = found->second;
        enable |= uint64_t(1) << s.counter;
        if (s.cycles) {
            if (!write(pmu_.cycle_reset, 0)) return false;
            continue;
        }
        for (const auto& [reg, value] : pmu_.program(s.counter, m_.events[i].second))
            if (!write(reg, value)) return false;
    }
    if (enable && !write(pmu_.cnten_set, enable)) return false;
    for (auto& [i, s] : on_) s.since = now_fs();
    return true;
}

bool perf_multiplexer::schedule_out() {
    // dsu_pmu_stop: disable the counters, then read what they counted.
    uint64_t disable = 0;
    for (const auto& [i, s] : on_) disable |= uint64_t(1) << s.counter;
    if (!execute_(seq::statement{file_, m_.line, seq::as_cpu{m_.cpu, 1u, std::nullopt, false, std::nullopt}})) return false;
    if (disable && !write(pmu_.cnten_clr, disable)) return false;
    for (const auto& [i, s] : on_) {
        raw_[i] += counter_value(s); // started from 0 at schedule_in
        running_[i] += now_fs() - s.since;
    }
    on_.clear();
    return true;
}

void perf_multiplexer::record(bool include_running) {
    const fs_t now = now_fs();
    for (size_t i = 0; i < m_.events.size(); ++i) {
        multiplex_reading r;
        r.time_fs = now;
        r.unit = m_.unit;
        r.event = m_.events[i].first;
        r.code = m_.events[i].second;
        r.raw = raw_[i];
        r.running_fs = running_[i];
        if (include_running)
            if (auto it = on_.find(i); it != on_.end()) {
                r.raw += counter_value(it->second);
                r.running_fs += now - it->second.since;
            }
        r.enabled_fs = enabled_ ? now - enabled_at_ : 0;
        r.estimate = r.running_fs ? mul_div(r.raw, r.enabled_fs, r.running_fs) : 0;
        r.truth = enabled_ ? truth_now(r.code) - truth_at_enable_[i] : 0;
        readings_.push_back(std::move(r));
    }
}

void perf_multiplexer::run() {
    wait_after_timeline(m_.at);
    if (!execute_(seq::statement{file_, m_.line, seq::as_cpu{m_.cpu, 1u, std::nullopt, false, std::nullopt}})) return;
    // pmu_enable (dsu_pmu_enable, arm_cspmu_enable): PMCR.E (read-modify-write); all counters stopped first.
    if (!write(pmu_.cnten_clr, ((uint64_t(1) << pmu_.counters) - 1) | (pmu_.cycle_counter ? uint64_t(1) << 31 : 0)))
        return;
    for (const auto& [reg, value] : pmu_.enable)
        if (!write(reg, value, value)) return;
    enabled_at_ = now_fs();
    enabled_ = true;
    for (size_t i = 0; i < m_.events.size(); ++i) truth_at_enable_[i] = truth_now(m_.events[i].second);
    if (!schedule_in()) return;
    for (uint64_t k = 1;; ++k) {
        const fs_t t = m_.at + k * m_.interval;
        if (t >= end_) return; // the end's reading is finish()'s
        wait_after_timeline(t);
        if (on_.size() == m_.events.size()) {
            // Every event is on a counter: perf has nothing to rotate (rotate_necessary stays 0).
            record(true);
            continue;
        }
        if (!schedule_out()) return;
        record(false);
        // perf_rotate_context: the first active event goes to the end of the list.
        if (order_.size() > 1) {
            order_.push_back(order_.front());
            order_.erase(order_.begin());
        }
        if (!schedule_in()) return;
    }
}

void perf_multiplexer::finish() { record(true); }

std::vector<multiplex_reading> perf_multiplexer::final_readings() const {
    if (readings_.size() < m_.events.size()) return {};
    return std::vector<multiplex_reading>(readings_.end() - long(m_.events.size()), readings_.end());
}

} // namespace pmusim
