#pragma once
// Periodic sampling of counters for `pmusim simulate` (like `perf stat -I`):
// one scheduled SystemC event per sample instant, never a per-cycle process.
// Rows go to CSV and JSON Lines with the schema in docs/whatif.md:
//   sample, time_fs, cycle, unit, instance, counter, event, value, delta
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <systemc>
#include <vector>

#include "models/clock_domain.h"
#include "models/unit.h"

namespace pmusim {

// One sampled quantity with its owner's names.
struct sampled_value {
    std::string unit;     // unit type ("amu", "dsu_clusterpmu", "clock")
    std::string instance; // "cpu0.amu", "dsu0", "cpu0" (for clocks)
    std::string counter;  // "AMEVCNTR00", "PMEVCNTR3", "frequency_hz"
    unsigned width = 64;
    std::function<uint64_t()> value;
    std::function<std::string()> event; // may be empty
    // A level such as a clock's frequency, not a count: its delta is the signed difference
    // (a down-step is negative), never taken modulo the width.
    bool gauge = false;
};

class sampler : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(sampler);
    // Samples every `every_fs` (when non-zero) or every `every_cycles` edges of `clock`;
    // the `cycle` column counts edges of `clock` in both cases. Samples run until `end` (inclusive).
    // With `every_fs`, a non-zero `first_fs` is the first sample instant (then every `every_fs`).
    sampler(const sc_core::sc_module_name& name, std::vector<sampled_value> values, const clock_domain& clock,
            fs_t every_fs, uint64_t every_cycles, fs_t end, std::ostream* csv, std::ostream* jsonl,
            fs_t first_fs = 0);

    static const char* csv_header(); // the CSV's first line, without the newline
    uint64_t samples_taken() const { return taken_; }

private:
    void on_sample();
    void schedule_next();
    std::optional<fs_t> next_instant() const;

    std::vector<sampled_value> values_;
    std::vector<uint64_t> last_;
    const clock_domain& clock_;
    fs_t every_fs_;
    uint64_t every_cycles_;
    fs_t first_fs_;
    fs_t end_;
    std::ostream* csv_;
    std::ostream* jsonl_;
    uint64_t taken_ = 0;
    sc_core::sc_event due_;
};

// The observables of `units` whose names match any fnmatch pattern (all when
// `patterns` is empty), split into instance and counter at the last '.'.
std::vector<sampled_value> select_observables(const std::vector<unit*>& units, const std::vector<std::string>& patterns,
                                              std::vector<std::string>& unmatched_patterns);

} // namespace pmusim
