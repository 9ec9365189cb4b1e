// libFuzzer target: the `pmusim serve` line protocol on arm-default, through the real serve loop
// (sequence_runner::serve: getline, parse_line, execute, one answer line per statement).
// The runner's input stream blocks (a SystemC wait inside the stream buffer) when a fuzz input
// is used up, and pauses the simulation, so one elaborated platform serves every input.
// Properties: exactly one answer line per statement line; every answer starts with a protocol
// word; the session never ends with a model error; invariants hold after every input.
// Lines that would run for long (run/wait/inject-over beyond 100 us of simulated time, beyond 16
// of them, frequencies below 100 MHz) are dropped before they reach the runner: simulated time
// only moves forward in one process, and the limits of long runs have their own test
// (tests/limits, docs/reliability.md).
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <streambuf>
#include <systemc>
#include <variant>

#include "models/sanitizer_fibers.h"
#include "fuzz/invariants.h"
#include "models/sim_time.h"
#include "vp/platform_config.h"
#include "vp/run_recorder.h"
#include "tb/sequence_runner.h"
#include "vp/unit_list.h"

using namespace pmusim;

namespace {

// Hands out what the fuzzer fed; when empty, pauses the simulation and waits for more.
class blocking_input : public std::streambuf {
public:
    void feed(std::string text) {
        pending_ += text;
        more_.notify(sc_core::SC_ZERO_TIME);
    }
    bool waiting() const { return waiting_; }

protected:
    int_type underflow() override {
        while (pending_.empty()) {
            waiting_ = true;
            sc_core::sc_pause();
            sc_core::wait(more_);
            waiting_ = false;
        }
        current_.swap(pending_);
        pending_.clear();
        setg(current_.data(), current_.data(), current_.data() + current_.size());
        return traits_type::to_int_type(current_[0]);
    }

private:
    std::string pending_, current_;
    sc_core::sc_event more_;
    bool waiting_ = false;
};

struct session {
    platform p;
    run_recorder rec;
    blocking_input in_buf;
    std::istream in{&in_buf};
    std::ostringstream out;
    sequence_runner runner;
    session() : p(load_platform("arm-default")), runner("runner", p, rec) { runner.serve(in, out); }
};

session* the_session = nullptr;

// Statements that advance simulated time, and whether one would run long. With at most
// max_time_statements of at most 100 us each per input, a process serves over 10^7 inputs
// before it reaches the end of simulated time (2^64 fs).
bool advances_time(const seq::statement& s) {
    if (auto* i = std::get_if<seq::inject_events>(&s.body)) return i->over_fs.has_value();
    return std::holds_alternative<seq::run_time>(s.body) || std::holds_alternative<seq::run_cycles>(s.body) ||
           std::holds_alternative<seq::wait_irq>(s.body);
}
constexpr unsigned max_time_statements = 16;

bool too_long(const seq::statement& s) {
    constexpr uint64_t budget_fs = 100'000'000'000; // 100 us
    if (auto* r = std::get_if<seq::run_time>(&s.body)) return r->duration_fs > budget_fs;
    if (auto* r = std::get_if<seq::run_cycles>(&s.body)) return r->cycles > 10'000; // clocks >= 100 MHz: <= 100 us
    if (auto* w = std::get_if<seq::wait_irq>(&s.body)) return !w->timeout_fs || *w->timeout_fs > budget_fs;
    if (auto* i = std::get_if<seq::inject_events>(&s.body)) return i->over_fs && *i->over_fs > budget_fs;
    if (auto* f = std::get_if<seq::set_freq>(&s.body)) return f->hz < 100'000'000;
    return false;
}

const char* const answer_words[] = {"OK", "TRAP ", "UNDEFINED", "ERROR", "IGNORED", "FAIL", "ERR "};

} // namespace

int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (!the_session) {
        sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
        register_all_units();
        the_session = new session();
        sc_core::sc_start(); // firmware boot, then the runner waits for input
        pmusim::sanitizer_fibers::main_stack_resumed();
    }
    session& s = *the_session;
    std::string text(reinterpret_cast<const char*>(data), size), kept = "reset cold\nas cpu0 el1 ns\n";
    unsigned statements = 2, line_no = 0, time_statements = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        ++line_no;
        // Parsed as the runner parses it: nothing is thrown on this stack, which SystemC switches.
        served_line parsed = parse_served_line(line, "<fuzz>", line_no);
        if (!parsed.error) {                           // an error is answered with ERR
            const auto& st = parsed.statement;
            if (!st) continue;                         // blank or comment: no answer
            if (too_long(*st)) continue;               // dropped (see above)
            if (advances_time(*st) && ++time_statements > max_time_statements) continue;
        }
        kept += line + "\n";
        ++statements;
    }
    s.out.str("");
    s.out.clear();
    s.in_buf.feed(kept);
    sc_core::sc_start();
    pmusim::sanitizer_fibers::main_stack_resumed();
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || !s.in_buf.waiting()) {
        std::fprintf(stderr, "serve session ended (exit %d): %s\n", s.runner.exit_status(), s.runner.error_message().c_str());
        std::abort();
    }
    unsigned answers = 0;
    std::istringstream replies(s.out.str());
    for (std::string reply; std::getline(replies, reply);) {
        ++answers;
        bool known = false;
        for (const char* w : answer_words) known = known || reply.rfind(w, 0) == 0;
        if (!known) {
            std::fprintf(stderr, "answer without a protocol word: '%s'\n", reply.c_str());
            std::abort();
        }
    }
    if (answers != statements) {
        std::fprintf(stderr, "%u statements got %u answers:\n%s\n--\n%s\n", statements, answers, kept.c_str(), s.out.str().c_str());
        std::abort();
    }
    fuzzing::require_invariants(s.p, nullptr, "the served lines");
    return 0;
}
