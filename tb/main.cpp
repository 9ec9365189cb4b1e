// The `pmusim` command: run a sequence, serve the sequence language on stdin,
// print register references, list platform parameters, or (no arguments) run
// the built-in demo. Exit codes: 0 ok, 1 an expectation failed, 2 bad input,
// 3 model error (docs/sequence-language.md).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <systemc>

#include "models/sanitizer_fibers.h"
#include "debug/debug_cli.h"
#include "models/input_error.h"
#include "models/values.h"
#include "models/reference_mode.h"
#include "models/limits.h"
#include "models/input_file.h"
#include "models/atomic_output.h"
#include "tb/cli_completion.h"
#include "tb/demo_scenario.h"
#include "vp/junit.h"
#include "tb/multi_run.h"
#include "vp/param_overrides.h"
#include "vp/platform.h"
#include "vp/platform_listing.h"
#include "tb/register_docs.h"
#include "tb/sequence_parser.h"
#include "tb/sequence_runner.h"
#include "tb/simulate_cli.h"
#include "vp/unit_list.h"
#include "tb/unit_tools_cli.h"
#include "linux/linux_command.h"
#include "models/data_files.h"
#include "pmusim/version.h"

using namespace pmusim;

int sc_main(int, char**) { return 0; } // libsystemc references it; pmusim has its own main

namespace {

struct run_options {
    std::vector<std::string> files; // sequence files and folders of them (run); empty for serve
    unsigned jobs = 1;               // files run at once (run with several files)
    std::string platform;
    std::string log_json;
    std::string junit;
    std::string junit_testcases = "expectation"; // or "file" (docs/sequence-language.md, "JUnit")
    std::string vcd;
    bool quiet = false;
    bool summary = false;   // --summary: every unit's counters at the end (also printed after a failure)
    bool reference = false; // per-cycle reference mode (docs/reference-mode.md)
    std::vector<std::string> overrides; // -C KEY=VALUE (tb/param_overrides.h)
    // Firmware (docs/firmware.md)
    fs_t firmware_time_limit = fs_per_second;
    bool skip_firmware_boot = false;
    debug::debug_options debug; // --gdb, --gdb-wait, --trace (docs/debugging.md)
};

std::string read_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > limits::max_sequence_file_bytes)
        throw input_error(path, 0, fmt::format("sequence file larger than {} bytes (docs/reliability.md)",
                                               limits::max_sequence_file_bytes));
    return read_input_file(path, limits::max_sequence_file_bytes, "sequence file");
}

