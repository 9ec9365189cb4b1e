#pragma once
// The what-if subcommands of `pmusim` (docs/whatif.md): simulate, sweep
// (with `sweep merge`) and plot. tb/main.cpp adds them to its CLI11 app and
// runs the one selected.
#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "tb/simulate.h"

namespace pmusim {

class whatif_commands {
public:
    explicit whatif_commands(CLI::App& app);
    bool selected() const; // one of the subcommands was given
    int run();             // its exit code; throws input_error for bad input

private:
    CLI::App* simulate_ = nullptr;
    CLI::App* sweep_ = nullptr;
    CLI::App* merge_ = nullptr;
    CLI::App* plot_ = nullptr;
    CLI::App* compare_ = nullptr;
    std::string compare_a_, compare_b_, compare_output_ = "-";
    bool compare_all_ = false;
    simulate_options sim_;
    std::vector<std::string> sets_;
    bool no_progress_ = false;
    std::string sweep_file_, shard_ = "0/1", sweep_out_ = "sweep-out";
    unsigned jobs_ = 1;
    std::vector<std::string> sweep_overrides_; // -C
    bool sweep_no_progress_ = false, sweep_no_resume_ = false, sweep_list_ = false;
    std::string merge_file_, merge_output_ = "merged.csv";
    std::vector<std::string> merge_inputs_;
    std::string plot_kind_, plot_output_;
    std::vector<std::string> plot_inputs_, plot_options_;
};

} // namespace pmusim
