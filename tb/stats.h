#pragma once
// The end-of-run files of `pmusim simulate` (docs/whatif.md):
//   stats.json  ground truth: every event of every unit, counted whether or not
//               software programmed a counter for it, beside the counters' final values;
//   config.json the full resolved parameter set of the run.
#include <nlohmann/json.hpp>
#include <vector>

#include "models/unit.h"
#include "vp/param_overrides.h"
#include "tb/scenario.h"

namespace pmusim {

nlohmann::ordered_json run_stats(const std::vector<unit*>& units, const soc& system, fs_t end);
// `overrides`: the -C arguments, recorded as "overrides" (docs/whatif.md, config.json).
nlohmann::ordered_json run_config(const scenario& s, const std::vector<param_override>& overrides);

} // namespace pmusim
