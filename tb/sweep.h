#pragma once
// `pmusim sweep SWEEP.yaml`: a grid or list of scenario parameter values, each
// point an independent `pmusim simulate` process (plus an optional analysis
// command), `-j N` at a time; one CSV row per point (docs/whatif.md).
// `--shard K/N` runs the points whose index is K modulo N, for schedulers such
// as Slurm job arrays or GNU parallel; `pmusim sweep merge` joins the shards'
// CSVs, refusing duplicate points and reporting missing ones.
#include <string>
#include <vector>

namespace pmusim {

struct sweep_point {
    unsigned index = 0;
    std::vector<std::string> values; // one per sweep_spec::params
};

struct sweep_spec {
    std::string file;
    std::string scenario;             // path (resolved relative to the sweep file)
    std::vector<std::string> params;  // column order
    std::vector<sweep_point> points;  // in index order
    std::vector<std::string> analysis; // command; "{out}" = the point's folder, "{tools}" = tools/whatif
    std::vector<std::string> stats;    // ground-truth columns: INSTANCE.EVENT from stats.json
};

sweep_spec load_sweep(const std::string& path);

struct sweep_options {
    std::string out_dir = "sweep-out";
    unsigned jobs = 1;
    unsigned shard = 0, shards = 1; // --shard K/N (K in 0..N-1)
    std::string self_exe;           // the pmusim binary to run points with
};

// Runs the selected points; writes OUT/results.csv (rows in point order) atomically, then its
// completion marker OUT/results.csv.complete ("pmusim sweep results: shard K/N, R rows"). Returns
// 0 when every point ran and analysed, 1 when some point failed (its row says so).
int run_sweep(const sweep_spec& spec, const sweep_options& options);

// Joins results CSVs (files, or folders holding results.csv) into `output`.
// Duplicate points and partial shards (no completion marker, rows of the shard missing, a row
// count other than the marker's, a row of another shard) are bad input (2), and nothing is
// written; points of shards not given at all are listed on stderr and
// give 1 (the merged CSV holds what exists); 0 when complete.
int merge_sweep(const sweep_spec& spec, const std::vector<std::string>& inputs, const std::string& output);

// "K/N" -> (K, N); throws input_error.
std::pair<unsigned, unsigned> parse_shard(const std::string& text);

} // namespace pmusim
