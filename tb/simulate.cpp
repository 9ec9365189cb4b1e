// `pmusim simulate` (tb/simulate.h, docs/whatif.md).
//
// Time is never ticked: the scenario's timeline is a sorted list of instants the
// driver thread waits for; each sequence entry has a thread of its own; the
// sampler schedules one event per sample instant; the progress line (terminal
// only) wakes 100 times per run. At an instant T, samples are taken first (delta
// cycle 0), then the timeline's actions (workload, dvfs, power, events: delta 1),
// then the sequences starting at T (delta 2), so a sample at T shows the state
// the interval (T - every, T] ended with.
#include "models/sanitizer_fibers.h"
#include "tb/simulate.h"
#include "models/atomic_output.h"

#include <unistd.h>
#include <fnmatch.h>

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <fstream>
#include <iostream>
#include <memory>
#include <systemc>

#include "models/input_error.h"
#include "vp/param_overrides.h"
#include "tb/perf_multiplex.h"
#include "vp/platform.h"
#include "tb/sampler.h"
#include "tb/scenario.h"
#include "tb/sequence_runner.h"
#include "tb/stats.h"
#include "vp/unit_list.h"

namespace pmusim {

using namespace sc_core;

namespace {

class scenario_driver : public sc_module {
public:
    SC_HAS_PROCESS(scenario_driver);
    scenario_driver(const sc_module_name& name, const scenario& s, platform& p, sequence_runner& runner,
                    unsigned boot_statements, bool progress)
        : sc_module(name), s_(s), p_(p), runner_(runner), boot_statements_(boot_statements), progress_(progress) {
        SC_THREAD(main_thread);
        if (progress_) SC_THREAD(progress_thread);
    }

    int status = exit_ok;
    std::string error;
    bool finished = false;
    // A statement of a built-in helper (the perf multiplexer), with the same checks as a sequence's.
    bool run_statement(const seq::statement& st) { return status != exit_bad_input && execute(st); }
    // Threads of built-in helpers, started with the scenario's sequences (after the firmware boot).
    std::vector<std::function<void()>> helpers;

private:
    struct action {
        fs_t at;
        std::function<void()> run;
    };

    const scenario& s_;
    platform& p_;
    sequence_runner& runner_;
    unsigned boot_statements_;
    bool progress_;
    std::chrono::steady_clock::time_point host_start_ = std::chrono::steady_clock::now();
    // The statement each sequence is executing, while its body runs (checked at the scenario's end).
    std::map<const scenario_sequence*, const seq::statement*> running_;

    // To instant t, then one delta more: samples at t come first.
    void wait_until(fs_t t) {
        if (t > now_fs()) wait(to_sc_time(t - now_fs()));
        wait(SC_ZERO_TIME);
    }
    void stop_bad_input(const std::string& message) {
        if (status == exit_bad_input) return;
        status = exit_bad_input;
        error = message;
        sc_stop();
    }
    // Runs one statement through the sequence runner: same checks and messages as `pmusim run`.
    bool execute(const seq::statement& st) {
        sequence_runner::result r = runner_.execute(st);
        if (r.v == sequence_runner::verdict::bad_input) {
            stop_bad_input(r.message);
            return false;
        }
        if (r.v == sequence_runner::verdict::failed) status = exit_failed;
        return true;
    }
    void wait_for_firmware_boot() {
        // The runner boots the firmware profile first (register accesses from time 0, each taking
        // the platform's register-access latency), then starts its idle `run` statement: once
        // that one has started, the last boot access has completed and scenario actions may begin.
        const fs_t step = p_.config().latency.register_access_fs;
        while (runner_.statements_executed() <= boot_statements_) wait(step ? to_sc_time(step) : SC_ZERO_TIME);
    }

