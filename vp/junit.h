#pragma once
// JUnit XML as Jenkins' junit step and GitLab's artifacts:reports:junit read it:
// <testsuites> with one <testsuite> per sequence file, one <testcase> per expectation
// statement or per error that stopped the file, or one per file (--junit-testcases file)
// (docs/sequence-language.md, "JUnit"). `time` attributes are host wall-clock seconds (what CI
// dashboards chart); simulated time is the property `simulated_seconds`.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "models/sim_time.h"

namespace pmusim {

struct junit_testcase {
    enum class verdict { passed, failed, error };
    std::string name;      // "[LABEL: ]STATEMENT", never a line number (stable when lines are added)
    verdict result = verdict::passed;
    std::string type;      // for failures and errors: "expectation", "input error", "model error"
    std::string message;   // for failures and errors: the message pmusim printed, with file:line
    fs_t duration_fs = 0;  // simulated time the statement took
    double wall_seconds = 0; // host time it took
};

struct junit_suite {
    std::string name; // the sequence file as given on the command line
    std::vector<junit_testcase> testcases;
    fs_t time_fs = 0; // simulated time the whole file ran
    double wall_seconds = 0; // host time the whole file took
    // <properties> of the testsuite, in order: what the run was given besides the file, e.g.
    // ("-C", "dsu0.counters=4") for each parameter override (docs/logs.md).
    std::vector<std::pair<std::string, std::string>> properties;

    unsigned count(junit_testcase::verdict v) const;
};

// Simulated seconds: exact decimal seconds of a femtosecond count ("0.000001", "0").
std::string junit_seconds(fs_t t);
// A `time` attribute: host seconds with microseconds ("0.001234").
std::string junit_wall_seconds(double seconds);

// --junit-testcases file: the suite's testcases folded into one named after the file: an error
// when any testcase is one, else a failure when any failed (their messages, one a line), else passed.
junit_suite one_testcase_per_file(junit_suite s);

// The whole document: the totals on <testsuites> are the sums of the suites'.
void write_junit(std::ostream& out, const std::vector<junit_suite>& suites);

// A suite as one line of JSON and back: how a child process of a many-file run hands its
// suite to the parent.
std::string junit_suite_to_json(const junit_suite& s);
junit_suite junit_suite_from_json(const std::string& text);

} // namespace pmusim
