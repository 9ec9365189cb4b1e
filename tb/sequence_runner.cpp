#include "tb/sequence_runner.h"

#include <cstring>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <thread>

#include "iss/aarch64_iss.h"
#include "vp/platform_iss.h"
#include "models/input_error.h"
#include <filesystem>
#include "models/input_file.h"
#include "models/limits.h"
#include "models/unit_command.h"
#include "models/register_access.h"
#include "tb/name_check.h"

namespace pmusim {

using namespace sc_core;

namespace {

template <class... Ts> struct overloaded : Ts... { using Ts::operator()...; };
template <class... Ts> overloaded(Ts...) -> overloaded<Ts...>;

// Simulated time is 2^64 fs (about 5.1 h) at most (models/sim_time.h): a statement that would
// end beyond it is bad input, refused before time moves (docs/reliability.md "Limits").
std::string beyond_time_limit(const std::string& what) {
    return fmt::format("{} would end after {}, the last instant pmusim can represent (2^64 fs); now {}", what,
                       format_time(fs_never - 1), format_time(now_fs()));
}

// The sequence statement a firmware step stands for: the runner performs it as that statement.
seq::statement_body statement_of(const firmware_access& a) {
    switch (a.what) {
    case firmware_access::kind::run_as: {
        seq::as_cpu as;
        as.cpu = a.cpu;
        if (a.hypervisor) as.privilege = seq::power_privilege::hv;
        else as.el = a.el;
        return as;
    }
    case firmware_access::kind::sysreg_read: return seq::reg_read{a.reg, std::nullopt, std::nullopt};
    case firmware_access::kind::sysreg_write: return seq::reg_write{a.reg, a.value, a.mask, std::nullopt, {}};
    case firmware_access::kind::mem_write: return seq::mem_write{a.width, a.address, a.value, std::nullopt};
    }
    throw model_error("unknown firmware step");
}

std::string serve_word(access_outcome o) {
    switch (o) {
    case access_outcome::ok: return "OK";
    case access_outcome::trap_el1: return "TRAP el1";
    case access_outcome::trap_el2: return "TRAP el2";
    case access_outcome::trap_el3: return "TRAP el3";
    case access_outcome::undefined: return "UNDEFINED";
    case access_outcome::error: return "ERROR";
    case access_outcome::ignored: return "IGNORED";
    }
    return "ERROR";
}

} // namespace

sequence_runner::sequence_runner(const sc_module_name& name, platform& p, run_recorder& recorder)
    : sc_module(name), to_gate("to_gate"), platform_(p), rec_(recorder) {
    to_gate.bind(p.gate().from_initiators);
    ctx_.initiator = initiator_kind::cpu;
    ctx_.cpu = 0;
    ctx_.is_power = p.config().arch == arch_kind::power;
    ctx_.el = 1;
    ctx_.privilege = power_privilege::supervisor;
    for (auto& [name, line] : p.system().irq_lines) {
        interrupt_line* l = line.get();
        l->on_edge([this, l](bool level, fs_t t) {
            irq_events_.push_back(fmt::format("{} {}@{}", l->name(), level ? "high" : "low", format_time(t)));
            rec_.line(fmt::format("[{}] irq {} {}", format_time(t), l->name(), level ? "high" : "low"));
            nlohmann::json j{{"time_fs", t}, {"time", format_time(t)}, {"op", "irq"}, {"irq", l->name()},
                             {"level", level ? "high" : "low"}};
            rec_.irq_edge(j);
            if (rec_.vcd) rec_.vcd->sample(t);
        });
    }
    p.on_firmware_exit = [this](unsigned cpu, fs_t t) {
        exited_[cpu] = t;
        exit_due_.notify(to_sc_time(t - std::min(t, now_fs()))); // an earlier instant overrides a later one
    };
    SC_HAS_PROCESS(sequence_runner);
    SC_THREAD(thread);
    SC_METHOD(power_off_exited_cpus);
    sensitive << exit_due_;
    dont_initialize();
}

void sequence_runner::power_off_exited_cpus() {
    const fs_t now = now_fs();
    for (auto it = exited_.begin(); it != exited_.end();) {
        if (it->second > now) {
            exit_due_.notify(to_sc_time(it->second - now));
            ++it;
            continue;
        }
        platform_.system().core(it->first).set_power(power_state::off, now);
        it = exited_.erase(it);
    }
}

served_line parse_served_line(const std::string& text, const std::string& file, unsigned line_no) {
    served_line out;
    std::exception_ptr unexpected;
    std::thread parser([&] {
        try {
            out.statement = seq::parse_line(text, file, line_no);
        } catch (const input_error& e) {
            out.error = e.message();
        } catch (...) {
            unexpected = std::current_exception();
        }
    });
    parser.join();
    if (unexpected) std::rethrow_exception(unexpected);
    return out;
}

sequence_runner::~sequence_runner() { platform_.on_firmware_exit = nullptr; }

void sequence_runner::load(std::vector<seq::statement> statements) {
    statements_ = std::move(statements);
    for (const auto& st : statements_)
        if (!st.origin) {
            top_file_ = st.file; // the file given to pmusim (included files' statements have an origin)
            break;
        }
    // Every name, before the simulation starts (a typo must not cost a long run).
    check_names(statements_, platform_);
    // An ISS is a SystemC module: created before the simulation starts, one per CPU that runs firmware.
    for (const auto& st : statements_)
        if (auto* e = std::get_if<seq::exec_firmware>(&st.body))
            if (e->cpu < platform_.system().cores.size() && platform_.config().arch == arch_kind::arm && !iss_.count(e->cpu))
                iss_[e->cpu] = make_platform_iss(fmt::format("iss_cpu{}", e->cpu), platform_, rec_, e->cpu);
}

aarch64_iss* sequence_runner::iss(unsigned cpu) const {
    auto it = iss_.find(cpu);
    return it == iss_.end() ? nullptr : it->second.get();
}

sequence_runner::result sequence_runner::exec(const seq::statement& s, const seq::exec_firmware& e) {
    auto bad = [&](const std::string& msg) { return result{verdict::bad_input, "ERR " + msg, fmt::format("{}: {}", where(s), msg)}; };
    if (platform_.config().arch != arch_kind::arm) return bad("exec runs AArch64 firmware: the platform is not arch arm");
    if (e.cpu >= platform_.system().cores.size())
        return bad(fmt::format("no cpu{} on platform {}", e.cpu, platform_.config().name));
    aarch64_iss* iss = this->iss(e.cpu);
    if (!iss) return bad("exec is not available in serve mode (the ISS is created before the simulation starts)");
    // A relative path is relative to the sequence file's folder; that of `pmusim firmware FILE`
    // (line 0, the statement's file is the ELF itself) to the working directory.
    std::filesystem::path file(e.file);
    if (file.is_relative() && s.line != 0 && !s.file.empty() && s.file.front() != '<')
        file = std::filesystem::path(s.file).parent_path() / file;
    bool secure = e.el == 3 || e.security.value_or(seq::security_state::nonsecure) == seq::security_state::secure;
    try {
        iss->start(file.string(), e.el, secure, firmware_time_limit_);
    } catch (const input_error& err) {
        // `pmusim firmware FILE` (line 0): the message names the ELF already.
        if (s.line == 0) return result{verdict::bad_input, "ERR " + std::string(err.what()), err.what()};
        return bad(err.what());
    }
    if (e.nowait) {
        nowait_.push_back({s, iss});
        result r;
        r.answer = "OK";
        return r;
    }
    return firmware_result_of(s, *iss);
}

sequence_runner::result sequence_runner::firmware_result_of(const seq::statement& s, aarch64_iss& iss) {
    while (iss.running()) wait(iss.finished());
    // The sequence goes on once the firmware's last instruction has retired and its CPU is off.
    if (auto it = exited_.find(iss.cpu()); it != exited_.end() && it->second > now_fs()) wait(to_sc_time(it->second - now_fs()));
    power_off_exited_cpus();
    const firmware_result& fr = iss.result();
    result r;
    r.answer = "OK";
    if (fr.exit_code == exit_bad_input) {
        r.v = verdict::bad_input;
        r.message = fr.message;
        return r;
    }
    if (fr.exit_code == exit_model_error) throw model_error(fr.message);
    bool ok = fr.s == firmware_result::state::passed;
    if (!ok) {
        r.v = verdict::failed;
        r.message = fmt::format("{}: firmware {}", where(s), fr.message);
        r.answer = "FAIL " + r.message;
        rec_.line("FAIL " + r.message);
        std::cerr << r.message << '\n';
    }
    return r; // its testcase: record_testcase (a firmware's exit status is an expectation)
}

void sequence_runner::serve(std::istream& in, std::ostream& out) {
    serve_in_ = &in;
    serve_out_ = &out;
}

std::string sequence_runner::where(const seq::statement& s) const { return seq::location(s); }

// The rule for what a JUnit testcase is (docs/sequence-language.md, "JUnit"): a statement that
// accesses a register or memory (its outcome is an expectation, `-> ok` when not written) or
// checks an interrupt line; any statement refused as bad input.
void sequence_runner::record_testcase(const seq::statement& s, const result& r) {
    if (r.v == verdict::bad_input) {
        rec_.error(testcase_name(), "input error", r.message, now_fs());
        return;
    }
    const bool checks = std::visit(
        overloaded{[](const seq::reg_read&) { return true; }, [](const seq::print_reg&) { return true; },
                   [](const seq::reg_write&) { return true; }, [](const seq::mem_read&) { return true; },
                   [](const seq::mem_write&) { return true; },
                   [](const seq::command_call& c) {
                       const unit_command* command = find_command_verb(c.verb);
                       return command && command->makes_accesses;
                   },
                   [](const seq::expect_irq&) { return true; }, [](const seq::wait_irq&) { return true; },
                   [](const seq::exec_firmware&) { return true; },
                   [](const auto&) { return false; }},
        s.body);
    if (checks) rec_.expectation(testcase_name_of(s), r.v == verdict::ok, r.message, now_fs());
}

std::string sequence_runner::testcase_name() const {
    if (!current_) return "firmware boot"; // the only statements run outside a file's or a session's
    return testcase_name_of(*current_);
}

// "[LABEL: ][FILE: ]STATEMENT": FILE when the statement is in an included file. No line number, so
// that adding a line renames nothing; each repeat iteration gets " (2)", " (3)"... from the recorder.
std::string sequence_runner::testcase_name_of(const seq::statement& s) const {
    std::string name = s.label ? *s.label + ": " : std::string();
    if (s.file != top_file_) name += s.file + ": ";
    return name + seq::to_string(s.body);
}

std::string sequence_runner::time_note() const {
    fs_t t = now_fs();
    std::string note = "at " + format_time(t);
    if (ctx_.initiator == initiator_kind::cpu && ctx_.cpu < platform_.system().cores.size())
        note += fmt::format(" (cpu{} cycle {})", ctx_.cpu, platform_.system().core(ctx_.cpu).clock().edges_at(t));
    return note;
}

void sequence_runner::sample() {
    if (rec_.vcd) rec_.vcd->sample(now_fs());
}

void sequence_runner::run_firmware_boot() {
    run_firmware(platform_.firmware_boot(), "firmware:" + platform_.system().firmware_profile);
}

void sequence_runner::run_firmware(const firmware_code& code, const std::string& file) {
    access_context saved = ctx_;
    size_t failed = 0;
    result r = perform(code, file, &failed);
    if (r.v != verdict::ok)
        throw model_error(fmt::format("firmware step '{}' ({}) failed: {}", to_string(code[failed]), file, r.message));
    ctx_ = saved;
}

sequence_runner::result sequence_runner::perform(const firmware_code& code, const std::string& file, size_t* failed) {
    for (size_t n = 0; n < code.size(); ++n) {
        result r = execute(seq::statement{file, unsigned(n + 1), statement_of(code[n])});
        if (r.v == verdict::ok) continue;
        if (failed) *failed = n;
        return r;
    }
    result done;
    done.answer = "OK";
    return done;
}

void sequence_runner::boot_embedded() {
    embedded_ = true;
    run_firmware_boot();
}

void sequence_runner::thread() {
    if (embedded_) return;
    try {
        if (!skip_boot_) run_firmware_boot();
        if (serve_in_) {
            std::string text;
            unsigned line_no = 0;
            for (line_read got; (got = getline_bounded(*serve_in_, text, limits::max_served_line_bytes)) != line_read::end;) {
                ++line_no;
                if (got == line_read::too_long) {
                    // The rest of an endless line cannot be skipped in bounded time: the session ends.
                    error_ = fmt::format("<stdin>:{}: line longer than {} bytes (docs/reliability.md)", line_no,
                                         limits::max_served_line_bytes);
                    *serve_out_ << "ERR " << error_ << std::endl;
                    status_ = exit_bad_input;
                    break;
                }
                served_line parsed = parse_served_line(text, "<stdin>", line_no);
                rec_.statement_started(now_fs());
                if (parsed.error) {
                    *serve_out_ << "ERR " << *parsed.error << std::endl;
                    rec_.error(text, "input error",
                               fmt::format("<stdin>:{}: {}", line_no, *parsed.error), now_fs());
                    continue;
                }
                std::optional<seq::statement>& st = parsed.statement;
                if (!st) continue;
                irq_events_.clear();
                current_ = &*st;
                result r = execute(*st);
                record_testcase(*st, r);
                current_ = nullptr;
                std::string answer = r.answer;
                if (!irq_events_.empty() && r.v == verdict::ok)
                    for (const auto& e : irq_events_) answer += " irq " + e;
                *serve_out_ << answer << std::endl;
            }
        } else {
            for (const auto& st : statements_) {
                if (progress_) draw_progress(size_t(&st - statements_.data()), false);
                rec_.statement_started(now_fs());
                current_ = &st;
                result r = execute(st);
                record_testcase(st, r);
                if (r.v == verdict::bad_input) {
                    status_ = exit_bad_input;
                    error_ = r.message;
                    break;
                }
                if (r.v == verdict::failed) status_ = exit_failed;
            }
            // Firmware started with `nowait` ends before the run does (or at its time limit).
            for (auto& [st, iss] : nowait_) {
                if (status_ == exit_bad_input) break;
                result r = firmware_result_of(st, *iss);
                if (r.v == verdict::bad_input) {
                    status_ = exit_bad_input;
                    error_ = r.message;
                } else if (r.v == verdict::failed) {
                    status_ = exit_failed;
                }
            }
        }
    } catch (const input_error& e) {
        if (progress_) draw_progress(0, true);
        status_ = exit_bad_input;
        error_ = e.what();
        rec_.error(testcase_name(), "input error", error_, now_fs());
    } catch (const std::exception& e) {
        status_ = exit_model_error;
        error_ = std::string("model error: ") + e.what();
        rec_.error(testcase_name(), "model error", current_ ? where(*current_) + ": " + error_ : error_, now_fs());
    }
    if (progress_) draw_progress(0, true);
    sample();
    sc_stop();
}

void sequence_runner::draw_progress(size_t done, bool final) {
    if (final) {
        if (progress_drawn_) std::cerr << "\r\033[K" << std::flush; // erase the bar: the log stays clean
        progress_drawn_ = false;
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (progress_drawn_ ? now - progress_at_ < std::chrono::milliseconds(200) : now - progress_at_ < std::chrono::seconds(1))
        return; // the first draw after a second: short runs show no bar at all
    if (progress_at_ == std::chrono::steady_clock::time_point{}) {
        progress_at_ = now;
        return;
    }
    progress_at_ = now;
    progress_drawn_ = true;
    const size_t total = std::max<size_t>(1, statements_.size());
    const unsigned width = 30, filled = unsigned(width * done / total);
    std::cerr << fmt::format("\r\033[K[{}{}] {}/{} statements, simulated {}", std::string(filled, '#'),
                             std::string(width - filled, ' '), done, statements_.size(), format_time(now_fs()))
              << std::flush;
}

sequence_runner::access_result sequence_runner::bus_access(bool is_write, bool system_register, uint64_t address,
                                                           unsigned bytes, uint64_t value, const std::string& target,
                                                           const seq::statement& s) {
    const fs_t latency = platform_.config().latency.register_access_fs;
    if (latency > fs_never - 1 - now_fs()) {
        // The access would wrap simulated time: not made, and reported by execute() as bad input
        // (no exception on a SystemC thread's stack; checked before the payload exists, whose
        // destructor would free an extension still attached).
        time_overflow_ = beyond_time_limit("this access (latency.register_access " + format_time(latency) + ")");
        return {access_outcome::error, 0, time_overflow_, 0};
    }
    tlm::tlm_generic_payload trans;
    access_context ctx = ctx_;
    ctx.path = system_register ? access_path::system_register : access_path::memory_mapped;
    ctx.outcome = access_outcome::ok;
    sc_time delay = to_sc_time(latency);
    rec_.begin_access();
    uint64_t data = value;
    transport_register(to_gate, trans, is_write, address, bytes, data, &ctx, delay);
    sample(); // the waveform shows what the access changed at its instant

    access_result r{outcome_of(trans, ctx), 0, ctx.detail, ctx.syndrome};
    if (!is_write && r.outcome == access_outcome::ok) r.value = data;
    if (r.outcome == access_outcome::error) r.detail = bus_error_detail(trans, ctx);

    access_record a;
    a.time_fs = now_fs();
    a.time = format_time(a.time_fs);
    a.file = s.file;
    a.line = s.line;
    a.context = ctx_.describe();
    a.op = is_write ? "write" : "read";
    a.target = target;
    a.outcome = to_string(r.outcome);
    if (system_register) a.encoding = sysreg_encoding::from_key(uint32_t(address)).generic_name();
    else a.address = fmt::format("{:#x}", address);
    if (is_write || r.outcome == access_outcome::ok) a.value = fmt::format("{:#x}", is_write ? value : r.value);
    if (r.syndrome) a.syndrome = fmt::format("{:#x}", r.syndrome);
    if (ctx_.initiator == initiator_kind::cpu && ctx_.cpu < platform_.system().cores.size())
        a.cpu_cycle = platform_.system().core(ctx_.cpu).clock().edges_at(a.time_fs); // edges of the accessor's clock
    if (!r.detail.empty()) a.detail = r.detail;
    rec_.access(a);
    // A write the unit completed but ignored (RAZ/WI beyond the implemented counters): silicon says
    // nothing, pmusim says it once per statement (docs/dsu_clusterpmu.md).
    if (is_write && r.outcome == access_outcome::ok && !r.detail.empty()) {
        const std::string where_text = fmt::format("{}:{}", s.file, s.line);
        rec_.line(fmt::format("NOTE {}: {}", where_text, r.detail));
        if (!serve_out_ && ignored_write_notes_.insert(where_text).second)
            std::cerr << fmt::format("pmusim: note: {}: {}\n", where_text, r.detail);
    }
    if (delay > SC_ZERO_TIME) wait(delay);
    return r;
}

sequence_runner::access_result sequence_runner::register_access(bool is_write, const resolved_register& reg,
                                                                uint64_t value, const seq::statement& s) {
    model_inputs* inputs = !reg.system_register && reg.owner && reg.def ? capability<model_inputs>(*reg.owner) : nullptr;
    if (inputs && inputs->is_model_input(*reg.def)) {
        access_result r{access_outcome::ok, value, "", 0};
        if (!inputs->testbench_input(*reg.def, is_write, r.value)) {
            r.outcome = access_outcome::error;
            r.detail = reg.display + " is a read-only model status";
        }
        access_record a;
        a.time_fs = now_fs();
        a.time = format_time(a.time_fs);
        a.file = s.file;
        a.line = s.line;
        a.context = "testbench";
        a.op = is_write ? "write" : "read";
        a.target = reg.display;
        a.outcome = to_string(r.outcome);
        a.value = fmt::format("{:#x}", r.value);
        rec_.access(a);
        return r;
    }
    const uint64_t where_to = reg.system_register ? reg.key : reg.address;
    return bus_access(is_write, reg.system_register, where_to, reg.width / 8, value, reg.display, s);
}

sequence_runner::result sequence_runner::check_outcome(const seq::statement& s, const std::string& what,
                                                       access_outcome expected, const access_result& r,
                                                       bool explicit_expectation) {
    result res;
    res.answer = serve_word(r.outcome);
    // Serving without `-> OUTCOME`, the answer just reports what happened.
    if (serve_out_ && !explicit_expectation) {
        if (r.outcome != access_outcome::ok) {
            res.v = verdict::failed;
            res.message = fmt::format("{}: {}: outcome {}{} {}", where(s), what, to_string(r.outcome),
                                      r.detail.empty() ? "" : " (" + r.detail + ")", time_note());
        }
        return res;
    }
    if (r.outcome == expected) {
        if (explicit_expectation) res.answer = "OK"; // an expected outcome, met
        return res;
    }
    res.v = verdict::failed;
    res.message = fmt::format("{}: {}: expected outcome {}, got {}{} {}", where(s), what, to_string(expected),
                              to_string(r.outcome), r.detail.empty() ? "" : " (" + r.detail + ")", time_note());
    rec_.line("FAIL " + res.message);
    if (!serve_out_) std::cerr << res.message << '\n';
    res.answer = (r.outcome == access_outcome::ok ? std::string("FAIL ") : serve_word(r.outcome) + " FAIL ") + res.message;
    if (serve_out_) res.answer = "FAIL " + res.message;
    return res;
}

sequence_runner::result sequence_runner::read_register(const seq::statement& s, const std::string& name,
                                                       const std::optional<seq::value_check>& check,
                                                       const std::optional<access_outcome>& expected, bool print) {
    unsigned cpu = ctx_.cpu;
    auto reg = platform_.resolve_register(name, cpu);
    if (!reg)
        return {verdict::bad_input, fmt::format("ERR unknown register '{}'", name),
                fmt::format("{}: unknown register '{}' for {}: expected a system register of this CPU "
                            "(e.g. {}), a generic S<op0>_<op1>_C<n>_C<m>_<op2> name, or INSTANCE.REG",
                            where(s), name, ctx_.describe(),
                            platform_.register_names(cpu).empty() ? "none" : platform_.register_names(cpu).front())};
    if (ctx_.initiator != initiator_kind::cpu && reg->system_register)
        return {verdict::bad_input, "ERR system registers need a CPU context",
                fmt::format("{}: {} is a system register; only `as cpuN` can access it", where(s), name)};
    access_result r = register_access(false, *reg, 0, s);
    result res = check_outcome(s, "read " + reg->display, expected.value_or(access_outcome::ok), r, expected.has_value());
    if (res.v != verdict::ok) return res;
    std::string decoded = reg->def ? decode_fields(*reg->def, r.value) : "";
    if (r.outcome == access_outcome::ok) res.answer = fmt::format("OK {:#x}", r.value);
    if (r.outcome != access_outcome::ok)
        rec_.line(fmt::format("[{}] {} read {} -> {}", format_time(now_fs()), ctx_.describe(), reg->display,
                              to_string(r.outcome)));
    else if (print || !check)
        rec_.line(fmt::format("[{}] {} read {} = {:#x}{}", format_time(now_fs()), ctx_.describe(), reg->display,
                              r.value, print && !decoded.empty() ? "  (" + decoded + ")" : ""));
    if (check && r.outcome == access_outcome::ok) {
        bool ok = (r.value & check->mask) == (check->value & check->mask);
        if (ok)
            rec_.line(fmt::format("[{}] {} read {} = {:#x} as expected", format_time(now_fs()), ctx_.describe(),
                                  reg->display, r.value));
        if (!ok) {
            res.v = verdict::failed;
            std::string exp_dec = reg->def ? decode_fields(*reg->def, check->value) : "";
            res.message = fmt::format("{}: read {}: expected {:#x}{}{}, got {:#x}{} {}", where(s), reg->display,
                                      check->value, check->has_mask ? fmt::format(" mask {:#x}", check->mask) : "",
                                      exp_dec.empty() ? "" : " (" + exp_dec + ")", r.value,
                                      decoded.empty() ? "" : " (" + decoded + ")", time_note());
            res.answer = "FAIL " + res.message;
            rec_.line("FAIL " + res.message);
            if (!serve_out_) std::cerr << res.message << '\n';
        }
    }
    return res;
}

// The unit is named, or (a command written without one, `opal ...`) the platform's first unit
// that has the command. The command's handler says what it refuses and which register and memory
// accesses it makes; they run here as the statements they stand for.
sequence_runner::result sequence_runner::run_command(const seq::statement& s, const seq::command_call& c) {
    auto bad = [&](std::string msg) { return result{verdict::bad_input, "ERR " + msg, fmt::format("{}: {}", where(s), msg)}; };
    unit* u = nullptr;
    if (c.unit.empty()) {
        for (unit* candidate : platform_.units())
            if (!u && find_unit_command(candidate->type(), c.verb)) u = candidate;
        if (!u)
            return bad(fmt::format("{}{}: no unit of platform {} serves this call", c.verb,
                                   c.args.empty() ? "" : " " + c.args.front(), platform_.config().name));
    } else {
        u = platform_.find_unit(c.unit);
        if (!u) return bad(fmt::format("unknown unit '{}'", c.unit));
    }
    const unit_command* command = find_unit_command(u->type(), c.verb);
    if (!command) {
        const std::string verbs = unit_command_verbs(u->type());
        return bad(verbs.empty() ? fmt::format("{} ({}) has no command '{}': its type has no unit commands", c.unit,
                                               u->type(), c.verb)
                                 : fmt::format("{} ({}) has no command '{}': expected one of {}", c.unit, u->type(),
                                               c.verb, verbs));
    }
    command_result r = command->run(*u, command_call{c.args, ctx_});
    if (!r.error.empty()) return bad(r.error);
    if (command->logged) {
        std::string words = c.verb;
        for (const auto& w : c.args) words += " " + w;
        rec_.line(fmt::format("[{}] {} {}", format_time(now_fs()), ctx_.describe(), words));
    }
    return perform(r.accesses, fmt::format("{}:{} ({})", s.file, s.line, r.source));
}

// `write REG VALUE [mask M]` once REG is resolved (and an event name replaced by its number).
sequence_runner::result sequence_runner::execute_write(const seq::statement& s, const seq::reg_write& w,
                                                       const resolved_register& resolved) {
    auto bad = [&](std::string msg) { return result{verdict::bad_input, "ERR " + msg, fmt::format("{}: {}", where(s), msg)}; };
    const resolved_register* reg = &resolved;
    if (ctx_.initiator != initiator_kind::cpu && reg->system_register)
        return bad(fmt::format("{} is a system register; only `as cpuN` can access it", w.reg));
    if (reg->width < 64 && (w.value >> reg->width) != 0)
        return bad(fmt::format("value {:#x} does not fit the {}-bit register {}", w.value, reg->width,
                               reg->display));
    uint64_t value = w.value;
    std::string what = fmt::format("write {} {:#x}", reg->display, w.value);
    if (w.mask) {
        // Read-modify-write, two real accesses: the read's refusal ends the statement.
        what += fmt::format(" mask {:#x}", *w.mask);
        access_result old = register_access(false, *reg, 0, s);
        if (old.outcome != access_outcome::ok)
            return check_outcome(s, what + " (its read)", w.outcome.value_or(access_outcome::ok), old,
                                 w.outcome.has_value());
        value = (old.value & ~*w.mask) | w.value;
    }
    access_result r = register_access(true, *reg, value, s);
    return check_outcome(s, what, w.outcome.value_or(access_outcome::ok), r, w.outcome.has_value());
}

sequence_runner::result sequence_runner::execute(const seq::statement& s) {
    ++executed_;
    sample();
    auto bad = [&](std::string msg) {
        return result{verdict::bad_input, "ERR " + msg, fmt::format("{}: {}", where(s), msg)};
    };
    auto cpu_ok = [&](unsigned cpu) { return cpu < platform_.system().cores.size(); };
    auto no_cpu = [&](unsigned cpu) {
        return bad(fmt::format("no cpu{} on platform {} (it has cpu0..cpu{})", cpu, platform_.config().name,
                               platform_.system().cores.size() - 1));
    };
    result done;
    done.answer = "OK";
    // A file's names were checked before the run (load); a served line's are checked here.
    if (serve_out_)
        if (auto problem = unknown_name(s, platform_, ctx_.cpu, ctx_.initiator != initiator_kind::cpu)) return bad(*problem);

    result out = std::visit(
        overloaded{
            [&](const seq::platform_decl& d) -> result {
                // `run` loads the first statement's platform before the runner starts (or --platform,
                // which overrides it). `serve` has loaded --platform: a statement naming another one
                // cannot switch it, and must not answer OK as if it had.
                if (!serve_out_) return done;
                const platform_config& c = platform_.config();
                std::error_code ec;
                if (d.name == c.name || d.name == c.file ||
                    (std::filesystem::exists(d.name, ec) && std::filesystem::equivalent(d.name, c.file, ec)))
                    return done;
                return bad(fmt::format("platform {}: serve runs the platform given at start (--platform {}); "
                                       "start another `pmusim serve --platform {}` to use that one",
                                       d.name, c.name, d.name));
            },
            [&](const seq::as_cpu& a) -> result {
                if (!cpu_ok(a.cpu)) return no_cpu(a.cpu);
                bool power = platform_.config().arch == arch_kind::power;
                if (power && (a.el || a.security || a.guest))
                    return bad("POWER CPUs take a privilege (user|os|hv), not an exception level");
                if (!power && a.privilege) return bad("Arm CPUs take an exception level (el0..el3), not user|os|hv");
                ctx_ = access_context{};
                ctx_.initiator = initiator_kind::cpu;
                ctx_.cpu = a.cpu;
                ctx_.is_power = power;
                ctx_.el = a.el.value_or(1);
                ctx_.secure = a.security ? *a.security == seq::security_state::secure : ctx_.el == 3;
                ctx_.guest = a.guest;
                if (a.privilege)
                    ctx_.privilege = *a.privilege == seq::power_privilege::user ? power_privilege::problem
                                   : *a.privilege == seq::power_privilege::os   ? power_privilege::supervisor
                                                                                : power_privilege::hypervisor;
                else
                    ctx_.privilege = power_privilege::supervisor;
                return done;
            },
            [&](const seq::as_debug& a) -> result {
                ctx_ = access_context{};
                ctx_.initiator = initiator_kind::debugger;
                ctx_.secure = a.security && *a.security == seq::security_state::secure;
                return done;
            },
            [&](const seq::reg_read& r) { return read_register(s, r.reg, r.check, r.outcome, false); },
            [&](const seq::print_reg& r) { return read_register(s, r.reg, std::nullopt, std::nullopt, true); },
            [&](const seq::reg_write& w) -> result {
                auto reg = platform_.resolve_register(w.reg, ctx_.cpu);
                if (!reg) return bad(fmt::format("unknown register '{}' for {}", w.reg, ctx_.describe()));
                if (!w.event.empty()) { // an event name: its number from the register's unit (tb/name_check.h)
                    const register_table::named_event* e = reg->owner ? reg->owner->table().find_event(w.event) : nullptr;
                    if (!e) {
                        auto why = unknown_name(s, platform_, ctx_.cpu, ctx_.initiator != initiator_kind::cpu);
                        return bad(why ? *why : fmt::format("{} has no event named {}", w.reg, w.event));
                    }
                    seq::statement numbered = s;
                    auto& nw = std::get<seq::reg_write>(numbered.body);
                    nw.value = e->code;
                    nw.event.clear();
                    return execute_write(numbered, nw, *reg);
                }
                return execute_write(s, w, *reg);
            },
            [&](const seq::mem_read& m) -> result {
                unsigned bytes = m.width / 8;
                access_result r = bus_access(false, false, m.address, bytes, 0, fmt::format("{:#x}", m.address), s);
                std::string what = fmt::format("read{} {:#x}", m.width, m.address);
                result res = check_outcome(s, what, m.outcome.value_or(access_outcome::ok), r, m.outcome.has_value());
                if (res.v != verdict::ok) return res;
                if (r.outcome == access_outcome::ok) res.answer = fmt::format("OK {:#x}", r.value);
                if (m.print && r.outcome == access_outcome::ok)
                    rec_.line(fmt::format("[{}] {} {} = {:#x}", format_time(now_fs()), ctx_.describe(), what, r.value));
                if (m.check && r.outcome == access_outcome::ok) {
                    bool ok = (r.value & m.check->mask) == (m.check->value & m.check->mask);
                    if (!ok) {
                        res.v = verdict::failed;
                        res.message = fmt::format("{}: {}: expected {:#x}, got {:#x} {}", where(s), what,
                                                  m.check->value, r.value, time_note());
                        res.answer = "FAIL " + res.message;
                        rec_.line("FAIL " + res.message);
                        if (!serve_out_) std::cerr << res.message << '\n';
                    }
                }
                return res;
            },
            [&](const seq::mem_write& m) -> result {
                access_result r = bus_access(true, false, m.address, m.width / 8, m.value,
                                             fmt::format("{:#x}", m.address), s);
                return check_outcome(s, fmt::format("write{} {:#x}", m.width, m.address),
                                     m.outcome.value_or(access_outcome::ok), r, m.outcome.has_value());
            },
            [&](const seq::run_cycles& r) -> result {
                // Without `of`, the current CPU's clock (cpu0's while `as debug`).
                unsigned cpu = ctx_.initiator == initiator_kind::cpu ? ctx_.cpu : 0;
                std::string name = r.clock ? *r.clock : fmt::format("cpu{}", cpu);
                clock_domain* c = platform_.find_clock(name);
                if (!c) return bad(fmt::format("unknown clock '{}'", name));
                if (r.cycles == 0) return done;
                fs_t target = c->time_after_edges(now_fs(), r.cycles);
                if (target == fs_never && c->frequency_hz() == 0) return bad(fmt::format("clock {} is stopped (0 Hz)", name));
                if (target == fs_never) return bad(beyond_time_limit(fmt::format("{} cycles of {}", r.cycles, name)));
                wait(to_sc_time(target - now_fs()));
                return done;
            },
            [&](const seq::run_time& r) -> result {
                if (r.duration_fs >= fs_never - now_fs()) return bad(beyond_time_limit(format_time(r.duration_fs)));
                if (r.duration_fs) wait(to_sc_time(r.duration_fs));
                return done;
            },
            [&](const seq::set_power& p) -> result {
                if (!cpu_ok(p.cpu)) return no_cpu(p.cpu);
                static const power_state map[] = {power_state::run, power_state::wfi, power_state::wfe, power_state::off};
                core_model& core = platform_.system().core(p.cpu);
                const power_state from = core.power(), to = map[int(p.state)];
                const std::string fw = fmt::format("firmware:{}:cpu{}", platform_.system().firmware_profile, p.cpu);
                // Firmware runs on the CPU itself: its power-down code before the CPU goes off,
                // its warm-boot code as soon as the CPU is back.
                if (to == power_state::off && from != power_state::off)
                    run_firmware(platform_.firmware_power_down(p.cpu), fw + ":power-down");
                core.set_power(to, now_fs());
                if (from == power_state::off && to != power_state::off)
                    run_firmware(platform_.firmware_power_up(p.cpu), fw + ":power-up");
                return done;
            },
            [&](const seq::set_security& x) -> result {
                if (!cpu_ok(x.cpu)) return no_cpu(x.cpu);
                platform_.system().core(x.cpu).set_secure(x.state == seq::security_state::secure, now_fs());
                return done;
            },
            [&](const seq::set_freq& f) -> result {
                clock_domain* c = platform_.find_clock(f.clock);
                if (!c) return bad(fmt::format("unknown clock '{}'", f.clock));
                c->set_frequency(f.hz, now_fs());
                return done;
            },
            [&](const seq::set_workload& w) -> result {
                if (!cpu_ok(w.cpu)) return no_cpu(w.cpu);
                core_model& core = platform_.system().core(w.cpu);
                std::map<std::string, rational> rates;
                for (const auto& [k, r] : w.rates) {
                    if (!core.has_event(k) || core_model::is_fixed_key(k)) {
                        std::string keys;
                        for (const auto& key : core.event_keys())
                            if (!core_model::is_fixed_key(key)) keys += (keys.empty() ? "" : ", ") + key;
                        return bad(fmt::format("unknown workload key '{}': expected one of {}", k, keys));
                    }
                    rates[k] = r;
                }
                // The statement replaces the workload: keys not listed become 0 (docs/sequence-language.md).
                for (const auto& key : core.event_keys())
                    if (!core_model::is_fixed_key(key)) rates.emplace(key, rational(0));
                core.set_workload(rates, now_fs());
                return done;
            },
            [&](const seq::inject_events& i) -> result {
                unit* u = platform_.find_unit(i.unit);
                if (!u) return bad(fmt::format("unknown unit '{}'", i.unit));
                std::string error;
                if (i.over_fs && *i.over_fs >= fs_never - now_fs()) return bad(beyond_time_limit("over " + format_time(*i.over_fs)));
                if (!u->inject(i.node.value_or(""), i.event, i.count, i.over_fs.value_or(0), error)) return bad(error);
                if (i.over_fs && *i.over_fs) wait(to_sc_time(*i.over_fs)); // `over` advances time
                return done;
            },
            [&](const seq::expect_irq& e) -> result {
                interrupt_line* l = platform_.find_irq(e.line);
                if (!l) return bad(fmt::format("unknown interrupt line '{}'", e.line));
                bool want = e.level == seq::irq_level::high;
                bool ok = l->level() == want;
                result res = done;
                if (!ok) {
                    res.v = verdict::failed;
                    res.message = fmt::format("{}: interrupt {} expected {}, is {} {}", where(s), e.line,
                                              want ? "high" : "low", l->level() ? "high" : "low", time_note());
                    res.answer = "FAIL " + res.message;
                    rec_.line("FAIL " + res.message);
                    if (!serve_out_) std::cerr << res.message << '\n';
                }
                return res;
            },
            [&](const seq::wait_irq& w) -> result {
                interrupt_line* l = platform_.find_irq(w.line);
                if (!l) return bad(fmt::format("unknown interrupt line '{}'", w.line));
                bool want = w.level == seq::irq_level::high;
                const fs_t timeout = w.timeout_fs.value_or(seq::default_wait_timeout_fs);
                if (timeout >= fs_never - now_fs()) return bad(beyond_time_limit("a timeout of " + format_time(timeout)));
                fs_t deadline = now_fs() + timeout;
                while (l->level() != want && now_fs() < deadline) wait(to_sc_time(deadline - now_fs()), l->changed_event());
                result res = done;
                bool ok = l->level() == want;
                if (!ok) {
                    res.v = verdict::failed;
                    res.message = fmt::format("{}: interrupt {} did not go {} before the timeout {}", where(s), w.line,
                                              want ? "high" : "low", time_note());
                    res.answer = "FAIL " + res.message;
                    rec_.line("FAIL " + res.message);
                    if (!serve_out_) std::cerr << res.message << '\n';
                }
                return res;
            },
            [&](const seq::do_reset& r) -> result {
                platform_.reset(r.kind == seq::reset_kind::cold);
                run_firmware_boot();
                return done;
            },
            [&](const seq::print_param& p) -> result {
                auto v = platform_.param(p.name);
                if (!v) return bad(fmt::format("unknown parameter '{}' (see pmusim --list-params)", p.name));
                rec_.line(fmt::format("param {} = {}", p.name, *v));
                result res = done;
                res.answer = "OK " + *v;
                return res;
            },
            [&](const seq::echo_text& e) -> result {
                rec_.line(e.text);
                return done;
            },
            [&](const seq::command_call& c) -> result { return run_command(s, c); },
            [&](const seq::exec_firmware& e) -> result { return exec(s, e); },
        },
        s.body);
    if (!time_overflow_.empty()) {
        out = bad(time_overflow_);
        time_overflow_.clear();
    }
    sample();
    return out;
}

} // namespace pmusim
