#pragma once
// `pmusim simulate SCENARIO.yaml`: runs a what-if scenario (tb/scenario.h) and
// writes samples.csv, samples.jsonl, stats.json and config.json into an output
// folder (docs/whatif.md). Returns the pmusim exit code (0 ok, 1 an expectation
// of a scenario sequence failed, 2 bad input, 3 model error).
#include <map>
#include <string>
#include <vector>

namespace pmusim {

struct simulate_options {
    std::string scenario_file;
    std::map<std::string, std::string> params; // --set NAME=VALUE
    std::vector<std::string> overrides;        // -C KEY=VALUE, applied after the scenario's `set`
    std::string out_dir = "whatif-out";
    std::string log_json;  // optional JSON-lines access log
    bool verbose = false;  // print the runner's log (echo, print, accesses' failures)
    bool progress = true;  // a progress line on stderr, only when stderr is a terminal
};

int simulate_scenario(const simulate_options& options);

} // namespace pmusim
