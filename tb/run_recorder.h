#pragma once
// What a run leaves behind besides its exit code: the human log, the JSON-lines
// access log (--log-json), JUnit XML (--junit) and a VCD waveform (--vcd).
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

#include "models/sim_time.h"
#include "models/unit.h"

namespace pmusim {

struct expectation_result {
    std::string file;
    unsigned line = 0;
    std::string statement; // canonical text
    bool passed = true;
    std::string message;   // for failures
    fs_t time = 0;
};

// Samples named values at chosen instants and writes them as a VCD file
// (timescale 1 fs). Lazy counters have no per-cycle value changes to trace, so
// values are sampled at every statement, every interrupt edge and the end.
class vcd_writer {
public:
    explicit vcd_writer(std::vector<observable> signals);
    void sample(fs_t t);
    void write(std::ostream& out, const std::string& top) const;

private:
    std::vector<observable> signals_;
    std::vector<std::optional<uint64_t>> last_;
    std::vector<std::pair<fs_t, std::vector<std::pair<size_t, uint64_t>>>> changes_;
};

class run_recorder {
public:
    std::ostream* log = nullptr;          // human-readable lines (stdout), may be null
    std::ostream* json = nullptr;         // --log-json (an atomic_output's stream), may be null
    std::unique_ptr<vcd_writer> vcd;

    void access(const nlohmann::json& record);
    void line(const std::string& text); // human log
    void expectation(expectation_result r);

    const std::vector<expectation_result>& expectations() const { return expectations_; }
    unsigned failures() const { return failures_; }
    void write_junit(std::ostream& out, const std::string& suite, double host_seconds) const;

private:
    std::vector<expectation_result> expectations_;
    unsigned failures_ = 0;
};

} // namespace pmusim
