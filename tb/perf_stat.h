#pragma once
// Linux `perf stat -I MS -x,` output (interval mode, CSV) read as measured intervals, so a scenario
// can replay activity measured on a real machine (docs/whatif.md, "Measured activity").
//
// The field order is perf's (tools/perf/Documentation/perf-stat.txt, "CSV FORMAT"): time stamp
// in seconds (with -I), counter value, unit, event name, run time, percentage of time running,
// then optional metric value and unit. Lines starting with '#' and blank lines are skipped.
// Only aggregated output is read: per-CPU, per-core or per-socket output (-A, --per-core, ...)
// puts an identifier in the second field and is refused.
#include <map>
#include <string>
#include <vector>

#include "models/sim_time.h"

namespace pmusim {

struct perf_interval {
    fs_t start = 0, end = 0;                      // (start, end]: the previous time stamp (0 first) to this one
    std::map<std::string, std::string> values;    // event name -> counter value as printed
    std::map<std::string, unsigned> lines;        // event name -> its line in the file
    // event name -> perf's percentage of the interval the event was on a counter (the sixth field,
    // "100.00" when not multiplexed). Below 100, perf printed count x time_enabled / time_running:
    // an estimate, not a measurement. Absent when the line has no sixth field.
    std::map<std::string, std::string> running_pct;
    unsigned line = 0;                            // the interval's first line
};

// Throws input_error(file, line) for a malformed line, time going back, an event twice in one interval.
std::vector<perf_interval> parse_perf_stat(const std::string& text, const std::string& file);

// The value of `event` in `interval` as an unsigned count; throws input_error naming the line
// when the event is absent ("<not counted>", "<not supported>", missing) or not an integer.
uint64_t perf_count(const perf_interval& interval, const std::string& event, const std::string& file);

// True when perf ran `event` for less than the whole interval (its percentage running, the sixth
// field, below 100): the count is perf's scaled estimate. An unreadable percentage counts as 100.
bool perf_count_is_estimate(const perf_interval& interval, const std::string& event);

} // namespace pmusim
