// The `pmusim` command: run a sequence, serve the sequence language on stdin,
// print register references, list platform parameters, or (no arguments) run
// the built-in demo. Exit codes: 0 ok, 1 an expectation failed, 2 bad input,
// 3 model error (docs/sequence-language.md).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <systemc>

#include "imc/imc.h"
#include "models/input_error.h"
#include "models/reference_mode.h"
#include "models/limits.h"
#include "tb/atomic_output.h"
#include "tb/demo_scenario.h"
#include "tb/platform.h"
#include "tb/register_docs.h"
#include "tb/sequence_parser.h"
#include "tb/sequence_runner.h"
#include "tb/simulate_cli.h"
#include "tb/unit_factory.h"

using namespace pmusim;

int sc_main(int, char**) { return 0; } // libsystemc references it; pmusim has its own main

namespace {

struct run_options {
    std::string file;
    std::string platform;
    std::string log_json;
    std::string junit;
    std::string vcd;
    bool quiet = false;
    bool reference = false; // per-cycle reference mode (docs/reference-mode.md)
    // Firmware (docs/firmware.md)
    fs_t firmware_time_limit = fs_per_second;
    bool skip_firmware_boot = false;
};

std::string read_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > limits::max_sequence_file_bytes)
        throw input_error(path, 0, fmt::format("sequence file larger than {} bytes (docs/reliability.md)",
                                               limits::max_sequence_file_bytes));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw input_error(path, 0, "cannot read the file");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Runs statements (or serves stdin) on a platform; returns the exit code.
int simulate(const std::vector<seq::statement>& statements, const std::string& source_name,
             const std::string& platform_name, const run_options& opt, bool serve) {
    register_all_units(); // unit parameter schemas must be known before a platform is validated
    platform_config cfg = load_platform(platform_name);
    run_recorder rec;
    rec.log = opt.quiet || serve ? nullptr : &std::cout;
    // Outputs appear under their names only once complete (tb/atomic_output.h).
    std::unique_ptr<atomic_output> json_out;
    if (!opt.log_json.empty()) {
        json_out = std::make_unique<atomic_output>(opt.log_json);
        rec.json = &json_out->stream();
    }
    if (opt.reference) set_reference_mode(true); // before the platform: its clocks and counters get twins
    platform p(cfg);
    sequence_runner runner("runner", p, rec);
    if (!opt.vcd.empty()) {
        std::vector<observable> signals;
        for (unit* u : p.units()) u->observables(signals);
        for (auto& [name, line] : p.system().irq_lines) {
            interrupt_line* l = line.get();
            signals.push_back({"irq." + name, 1, [l] { return uint64_t(l->level()); }});
        }
        rec.vcd = std::make_unique<vcd_writer>(std::move(signals));
    }
    runner.set_firmware_time_limit(opt.firmware_time_limit);
    if (opt.skip_firmware_boot) runner.skip_firmware_boot();
    if (serve) runner.serve(std::cin, std::cout);
    else runner.load(statements);
    if (!serve) {
        rec.line(fmt::format("pmusim: {} on platform {} (firmware profile {})", source_name, cfg.name,
                             opt.skip_firmware_boot ? std::string("not run: the ELF is the firmware")
                                                    : std::string(to_string(cfg.firmware.profile))));
        for (const auto& u : p.unmodelled_units()) rec.line("  note: unit " + u + " is not modelled yet");
    }
    const auto host_start = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
    int status = runner.exit_status();
    if (!runner.error_message().empty()) std::cerr << runner.error_message() << '\n';
    if (!serve && rec.log) {
        std::ostringstream report;
        for (unit* u : p.units()) u->report(report);
        std::string text = report.str();
        while (!text.empty() && text.back() == '\n') text.pop_back();
        if (!text.empty()) rec.line(text);
        unsigned passed = 0, failed = 0;
        for (const auto& e : rec.expectations()) (e.passed ? passed : failed)++;
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
    if (!opt.junit.empty()) {
        atomic_output j(opt.junit);
        rec.write_junit(j.stream(), source_name, double(now_fs()) / double(fs_per_second));
        j.commit();
    }
    if (!opt.vcd.empty() && rec.vcd) {
        atomic_output v(opt.vcd);
        rec.vcd->write(v.stream(), "pmusim");
        v.commit();
    }
    return status;
}

int run_file(const run_options& opt) {
    auto statements = seq::parse_sequence(read_file(opt.file), opt.file);
    std::string platform_name = opt.platform;
    if (platform_name.empty()) {
        platform_name = "arm-default";
        if (!statements.empty())
            if (auto* d = std::get_if<seq::platform_decl>(&statements.front().body)) platform_name = d->name;
    }
    return simulate(statements, opt.file, platform_name, opt, false);
}

struct firmware_options {
    std::string file;
    std::string cpu = "cpu0";
    unsigned el = 3;
    bool secure = false, nonsecure = false;
    std::string time_limit = "1s";
};

// `pmusim firmware FILE.elf`: one `exec` statement on a platform at reset (docs/firmware.md).
int firmware_command(const firmware_options& f, run_options opt) {
    seq::exec_firmware e;
    std::string cpu_text = f.cpu;
    auto parsed = seq::parse_line("exec " + cpu_text + " el" + std::to_string(f.el) +
                                      (f.el == 3 ? "" : f.secure ? " secure" : " nonsecure") + " x",
                                  "--cpu", 0);
    e = std::get<seq::exec_firmware>(parsed->body);
    e.file = f.file;
    opt.firmware_time_limit = seq::parse_duration_fs(f.time_limit, "--time-limit", 0);
    opt.skip_firmware_boot = true;
    seq::statement st{"<command line>", 1, e};
    return simulate({st}, f.file, opt.platform.empty() ? "arm-default" : opt.platform, opt, false);
}

int regs_command(const std::string& format, const std::string& unit_filter, const std::string& out_dir) {
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
        std::cout << registers_c_header(tables);
    } else {
        std::cout << registers_json(tables);
    }
    return exit_ok;
}

} // namespace

