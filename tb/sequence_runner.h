#pragma once
// Executes sequence-language statements against a platform, as an initiator on
// the firmware gate. Used by `pmusim run` (a whole file, then the simulation
// stops) and `pmusim serve` (one statement per line from a stream, one answer
// line each, as QEMU's qtest protocol does).
#include <chrono>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "models/access_context.h"
#include "vp/platform.h"
#include "vp/run_recorder.h"
#include "tb/sequence_parser.h"

namespace pmusim {

class aarch64_iss;

// Exit codes of `pmusim run` (docs/sequence-language.md).
enum exit_code : int { exit_ok = 0, exit_failed = 1, exit_bad_input = 2, exit_model_error = 3 };

// One served line, parsed: a statement, nothing (blank or comment), or the input error's message.
struct served_line {
    std::optional<seq::statement> statement;
    std::optional<std::string> error; // input_error::message() (without "file:line: ")
};
// seq::parse_line without throwing into the caller: the parser reports bad input with an
// exception, and an exception thrown on a stack SystemC has switched away from and back to
// trips AddressSanitizer's stack tracking (docs/reliability.md, "Sanitizers"). The line is
// parsed on a thread of its own, which never switches stacks; other exceptions are rethrown.
served_line parse_served_line(const std::string& text, const std::string& file, unsigned line_no);

class sequence_runner : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<sequence_runner> to_gate;

    sequence_runner(const sc_core::sc_module_name& name, platform& p, run_recorder& recorder);
    ~sequence_runner() override;

    // Before sc_start: the statements of one file (run mode) ...
    void load(std::vector<seq::statement> statements);
    // ... or a stream to serve (serve mode).
    void serve(std::istream& in, std::ostream& out);

    // Embedding (embed/, include/pmusim/platform.h): runs the firmware boot now, before the simulation
    // starts (so it precedes every initiator of the user's sc_main; register accesses take no time in
    // an embedded platform), and the runner's thread then neither runs statements nor stops the
    // simulation: the user's sc_main owns it.
    void boot_embedded();

    // Firmware (`exec`, docs/firmware.md): the time limit of each run, and whether the platform's
    // firmware profile boot runs first (`pmusim firmware` starts from reset: the ELF is the firmware).
    void set_firmware_time_limit(fs_t limit) { firmware_time_limit_ = limit; }
    void skip_firmware_boot() { skip_boot_ = true; }
    // A progress bar on stderr (statements done of the file's, simulated time), redrawn at most
    // 5 times a second and erased at the end; `pmusim run` turns it on when stderr is a terminal.
    void show_progress(bool on) { progress_ = on; }
    // The ISS of a CPU, created by load() for every CPU an `exec` statement names; null otherwise.
    aarch64_iss* iss(unsigned cpu) const;

    int exit_status() const { return status_; }
    const std::string& error_message() const { return error_; }
    unsigned statements_executed() const { return executed_; }

    // The result of one statement.
    enum class verdict { ok, failed, bad_input };
    struct result {
        verdict v = verdict::ok;
        std::string answer;  // serve-protocol answer: "OK", "OK 0x10", "TRAP el2", "FAIL ...", "ERR ..."
        std::string message; // for failures and bad input: what went wrong
    };
    // Executes one statement now (inside the runner's thread).
    result execute(const seq::statement& s);

private:
    void thread();
    void run_firmware_boot();
    // Executes firmware code (boot or a power transition) labelled `file`, then restores the
    // accessor the sequence had selected.
    void run_firmware(const firmware_code& code, const std::string& file);
    // Performs the steps of `code` as the statements they stand for, numbered from 1 in `file`;
    // the first that does not succeed ends it: its result is returned, its index set in `failed`.
    result perform(const firmware_code& code, const std::string& file, size_t* failed = nullptr);
    struct access_result {
        access_outcome outcome;
        uint64_t value;
        std::string detail;
        uint64_t syndrome;
    };
    access_result bus_access(bool is_write, bool system_register, uint64_t address, unsigned bytes, uint64_t value,
                             const std::string& target, const seq::statement& s);
    // A named register: over the bus as the current initiator, or (a unit's model input, unit.h)
    // set or read by the testbench directly, whoever the current initiator is.
    access_result register_access(bool is_write, const resolved_register& reg, uint64_t value, const seq::statement& s);
    result check_outcome(const seq::statement& s, const std::string& what, access_outcome expected,
                         const access_result& r, bool explicit_expectation);
    result read_register(const seq::statement& s, const std::string& reg, const std::optional<seq::value_check>& check,
                         const std::optional<access_outcome>& expected, bool print);
    result execute_write(const seq::statement& s, const seq::reg_write& w, const resolved_register& reg);
    // A unit command (`UNIT VERB ARGS`, models/unit_command.h).
    result run_command(const seq::statement& s, const seq::command_call& c);
    std::string where(const seq::statement& s) const;
    // The JUnit testcase an error is reported under: the statement being run.
    std::string testcase_name() const;
    std::string testcase_name_of(const seq::statement& s) const;
    std::string top_file_ = "<stdin>";
    void draw_progress(size_t done, bool final);
    bool progress_ = false;
    bool progress_drawn_ = false;
    std::chrono::steady_clock::time_point progress_at_{};
    void record_testcase(const seq::statement& s, const result& r);
    std::string time_note() const;
    void sample();
    result exec(const seq::statement& s, const seq::exec_firmware& e);
    // Waits for the firmware on `iss` to end and records its result as the expectation of `s`.
    result firmware_result_of(const seq::statement& s, aarch64_iss& iss);

    // A CPU whose firmware ended is off from the instant its last instruction retired (which may lie
    // a little after the SystemC time the ISS finished at): powered off then, before the sequence
    // goes on, so that nothing is logged or counted out of order.
    void power_off_exited_cpus();
    std::map<unsigned, fs_t> exited_; // CPU -> instant its firmware ended, not yet powered off
    sc_core::sc_event exit_due_;

    platform& platform_;
    run_recorder& rec_;
    access_context ctx_;
    std::vector<seq::statement> statements_;
    const seq::statement* current_ = nullptr; // the top-level statement being executed
    std::istream* serve_in_ = nullptr;
    std::ostream* serve_out_ = nullptr;
    // Statements (file:line) whose write completed but was ignored by the unit, already reported
    // on stderr (a write to an unimplemented DSU counter; a periodic sequence reports it once).
    std::set<std::string> ignored_write_notes_;
    std::vector<std::string> irq_events_; // edges since the last serve answer
    std::map<unsigned, std::unique_ptr<aarch64_iss>> iss_;
    std::vector<std::pair<seq::statement, aarch64_iss*>> nowait_; // started with `nowait`: joined at the end
    fs_t firmware_time_limit_ = fs_per_second;
    bool skip_boot_ = false;
    int status_ = exit_ok;
    std::string error_;
    std::string time_overflow_; // set by bus_access when an access would end past 2^64 fs
    unsigned executed_ = 0;
    bool embedded_ = false;
};

} // namespace pmusim
