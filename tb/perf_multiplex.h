#pragma once
// perf-style multiplexing built into `pmusim simulate` (docs/whatif.md "Multiplexing: more events
// than counters"). A scenario's `multiplex:` entry lists more events than a DSU CLUSTERPMU or a
// CoreSight PMU (arm_cspmu) has counters; this module schedules them as Linux's perf core does for
// a flexible group list (kernel/events/core.c@v6.1):
//   - events are scheduled in list order, each on the lowest free counter (arm_dsu_pmu's
//     dsu_pmu_get_event_idx, arm_cspmu's arm_cspmu_get_event_idx; the cycle event on the cycle
//     counter while it is free), until the first one
//     that does not fit: the rest wait (merge_sched_in clears can_add_hw at the first failure);
//   - every `interval` (perf_event_mux_interval_ms, 4 ms = PERF_CPU_HRTIMER at HZ=250) the hrtimer
//     handler perf_rotate_context schedules all out, moves the first active event to the end of
//     the list (rotate_ctx) and schedules in again;
//   - each event keeps time_enabled (since it was enabled) and time_running (while on a counter);
//     perf stat scales its count by enabled / running (tools/lib/perf/evsel.c@v6.1,
//     perf_counts_values__scale).
// Register writes go through the sequence runner as the unit's CPU at EL1 (the access log shows
// them); counters are read as the sampler reads them (what software would read). What differs
// between the PMUs is a small ops table (multiplex_pmu, as Linux's arm_cspmu_impl_ops).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <systemc>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/sim_time.h"
#include "models/unit.h"
#include "tb/scenario.h"
#include "tb/sequence_parser.h"

namespace pmusim {

class platform;

// One event's state at a read instant, cumulative since the events were enabled.
struct multiplex_reading {
    fs_t time_fs = 0;
    std::string unit, event;
    uint16_t code = 0;
    uint64_t raw = 0;        // what its counters counted while it was scheduled
    fs_t enabled_fs = 0;     // time_enabled
    fs_t running_fs = 0;     // time_running
    uint64_t estimate = 0;   // floor(raw x enabled / running); 0 when it never ran
    uint64_t truth = 0;      // the unit's input count over the same enabled time (stats.json's event)
};

// One PMU's registers as its Linux driver writes them to multiplex (perf_multiplex.cpp builds it per type).
struct multiplex_pmu {
    unsigned counters = 0;
    bool cycle_counter = false;     // counter 31 counts `cycle_event` while free
    uint16_t cycle_event = 0;
    std::string counter_prefix;     // observables PREFIX.PMEVCNTRn, PREFIX.PMCCNTR
    std::string cnten_set, cnten_clr, cycle_reset;
    std::vector<std::pair<std::string, uint64_t>> enable; // pmu_enable: REG |= VALUE (read-modify-write)
    std::function<std::vector<std::pair<std::string, uint64_t>>(unsigned counter, uint16_t code)> program;
};

class perf_multiplexer : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(perf_multiplexer);
    // `execute` runs one statement through the scenario's sequence runner (false: stop).
    perf_multiplexer(const sc_core::sc_module_name& name, const scenario_multiplex& m, const std::string& scenario_file,
                     platform& p, fs_t end, std::function<bool(const seq::statement&)> execute);

    // The rotation thread's body: the scenario driver spawns it after the firmware boot.
    void run();
    // At the scenario's end: one more reading of every event (the rotation thread stops before it).
    void finish();
    const std::vector<multiplex_reading>& readings() const { return readings_; }
    std::vector<multiplex_reading> final_readings() const;

    static const char* csv_header();
    static void write_csv_row(std::ostream& out, const multiplex_reading& r);
    static nlohmann::ordered_json to_json(const multiplex_reading& r);

private:
    struct slot {
        unsigned counter = 0; // general counter index, or `cycle_counter`
        bool cycles = false;
        fs_t since = 0;       // counting since (after the enabling write)
    };
    void wait_after_timeline(fs_t t);
    bool write(const std::string& reg, uint64_t value, std::optional<uint64_t> mask = std::nullopt);
    bool schedule_in();
    bool schedule_out();
    uint64_t counter_value(const slot& s) const;
    uint64_t truth_now(uint16_t code);
    void record(bool include_running);

    const scenario_multiplex& m_;
    std::string file_;
    platform& p_;
    unit* unit_ = nullptr;
    fs_t end_;
    std::function<bool(const seq::statement&)> execute_;
    multiplex_pmu pmu_;
    std::vector<observable> counter_obs_; // PMEVCNTR0..N-1
    std::vector<observable> cycle_obs_;   // PMCCNTR, when the variant has a cycle counter
    std::vector<size_t> order_;           // the flexible list: indexes into m_.events
    std::map<size_t, slot> on_;           // event index -> where it runs now
    std::vector<uint64_t> raw_;
    std::vector<fs_t> running_;
    std::vector<uint64_t> truth_at_enable_;
    fs_t enabled_at_ = 0;
    bool enabled_ = false;
    std::vector<multiplex_reading> readings_;
};

} // namespace pmusim
