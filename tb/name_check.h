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
#include "vp/did_you_mean.h"

namespace pmusim {

class platform;

// What is wrong with a name `s` uses (without "file:line: "), nullopt when every name is known.
// `cpu` is the CPU the last `as cpuN` selected (0 before any), `debugger` true after `as debug`.
std::optional<std::string> unknown_name(const seq::statement& s, const platform& p, unsigned cpu, bool debugger);

// Every statement in order, following `as`: throws input_error(file, line) at the first unknown name.
void check_names(const std::vector<seq::statement>& statements, const platform& p);

} // namespace pmusim
