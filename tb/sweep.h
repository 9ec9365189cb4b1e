#pragma once
// `pmusim sweep SWEEP.yaml`: a grid or list of scenario parameter values, each
// point an independent `pmusim simulate` process (plus an optional analysis
// command), `-j N` at a time; one CSV row per point (docs/whatif.md).
// `--shard K/N` runs the points whose index is K modulo N, for schedulers such
// as Slurm job arrays or GNU parallel; `pmusim sweep merge` joins the shards'
// CSVs, refusing duplicate points and reporting missing ones. A re-run in the
// same folder resumes: points already recorded as done are not run again.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace pmusim {

struct sweep_spec {
    std::string file;
    std::string scenario;                        // path (resolved relative to the sweep file)
    std::vector<std::string> params;             // column order
    std::vector<unsigned> param_lines;           // the sweep-file line naming each parameter
    std::vector<std::vector<std::string>> axes;  // grid: each parameter's values
    std::vector<std::vector<std::string>> listed; // points: each point's values
    uint64_t point_count = 0;
    std::vector<std::string> analysis; // command; "{out}" = the point's folder, "{tools}" = tools/whatif
    std::vector<std::string> stats;    // ground-truth columns: INSTANCE.EVENT from stats.json
    std::vector<unsigned> stats_lines;

    // The values of point `index` (< point_count), one per parameter. A grid is never enumerated:
    // the index is read in mixed radix over the axes, the first parameter most significant (it
    // varies slowest), so a grid of 10^12 points costs what one point does.
    std::vector<std::string> point(uint64_t index) const;
};

// Loads and checks a sweep file; a grid whose point count does not fit in 64 bits is bad input.
// The file is read through read_input_file with the scenario files' limit (a FIFO or /dev/zero
// cannot grow it).
sweep_spec load_sweep(const std::string& path);
// The same from the file's text; `path` names it in errors and locates the scenario file.
sweep_spec parse_sweep(const std::string& text, const std::string& path);

struct sweep_options {
    std::string out_dir = "sweep-out";
    unsigned jobs = 1;
    uint64_t shard = 0, shards = 1; // --shard K/N (K in 0..N-1)
    std::string self_exe;           // the pmusim binary to run points with
    bool progress = true;           // a progress line on stderr, only when stderr is a terminal
    bool resume = true;             // reuse points recorded as done by an earlier run in out_dir
    std::vector<std::string> overrides; // -C KEY=VALUE, passed to every point's simulate
};

// Refuses (input_error naming the sweep file's line) a parameter the scenario does not declare or
// a `set.PATH` the platform does not have, before any point runs.
void check_sweep_params(const sweep_spec& spec);
// Refuses (input_error naming the -C argument) an override the first point's platform does not
// take, before any point runs.
void check_sweep_overrides(const sweep_spec& spec, const std::vector<std::string>& overrides);

// Runs the selected points; writes OUT/results.csv (rows in point order) atomically, then its
// completion marker OUT/results.csv.complete ("pmusim sweep results: shard K/N, R rows"). Returns
// 0 when every point ran and analysed, 1 when some point failed (its row says so).
int run_sweep(const sweep_spec& spec, const sweep_options& options);

// `sweep --list`: the shard's points as CSV (point, parameters), nothing run.
void list_sweep(const sweep_spec& spec, const sweep_options& options, std::ostream& out);

// Joins results CSVs (files, or folders holding results.csv) into `output`.
// Duplicate points, partial shards (no completion marker, rows of the shard missing, a row
// count other than the marker's, a row of another shard) and shards whose columns differ are
// bad input (2), and nothing is written; points of shards not given at all are listed on stderr
// and give 1 (the merged CSV holds what exists); 0 when complete.
int merge_sweep(const sweep_spec& spec, const std::vector<std::string>& inputs, const std::string& output);

// "K/N" -> (K, N), decimal digits only, 0 <= K < N < 2^64; throws input_error.
std::pair<uint64_t, uint64_t> parse_shard(const std::string& text);

} // namespace pmusim
