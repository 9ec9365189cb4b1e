#include "tb/stats.h"

#include "pmusim/version.h"

#include "models/soc.h"
#include "vp/platform_listing.h"

namespace pmusim {

nlohmann::ordered_json run_stats(const std::vector<unit*>& units, const soc& system, fs_t end) {
    nlohmann::ordered_json j;
    j["time_fs"] = end;
    // Ground truth at the units' inputs.
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    for (unit* u : units) {
        std::vector<event_total> totals;
        u->event_totals(totals);
        for (const auto& t : totals)
            events.push_back({{"unit", u->type()}, {"instance", t.instance}, {"event", t.event}, {"code", t.code},
                              {"count", t.count}});
    }
    j["events"] = std::move(events);
    // Every CPU's activity streams (what all CPU-side events derive from).
    nlohmann::ordered_json cpus = nlohmann::ordered_json::array();
    for (const auto& c : system.cores) {
        nlohmann::ordered_json keys;
        for (const auto& k : c->event_keys()) keys[k] = c->events(k).count_at(end);
        cpus.push_back({{"cpu", c->name()}, {"power", to_string(c->power())}, {"events", keys}});
    }
    j["cpus"] = std::move(cpus);
    nlohmann::ordered_json clocks = nlohmann::ordered_json::array();
    for (const auto& [name, c] : system.clocks)
        clocks.push_back({{"clock", name}, {"frequency_hz", c->frequency_hz()}, {"edges", c->edges_at(end)}});
    j["clocks"] = std::move(clocks);
    // What the counters show at the end (the software-visible side).
    nlohmann::ordered_json counters = nlohmann::ordered_json::array();
    for (unit* u : units) {
        std::vector<observable> obs;
        u->observables(obs);
        for (auto& o : obs) {
            nlohmann::ordered_json c{{"unit", u->type()}, {"name", o.name}, {"value", o.value()}};
            if (o.event) c["event"] = o.event();
            counters.push_back(std::move(c));
        }
    }
    j["counters"] = std::move(counters);
    return j;
}

nlohmann::ordered_json run_config(const scenario& s, const std::vector<param_override>& overrides) {
    nlohmann::ordered_json j;
    j["scenario"] = s.file;
    j["name"] = s.name;
    j["params"] = s.params;
    j["platform"] = s.platform_ref;
    j["pmusim_version"] = PMUSIM_VERSION_STRING;
    nlohmann::ordered_json set;
    for (const auto& [k, v] : s.overrides) set[k] = v;
    j["set"] = set.is_null() ? nlohmann::ordered_json::object() : set;
    j["overrides"] = overrides_json(overrides); // -C, applied after `set`
    j["duration_fs"] = s.duration;
    nlohmann::ordered_json sample;
    sample["enabled"] = s.sampling.enabled;
    if (s.sampling.enabled) {
        sample["every_fs"] = s.sampling.every_fs;
        sample["every_cycles"] = s.sampling.every_cycles;
        sample["clock"] = s.sampling.clock;
        sample["counters"] = s.sampling.counters;
        if (s.sampling.start_fs) sample["start_fs"] = s.sampling.start_fs;
        if (!s.sampling.truth.empty()) sample["truth"] = s.sampling.truth;
        sample["clocks"] = s.sampling.clocks;
        sample["jsonl"] = s.sampling.jsonl;
    }
    j["sample"] = sample;
    j["event_files"] = s.event_files;
    // Every platform knob with its resolved value (as `pmusim --list-params` shows it).
    nlohmann::ordered_json params;
    for (const auto& p : collect_params(s.platform)) params[p.path] = p.value;
    j["platform_params"] = params;
    return j;
}

} // namespace pmusim