// Runs statements (or serves stdin) on a platform; returns the exit code.
// `statements` by value: moved into the runner, never copied (a run may hold 2*10^6 of them).
int simulate(std::vector<seq::statement> statements, const std::string& source_name,
             const std::string& platform_name, const run_options& opt, bool serve, run_recorder& rec) {
    register_all_units(); // unit parameter schemas must be known before a platform is validated
    for (const auto& o : opt.overrides) rec.property("-C", o); // in the report even when refused
    std::vector<param_override> overrides = parse_override_arguments(opt.overrides);
    platform_config cfg = load_platform_with_overrides(platform_name, overrides);
    rec.log = opt.quiet || serve ? nullptr : &std::cout;
    // The program's own output is the run's product: on stdout even with -q (serve: stdout is the protocol).
    rec.program_out = serve ? &std::cerr : &std::cout;
    rec.keep_passed_testcases(!opt.junit.empty());
    rec.one_testcase_per_file(opt.junit_testcases == "file");
    // Outputs appear under their names only once complete (tb/atomic_output.h).
    std::unique_ptr<atomic_output> json_out;
    if (!opt.log_json.empty()) {
        json_out = std::make_unique<atomic_output>(opt.log_json);
        rec.json = &json_out->stream();
        if (!overrides.empty()) // the header record: what the run changed of the platform (docs/logs.md)
            *rec.json << nlohmann::ordered_json{{"op", "header"}, {"platform", cfg.name}, {"platform_file", cfg.file},
                                                {"overrides", overrides_json(overrides)}}
                             .dump()
                      << '\n';
    }
    if (opt.reference) set_reference_mode(true); // before the platform: its clocks and counters get twins
    std::unique_ptr<platform> built;
    try {
        built = std::make_unique<platform>(cfg);
    } catch (const input_error& e) {
        throw name_override_in_error(e, cfg, overrides); // a unit's own check of a value -C set
    }
    platform& p = *built;
    sequence_runner runner("runner", p, rec);
    if (!opt.vcd.empty()) {
        std::vector<observable> signals;
        for (unit* u : p.units()) {
            u->observables(signals);
            u->control_registers(signals);
        }
        for (auto& [name, line] : p.system().irq_lines) {
            interrupt_line* l = line.get();
            signals.push_back({"irq." + name, 1, [l] { return uint64_t(l->level()); }});
        }
        rec.vcd = std::make_unique<vcd_writer>(std::move(signals));
    }
    runner.set_firmware_time_limit(opt.firmware_time_limit);
    if (opt.skip_firmware_boot) runner.skip_firmware_boot();
    // A bar on stderr when it is a terminal (never in a log file or a CI job's output).
    if (!serve && !opt.quiet && isatty(STDERR_FILENO)) runner.show_progress(true);
    if (serve) runner.serve(std::cin, std::cout);
    else runner.load(std::move(statements));
    std::unique_ptr<debug::debug_attachment> debugging; // after load(): it attaches to the ISSs load() made
    if (opt.debug.any()) debugging = std::make_unique<debug::debug_attachment>(opt.debug, p);
    if (!serve) {
        rec.line(fmt::format("pmusim: {} on platform {} (firmware profile {})", source_name, cfg.name,
                             opt.skip_firmware_boot ? std::string("not run: the ELF is the firmware")
                                                    : std::string(to_string(cfg.firmware.profile))));
        // Diagnostics go to stderr: stdout holds the run's log and the program's output.
        if (!opt.quiet)
            for (const auto& u : p.unmodelled_units()) std::cerr << "pmusim: note: unit " << u << " is not modelled yet\n";
    }
    const auto host_start = std::chrono::steady_clock::now();
    sc_core::sc_start();
    sanitizer_fibers::main_stack_resumed();
    const double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
    int status = runner.exit_status();
    if (!runner.error_message().empty()) std::cerr << runner.error_message() << '\n';
    if (!serve && (rec.log || opt.summary)) {
        // Every unit's counters: on request, or when an expectation failed (what the counters were then).
        if (opt.summary || status == exit_failed) {
            std::ostringstream report;
            for (unit* u : p.units()) u->report(report);
            std::string text = report.str();
            while (!text.empty() && text.back() == '\n') text.pop_back();
            if (!text.empty()) (rec.log ? *rec.log : std::cout) << text << '\n';
        }
        const unsigned passed = rec.passed_expectations(), failed = rec.failed_expectations();
        // `pmusim firmware` runs no boot statements (the ELF is the firmware): the line says so.
        rec.line(fmt::format("== {} statements ({}), simulated {}, expectations: {} passed, {} failed ==",
                             runner.statements_executed(),
                             opt.skip_firmware_boot ? "no firmware boot: the ELF is the firmware" : "with firmware boot",
                             format_time(now_fs()), passed, failed));
    }
    if (!serve && !opt.quiet) {
        // Host time varies from run to run: on stderr, so that stdout stays byte-identical.
        uint64_t cycles = 0;
        for (const auto& core : p.system().cores) cycles += core->clock().edges_at(now_fs());
        std::cerr << fmt::format("pmusim: {} mode: sim_cycles {} (all CPU clocks) host_seconds {:.6f} "
                                 "cycles_per_host_second {:.4g}\n",
                                 opt.reference ? "reference" : "fast", cycles, host_seconds,
                                 host_seconds > 0 ? double(cycles) / host_seconds : 0.0);
    }
    if (json_out) json_out->commit();
    if (!opt.vcd.empty() && rec.vcd) {
        atomic_output v(opt.vcd);
        rec.vcd->write(v.stream(), "pmusim");
        v.commit();
    }
    return status;
}

// The JUnit report is written on every ending, refusals included (run_single): when the JUnit
// path is itself an input, the refusal must not then write the report over that input.
bool junit_is_an_input = false;
void refuse_junit_over_inputs(const run_options& opt, const std::vector<std::string>& inputs) {
    try {
        refuse_inputs_as_outputs({opt.junit}, inputs);
    } catch (const input_error&) {
        junit_is_an_input = true;
        throw;
    }
}

