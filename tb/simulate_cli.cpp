#include "tb/simulate_cli.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "models/input_error.h"
#include "vp/param_overrides.h"
#include "tb/sweep.h"
#include "models/data_files.h"

namespace pmusim {

namespace {

std::string self_exe() {
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) throw std::runtime_error("cannot find the pmusim binary (/proc/self/exe)");
    return std::string(buf, size_t(n));
}

std::string tool_script(const std::string& name) {
    if (const char* env = std::getenv("PMUSIM_TOOLS")) return std::string(env) + "/" + name;
    return pmusim::data_file("tools/whatif/" + name);
}
std::string plot_script() { return tool_script("pmusim_plot.py"); }

} // namespace

whatif_commands::whatif_commands(CLI::App& app) {
    simulate_ = app.add_subcommand("simulate", "run a what-if scenario (YAML) and write samples, stats.json, config.json");
    simulate_->add_option("scenario", sim_.scenario_file, "scenario file (.yaml), docs/whatif.md")->required();
    simulate_->add_option("-o,--output", sim_.out_dir, "output folder")->default_val("whatif-out");
    simulate_->add_option("--set", sets_, "NAME=VALUE: a value for one of the scenario's params, or set.PATH=VALUE: a platform override");
    simulate_->add_option("-C,--param", sim_.overrides, std::string(override_option_help) + "; applied after the scenario's set:")
        ->allow_extra_args(false);
    simulate_->add_option("--log-json", sim_.log_json, "write one JSON object per register access to this file");
    simulate_->add_flag("--verbose,-v", sim_.verbose, "print the sequences' log (echo, print) and a summary");
    simulate_->add_flag("--no-progress", no_progress_, "no progress line, even on a terminal");

    sweep_ = app.add_subcommand("sweep", "run a scenario over a grid or list of parameter values, one process per point");
    sweep_->add_option("sweep", sweep_file_, "sweep file (.yaml), docs/whatif.md");
    sweep_->add_option("-o,--output", sweep_out_, "output folder (results.csv, points/)")->default_val("sweep-out");
    sweep_->add_option("-j,--jobs", jobs_, "points run at once on this machine")->default_val(1)->check(CLI::Range(1u, 256u));
    sweep_->add_option("--shard", shard_, "K/N: run only the points whose index is K modulo N (0 <= K < N), e.g. --shard 2/8");
    sweep_->add_option("-C,--param", sweep_overrides_, std::string(override_option_help) + "; given to every point's simulate")
        ->allow_extra_args(false);
    sweep_->add_flag("--no-progress", sweep_no_progress_, "no progress line, even on a terminal");
    sweep_->add_flag("--no-resume", sweep_no_resume_, "run every point again, even those an earlier run in the folder recorded as done");
    sweep_->add_flag("--list", sweep_list_, "print the (shard's) points as CSV and run nothing");
    merge_ = sweep_->add_subcommand("merge", "join shard results into one CSV, refusing duplicates and partial shards, listing missing points");
    merge_->add_option("sweep", merge_file_, "the sweep file the shards ran")->required();
    merge_->add_option("inputs", merge_inputs_, "results.csv files or the shards' output folders")->required();
    merge_->add_option("-o,--output", merge_output_, "merged CSV")->default_val("merged.csv");

    plot_ = app.add_subcommand("plot", "draw a figure (SVG or PNG by the output's extension) from what-if CSVs");
    plot_->add_option("kind", plot_kind_, "rates | truth | sweep | heatmap")
        ->required()
        ->check(CLI::IsMember({"rates", "truth", "sweep", "heatmap"}));
    plot_->add_option("inputs", plot_inputs_, "input CSV file(s) (rates: samples.csv; sweep: results.csv; ...)")->required();
    plot_->add_option("-o,--output", plot_output_, "figure file: .svg or .png")->required();
    compare_ = app.add_subcommand("compare", "two configurations side by side: every stats.json quantity, its difference, "
                                             "and with replicates (A1,A2,... B1,B2,...) a 95% confidence interval");
    compare_->add_option("a", compare_a_, "simulate output folder, or comma-separated replicate folders")->required();
    compare_->add_option("b", compare_b_, "the other configuration, as A")->required();
    compare_->add_option("-o,--output", compare_output_, "CSV file (default: standard output)");
    compare_->add_flag("--all", compare_all_, "also list quantities equal in every folder");
    plot_->add_option("--opt", plot_options_, "KEY=VALUE for the plotter; rates: counters=GLOB; sweep: x=, y=, group=, logx=true; heatmap: label=; all: title= (others are refused), e.g. --opt x=slice");
}

bool whatif_commands::selected() const { return *simulate_ || *sweep_ || *plot_ || *compare_; }

int whatif_commands::run() {
    if (*simulate_) {
        for (const auto& s : sets_) {
            auto eq = s.find('=');
            if (eq == std::string::npos || eq == 0)
                throw input_error("", 0, "--set " + s + ": expected NAME=VALUE");
            sim_.params[s.substr(0, eq)] = s.substr(eq + 1);
        }
        sim_.progress = !no_progress_;
        return simulate_scenario(sim_);
    }
    if (*sweep_) {
        if (*merge_) return merge_sweep(load_sweep(merge_file_), merge_inputs_, merge_output_);
        if (sweep_file_.empty()) throw input_error("", 0, "pmusim sweep: expected a sweep file (or `sweep merge`)");
        sweep_options o;
        o.out_dir = sweep_out_;
        o.jobs = jobs_;
        std::tie(o.shard, o.shards) = parse_shard(shard_);
        o.progress = !sweep_no_progress_;
        o.resume = !sweep_no_resume_;
        o.overrides = sweep_overrides_;
        const sweep_spec spec = load_sweep(sweep_file_);
        if (sweep_list_) {
            list_sweep(spec, o, std::cout);
            return 0;
        }
        check_sweep_params(spec); // a misspelled parameter is refused before the first point
        check_sweep_overrides(spec, o.overrides); // so is a -C the platform does not take
        o.self_exe = self_exe();
        return run_sweep(spec, o);
    }
    if (*compare_) {
        // tools/whatif/pmusim_compare.py (standard library only) reads the folders' stats.json.
        std::vector<std::string> argv = {"/usr/bin/python3", tool_script("pmusim_compare.py"), compare_a_, compare_b_,
                                         "-o", compare_output_};
        if (compare_all_) argv.push_back("--all");
        std::vector<char*> args;
        for (auto& a : argv) args.push_back(a.data());
        args.push_back(nullptr);
        execv(args[0], args.data());
        throw input_error("", 0, "cannot run /usr/bin/python3 for pmusim compare");
    }
    // plot: Debian's python3 with matplotlib draws it (scripts/install-deps.sh installs both).
    std::vector<std::string> argv = {"/usr/bin/python3", plot_script(), plot_kind_, "-o", plot_output_};
    for (const auto& o : plot_options_) argv.push_back("--opt=" + o);
    for (const auto& i : plot_inputs_) argv.push_back(i);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    throw input_error("", 0, "cannot run /usr/bin/python3 for plotting (scripts/install-deps.sh installs python3-matplotlib)");
}

} // namespace pmusim
