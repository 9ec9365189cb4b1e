// Lexer and parser for the pmusim sequence language; see sequence_parser.h and
// docs/sequence-language.md.
#include "tb/sequence_parser.h"

#include "models/unit_command.h"
#include "models/values.h"
#include "vp/unit_list.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <unordered_set>

namespace pmusim::seq {

namespace {


bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

using values::fail_expected;
using values::quoted;

bool is_ident_char(char c, std::string_view extra) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || extra.find(c) != std::string_view::npos;
}
bool is_ident(std::string_view s, std::string_view extra) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) { return is_ident_char(c, extra); });
}
// Dotted name with no empty segment: "cmn0.periphbase".
bool is_dotted_name(std::string_view s) {
    if (!is_ident(s, ".") || s.front() == '.' || s.back() == '.') return false;
    return s.find("..") == std::string_view::npos;
}
bool is_reg_name(std::string_view s) { return is_ident(s, "_.<>"); }
bool is_workload_key(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
    });
}

std::string hex(uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    if (v == 0) return "0x0";
    std::string r;
    while (v) r.insert(r.begin(), digits[v & 0xF]), v >>= 4;
    return "0x" + r;
}

const char* const keyword_list =
    "platform, as, read, write, read32, read64, write32, write64, run, power, security, freq, workload, "
    "inject, expect, wait, reset, print, print32, print64, param, echo, let, include, repeat, end, exec";

// The unit command named `verb` (models/unit_command.h): the unit types register their commands
// with the platform builder's registration, done here if nothing has done it yet.
const unit_command* command_named(std::string_view verb) {
    register_all_units();
    return find_command_verb(verb);
}

// What may start a line: the keywords, and the unit commands.
std::string statement_starts() {
    register_all_units();
    const std::string verbs = unit_command_verbs();
    return "a statement keyword (" + std::string(keyword_list) + ") or a unit command UNIT VERB (VERB one of " +
           (verbs.empty() ? std::string("none") : verbs) + ")";
}

// A token that is an expression rather than a plain number or name (tb/sequence_expression.h).
bool has_operator(std::string_view tok) { return tok.find_first_of("+-*/%<>&|^~()") != std::string_view::npos; }

// ---------------------------------------------------------------------------
// One line
// ---------------------------------------------------------------------------

struct token {
    std::string_view text;
    size_t end; // offset just past the token in the line
};

class line_parser final : private command_words {
public:
    line_parser(std::string_view line, const std::string& file, unsigned line_no, const name_table* names)
        : file_(file), line_no_(line_no), names_(names) {
        size_t hash = line.find('#');
        code_ = line.substr(0, hash);
        size_t i = 0;
        while (i < code_.size()) {
            while (i < code_.size() && is_space(code_[i])) ++i;
            size_t b = i;
            // Spaces inside parentheses do not end a token: "(BASE + 0x10)" is one operand.
            // An unclosed '(' runs to the end of the line (the expression reports it).
            int depth = 0;
            while (i < code_.size() && (depth > 0 || !is_space(code_[i]))) {
                if (code_[i] == '(') ++depth;
                else if (code_[i] == ')' && depth > 0) --depth;
                ++i;
            }
            if (i > b) toks_.push_back({code_.substr(b, i - b), i});
        }
    }

    bool blank() const { return toks_.empty(); }

