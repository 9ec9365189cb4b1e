#pragma once
// JUnit XML as Jenkins' junit step and GitLab's artifacts:reports:junit read it:
// <testsuites> with one <testsuite> per sequence file, one <testcase> per expectation
// statement or per error that stopped the file (docs/sequence-language.md, "JUnit").
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "models/sim_time.h"

namespace pmusim {

struct junit_testcase {
    enum class verdict { passed, failed, error };
    std::string name;      // "FILE:LINE STATEMENT"
    verdict result = verdict::passed;
    std::string type;      // for failures and errors: "expectation", "input error", "model error"
    std::string message;   // for failures and errors: the message pmusim printed, with file:line
    fs_t duration_fs = 0;  // simulated time the statement took
};

struct junit_suite {
    std::string name; // the sequence file as given on the command line
    std::vector<junit_testcase> testcases;
    fs_t time_fs = 0; // simulated time the whole file ran
    // <properties> of the testsuite, in order: what the run was given besides the file, e.g.
    // ("-C", "dsu0.counters=4") for each parameter override (docs/logs.md).
    std::vector<std::pair<std::string, std::string>> properties;

    unsigned count(junit_testcase::verdict v) const;
};

// A time attribute: exact decimal seconds of a femtosecond count ("0.000001", "0").
std::string junit_seconds(fs_t t);

// The whole document: the totals on <testsuites> are the sums of the suites'.
void write_junit(std::ostream& out, const std::vector<junit_suite>& suites);

// A suite as one line of JSON and back: how a child process of a many-file run hands its
// suite to the parent.
std::string junit_suite_to_json(const junit_suite& s);
junit_suite junit_suite_from_json(const std::string& text);

} // namespace pmusim
