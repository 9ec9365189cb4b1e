#pragma once
// Typed columns of a sweep's results.csv (docs/whatif.md "Results for analysis"): what a point ran
// on and its parameter values as numbers, so pandas, R or a spreadsheet reads them without parsing
// "25MHz" or "1/4". Columns, after `exit`: platform, pmusim_version, duration_s, then PARAM_value
// for every parameter (a frequency in Hz, a duration in seconds, an integer, a rational as its
// decimal value; empty when the value is not a number).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace pmusim {

// The column names, in order, for parameters `params`.
std::vector<std::string> typed_column_names(const std::vector<std::string>& params);
// Their values for one point: `values` are the point's parameter values as written; platform and
// duration come from the point's config.json (empty when the point did not write one).
std::map<std::string, std::string> typed_column_values(const std::vector<std::string>& params,
                                                       const std::vector<std::string>& values,
                                                       const std::filesystem::path& point_dir);
// A value as a number: "25MHz" -> "25000000", "12ms" -> "0.012", "1/4" -> "0.25", "1/3" ->
// "0.3333333333333333" (the shortest double that reads back), "7" -> "7"; "" when not a number.
std::string numeric_value(const std::string& text);
// Femtoseconds as an exact decimal number of seconds ("0.096", "1", "0.000000000000001").
std::string fs_as_seconds(uint64_t fs);

} // namespace pmusim