    statement_body parse() {
        std::string_view kw = next("a statement keyword (" + std::string(keyword_list) + ")");
        if (kw == "platform") return parse_platform();
        if (kw == "as") return parse_as();
        if (kw == "read") return parse_reg_read();
        if (kw == "write") return parse_reg_write();
        if (kw == "read32" || kw == "read64") return parse_mem_read(kw == "read32" ? 32 : 64);
        if (kw == "write32" || kw == "write64") return parse_mem_write(kw == "write32" ? 32 : 64);
        if (kw == "run") return parse_run();
        if (kw == "power") return parse_power();
        if (kw == "security") return parse_security();
        if (kw == "freq") return parse_freq();
        if (kw == "workload") return parse_workload();
        if (kw == "inject") return parse_inject();
        if (kw == "expect") return parse_expect();
        if (kw == "wait") return parse_wait();
        if (kw == "reset") return parse_reset();
        if (kw == "print") return parse_print();
        if (kw == "print32" || kw == "print64") return parse_mem_print(kw == "print32" ? 32 : 64);
        if (kw == "let" || kw == "include" || kw == "repeat" || kw == "end")
            fail("a statement keyword", quoted(kw),
                 "'" + std::string(kw) + "' is a directive of sequence files (pmusim run), not of single lines");
        if (kw == "param") return parse_param();
        if (kw == "echo") return parse_echo();
        if (kw == "exec") return parse_exec();
        if (const unit_command* c = command_named(kw); c && c->old_spelling != unit_command::verb_first::no)
            return parse_command(*c, true);
        if (is_dotted_name(kw) && !at_end())
            if (const unit_command* c = command_named(peek())) return ++pos_, parse_command(*c, false);
        // `UNIT VERB` with an unknown verb reads like a misspelt keyword: one message for both.
        std::string detail;
        if (is_dotted_name(kw) && !at_end()) detail = quoted(peek()) + " is not a unit command either";
        pos_ = 0;
        fail(statement_starts(), quoted(kw), detail);
    }

private:
    // ---- token access -------------------------------------------------------
    bool at_end() const override { return pos_ >= toks_.size(); }
    std::string_view peek() const override { return at_end() ? std::string_view{} : toks_[pos_].text; }
    std::string found() const override { return at_end() ? "end of line" : quoted(toks_[pos_].text); }
    std::string take() override { return std::string(toks_[pos_++].text); }
    const std::string& file() const override { return file_; }
    unsigned line() const override { return line_no_; }

    // "after 'tokens consumed so far'", or "at the start of the line".
    std::string context() const override {
        if (pos_ == 0) return "at the start of the line";
        std::string s;
        for (size_t i = 0; i < pos_ && i < toks_.size(); ++i) {
            if (i) s += ' ';
            s += toks_[i].text;
        }
        return "after " + quoted(s);
    }

    [[noreturn]] void fail(std::string_view what, std::string_view found_text, std::string_view detail = {}) const override {
        fail_expected(file_, line_no_, what, context(), found_text, detail);
    }

    // Next token, or an error naming `what` at end of line.
    std::string_view next(std::string_view what) {
        if (at_end()) fail(what, "end of line");
        return toks_[pos_++].text;
    }
    // Consumes `word` if it is next.
    bool accept(std::string_view word) override {
        if (!at_end() && toks_[pos_].text == word) return ++pos_, true;
        return false;
    }
    void expect_end(std::string_view alternatives = {}) const override {
        if (at_end()) return;
        std::string what = alternatives.empty() ? "end of line" : std::string(alternatives) + " or end of line";
        fail(what, found());
    }