int run_file(const std::string& file, const run_options& opt, run_recorder& rec) {
    auto statements = seq::parse_sequence(read_file(file), file);
    std::string platform_name = opt.platform;
    if (platform_name.empty()) {
        platform_name = "arm-default";
        if (!statements.empty())
            if (auto* d = std::get_if<seq::platform_decl>(&statements.front().body))
                platform_name = platform_reference(d->name, statements.front().file, statements.front().line);
    }
    // Before any work: no output may replace one of the run's inputs.
    refuse_junit_over_inputs(opt, {file, platform_name});
    refuse_inputs_as_outputs({opt.log_json, opt.vcd}, {file, platform_name});
    return simulate(std::move(statements), file, platform_name, opt, false, rec);
}

struct firmware_options {
    std::string file;
    std::string cpu = "cpu0";
    unsigned el = 3;
    bool secure = false, nonsecure = false;
    std::string time_limit = "1s";
};

// `pmusim firmware FILE.elf`: one `exec` statement on a platform at reset (docs/firmware.md).
int firmware_command(const firmware_options& f, run_options opt, run_recorder& rec) {
    seq::exec_firmware e;
    std::string cpu_text = f.cpu;
    auto parsed = seq::parse_line("exec " + cpu_text + " el" + std::to_string(f.el) +
                                      (f.el == 3 ? "" : f.secure ? " secure" : " nonsecure") + " x",
                                  "--cpu", 0);
    if (!parsed) throw input_error("--cpu", 0, "expected cpuN");
    e = std::get<seq::exec_firmware>(parsed->body);
    e.file = f.file;
    opt.firmware_time_limit = values::parse_duration_fs(f.time_limit, "--time-limit", 0);
    opt.skip_firmware_boot = true;
    seq::statement st{f.file, 0, e}; // messages name the ELF (line 0: no line number)
    refuse_junit_over_inputs(opt, {f.file, opt.platform});
    refuse_inputs_as_outputs({opt.log_json, opt.vcd}, {f.file, opt.platform});
    return simulate({st}, f.file, opt.platform.empty() ? "arm-default" : opt.platform, opt, false, rec);
}

// Runs `body` (a file run or a serve session) and turns whatever stops it into an exit code and
// a JUnit error testcase, so that a report exists for every ending (docs/sequence-language.md).
junit_suite run_reported(const std::string& suite_name, const std::function<int(run_recorder&)>& body, int& status) {
    run_recorder rec;
    // The error's testcase is named by where it stopped, without a line number (stable names).
    auto stopped = [&](int code, const std::string& where, const char* type, const std::string& message) {
        std::cerr << "pmusim: " << message << '\n';
        rec.error(where, type, message, now_fs());
        status = code;
    };
    try {
        status = body(rec);
    } catch (const input_error& e) {
        stopped(exit_bad_input, e.file().empty() ? "command line" : e.file(), "input error", e.what());
    } catch (const sc_core::sc_report& e) {
        stopped(exit_model_error, "simulation", "model error", std::string("model error: ") + e.what());
    } catch (const std::exception& e) {
        stopped(exit_model_error, "simulation", "model error", std::string("model error: ") + e.what());
    }
    return rec.suite(suite_name, now_fs());
}

void write_junit_file(const std::string& path, const std::vector<junit_suite>& suites) {
    atomic_output j(path);
    write_junit(j.stream(), suites);
    j.commit();
}

// The JUnit report's folder is created (or found unusable) before anything runs: a report that
// cannot be written is bad input at once, not after the whole run.
void prepare_junit_folder(const run_options& opt) {
    if (opt.junit.empty() || opt.junit == "-") return;
    const std::filesystem::path folder = std::filesystem::path(opt.junit).parent_path();
    if (folder.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec || !std::filesystem::is_directory(folder))
        throw input_error("", 0, fmt::format("--junit {}: cannot create its folder {}: {}", opt.junit, folder.string(),
                                             ec ? ec.message() : "a file of that name exists"));
    if (access(folder.c_str(), W_OK) != 0)
        throw input_error("", 0, fmt::format("--junit {}: its folder {} is not writable", opt.junit, folder.string()));
}

// `pmusim run FILE` and `pmusim serve`: in this process, JUnit with one testsuite.
int run_single(const std::string& suite_name, const run_options& opt,
               const std::function<int(run_recorder&)>& body) {
    prepare_junit_folder(opt);
    int status = exit_ok;
    junit_suite suite = run_reported(suite_name, body, status);
    if (!opt.junit.empty() && !junit_is_an_input) write_junit_file(opt.junit, {suite});
    return status;
}

