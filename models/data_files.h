#pragma once
// Where pmusim finds its data files (IMC catalogs, built-in platforms, plot and study scripts).
// An installed pmusim keeps them under <prefix>/share/pmusim, laid out as in the source tree
// (share/pmusim/imc/catalog/power9_dd2.dts); a build directory reads them from the source tree.
#include <string>
#include <string_view>

namespace pmusim {

// The folder that holds the data files, the first of: $PMUSIM_DATA_DIR; <folder of the running
// binary>/../share/pmusim when it exists (an installed or unpacked pmusim); the source tree the
// library was built from. Never a path that only the build machine has, unless the binary runs
// from a build directory.
std::string data_dir();

// A data file by its source-tree-relative path, e.g. data_file("imc/catalog/power9_dd2.dts").
std::string data_file(std::string_view relative);

// The source tree this library was built from (tests and benchmarks read their inputs there).
std::string source_dir();

} // namespace pmusim
