#pragma once
// Named commands of a unit type in the sequence language, as VCML's register_command gives each
// model its own verbs: `UNIT VERB ARGS...` (e.g. `cmn0 traffic 1,0 p0 off`). A unit type registers
// its commands in its folder's register.cpp; the sequence parser reads a command's arguments with
// the command's own grammar and the runner hands them to the command's handler, neither knowing
// the verb (docs/extending.md, "Adding a unit command").
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "models/firmware_access.h"

namespace pmusim {

class unit;
struct access_context;

// The words of one command statement, handed to the command's parser: the sequence parser's own
// cursor, so operands read as in every statement (numbers with `_`, expressions and `let` names)
// and errors read "FILE:LINE: expected WHAT after 'WORDS SO FAR', found 'WORD'".
class command_words {
public:
    virtual ~command_words() = default;
    virtual bool at_end() const = 0;
    virtual std::string_view peek() const = 0;    // empty at the end
    virtual bool accept(std::string_view word) = 0; // consumes `word` if it is next
    virtual std::string take() = 0;                 // the next word (not at the end)
    virtual uint64_t number(std::string_view what) = 0;
    virtual unsigned cpu_index() = 0;               // cpuN
    virtual std::string found() const = 0;          // "'WORD'" or "end of line"
    virtual std::string context() const = 0;       // "after 'WORDS SO FAR'"
    [[noreturn]] virtual void fail(std::string_view what, std::string_view found_text,
                                   std::string_view detail = {}) const = 0;
    virtual void expect_end(std::string_view alternatives = {}) const = 0;
    virtual const std::string& file() const = 0;
    virtual unsigned line() const = 0;
};

// What a command's handler is given when the statement runs.
struct command_call {
    const std::vector<std::string>& args; // as the command's parser returned them
    const access_context& caller;         // the sequence's current accessor (`as ...`)
};

// What the handler did.
struct command_result {
    std::string error;        // not empty: refused, bad input (the runner names the statement's file:line)
    // Register and memory accesses the command makes, performed after it returns as the caller,
    // through the firmware gate and into the access log, labelled "FILE:LINE (source)".
    firmware_code accesses;
    std::string source;
};

struct unit_command {
    std::string verb;    // "traffic"
    std::string usage;   // the arguments, "X,Y pP[.D] off|KEY=VALUE..."
    std::string summary; // one line: what it does
    // The spelling sequences had before unit commands, still accepted: the verb first, with the
    // unit after it (`traffic cmn0 ARGS`) or without one (`opal ARGS`: the first unit of the
    // platform that has the command).
    enum class verb_first { no, with_unit, without_unit };
    verb_first old_spelling = verb_first::no;
    // The command is an expectation of the run (a JUnit testcase, docs/sequence-language.md "JUnit"):
    // it makes register accesses.
    bool makes_accesses = false;
    // The run log shows each call, "[TIME] ACCESSOR VERB ARGS" (as a firmware console would).
    bool logged = false;
    // Reads the arguments when the sequence is parsed, before any platform exists: checks their
    // form (failing through `words`) and returns them in canonical form, numbers evaluated, which is
    // what `run` receives and what the statement prints back as.
    std::function<std::vector<std::string>(command_words& words)> parse;
    // Runs the command on a unit of the registering type, inside the runner's SystemC thread
    // (nothing may throw there: a refusal is command_result::error).
    std::function<command_result(unit& u, const command_call& call)> run;
};

// Registers `command` for units of type `unit_type` (unit::type()). A verb has one grammar: the
// parser reads the arguments before it knows the unit's type, so a verb another type registered
// already is refused (std::logic_error), unless it is that same registration again.
void register_unit_command(const std::string& unit_type, unit_command command);
// The command `verb` of `unit_type`, or null.
const unit_command* find_unit_command(const std::string& unit_type, std::string_view verb);
// The command named `verb` of any unit type, or null (the parser's view).
const unit_command* find_command_verb(std::string_view verb);
// The verbs of `unit_type`, sorted, as a list for messages ("opal, traffic"); of every type when
// `unit_type` is empty; empty when there are none.
std::string unit_command_verbs(const std::string& unit_type = {});

} // namespace pmusim