// Before any work: two outputs naming one file would replace each other (docs/reliability.md).
void refuse_run_outputs_sharing_a_file(const run_options& opt) {
    pmusim::refuse_shared_outputs({{"--log-json", opt.log_json}, {"--junit", opt.junit}, {"--vcd", opt.vcd}});
}

// `pmusim run` with several files or a folder (tb/multi_run.h).
int run_command(const run_options& opt) {
    refuse_run_outputs_sharing_a_file(opt);
    std::error_code ec;
    const bool one_file = opt.files.size() == 1 && !std::filesystem::is_directory(opt.files.front(), ec);
    if (one_file)
        return run_single(opt.files.front(), opt, [&](run_recorder& rec) { return run_file(opt.files.front(), opt, rec); });
    if (!opt.log_json.empty() || !opt.vcd.empty())
        throw input_error("", 0, "--log-json and --vcd describe one run: give them with a single sequence file");
    if (opt.debug.any()) throw input_error("", 0, "--gdb and --trace debug one run: give them with a single sequence file");
    prepare_junit_folder(opt);
    std::vector<std::string> files;
    try {
        files = sequence_files(opt.files);
    } catch (const input_error& e) { // e.g. a folder without .seq files: still a report, with the error
        int status = exit_ok;
        junit_suite suite = run_reported(opt.files.front(), [&](run_recorder&) -> int { throw e; }, status);
        if (!opt.junit.empty()) write_junit_file(opt.junit, {suite});
        return status;
    }
    refuse_inputs_as_outputs({opt.junit}, files); // before any work (docs/reliability.md)
    multi_run_result r = run_files_in_children(files, opt.jobs, [&](const std::string& file, int& status) {
        return run_reported(file, [&](run_recorder& rec) { return run_file(file, opt, rec); }, status);
    });
    if (!opt.junit.empty()) write_junit_file(opt.junit, r.suites);
    return r.status;
}

// `pmusim regs --format c-header --platform P`: the platform's instances (docs/c-headers.md).
int platform_header_command(const std::string& format, const std::string& unit_filter, const std::string& platform_name,
                            const std::string& out_dir) {
    if (format != "c-header")
        throw input_error("", 0, "--platform: expected --format c-header (markdown and json describe the register tables)");
    if (!unit_filter.empty()) throw input_error("", 0, "--platform: gives every unit of the platform; drop --unit");
    register_all_units();
    platform p(load_platform(platform_name));
    std::string text = platform_c_header(p);
    if (out_dir.empty()) {
        std::cout << text;
    } else {
        atomic_output f(out_dir + "/" + p.config().name + ".h");
        f.stream() << text;
        f.commit();
    }
    return exit_ok;
}

int regs_command(const std::string& format, const std::string& unit_filter, const std::string& out_dir,
                 const std::string& platform_name) {
    if (!platform_name.empty()) return platform_header_command(format, unit_filter, platform_name, out_dir);
    auto tables = all_register_tables();
    if (!unit_filter.empty()) {
        std::vector<const register_table*> picked;
        for (auto* t : tables)
            if (t->unit == unit_filter) picked.push_back(t);
        if (picked.empty()) {
            std::string known;
            for (auto* t : tables) known += (known.empty() ? "" : ", ") + t->unit;
            throw input_error("", 0, fmt::format("--unit {}: unknown unit; expected one of {}", unit_filter, known));
        }
        tables = picked;
    }
    if (format == "markdown") {
        for (auto* t : tables) {
            std::string text = registers_markdown(*t);
            if (out_dir.empty()) {
                std::cout << text;
            } else {
                atomic_output f(out_dir + "/" + t->unit + ".md");
                f.stream() << text;
                f.commit();
            }
        }
    } else if (format == "c-header") {
        if (out_dir.empty()) std::cout << registers_c_header(tables);
        for (auto* t : out_dir.empty() ? std::vector<const register_table*>{} : tables) {
            atomic_output f(out_dir + "/" + t->unit + ".h");
            f.stream() << registers_c_header({t});
            f.commit();
        }
    } else {
        std::cout << registers_json(tables);
    }
    return exit_ok;
}