    void main_thread() {
        wait_for_firmware_boot();
        std::vector<action> timeline;
        for (const auto& w : s_.workloads)
            timeline.push_back({w.at, [this, &w] {
                                    execute({s_.file, w.line, seq::set_workload{w.cpu, w.rates}});
                                }});
        for (const auto& d : s_.dvfs)
            timeline.push_back({d.at, [this, &d] { execute({s_.file, d.line, seq::set_freq{d.clock, d.hz}}); }});
        for (const auto& q : s_.power)
            timeline.push_back({q.at, [this, &q] { execute({s_.file, q.line, seq::set_power{q.cpu, q.state}}); }});
        for (const auto& e : s_.events)
            timeline.push_back({e.at, [this, &e] {
                                    unit* u = p_.find_unit(e.unit);
                                    if (!u) return stop_bad_input(fmt::format("{}:{}: unknown unit '{}'", s_.event_files[e.file], e.line, e.unit));
                                    std::string why;
                                    if (!u->inject(e.node, e.event, e.count, e.over, why))
                                        stop_bad_input(fmt::format("{}:{}: {}", s_.event_files[e.file], e.line, why));
                                }});
        // Stable: actions at one instant run in the order workload, dvfs, power, events, as written.
        std::stable_sort(timeline.begin(), timeline.end(), [](const action& a, const action& b) { return a.at < b.at; });
        for (const auto& q : s_.sequences)
            sc_spawn(sc_bind(&scenario_driver::sequence_thread, this, &q), nullptr);
        for (auto& h : helpers) sc_spawn(h, nullptr);
        // All actions of one instant run in the same delta cycle (the first after the samples).
        fs_t current = fs_never;
        for (const auto& a : timeline) {
            if (a.at != current) wait_until(current = a.at);
            if (status == exit_bad_input) return;
            a.run();
        }
        wait_until(s_.duration);
        // Sequences starting at the last instant run two deltas after it (wait_until, then after
        // the timeline): let them, then nothing may still be running. A sequence cut off by the end
        // would drop its remaining statements and expectations without a word (a false pass).
        wait(SC_ZERO_TIME);
        wait(SC_ZERO_TIME);
        for (const auto& q : s_.sequences)
            if (auto it = running_.find(&q); it != running_.end())
                return stop_bad_input(fmt::format(
                    "{}:{}: still running when the scenario ended at {} (its duration): a sequence must finish "
                    "within the scenario; lengthen `duration` or start the sequence earlier",
                    it->second->file, it->second->line, format_time(s_.duration)));
        finished = true;
        sc_stop();
    }

    void sequence_thread(const scenario_sequence* q) {
        for (uint64_t k = 0;; ++k) {
            if (q->every && q->count && k >= q->count) return;
            if (k && !q->every) return;
            const fs_t at = q->at + k * q->every;
            if (at > s_.duration) return;
            wait_until(at);
            wait(SC_ZERO_TIME); // after the timeline's actions of the same instant
            for (const auto& st : q->bodies[k % q->bodies.size()]) {
                running_[q] = &st;
                if (!execute(st)) return;
            }
            running_.erase(q);
        }
    }

    void progress_thread() {
        for (unsigned pct = 1; pct <= 100; ++pct) {
            wait_until(s_.duration * pct / 100);
            const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start_).count();
            const double left = host * (100 - pct) / pct;
            std::cerr << fmt::format("\rpmusim: simulated {} of {} ({:3}%), host {:.1f} s, about {:.1f} s left   ",
                                     format_time(now_fs()), format_time(s_.duration), pct, host, left)
                      << std::flush;
        }
        std::cerr << '\n';
    }
};

// Every output appears under its name only once complete (tb/atomic_output.h).
std::unique_ptr<atomic_output> open_output(const std::filesystem::path& p) {
    return std::make_unique<atomic_output>(p.string());
}

void write_whole(const std::filesystem::path& p, const std::string& text) {
    atomic_output out(p.string());
    out.stream() << text;
    out.commit();
}

// sample.truth: ground-truth counts (the units' event_totals, as in stats.json) as sampled rows
// of unit "truth", so a reader's estimate per interval can be compared with the truth per interval.
void append_truth_values(const std::vector<unit*>& units, const scenario& s, std::vector<sampled_value>& values) {
    if (s.sampling.truth.empty()) return;
    std::vector<bool> used(s.sampling.truth.size(), false);
    // One event_totals() call per unit per sample instant, shared by that unit's sampled values.
    struct totals_at {
        fs_t at = fs_never;
        std::vector<event_total> totals;
    };
    for (unit* u : units) {
        auto cache = std::make_shared<totals_at>();
        std::vector<event_total> totals;
        u->event_totals(totals);
        for (size_t i = 0; i < totals.size(); ++i) {
            const std::string full = totals[i].instance + "." + totals[i].event;
            bool take = false;
            for (size_t k = 0; k < s.sampling.truth.size(); ++k)
                if (fnmatch(s.sampling.truth[k].c_str(), full.c_str(), 0) == 0) take = used[k] = true;
            if (!take) continue;
            // A unit lists its totals in a fixed order: the i-th entry is this event at every sample.
            auto count = [u, i, cache] {
                if (cache->at != now_fs()) {
                    cache->totals.clear();
                    u->event_totals(cache->totals);
                    cache->at = now_fs();
                }
                return i < cache->totals.size() ? cache->totals[i].count : 0;
            };
            const std::string event = fmt::format("{:#x} {}", totals[i].code, totals[i].event);
            values.push_back({"truth", totals[i].instance, totals[i].event, 64, count, [event] { return event; }});
        }
    }
    for (size_t k = 0; k < used.size(); ++k)
        if (!used[k])
            throw input_error(s.file, s.sampling.truth_line,
                              "sample.truth: pattern '" + s.sampling.truth[k] +
                                  "' matches no event of the platform (names like dsu0.l3d_cache, imc0.chip0.PM_PB_CYC, as in stats.json)");
}

} // namespace

