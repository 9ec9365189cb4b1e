#pragma once
// `pmusim run a.seq b.seq dir/ -j N`: many sequence files in one call, as ctest and
// renode-test run many tests. SystemC allows one kernel per process, so every file runs in a
// child process of its own (fork), at most N at once; the parent relays each child's stdout
// and stderr in the order the files were given, whatever order they finish in, and merges
// their JUnit testsuites (docs/sequence-language.md, "Many files in one call").
#include <functional>
#include <string>
#include <vector>

#include "vp/junit.h"

namespace pmusim {

// The files to run: each argument that is a folder stands for every *.seq file below it
// (recursively, sorted by path); other arguments are taken as they are. A folder without
// any .seq file is bad input (input_error).
std::vector<std::string> sequence_files(const std::vector<std::string>& arguments);

struct multi_run_result {
    std::vector<junit_suite> suites; // one per file, in the order of `files`
    int status = 0;                  // the worst (highest) exit code of the files
};

// Runs `run_one(file, status)` for each file in a child process, `jobs` at once; prints a
// line per file (PASS, FAIL or ERROR and its exit code) after that file's own output, then
// the summary "pmusim: N files: P passed, F failed, E errors". A child that dies without a
// result (a signal) counts as a model error (exit 3) with an <error> testcase saying so.
multi_run_result run_files_in_children(const std::vector<std::string>& files, unsigned jobs,
                                       const std::function<junit_suite(const std::string&, int&)>& run_one);

} // namespace pmusim