// Every command's --help ends with examples that use each of its options.
void add_help_examples(CLI::App& app) {
    app.footer("Examples:\n"
               "  pmusim                                         # the built-in demo\n"
               "  pmusim run my.seq --junit junit.xml            # see `pmusim run --help`\n"
               "  pmusim --list-params --platform power9-default\n"
               "  pmusim --list-params -C dsu0.counters=4 -C cpu0.features.fgt=true  # values -C would give\n"
               "  pmusim --list-unit-types\n"
               "  pmusim --version\n"
               "  pmusim --data-dir                              # where the IMC catalogs and plot scripts are\n"
               "Exit codes: 0 ok, 1 an expectation failed, 2 bad input, 3 model error (docs/sequence-language.md).");
    const std::pair<const char*, const char*> examples[] = {
        {"run", "  pmusim run tests/sequences/dsu/overflow_irq.seq\n"
                "  pmusim run my.seq --platform my.yaml --log-json log.jsonl --junit junit.xml --vcd wave.vcd\n"
                "  pmusim run a.seq b.seq tests/sequences -j 2 --junit reports/junit.xml --quiet\n"
                "  pmusim run tests/sequences --junit junit.xml --junit-testcases file   # one testcase per file\n"
                "  pmusim run my.seq --summary                      # every unit's counters at the end\n"
                "  pmusim run my.seq --reference\n"
                "  pmusim run my.seq -C dsu0.counters=4 -C cpu0.features.fgt=true   # parameter overrides\n"
                "  pmusim run my.seq --gdb 1234 --gdb-wait --trace exceptions,sysreg=trace.jsonl  # its exec statements: "
                "docs/debugging.md\n"
                "Reports (JUnit, JSON-lines log, VCD): docs/logs.md.\n"
                "Statements: docs/sequence-language.md; each unit type's commands (UNIT VERB ARGS): "
                "pmusim --list-unit-types."},
        {"serve", "  printf 'as cpu0 el1\\nread AMCNTENSET0_EL0\\n' | pmusim serve --platform arm-default\n"
                  "  pmusim serve --junit junit.xml --log-json log.jsonl --vcd wave.vcd --reference < session.seq\n"
                  "  pmusim serve -C dsu0.counters=4 < session.seq"},
        {"regs", "  pmusim regs --format c-header --unit dsu_clusterpmu\n"
                 "  pmusim regs --format markdown --output-dir docs/registers\n"
                 "  pmusim regs --format json\n"
                 "  pmusim regs --format c-header --output-dir include/pmu   # one UNIT.h per table\n"
                 "  pmusim regs --format c-header --platform board.yaml     # the board's instances"},
        {"simulate", "  pmusim simulate scenarios/examples/tour.yaml -o out/tour\n"
                     "  pmusim simulate SCENARIO.yaml --set NAME=VALUE --log-json log.jsonl --verbose --no-progress\n"
                     "  pmusim simulate scenarios/examples/tour.yaml -o out/tour4 -C dsu0.counters=4"},
        {"sweep", "  pmusim sweep scenarios/studies/dsu-multiplex/sweep.yaml -o out/sweep -j 2\n"
                  "  pmusim sweep SWEEP.yaml -o out/shard0 --shard 0/4\n"
                  "  pmusim sweep SWEEP.yaml -o out/fgt -C cpu0.features.fgt=true\n"
                  "  pmusim sweep SWEEP.yaml -o out/sweep --no-progress --no-resume   # every point again, no progress line\n"
                  "  pmusim sweep SWEEP.yaml --list --shard 1/4                       # the points, nothing run"},
        {"plot", "  pmusim plot rates out/tour/samples.csv -o rates.svg --opt counters='dsu0.*'"},
        {"compare", "  pmusim compare out/a out/b -o compare.csv --all\n"
                    "  pmusim compare out/a1,out/a2,out/a3 out/b1,out/b2,out/b3   # replicates: 95% interval"},
        {"completion", "  pmusim completion bash > ~/.local/share/bash-completion/completions/pmusim"},
    };
    for (const auto& [name, text] : examples) app.get_subcommand(name)->footer(std::string("Examples:\n") + text);
    app.get_subcommand("sweep")->get_subcommand("merge")->footer(
        "Examples:\n  pmusim sweep merge SWEEP.yaml out/shard0 out/shard1 -o merged.csv");
}

} // namespace

