#pragma once
// " (did you mean X?)" for a name that is not known: the platform's own messages (a platform name,
// a unit type) and the sequence language's name check (tb/name_check.h) word it the same way.
#include <string>
#include <vector>

namespace pmusim {

// " (did you mean X?)" for the candidate nearest to `name` (case-insensitive Damerau-Levenshtein
// distance at most max(2, size/3)), ties to the first; empty when none is that near.
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);
unsigned edit_distance(const std::string& a, const std::string& b);

} // namespace pmusim
