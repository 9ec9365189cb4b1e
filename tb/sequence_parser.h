#pragma once
// Lexer and parser for the pmusim sequence language (docs/sequence-language.md).
// Text in, AST out, no simulation: execution is the runner's job. A unit command's arguments
// (`UNIT VERB ARGS`) are read by the grammar its unit type registered (models/unit_command.h).
//
// Every error throws pmusim::input_error(file, line, message); the message says
// what was expected and what was found, e.g.
//   tests/x.seq:12: expected a number after 'write AMCR_EL0', found 'foo'
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "models/access_outcome.h"
#include "models/input_error.h"
#include "models/rational.h"
#include "models/values.h"
#include "tb/sequence_expression.h"

namespace pmusim::seq {

// Values (numbers, durations, frequencies, rates) are read with the one grammar of
// models/values.h (docs/values.md).

// ---------------------------------------------------------------------------
// AST
// ---------------------------------------------------------------------------

enum class security_state { secure, nonsecure };
enum class power_privilege { user, os, hv }; // POWER problem state, supervisor, hypervisor
enum class cpu_power_state { run, wfi, wfe, off };
enum class irq_level { low, high };
enum class reset_kind { cold, warm };

// A read-value expectation: passes when (value_read & mask) == (value & mask).
struct value_check {
    uint64_t value = 0;
    uint64_t mask = ~uint64_t{0}; // all ones when no "mask M" was written
    bool has_mask = false;        // "mask M" was written
};

// platform NAME|PATH -- kept verbatim; only valid as the first statement of a file.
struct platform_decl {
    std::string name;
};

// as cpuN [el0..el3] [secure|nonsecure] [guest]   or   as cpuN [user|os|hv]
// Unwritten words stay empty/false; the runner applies the defaults (Arm: EL1,
// Non-secure, EL3 implies Secure, not a guest). The parser guarantees that
// `privilege` is never set together with el/security/guest, and rejects
// "el3 nonsecure" and "el3 guest".
struct as_cpu {
    unsigned cpu = 0;
    std::optional<unsigned> el;               // 0..3
    std::optional<security_state> security;
    bool guest = false;
    std::optional<power_privilege> privilege; // POWER only
};

// as debug [secure|nonsecure] -- the external debugger.
struct as_debug {
    std::optional<security_state> security;
};

// read REG [== VALUE [mask M]] [-> OUTCOME]
// `outcome` is empty when no "-> OUTCOME" was written (a sequence file then
// expects ok; `pmusim serve` just reports what happened). A value check is
// only accepted together with an empty or ok outcome.
struct reg_read {
    std::string reg;
    std::optional<value_check> check;
    std::optional<access_outcome> outcome;
};

// write REG VALUE|EVENT [mask M] [-> OUTCOME]
// With `mask M` the write is a read-modify-write, as firmware's mrs/bic/orr/msr:
// the register is read, and (old & ~M) | VALUE is written. VALUE must lie within M.
struct reg_write {
    std::string reg;
    uint64_t value = 0;
    std::optional<uint64_t> mask;
    std::optional<access_outcome> outcome;
    // `write CLUSTERPMXEVTYPER_EL1 L3D_CACHE`: an event name where an event number goes (a register
    // whose name holds EVTYPER, a name no `let` bound). The runner gives `value` the number from the
    // register's unit's event list (docs/sequence-language.md, "Event names"); empty otherwise.
    std::string event;
};

// read32|read64 ADDR [== VALUE [mask M]] [-> OUTCOME]. For width 32, value and
// mask fit in 32 bits (checked by the parser).
// print32|print64 ADDR: the same read (expecting ok), whose value the runner logs.
struct mem_read {
    unsigned width = 64; // 32 or 64
    bool print = false;  // written as print32/print64
    uint64_t address = 0;
    std::optional<value_check> check;
    std::optional<access_outcome> outcome;
};

// write32|write64 ADDR VALUE [-> OUTCOME]. For width 32, value fits in 32 bits.
struct mem_write {
    unsigned width = 64;
    uint64_t address = 0;
    uint64_t value = 0;
    std::optional<access_outcome> outcome;
};

// run N cycles [of CLOCK] -- empty clock means the current CPU's clock.
struct run_cycles {
    uint64_t cycles = 0;
    std::optional<std::string> clock;
};

// run DURATION
struct run_time {
    uint64_t duration_fs = 0;
};

// power cpuN run|wfi|wfe|off
struct set_power {
    unsigned cpu = 0;
    cpu_power_state state = cpu_power_state::run;
};

// security cpuN secure|nonsecure -- the security state the CPU executes in, to
// which its events are attributed (Secure/Non-secure event filtering).
struct set_security {
    unsigned cpu = 0;
    security_state state = security_state::nonsecure;
};

// freq CLOCK FREQUENCY
struct set_freq {
    std::string clock;
    uint64_t hz = 0;
};

// workload cpuN KEY=RATE ... -- keys unique, in the order written.
struct set_workload {
    unsigned cpu = 0;
    std::vector<std::pair<std::string, rational>> rates;
};

// inject UNIT[.NODE] EVENT COUNT [over DURATION]
// Split at the first '.': "cmn0.xp3.port1" -> unit "cmn0", node "xp3.port1".
struct inject_events {
    std::string unit;
    std::optional<std::string> node;
    std::string event; // as written: a number ("0x11") or a name ("L1D_CACHE")
    uint64_t count = 0;
    std::optional<uint64_t> over_fs;
};

// expect irq LINE high|low
struct expect_irq {
    std::string line;
    irq_level level = irq_level::high;
};

// wait irq LINE high|low [timeout DURATION]
// Without "timeout", the runner uses default_wait_timeout_fs.
struct wait_irq {
    std::string line;
    irq_level level = irq_level::high;
    std::optional<uint64_t> timeout_fs;
};
inline constexpr uint64_t default_wait_timeout_fs = 1'000'000'000'000'000; // 1 s

// reset cold|warm
struct do_reset {
    reset_kind kind = reset_kind::cold;
};

// print REG
struct print_reg {
    std::string reg;
};

// param NAME (e.g. cmn0.periphbase)
struct print_param {
    std::string name;
};

// echo TEXT... -- the rest of the line (up to any '#'), trimmed, inner spacing kept.
struct echo_text {
    std::string text;
};

// UNIT VERB ARGS... -- a command of the unit's type (models/unit_command.h), e.g. `cmn0 traffic 1,0 p0 off`.
// The command's own parser reads ARGS (canonical words: numbers evaluated, in hex); the runner hands
// them to the command of the named unit. Also the spellings from before unit commands, verb first:
// `traffic cmn0 ARGS...` and `opal ARGS...` (no unit: the platform's unit that has the command).
struct command_call {
    std::string unit;              // empty: written without a unit (`opal ...`)
    std::string verb;
    std::vector<std::string> args; // as the command's parser returned them
    bool verb_first = false;       // written verb first: printed back the same way
};

// exec cpuN [el0..el3] [secure|nonsecure] FILE [nowait] -- runs an AArch64 ELF on the CPU's
// instruction-set simulator (docs/firmware.md). EL defaults to 3; EL3 implies Secure; below
// EL3 the default is Non-secure. FILE is kept as written (the runner resolves it against the
// sequence file's folder); a FILE with spaces is not accepted.
struct exec_firmware {
    unsigned cpu = 0;
    unsigned el = 3;
    std::optional<security_state> security;
    std::string file;
    bool nowait = false;
};

using statement_body =
    std::variant<platform_decl, as_cpu, as_debug, reg_read, reg_write, mem_read, mem_write,
                 run_cycles, run_time, set_power, set_security, set_freq, set_workload, inject_events,
                 expect_irq, wait_irq, do_reset, print_reg, print_param, echo_text, command_call, exec_firmware>;

struct statement {
    std::string file;
    unsigned line = 0; // 1-based
    statement_body body;
    // How the line was reached when not directly from the top file, innermost first, e.g.
    // " (included from a.seq:7)" or " (iteration 2 of 4 of the repeat at a.seq:3)"; null
    // otherwise. Messages name a statement as file:line + origin. Shared by the statements of
    // one included file or repeat iteration (a repeat may expand to a million statements).
    std::shared_ptr<const std::string> origin = nullptr; // (initialized: aggregates may omit it)
    // The JUnit label of the expectation: the text of the last `# test: LABEL` comment line above
    // it (docs/sequence-language.md, "JUnit"); null when none.
    std::shared_ptr<const std::string> label = nullptr;
};

// "file:line" plus the statement's origin: how every message names a statement.
std::string location(const statement& s);

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

// Whole file ('\n' or "\r\n" line ends; lines numbered from 1). Stops at the
// first error by throwing. Enforces that `platform` appears only as the first
// statement. Expands the file-level directives (tb/sequence_expansion.cpp):
// `include FILE` (read from disk, relative to the directory of `file`), `let NAME = EXPR`
// and `repeat N` ... `end`, so the result is the flat list of statements to run.
// An error inside an included file or a repeat names that file and line and, in
// input_error::origin(), how it was reached.
// Lines are numbered from `first_line` (a sequence embedded in another file, e.g. a scenario).
std::vector<statement> parse_sequence(std::string_view text, const std::string& file, unsigned first_line = 1);

// One line (any '\n' or '\r' is treated as whitespace). nullopt for a blank or
// comment-only line. Accepts `platform` (the position rule is parse_sequence's).
// Numeric operands may be expressions (tb/sequence_expression.h) using `names`
// (none when null). The directives let/include/repeat/end are refused here: they
// belong to whole files.
std::optional<statement> parse_line(std::string_view line, const std::string& file,
                                    unsigned line_no, const name_table* names = nullptr);

// Canonical text of a statement, e.g. "read PMCR_EL0 == 0x41 mask 0xff -> ok".
// Numbers are printed in hex (values, addresses, masks) or decimal (counts,
// cpu indices); durations in the largest exact unit; parse_line of the result
// gives back an equal statement. For logs and diagnostics.
std::string to_string(const statement_body& body);
std::string_view keyword(const statement_body& body); // "read", "write32", "as", ...; a command's verb

} // namespace pmusim::seq