int main(int argc, char** argv) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DISPLAY);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING); // "stopped by user"
    CLI::App app{"pmusim: cycle-exact models of hardware performance-counter units (Arm AMU, DSU "
                 "CLUSTERPMU, CMN-600 PMU, POWER9 IMC)"};
    app.set_version_flag("--version", "pmusim " PMUSIM_VERSION_STRING); // project(VERSION) in CMakeLists.txt
    bool list_params = false, list_units = false;
    std::string top_platform = "arm-default";
    app.add_flag("--list-params", list_params, "print every platform parameter with type, value, default, meaning");
    app.add_flag("--list-unit-types", list_units, "print every unit type and its parameters");
    app.add_option("--platform", top_platform, "platform for --list-params (built-in name or YAML file)");
    std::vector<std::string> top_overrides;
    app.add_option("-C,--param", top_overrides, std::string(override_option_help) + "; with --list-params: list the values they give")
        ->allow_extra_args(false);
    bool print_data_dir = false;
    app.add_flag("--data-dir", print_data_dir,
                 "print the folder holding pmusim's data files (IMC catalogs, plot scripts) and exit");

    run_options ropt;
    auto* run = app.add_subcommand("run", "run a sequence file against a platform");
    run->add_option("files", ropt.files, "sequence files (.seq) and folders (every *.seq below them, sorted)")->required();
    run->add_option("-j,--jobs", ropt.jobs, "with several files: run up to N at once (each in a process of its own)")
        ->check(CLI::Range(1u, 256u));
    run->add_option("--platform", ropt.platform, "built-in platform name or YAML file (overrides the file's `platform`)");
    run->add_option("--log-json", ropt.log_json, "write one JSON object per access to this file");
    run->add_option("--junit", ropt.junit, "write JUnit XML to this file (its folder is created first)");
    run->add_option("--junit-testcases", ropt.junit_testcases,
                    "expectation: a testcase per expectation, named [LABEL: ]STATEMENT; file: one per sequence file")
        ->check(CLI::IsMember({"expectation", "file"}));
    run->add_option("--vcd", ropt.vcd, "write counters, enables and interrupt lines as a VCD waveform");
    run->add_option("-C,--param", ropt.overrides, override_option_help)->allow_extra_args(false);
    run->add_flag("--quiet,-q", ropt.quiet, "print only failures and errors");
    run->add_flag("--summary", ropt.summary, "print every unit's counters at the end (they are also printed after a failed expectation)");
    run->add_flag("--reference", ropt.reference,
                  "per-cycle reference mode: every counter advanced on every clock edge (slow; docs/reference-mode.md)");
    debug::add_debug_options(*run, ropt.debug); // for the sequence's exec statements

    run_options sopt;
    auto* serve = app.add_subcommand("serve", "speak the sequence language on stdin/stdout, one answer per line");
    serve->add_option("--platform", sopt.platform, "built-in platform name or YAML file")->default_val("arm-default");
    serve->add_option("-C,--param", sopt.overrides, override_option_help)->allow_extra_args(false);
    serve->add_flag("--reference", sopt.reference, "per-cycle reference mode (docs/reference-mode.md)");
    serve->add_option("--log-json", sopt.log_json, "write one JSON object per access and interrupt edge to this file");
    serve->add_option("--junit", sopt.junit, "write JUnit XML to this file when the session ends");
    serve->add_option("--vcd", sopt.vcd, "write counters, control registers and interrupt lines as a VCD waveform");

    run_options fwopt;
    firmware_options fw;
    auto* firmware = app.add_subcommand("firmware", "run an AArch64 ELF on a CPU's instruction-set simulator (docs/firmware.md)");
    firmware->add_option("file", fw.file, "statically linked AArch64 ELF executable")->required();
    firmware->add_option("--platform", fwopt.platform, "built-in platform name or YAML file")->default_val("arm-default");
    firmware->add_option("--cpu", fw.cpu, "the CPU that runs it")->default_val("cpu0");
    firmware->add_option("--el", fw.el, "exception level it starts at")->default_val(3)->check(CLI::Range(1, 3));
    auto* fw_secure = firmware->add_flag("--secure", fw.secure, "start in Secure state (EL3 always is)");
    firmware->add_flag("--nonsecure", fw.nonsecure, "start in Non-secure state (the default below EL3)")->excludes(fw_secure);
    firmware->add_option("--time-limit", fw.time_limit, "simulated time after which a firmware that has not exited stops (exit 2)")
        ->default_val("1s");
    firmware->add_option("--log-json", fwopt.log_json, "write one JSON object per access to this file");
    firmware->add_option("--junit", fwopt.junit, "write JUnit XML to this file (its folder is created first)");
    firmware->add_option("--vcd", fwopt.vcd, "write counters, enables and interrupt lines as a VCD waveform");
    firmware->add_flag("--quiet,-q", fwopt.quiet, "print only the firmware's own output, failures and errors");
    firmware->add_flag("--summary", fwopt.summary, "print every unit's counters at the end (they are also printed after a failure)");
    firmware->add_option("-C,--param", fwopt.overrides, override_option_help)->allow_extra_args(false);
    firmware->add_flag("--reference", fwopt.reference, "per-cycle reference mode (docs/reference-mode.md)");
    debug::add_debug_options(*firmware, fwopt.debug);


    std::string regs_format = "markdown", regs_unit, regs_dir, regs_platform;
    auto* regs = app.add_subcommand("regs", "print the register reference generated from the register tables");
    regs->add_option("--format", regs_format, "markdown, c-header or json")
        ->check(CLI::IsMember({"markdown", "c-header", "json"}));
    regs->add_option("--unit", regs_unit, "only this unit's table");
    regs->add_option("--output-dir", regs_dir,
                     "write one UNIT.md (markdown) or UNIT.h (c-header) per table, or PLATFORM.h, into this directory");
    regs->add_option("--platform", regs_platform,
                     "c-header of this platform's units (built-in name or YAML): addresses, banks of its counter counts");

    whatif_commands whatif(app); // simulate, sweep, plot (docs/whatif.md)
    register_all_units();
    unit_tool_commands unit_tools(app); // the units' own subcommands (pmusim imc-dt)
    linux_command linux_boot(app);      // pmusim linux (docs/linux.md)

    std::string completion_shell;
    auto* completion = app.add_subcommand("completion", "print a shell completion script for pmusim");
    completion->add_option("shell", completion_shell, "the shell (bash)")->required()->check(CLI::IsMember({"bash"}));
    add_help_examples(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : exit_bad_input;
    }

    try {
        if (print_data_dir) {
            std::cout << pmusim::data_dir() << '\n';
            return exit_ok;
        }
        if (!top_overrides.empty() && !list_params) // `pmusim -C K=V run ...` would silently drop them
            throw input_error("", 0, "-C " + top_overrides.front() +
                                         ": give -C after the command (pmusim run FILE -C KEY=VALUE); before it, "
                                         "only with --list-params");
        if (list_params) {
            register_all_units();
            std::vector<param_override> overrides = parse_override_arguments(top_overrides);
            for (const auto& l : pmusim::list_params(load_platform_with_overrides(top_platform, overrides)))
                std::cout << l << '\n';
            return exit_ok;
        }
        if (list_units) {
            register_all_units();
            for (const auto& l : list_unit_types()) std::cout << l << '\n';
            return exit_ok;
        }
        if (*run) return run_command(ropt);
        if (*serve) refuse_run_outputs_sharing_a_file(sopt);
        if (*firmware) refuse_run_outputs_sharing_a_file(fwopt);
        if (*serve)
            return run_single("<stdin>", sopt, [&](run_recorder& rec) { return simulate({}, "<stdin>", sopt.platform, sopt, true, rec); });
        if (*firmware)
            return run_single(fw.file, fwopt, [&](run_recorder& rec) { return firmware_command(fw, fwopt, rec); });
        if (*regs) return regs_command(regs_format, regs_unit, regs_dir, regs_platform);
        if (*completion) {
            std::cout << bash_completion(app);
            return exit_ok;
        }
        if (whatif.selected()) return whatif.run();
        if (unit_tools.selected()) return unit_tools.run();
        if (linux_boot.selected()) return linux_boot.run();
        // No subcommand: the built-in demo scenario.
        run_options demo;
        auto statements = seq::parse_sequence(demo_scenario(), "demo.seq");
        run_recorder rec;
        return simulate(std::move(statements), "demo.seq (built-in demo)", "arm-default", demo, false, rec);
    } catch (const input_error& e) {
        std::cerr << "pmusim: " << e.what() << '\n';
        return exit_bad_input;
    } catch (const sc_core::sc_report& e) {
        std::cerr << "pmusim: model error: " << e.what() << '\n';
        return exit_model_error;
    } catch (const std::exception& e) {
        std::cerr << "pmusim: model error: " << e.what() << '\n';
        return exit_model_error;
    }
}
