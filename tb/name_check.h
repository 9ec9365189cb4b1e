#pragma once
// Names in a sequence checked against the platform before the simulation starts
// (docs/sequence-language.md, "Names"): registers (for the CPU the `as` above selects), units,
// clocks, interrupt lines, parameters and workload keys. An unknown name is bad input at its
// file:line, with the nearest valid name ("did you mean X?", by edit distance) and the command
// that lists the valid ones; a typo at the end of a long run no longer costs the run.
#include <optional>
#include <string>
#include <vector>

#include "tb/sequence_parser.h"

namespace pmusim {

class platform;

// " (did you mean X?)" for the candidate nearest to `name` (case-insensitive Damerau-Levenshtein
// distance at most max(2, size/3)), ties to the first; empty when none is that near.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);
unsigned edit_distance(const std::string& a, const std::string& b);

// What is wrong with a name `s` uses (without "file:line: "), nullopt when every name is known.
// `cpu` is the CPU the last `as cpuN` selected (0 before any), `debugger` true after `as debug`.
std::optional<std::string> unknown_name(const seq::statement& s, const platform& p, unsigned cpu, bool debugger);

// Every statement in order, following `as`: throws input_error(file, line) at the first unknown name.
void check_names(const std::vector<seq::statement>& statements, const platform& p);

} // namespace pmusim
