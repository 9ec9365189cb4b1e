#pragma once
// Reading an input file (sequence, platform, scenario, event stream, catalog) with a bound: at
// most `max_bytes` are read from any file, regular or not (`run /dev/zero`, a FIFO), so an input
// can never grow the process without limit; a directory is an input error, never an empty file
// (docs/reliability.md, "Limits"). Errors name `from_file:from_line` when given (the statement
// or key that named the file), else the file itself.
#include <cstdint>
#include <istream>
#include <string>

namespace pmusim {

std::string read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what,
                            const std::string& from_file = "", unsigned from_line = 0);

// std::getline with a bound on the line's length (serve's stdin: `serve < /dev/zero` must not grow
// without end). Reports by value, not by exception: serve reads inside a SystemC thread.
enum class line_read { ok, end, too_long };
line_read getline_bounded(std::istream& in, std::string& line, uint64_t max_bytes);

} // namespace pmusim
