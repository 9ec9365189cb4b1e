#pragma once
// What a run leaves behind besides its exit code: the human log, the JSON-lines
// access log (--log-json), JUnit XML (--junit) and a VCD waveform (--vcd).
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "models/access_record.h"
#include "models/sim_time.h"
#include "models/unit.h"
#include "vp/junit.h"

namespace pmusim {


// Samples named values at chosen instants and writes them as a VCD file (IEEE 1364 §18,
// timescale 1 fs). Lazy counters have no per-cycle value changes to trace, so values are
// sampled at every statement, every register access, every interrupt edge and the end.
// A name's '.'-separated parts are nested scopes ("cpu0.amu.AMEVCNTR00": scope cpu0, scope
// amu, variable AMEVCNTR00). A value that changes again at an instant where it already
// changed is written 1 fs later (the next VCD timestamp), so that no pulse is zero-wide
// (docs/logs.md, "VCD").
class vcd_writer {
public:
    explicit vcd_writer(std::vector<observable> signals);
    void sample(fs_t t);
    void write(std::ostream& out, const std::string& top) const;

private:
    struct step {
        fs_t time;      // the simulated instant
        unsigned delta; // 0, or how many earlier steps share the instant
        std::vector<std::pair<size_t, uint64_t>> values;
    };
    std::vector<observable> signals_;
    std::vector<std::optional<uint64_t>> last_;
    std::vector<step> steps_;
};

class run_recorder {
public:
    std::ostream* log = nullptr;          // human-readable lines (stdout), may be null
    // The simulated program's own output (semihosting SYS_WRITE0/WRITEC/WRITE to stdout, a UART):
    // stdout even with -q, as QEMU and FVP print a guest's console (docs/firmware.md). Null: `log`.
    std::ostream* program_out = nullptr;
    std::ostream* json = nullptr;         // --log-json (an atomic_output's stream), may be null
    std::unique_ptr<vcd_writer> vcd;

    // JSON-lines records (schema: docs/logs.md). An interrupt edge raised by an access is
    // caused by it, so it is logged after it: between begin_access() and access() edges wait.
    void begin_access() { holding_edges_ = true; }
    void access(const access_record& record);
    void irq_edge(const nlohmann::json& record);
    void line(const std::string& text); // human log
    void program_output(const std::string& text); // one line the simulated program printed

    // JUnit testcases (vp/junit.h): one per expectation statement, one per error that stopped
    // a file or refused a served line. A testcase's time runs from statement_started().
    // Names carry no line number: a name met again in the suite gets " (2)", " (3)", ...
    void statement_started(fs_t t) {
        statement_start_ = t;
        statement_wall_start_ = std::chrono::steady_clock::now();
    }
    void expectation(const std::string& name, bool passed, const std::string& message, fs_t now);
    void error(const std::string& name, const std::string& type, const std::string& message, fs_t now);
    // --junit-testcases file: suite() folds the testcases into one named after the file.
    void one_testcase_per_file(bool on) { per_file_ = on; }

    // A JUnit <property> of the run (a -C override), in the order recorded.
    void property(const std::string& name, const std::string& value) { properties_.emplace_back(name, value); }

    // Without a JUnit report, a passed expectation is only counted: a run of 2*10^6 statements
    // would otherwise hold 2*10^6 testcases it never writes (docs/reliability.md, "Limits").
    void keep_passed_testcases(bool keep) { keep_passed_ = keep; }
    unsigned passed_expectations() const { return passed_; }
    unsigned failed_expectations() const { return failed_; }

    const std::vector<junit_testcase>& testcases() const { return testcases_; }
    junit_suite suite(const std::string& name, fs_t time) const;

private:
    std::string unique_name(const std::string& name);
    std::map<std::string, unsigned> names_seen_;
    std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point statement_wall_start_ = created_;
    bool per_file_ = false;
    std::vector<junit_testcase> testcases_;
    std::vector<std::pair<std::string, std::string>> properties_;
    fs_t statement_start_ = 0;
    bool keep_passed_ = true;
    unsigned passed_ = 0, failed_ = 0;
    bool holding_edges_ = false;
    std::vector<std::string> held_edges_;
};

} // namespace pmusim