    // ---- operands -----------------------------------------------------------
    // A name bound with `let` or an expression; anything else gets parse_number's message.
    bool is_expression(std::string_view tok) const {
        return has_operator(tok) || (names_ && is_value_name(tok) && names_->count(tok));
    }
    // An operand written with spaces ("DSU + 8 * n") spans several tokens: it continues while a
    // token ends with a binary operator or the next one starts with one ("->" is no operator).
    static bool ends_with_operator(std::string_view t) {
        return !t.empty() && std::string_view("+-*/%<>&|^").find(t.back()) != std::string_view::npos;
    }
    static bool starts_with_operator(std::string_view t) {
        return t != "->" && !t.empty() && std::string_view("+-*/%<>&|^").find(t.front()) != std::string_view::npos;
    }
    uint64_t number(std::string_view what = "a number") override {
        if (at_end()) fail(what, "end of line");
        size_t last = pos_;
        while (last + 1 < toks_.size() &&
               (ends_with_operator(toks_[last].text) || starts_with_operator(toks_[last + 1].text)))
            ++last;
        const size_t begin = size_t(toks_[pos_].text.data() - code_.data());
        std::string_view tok = code_.substr(begin, toks_[last].end - begin);
        static const name_table no_names;
        uint64_t v = last > pos_ || is_expression(tok)
                         ? evaluate(tok, names_ ? *names_ : no_names, file_, line_no_, context())
                         : values::parse_integer(tok, file_, line_no_, context());
        pos_ = last + 1;
        return v;
    }
    uint64_t duration() {
        if (at_end()) fail("a duration (e.g. 10us)", "end of line");
        uint64_t v = values::parse_duration_fs(peek(), file_, line_no_, context());
        ++pos_;
        return v;
    }
    // A number for a data operand ("value" or "mask") of a width-bit access.
    uint64_t value_of_width(unsigned width, std::string_view noun) {
        std::string what = "a " + std::string(noun);
        if (width == 32 && !at_end()) {
            std::string ctx = context();
            std::string_view tok = peek();
            uint64_t v = number(what);
            if (v > 0xFFFF'FFFFu)
                fail_expected(file_, line_no_, "a 32-bit " + std::string(noun), ctx, quoted(tok),
                              "read32/write32 data must fit in 32 bits");
            return v;
        }
        return number(what);
    }
    unsigned cpu_index() override {
        std::string_view t = peek();
        bool ok = t.size() > 3 && t.substr(0, 3) == "cpu" &&
                  std::all_of(t.begin() + 3, t.end(), is_digit) && !(t.size() > 4 && t[3] == '0');
        uint64_t idx = 0;
        if (ok) {
            const auto index = values::scan_integer(t.substr(3));
            ok = index && index.value <= std::numeric_limits<unsigned>::max();
            idx = index.value;
        }
        if (!ok) fail("cpuN (cpu followed by a decimal index, e.g. cpu0)", found());
        ++pos_;
        return static_cast<unsigned>(idx);
    }
    std::string name(std::string_view what, bool (*valid)(std::string_view)) {
        if (at_end() || !valid(peek())) fail(what, found());
        return std::string(toks_[pos_++].text);
    }
    std::string reg() { return name("a register name (letters, digits, _ . < >)", is_reg_name); }
    std::string clock() { return name("a clock name (e.g. cpu0, const, dsu0, cmn0, tb)", is_dotted_name); }
    std::string irq_line() { return name("an interrupt line name", is_dotted_name); }
    irq_level level() {
        if (accept("high")) return irq_level::high;
        if (accept("low")) return irq_level::low;
        fail("high or low", found());
    }

    std::optional<access_outcome> outcome() {
        if (!accept("->")) return std::nullopt;
        const char* what = "an outcome (ok, trap el1, trap el2, trap el3, undefined, error, ignored)";
        std::string_view t = peek();
        if (t == "ok") return ++pos_, access_outcome::ok;
        if (t == "undefined") return ++pos_, access_outcome::undefined;
        if (t == "error") return ++pos_, access_outcome::error;
        if (t == "ignored") return ++pos_, access_outcome::ignored;
        if (t == "trap") {
            ++pos_;
            if (accept("el1")) return access_outcome::trap_el1;
            if (accept("el2")) return access_outcome::trap_el2;
            if (accept("el3")) return access_outcome::trap_el3;
            fail("el1, el2 or el3", found());
        }
        fail(what, found());
    }

    // [== VALUE [mask M]] [-> OUTCOME] for read and read32/read64.
    void read_tail(unsigned width, std::optional<value_check>& check, std::optional<access_outcome>& out) {
        if (accept("==")) {
            value_check c;
            c.value = value_of_width(width, "value");
            if (accept("mask")) {
                c.mask = value_of_width(width, "mask");
                c.has_mask = true;
            }
            check = c;
        }
        if (peek() == "mask")
            fail(check ? "'-> OUTCOME' or end of line" : "'== VALUE', '-> OUTCOME' or end of line", found(),
                 check ? "mask given twice" : "'mask M' is only allowed after '== VALUE'");
        size_t arrow = pos_;
        out = outcome();
        if (check && out && *out != access_outcome::ok) {
            pos_ = arrow + 1;
            fail("ok", quoted(to_string(*out)), "a value check '== VALUE' needs a read that succeeds");
        }
        if (out) expect_end();
        else if (!check) expect_end("'== VALUE', '-> OUTCOME'");
        else expect_end(check->has_mask ? "'-> OUTCOME'" : "'mask M', '-> OUTCOME'");
    }

    // ---- statements ---------------------------------------------------------
    platform_decl parse_platform() {
        platform_decl s{std::string(next("a platform name or path"))};
        expect_end();
        return s;
    }

    statement_body parse_as() {
        if (at_end()) fail("cpuN or debug", "end of line");
        if (accept("debug")) {
            as_debug s;
            if (accept("secure")) s.security = security_state::secure;
            else if (accept("nonsecure")) s.security = security_state::nonsecure;
            expect_end(s.security ? "" : "secure, nonsecure");
            return s;
        }
        if (peek().substr(0, 3) != "cpu") fail("cpuN or debug", found());
        as_cpu s;
        s.cpu = cpu_index();
        while (!at_end()) {
            std::string_view w = peek();
            bool arm_word = w == "el0" || w == "el1" || w == "el2" || w == "el3" || w == "secure" ||
                            w == "nonsecure" || w == "guest";
            bool power_word = w == "user" || w == "os" || w == "hv";
            if (!arm_word && !power_word)
                fail("el0, el1, el2, el3, secure, nonsecure, guest, user, os, hv or end of line", found());
            const char* no_mix = "a POWER privilege user/os/hv cannot be combined with an Arm EL, security state or guest";
            if (arm_word && s.privilege) fail("end of line", found(), no_mix);
            if (power_word && (s.el || s.security || s.guest))
                fail("an Arm word (el0-el3, secure, nonsecure, guest) or end of line", found(), no_mix);
            if (power_word) {
                if (s.privilege) fail("end of line", found(), "one privilege at most");
                s.privilege = w == "user" ? power_privilege::user : w == "os" ? power_privilege::os : power_privilege::hv;
            } else if (w[0] == 'e') {
                if (s.el) fail("secure, nonsecure, guest or end of line", found(), "at most one exception level");
                unsigned el = unsigned(w[2] - '0');
                if (el == 3 && s.security == security_state::nonsecure)
                    fail("el0, el1 or el2 with nonsecure", found(), "EL3 is always Secure");
                if (el == 3 && s.guest) fail("el0, el1 or el2 with guest", found(), "EL3 cannot be a guest");
                s.el = el;
            } else if (w == "guest") {
                if (s.guest) fail("guest at most once", found());
                if (s.el == 3u) fail("no guest with el3", found(), "EL3 cannot be a guest");
                s.guest = true;
            } else {
                if (s.security) fail("at most one of secure, nonsecure", found());
                if (w == "nonsecure" && s.el == 3u) fail("secure or no security word with el3", found(), "EL3 is always Secure");
                s.security = w == "secure" ? security_state::secure : security_state::nonsecure;
            }
            ++pos_;
        }
        return s;
    }

    reg_read parse_reg_read() {
        reg_read s;
        s.reg = reg();
        read_tail(64, s.check, s.outcome);
        return s;
    }

    reg_write parse_reg_write() {
        reg_write s;
        s.reg = reg();
        // An event name for an event-type register (the runner looks it up in the unit's event list).
        if (s.reg.find("EVTYPER") != std::string::npos && is_value_name(peek()) && !(names_ && names_->count(peek())) &&
            !std::isdigit(static_cast<unsigned char>(peek().front())))
            s.event = take();
        else
            s.value = number();
        if (accept("mask")) {
            std::string ctx = context();
            std::string_view tok = peek();
            s.mask = number("a mask");
            if (s.value & ~*s.mask)
                fail_expected(file_, line_no_, "a mask covering every bit VALUE sets", ctx, quoted(tok),
                              "VALUE " + hex(s.value) + " sets bits outside the mask; they would not be written");
        }
        if (peek() == "mask") fail("'-> OUTCOME' or end of line", found(), "mask given twice");
        s.outcome = outcome();
        expect_end(s.outcome ? "" : s.mask ? "'-> OUTCOME'" : "'mask M', '-> OUTCOME'");
        return s;
    }

    mem_read parse_mem_read(unsigned width) {
        mem_read s;
        s.width = width;
        s.address = number("an address");
        read_tail(width, s.check, s.outcome);
        return s;
    }

    mem_write parse_mem_write(unsigned width) {
        mem_write s;
        s.width = width;
        s.address = number("an address");
        s.value = value_of_width(width, "value");
        s.outcome = outcome();
        expect_end(s.outcome ? "" : "'-> OUTCOME'");
        return s;
    }

    statement_body parse_run() {
        std::string_view t = peek();
        if (at_end() || (!is_digit(t[0]) && !is_expression(t)))
            fail("a cycle count (N cycles) or a duration (e.g. 10us)", found());
        bool plain = (t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) ||
                     std::all_of(t.begin(), t.end(), [](char c) { return is_digit(c) || c == '_'; }) ||
                     is_expression(t);
        if (!plain) {
            run_time s{duration()};
            expect_end();
            return s;
        }
        run_cycles s;
        s.cycles = number();
        if (!accept("cycles"))
            fail("'cycles'", found(), "for a duration write the unit right after the number, e.g. 10us");
        if (accept("of")) s.clock = clock();
        expect_end(s.clock ? "" : "'of CLOCK'");
        return s;
    }

    exec_firmware parse_exec() {
        exec_firmware s;
        s.cpu = cpu_index();
        if (peek().size() == 3 && peek().substr(0, 2) == "el" && peek()[2] >= '0' && peek()[2] <= '3')
            s.el = unsigned(next("el0..el3")[2] - '0');
        if (accept("secure")) s.security = security_state::secure;
        else if (accept("nonsecure")) s.security = security_state::nonsecure;
        if (s.el == 3 && s.security == security_state::nonsecure)
            fail("secure or the ELF file (EL3 is always Secure)", "'nonsecure'");
        if (at_end()) fail("an ELF file name", "end of line");
        s.file = std::string(next("an ELF file name"));
        if (accept("nowait")) s.nowait = true;
        expect_end("nowait");
        return s;
    }

    set_power parse_power() {
        set_power s;
        s.cpu = cpu_index();
        if (accept("run")) s.state = cpu_power_state::run;
        else if (accept("wfi")) s.state = cpu_power_state::wfi;
        else if (accept("wfe")) s.state = cpu_power_state::wfe;
        else if (accept("off")) s.state = cpu_power_state::off;
        else fail("run, wfi, wfe or off", found());
        expect_end();
        return s;
    }

    set_security parse_security() {
        set_security s;
        s.cpu = cpu_index();
        if (accept("secure")) s.state = security_state::secure;
        else if (accept("nonsecure")) s.state = security_state::nonsecure;
        else fail("secure or nonsecure", found());
        expect_end();
        return s;
    }

    set_freq parse_freq() {
        set_freq s;
        s.clock = clock();
        if (at_end()) fail("a frequency (e.g. 1.5GHz)", "end of line");
        s.hz = values::parse_frequency_hz(peek(), file_, line_no_, context());
        ++pos_;
        expect_end();
        return s;
    }

    set_workload parse_workload() {
        set_workload s;
        s.cpu = cpu_index();
        if (at_end()) fail("KEY=RATE (e.g. inst=1)", "end of line");
        std::unordered_set<std::string_view> keys; // views into this line, which outlives the loop
        while (!at_end()) {
            std::string_view t = peek();
            size_t eq = t.find('=');
            if (eq == std::string_view::npos) fail("KEY=RATE (e.g. inst=1)", found());
            std::string_view key = t.substr(0, eq);
            if (!is_workload_key(key)) fail("KEY=RATE with KEY made of a-z, 0-9 and _", found());
            if (!keys.insert(key).second) fail("each workload key at most once", found(), "duplicate key " + quoted(key));
            // The context names every token before this one: built only for the message, or a
            // statement of n keys would cost n^2 (160000 keys took minutes; docs/reliability.md).
            const std::string_view rate = t.substr(eq + 1);
            const auto scanned = values::scan_rational(rate);
            rational r = scanned ? *scanned
                                 : values::parse_rational(rate, file_, line_no_, "for " + quoted(key) + " " + context());
            s.rates.emplace_back(std::string(key), r);
            ++pos_;
        }
        return s;
    }

    inject_events parse_inject() {
        inject_events s;
        std::string target = name("UNIT or UNIT.NODE (e.g. cmn0.xp3)", is_dotted_name);
        size_t dot = target.find('.');
        s.unit = target.substr(0, dot);
        if (dot != std::string::npos) s.node = target.substr(dot + 1);
        s.event = name("an event (a number or a name)", is_reg_name);
        s.count = number("a count");
        if (accept("over")) s.over_fs = duration();
        expect_end(s.over_fs ? "" : "'over DURATION'");
        return s;
    }

    // UNIT VERB ARGS..., or verb first (`traffic cmn0 ARGS...`, `opal ARGS...`): the verb or
    // the unit has been read; the command's own parser reads the arguments.
    command_call parse_command(const unit_command& c, bool verb_first) {
        command_call s;
        s.verb = c.verb;
        s.verb_first = verb_first;
        if (!verb_first) s.unit = std::string(toks_[0].text);
        else if (c.old_spelling == unit_command::verb_first::with_unit)
            s.unit = name("a unit (e.g. cmn0)", is_dotted_name);
        s.args = c.parse(*this);
        expect_end();
        return s;
    }

    expect_irq parse_expect() {
        if (!accept("irq")) fail("'irq'", found());
        expect_irq s;
        s.line = irq_line();
        s.level = level();
        expect_end();
        return s;
    }

    wait_irq parse_wait() {
        if (!accept("irq")) fail("'irq'", found());
        wait_irq s;
        s.line = irq_line();
        s.level = level();
        if (accept("timeout")) s.timeout_fs = duration();
        expect_end(s.timeout_fs ? "" : "'timeout DURATION'");
        return s;
    }

    do_reset parse_reset() {
        do_reset s;
        if (accept("cold")) s.kind = reset_kind::cold;
        else if (accept("warm")) s.kind = reset_kind::warm;
        else fail("cold or warm", found());
        expect_end();
        return s;
    }

    mem_read parse_mem_print(unsigned width) {
        mem_read s;
        s.width = width;
        s.print = true;
        s.address = number("an address");
        expect_end();
        return s;
    }

    print_reg parse_print() {
        if (!at_end() && (is_digit(peek()[0]) || peek()[0] == '('))
            fail("a register name", found(), "for a memory address write print32 ADDR or print64 ADDR");
        print_reg s{reg()};
        expect_end();
        return s;
    }

    print_param parse_param() {
        print_param s{name("a parameter name (e.g. cmn0.periphbase)", is_dotted_name)};
        expect_end();
        return s;
    }

    echo_text parse_echo() {
        std::string_view rest = code_.substr(toks_[0].end);
        while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
        while (!rest.empty() && is_space(rest.back())) rest.remove_suffix(1);
        pos_ = toks_.size();
        return echo_text{std::string(rest)};
    }

    const std::string& file_;
    unsigned line_no_;
    const name_table* names_; // for expressions; null: no names bound
    std::string_view code_; // the line without its comment
    std::vector<token> toks_;
    size_t pos_ = 0;
};

} // namespace

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

