#pragma once
// What-if scenarios (docs/whatif.md): a platform plus what happens over time.
// Pure C++17, no SystemC: YAML text in, plain structs out; tb/simulate runs them.
//
// Every error throws input_error(file, line, message) naming the key, what was
// expected and what was found, like the platform loader:
//   fie.yaml:14: dvfs[1].frequency: expected a frequency like 2GHz, found 'fast'
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/rational.h"
#include "models/sim_time.h"
#include "vp/platform_config.h"
#include "tb/sequence_parser.h"
#include "tb/system_link.h"

namespace pmusim {

// workload: { at, cpu, rates: {KEY: RATE, ...} }
struct scenario_workload {
    fs_t at = 0;
    unsigned cpu = 0;
    std::vector<std::pair<std::string, rational>> rates;
    unsigned line = 0;
};

// dvfs: { at, clock, frequency }
struct scenario_dvfs {
    fs_t at = 0;
    std::string clock;
    uint64_t hz = 0;
    unsigned line = 0;
};

// power: { at, cpu, state: run|wfi|wfe|off }
struct scenario_power {
    fs_t at = 0;
    unsigned cpu = 0;
    seq::cpu_power_state state = seq::cpu_power_state::run;
    unsigned line = 0;
};

// One line of an event-stream file (JSON Lines).
struct replayed_event {
    fs_t at = 0;
    std::string unit;
    std::string node; // empty: none
    std::string event;
    uint64_t count = 0;
    fs_t over = 0;
    unsigned file = 0; // index in scenario::event_files (one name per file, not per event)
    unsigned line = 0;
};

// sequences: { at, every?, count?, file|text|cycle }
struct scenario_sequence {
    fs_t at = 0;
    fs_t every = 0;      // 0: once
    uint64_t count = 0;  // occurrences when `every` is set; 0: until the end
    std::vector<std::vector<seq::statement>> bodies; // run in turn, one per occurrence
    unsigned line = 0;
};

// sample: { every: DURATION | every_cycles: N, start, clock, counters: [GLOB...], truth: [GLOB...], clocks: bool }
struct scenario_sampling {
    bool enabled = false;
    fs_t every_fs = 0;        // one of every_fs / every_cycles is set
    uint64_t every_cycles = 0;
    fs_t start_fs = 0;        // with every_fs: the first sample instant (0: at every_fs)
    std::string clock;        // cycles are counted on this clock (the `cycle` column)
    std::vector<std::string> counters; // fnmatch patterns over observable names; empty: all
    unsigned counters_line = 0;
    std::vector<std::string> truth; // fnmatch patterns over INSTANCE.EVENT of the ground truth; empty: none
    unsigned truth_line = 0;
    bool clocks = true;       // also sample every clock's frequency (unit "clock")
    bool jsonl = false;       // also write samples.jsonl (the same rows as JSON Lines; large: off by default)
    unsigned line = 0;
};

// multiplex: { unit, events: [NAME|CODE, ...], cpu, at, interval } -- perf-style rotation of more
// events than the unit has counters (docs/whatif.md "Multiplexing"), done by tb/perf_multiplex.
struct scenario_multiplex {
    std::string unit;
    std::vector<std::pair<std::string, uint16_t>> events; // (name as stats.json has it, code), in list order
    unsigned cpu = 0;       // the CPU whose EL1 programs the unit (perf's event->cpu)
    fs_t at = 0;            // perf enables the events
    fs_t interval = 0;      // perf_event_mux_interval_ms
    unsigned line = 0;
};

// A replayed `perf stat` count perf had scaled (the event ran < 100 % of the interval).
struct measured_estimate {
    std::string file;   // the perf file
    unsigned line = 0;  // its line
    std::string event;
    std::string running_pct;
    fs_t interval_end = 0;
};

struct scenario {
    std::string file;
    std::string name;
    std::string description;
    std::string platform_ref; // as written (a built-in name or a path relative to the scenario)
    std::vector<std::pair<std::string, std::string>> overrides; // set: platform path -> value
    std::map<std::string, std::string> params; // ${NAME} values after --set/sweep overrides
    platform_config platform;                  // with the overrides applied
    std::string platform_text;                 // the YAML `platform` was parsed from (after `set`)
    fs_t duration = 0;
    std::vector<scenario_workload> workloads;
    std::vector<scenario_dvfs> dvfs;
    std::vector<scenario_power> power;
    std::vector<std::string> event_files; // the event streams, in order (replayed_event::file indexes it)
    std::vector<replayed_event> events;   // all files, sorted by time (stable)
    std::vector<scenario_sequence> sequences;
    scenario_sampling sampling;
    std::vector<measured_estimate> measured_estimates; // replayed counts that are perf's estimates
    std::vector<scenario_multiplex> multiplex;
    std::vector<scenario_link> links; // the linked system model (tb/system_link.h), applied when loaded
    std::vector<link_report> link_reports; // what the links in flow mode worked out (stats.json `link`)
};

// Loads a scenario file. `param_values` override the file's `params` defaults
// (each must be declared there); ${NAME} is replaced everywhere in the text
// before YAML parsing, so lines stay where they were written. A name
// `set.PATH` is a platform override instead (like the file's `set: {PATH: VALUE}`,
// replacing it if the file has one); errors in it are reported at line 0.
// One event stream (JSON Lines, docs/whatif.md "Event streams"): appends its events to `out`
// (file index `file_index`, line numbers from 1); an event after `duration` or a malformed line is
// an input_error naming path:line. Linear in the text, which it does not copy.
void parse_event_stream(std::string_view text, const std::string& path, unsigned file_index, fs_t duration,
                        std::vector<replayed_event>& out);

scenario load_scenario(const std::string& path, const std::map<std::string, std::string>& param_values = {});
// The same from text (`file` is for messages and relative paths).
scenario parse_scenario(const std::string& text, const std::string& file,
                        const std::map<std::string, std::string>& param_values = {});

// Applies `path = value` overrides (clocks.const.frequency, units.dsu0.params.counters,
// firmware.profile, ...) to platform YAML text: a list of named maps is indexed by name.
// Returns the edited YAML text; throws input_error(file, line) for a path that does not exist.
std::string apply_platform_overrides(const std::string& platform_yaml,
                                     const std::vector<std::pair<std::string, std::string>>& overrides,
                                     const std::vector<unsigned>& lines, const std::string& file);

} // namespace pmusim