int main(int argc, char** argv) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DISPLAY);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING); // "stopped by user"
    CLI::App app{"pmusim: cycle-exact models of hardware performance-counter units (Arm AMU, DSU "
                 "CLUSTERPMU, CMN-600 PMU, POWER9 IMC)"};
    app.set_version_flag("--version", "pmusim 0.1");
    bool list_params = false, list_units = false;
    std::string top_platform = "arm-default";
    app.add_flag("--list-params", list_params, "print every platform parameter with type, value, default, meaning");
    app.add_flag("--list-unit-types", list_units, "print every unit type and its parameters");
    app.add_option("--platform", top_platform, "platform for --list-params (built-in name or YAML file)");

    run_options ropt;
    auto* run = app.add_subcommand("run", "run a sequence file against a platform");
    run->add_option("file", ropt.file, "sequence file (.seq)")->required();
    run->add_option("--platform", ropt.platform, "built-in platform name or YAML file (overrides the file's `platform`)");
    run->add_option("--log-json", ropt.log_json, "write one JSON object per access to this file");
    run->add_option("--junit", ropt.junit, "write JUnit XML to this file");
    run->add_option("--vcd", ropt.vcd, "write counters, enables and interrupt lines as a VCD waveform");
    run->add_flag("--quiet,-q", ropt.quiet, "print only failures and errors");
    run->add_flag("--reference", ropt.reference,
                  "per-cycle reference mode: every counter advanced on every clock edge (slow; docs/reference-mode.md)");

    run_options sopt;
    auto* serve = app.add_subcommand("serve", "speak the sequence language on stdin/stdout, one answer per line");
    serve->add_option("--platform", sopt.platform, "built-in platform name or YAML file")->default_val("arm-default");
    serve->add_flag("--reference", sopt.reference, "per-cycle reference mode (docs/reference-mode.md)");

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
    firmware->add_option("--junit", fwopt.junit, "write JUnit XML to this file");
    firmware->add_option("--vcd", fwopt.vcd, "write counters, enables and interrupt lines as a VCD waveform");
    firmware->add_flag("--quiet,-q", fwopt.quiet, "print only failures and errors");
    firmware->add_flag("--reference", fwopt.reference, "per-cycle reference mode (docs/reference-mode.md)");

    std::string regs_format = "markdown", regs_unit, regs_dir;
    auto* regs = app.add_subcommand("regs", "print the register reference generated from the register tables");
    regs->add_option("--format", regs_format, "markdown, c-header or json")
        ->check(CLI::IsMember({"markdown", "c-header", "json"}));
    regs->add_option("--unit", regs_unit, "only this unit's table");
    regs->add_option("--output-dir", regs_dir, "markdown: write one UNIT.md per table into this directory");

    whatif_commands whatif(app); // simulate, sweep, plot (docs/whatif.md)
    std::string dt_platform = "power9-default", dt_unit;
    bool dt_linux = false;
    std::optional<uint64_t> dt_avl;
    auto* imc_dt = app.add_subcommand("imc-dt", "print the imc-counters device-tree node skiboot hands to Linux");
    imc_dt->add_option("--platform", dt_platform, "built-in platform name or YAML file")->default_val("power9-default");
    imc_dt->add_option("--unit", dt_unit, "the power9_imc unit (default: the first)");
    imc_dt->add_option("--avl-vector", dt_avl, "nest availability vector instead of the unit's avl_vector");
    imc_dt->add_flag("--linux-events", dt_linux, "list the PMUs/events Linux creates from it instead");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : exit_bad_input;
    }

    try {
        if (list_params) {
            register_all_units();
            for (const auto& l : pmusim::list_params(load_platform(top_platform))) std::cout << l << '\n';
            return exit_ok;
        }
        if (list_units) {
            register_all_units();
            for (const auto& l : list_unit_types()) std::cout << l << '\n';
            return exit_ok;
        }
        if (*run) return run_file(ropt);
        if (*serve) return simulate({}, "<stdin>", sopt.platform, sopt, true);
        if (*firmware) return firmware_command(fw, fwopt);
        if (*regs) return regs_command(regs_format, regs_unit, regs_dir);
        if (whatif.selected()) return whatif.run();
        if (*imc_dt) {
            register_all_units();
            std::cout << imc::imc_device_tree_text(load_platform(dt_platform), dt_unit, dt_linux, dt_avl);
            return exit_ok;
        }
        // No subcommand: the built-in demo scenario.
        run_options demo;
        auto statements = seq::parse_sequence(demo_scenario(), "demo.seq");
        return simulate(statements, "demo.seq (built-in demo)", "arm-default", demo, false);
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