std::optional<statement> parse_line(std::string_view line, const std::string& file, unsigned line_no,
                                    const name_table* names) {
    line_parser p(line, file, line_no, names);
    if (p.blank()) return std::nullopt;
    return statement{file, line_no, p.parse(), {}};
}

std::string location(const statement& s) {
    // Line 0: a statement made from the command line (`pmusim firmware FILE`), named by its file alone.
    return s.file + (s.line ? ":" + std::to_string(s.line) : std::string()) + (s.origin ? *s.origin : std::string());
}

// ---------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------

namespace {

std::string outcome_suffix(const std::optional<access_outcome>& o) {
    return o ? " -> " + std::string(to_string(*o)) : std::string();
}
std::string check_text(const std::optional<value_check>& c) {
    if (!c) return {};
    std::string s = " == " + hex(c->value);
    if (c->has_mask) s += " mask " + hex(c->mask);
    return s;
}
std::string security_text(security_state s) { return s == security_state::secure ? "secure" : "nonsecure"; }
std::string level_text(irq_level l) { return l == irq_level::high ? "high" : "low"; }

struct printer {
    std::string operator()(const platform_decl& s) const { return "platform " + s.name; }
    std::string operator()(const as_cpu& s) const {
        std::string r = "as cpu" + std::to_string(s.cpu);
        if (s.el) r += " el" + std::to_string(*s.el);
        if (s.security) r += " " + security_text(*s.security);
        if (s.guest) r += " guest";
        if (s.privilege)
            r += s.privilege == power_privilege::user ? " user" : s.privilege == power_privilege::os ? " os" : " hv";
        return r;
    }
    std::string operator()(const as_debug& s) const {
        return s.security ? "as debug " + security_text(*s.security) : std::string("as debug");
    }
    std::string operator()(const reg_read& s) const { return "read " + s.reg + check_text(s.check) + outcome_suffix(s.outcome); }
    std::string operator()(const reg_write& s) const {
        return "write " + s.reg + " " + (s.event.empty() ? hex(s.value) : s.event) + (s.mask ? " mask " + hex(*s.mask) : "") +
               outcome_suffix(s.outcome);
    }
    std::string operator()(const mem_read& s) const {
        if (s.print) return "print" + std::to_string(s.width) + " " + hex(s.address);
        return "read" + std::to_string(s.width) + " " + hex(s.address) + check_text(s.check) + outcome_suffix(s.outcome);
    }
    std::string operator()(const mem_write& s) const {
        return "write" + std::to_string(s.width) + " " + hex(s.address) + " " + hex(s.value) + outcome_suffix(s.outcome);
    }
    std::string operator()(const run_cycles& s) const {
        return "run " + std::to_string(s.cycles) + " cycles" + (s.clock ? " of " + *s.clock : std::string());
    }
    std::string operator()(const run_time& s) const { return "run " + values::format_duration(s.duration_fs, values::exact); }
    std::string operator()(const set_power& s) const {
        static const char* names[] = {"run", "wfi", "wfe", "off"};
        return "power cpu" + std::to_string(s.cpu) + " " + names[static_cast<int>(s.state)];
    }
    std::string operator()(const set_security& s) const {
        return "security cpu" + std::to_string(s.cpu) + (s.state == security_state::secure ? " secure" : " nonsecure");
    }
    std::string operator()(const set_freq& s) const { return "freq " + s.clock + " " + values::format_frequency(s.hz, values::exact); }
    std::string operator()(const set_workload& s) const {
        std::string r = "workload cpu" + std::to_string(s.cpu);
        for (auto& kv : s.rates) r += " " + kv.first + "=" + kv.second.str();
        return r;
    }
    std::string operator()(const inject_events& s) const {
        std::string r = "inject " + s.unit + (s.node ? "." + *s.node : std::string()) + " " + s.event + " " +
                        std::to_string(s.count);
        if (s.over_fs) r += " over " + values::format_duration(*s.over_fs, values::exact);
        return r;
    }
    std::string operator()(const expect_irq& s) const { return "expect irq " + s.line + " " + level_text(s.level); }
    std::string operator()(const wait_irq& s) const {
        std::string r = "wait irq " + s.line + " " + level_text(s.level);
        if (s.timeout_fs) r += " timeout " + values::format_duration(*s.timeout_fs, values::exact);
        return r;
    }
    std::string operator()(const do_reset& s) const { return s.kind == reset_kind::cold ? "reset cold" : "reset warm"; }
    std::string operator()(const print_reg& s) const { return "print " + s.reg; }
    std::string operator()(const print_param& s) const { return "param " + s.name; }
    std::string operator()(const echo_text& s) const { return s.text.empty() ? "echo" : "echo " + s.text; }
    std::string operator()(const command_call& s) const {
        std::string r = s.verb_first ? s.verb + (s.unit.empty() ? "" : " " + s.unit) : s.unit + " " + s.verb;
        for (const auto& w : s.args) r += " " + w;
        return r;
    }
    std::string operator()(const exec_firmware& s) const {
        std::string r = "exec cpu" + std::to_string(s.cpu) + " el" + std::to_string(s.el);
        if (s.security) r += s.security == security_state::secure ? " secure" : " nonsecure";
        return r + " " + s.file + (s.nowait ? " nowait" : "");
    }
};

struct keyword_of {
    std::string_view operator()(const platform_decl&) const { return "platform"; }
    std::string_view operator()(const as_cpu&) const { return "as"; }
    std::string_view operator()(const as_debug&) const { return "as"; }
    std::string_view operator()(const reg_read&) const { return "read"; }
    std::string_view operator()(const reg_write&) const { return "write"; }
    std::string_view operator()(const mem_read& s) const {
        if (s.print) return s.width == 32 ? "print32" : "print64";
        return s.width == 32 ? "read32" : "read64";
    }
    std::string_view operator()(const mem_write& s) const { return s.width == 32 ? "write32" : "write64"; }
    std::string_view operator()(const run_cycles&) const { return "run"; }
    std::string_view operator()(const run_time&) const { return "run"; }
    std::string_view operator()(const set_power&) const { return "power"; }
    std::string_view operator()(const set_security&) const { return "security"; }
    std::string_view operator()(const set_freq&) const { return "freq"; }
    std::string_view operator()(const set_workload&) const { return "workload"; }
    std::string_view operator()(const inject_events&) const { return "inject"; }
    std::string_view operator()(const expect_irq&) const { return "expect"; }
    std::string_view operator()(const wait_irq&) const { return "wait"; }
    std::string_view operator()(const do_reset&) const { return "reset"; }
    std::string_view operator()(const print_reg&) const { return "print"; }
    std::string_view operator()(const print_param&) const { return "param"; }
    std::string_view operator()(const echo_text&) const { return "echo"; }
    std::string_view operator()(const command_call& s) const { return s.verb; }
    std::string_view operator()(const exec_firmware&) const { return "exec"; }
};

} // namespace

std::string to_string(const statement_body& body) { return std::visit(printer{}, body); }
std::string_view keyword(const statement_body& body) { return std::visit(keyword_of{}, body); }

} // namespace pmusim::seq