int simulate_scenario(const simulate_options& opt) {
    register_all_units(); // unit schemas before the platform is validated
    scenario s = load_scenario(opt.scenario_file, opt.params);
    // A replayed perf count perf had scaled is an estimate: replayed as given, but said so.
    for (const auto& e : s.measured_estimates)
        std::cerr << fmt::format("pmusim: note: {}:{}: '{}' ran {}% of its interval: perf printed a scaled estimate "
                                 "(count x time_enabled / time_running); replayed as if measured (stats.json "
                                 "measured_estimates)\n", e.file, e.line, e.event, e.running_pct);
    std::vector<param_override> overrides = parse_override_arguments(opt.overrides);
    if (!overrides.empty() && !s.link_reports.empty())
        // The link's flows were worked out from the scenario's platform; -C rebuilds it from its text.
        throw input_error(s.file, s.links.front().line,
                          "link: -C overrides would rebuild the platform without the link's flows: use --set "
                          "set.PATH=VALUE (the scenario's set:, applied before the link)");
    if (!overrides.empty()) s.platform = apply_param_overrides(s.platform_text, s.platform.file, s.platform, overrides);
    namespace fs = std::filesystem;

    // Before any work: no output replaces an input, and the output folder is one consistent set
    // (tb/atomic_output.h: written into a fresh folder, swapped in whole at the end).
    std::vector<std::string> inputs{opt.scenario_file, s.platform.file};
    inputs.insert(inputs.end(), s.event_files.begin(), s.event_files.end());
    for (const auto& q : s.sequences)
        for (const auto& body : q.bodies)
            if (!body.empty()) inputs.push_back(body.front().file);
    std::vector<std::string> owned{"samples.csv", "samples.jsonl", "stats.json", "config.json", "multiplex.csv"};
    std::string log_json = opt.log_json;
    std::error_code ec;
    const bool log_to_file = !log_json.empty() && log_json != "-";
    const fs::path log_parent = log_to_file ? fs::absolute(log_json).parent_path().lexically_normal() : fs::path();
    const bool log_in_folder =
        log_to_file && (fs::exists(opt.out_dir, ec) ? fs::equivalent(log_parent, opt.out_dir, ec)
                                                    : log_parent == fs::absolute(opt.out_dir).lexically_normal());
    if (log_in_folder) owned.push_back(fs::path(log_json).filename().string());
    std::vector<std::string> outputs{opt.log_json};
    for (const auto& name : owned) outputs.push_back((fs::path(opt.out_dir) / name).string());
    refuse_inputs_as_outputs(outputs, inputs);
    // `pmusim sweep` opens the point's simulate.out/.err in the folder before this run starts.
    output_folder folder(opt.out_dir, owned, {"simulate.out", "simulate.err"});
    if (log_in_folder) log_json = folder.file(fs::path(log_json).filename().string()).string();

    run_recorder rec;
    rec.log = opt.verbose ? &std::cout : nullptr;
    std::unique_ptr<atomic_output> json_out;
    if (!log_json.empty()) {
        json_out = std::make_unique<atomic_output>(log_json);
        rec.json = &json_out->stream();
    }
    std::unique_ptr<platform> built;
    try {
        built = std::make_unique<platform>(s.platform);
    } catch (const input_error& e) {
        throw name_override_in_error(e, s.platform, overrides); // a unit's own check of a value -C set
    }
    platform& p = *built;
    sequence_runner runner("runner", p, rec);
    // The runner's own thread boots the firmware, then idles past the end; the driver stops the run.
    runner.load({seq::statement{s.file, 0, seq::run_time{fs_never / 2}}});
    const unsigned boot_statements = unsigned(p.firmware_boot().size()); // one statement per step

    std::unique_ptr<atomic_output> csv, jsonl;
    std::unique_ptr<sampler> smp;
    if (s.sampling.enabled) {
        std::vector<std::string> unmatched;
        auto values = select_observables(p.units(), s.sampling.counters, unmatched);
        if (!unmatched.empty())
            throw input_error(s.file, s.sampling.counters_line,
                              "sample.counters: pattern '" + unmatched.front() +
                                  "' matches no counter of the platform (names like dsu0.PMEVCNTR0, cpu0.amu.AMEVCNTR00)");
        append_truth_values(p.units(), s, values);
        if (s.sampling.clocks)
            for (const auto& [name, c] : p.system().clocks) {
                const clock_domain* cd = c.get();
                values.push_back({"clock", name, "frequency_hz", 64, [cd] { return cd->frequency_hz(); }, {}, true});
            }
        csv = open_output(folder.file("samples.csv"));
        if (s.sampling.jsonl) jsonl = open_output(folder.file("samples.jsonl"));
        smp = std::make_unique<sampler>("sampler", std::move(values), *p.find_clock(s.sampling.clock), s.sampling.every_fs,
                                        s.sampling.every_cycles, s.duration, &csv->stream(), jsonl ? &jsonl->stream() : nullptr,
                                        s.sampling.start_fs);
    }
    const bool progress = opt.progress && isatty(STDERR_FILENO);
    scenario_driver driver("scenario", s, p, runner, boot_statements, progress);
    std::vector<std::unique_ptr<perf_multiplexer>> multiplexers;
    for (size_t i = 0; i < s.multiplex.size(); ++i)
        multiplexers.push_back(std::make_unique<perf_multiplexer>(
            fmt::format("multiplex{}", i).c_str(), s.multiplex[i], s.file, p, s.duration,
            [&driver](const seq::statement& st) { return driver.run_statement(st); }));
    for (auto& m : multiplexers) driver.helpers.push_back([mux = m.get()] { mux->run(); });

    sc_start();
    sanitizer_fibers::main_stack_resumed();
    if (!runner.error_message().empty() && driver.status != exit_bad_input) {
        // The runner stops on its own only for a model error or bad input in the firmware boot.
        std::cerr << "pmusim: " << runner.error_message() << '\n';
        return runner.exit_status();
    }
    if (driver.status == exit_bad_input) {
        std::cerr << "pmusim: " << driver.error << '\n';
        return exit_bad_input;
    }
    const fs_t end = now_fs();
    if (json_out) json_out->commit();
    if (csv) csv->commit();
    if (jsonl) jsonl->commit();
    nlohmann::ordered_json stats = run_stats(p.units(), p.system(), end);
    if (!multiplexers.empty()) {
        // perf's view of the multiplexed events: every reading in multiplex.csv, the last in stats.json.
        atomic_output mux(folder.file("multiplex.csv").string());
        mux.stream() << perf_multiplexer::csv_header() << '\n';
        stats["multiplex"] = nlohmann::ordered_json::array();
        for (auto& m : multiplexers) {
            m->finish();
            for (const auto& r : m->readings()) perf_multiplexer::write_csv_row(mux.stream(), r);
            for (const auto& r : m->final_readings()) stats["multiplex"].push_back(perf_multiplexer::to_json(r));
        }
        mux.commit();
    }
    if (!s.measured_estimates.empty()) {
        stats["measured_estimates"] = nlohmann::ordered_json::array();
        for (const auto& e : s.measured_estimates)
            stats["measured_estimates"].push_back({{"file", e.file}, {"line", e.line}, {"event", e.event},
                                                   {"running_pct", e.running_pct}, {"interval_end_fs", e.interval_end}});
    }
    if (!s.link_reports.empty()) {
        // The linked model's port schedule and DSU-side queue (tb/system_link.h), as worked out when loaded.
        stats["link"] = nlohmann::ordered_json::array();
        for (const auto& r : s.link_reports) {
            nlohmann::ordered_json segments = nlohmann::ordered_json::array(), homes = nlohmann::ordered_json::object();
            for (const auto& g : r.segments)
                segments.push_back({{"start_edge", g.start_edge}, {"stop_edge", g.stop_edge}, {"demand", g.demand.str()},
                                    {"issue", g.issue.str()}});
            for (const auto& [h, share] : r.homes) homes[h] = share.str();
            stats["link"].push_back({{"dsu", r.dsu}, {"cmn", r.cmn}, {"requester", r.requester},
                                     {"port_rate", r.port_rate.str()}, {"edges", r.edges}, {"arrived", r.arrived},
                                     {"issued", r.issued}, {"queue_occupancy", r.occupancy}, {"peak_queue", r.peak},
                                     {"arrived_floor", r.arrived_floor}, {"issued_floor", r.issued_floor},
                                     {"queue_occupancy_floor", r.occupancy_floor}, {"peak_queue_floor", r.peak_floor},
                                     {"stall_cycles", r.stall_cycles}, {"home_shares", homes}, {"segments", segments}});
        }
    }
    write_whole(folder.file("stats.json"), stats.dump(2) + "\n");
    write_whole(folder.file("config.json"), run_config(s, overrides).dump(2) + "\n");
    folder.commit();
    if (opt.verbose)
        std::cout << fmt::format("pmusim: {} simulated {} ({} samples) into {}\n", s.file, format_time(end),
                                 smp ? smp->samples_taken() : 0, opt.out_dir);
    return driver.status;
}

} // namespace pmusim
