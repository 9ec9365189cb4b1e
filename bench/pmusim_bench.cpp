// pmusim_bench: how fast the fast mode is, against the per-cycle reference mode and a
// bare TLM loop, measured in one command (docs/performance.md).
//
// SystemC allows one kernel per process, so every measured run happens in a forked child
// that builds its own platform, runs, and sends its figures back through a pipe; the
// parent prints them side by side. Scenarios (issue 7):
//   1  AMU, 8 CPUs at 2-3 GHz, 1 s simulated: workload phase change every 100 us per CPU,
//      DVFS every 10 ms, counter reads every 1 ms; against the reference on a scaled run
//   2  register reads through initiator + gate + bus + bank + lazy counter, against a bare
//      b_transport loop to a trivial target
//   3  CMN-600 mesh traffic: 2x2, 4x4 and 8x8 meshes, every requester injecting for 1 ms of
//      mesh time with watchpoints matching; flit hops per host second; a scaled 4x4 reference run
//   4  DSU overflow storm: a counter preloaded near the wrap, the handler reloads it on
//      every interrupt; interrupts per host second, fast against reference
//   5  POWER9 IMC trace: records written per host second at skiboot's sample period
//      (one tracing thread per core of power9-default), fast against reference
//   6  memory: one platform of 256 AMU CPUs, 64 DSU clusters and an 8x8 CMN-600 with traffic;
//      peak RSS against the 1 GiB target
//   7  firmware on the ISS (issue 21): a loop touching no peripheral against bare Unicorn on the
//      same words and against Unicorn with an empty block hook (the floor of an exact count); an MRS of AMEVCNTR00_EL0 from firmware against the C++ initiator's read, with
//      the engine's exit cost (MRS CurrentEL, answered by the ISS) reported separately
//   8  CMN-600 flows (issue 33): 1 s of an 8x8 mesh at 2 GHz with flows from every requester, and the
//      same flows request by request on a scaled run (identical counters, host-time ratio)
//   9  the linked what-if model (issue 33): scenarios/studies/linked/linked-8x8.yaml, a cluster's L3
//      refills and write-backs as CMN flows on an 8x8 mesh for 1 s, through `pmusim simulate`; the
//      same on a scaled run with flow_mode per-request (identical stats.json, host-time ratio)
// --scaling runs scenario 1 at 1, 8, 64 and 256 CPUs.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <unistd.h>

#include <unicorn/unicorn.h>

#include "cmn/cmn600.h"
#include "imc/imc.h"
#include "models/reference_mode.h"
#include "vp/platform.h"
#include "tb/sequence_parser.h"
#include "tb/simulate.h"
#include "tb/sequence_runner.h"
#include "vp/unit_list.h"
#include "models/data_files.h"
#include "models/values.h"

using namespace pmusim;

int sc_main(int, char**) { return 0; } // libsystemc references it

namespace {

// What one child run reports (plain data: it crosses a pipe).
struct run_figures {
    bool ok = false;
    int exit_status = 0;
    double host_seconds = 0;
    uint64_t sim_fs = 0;
    uint64_t sim_cycles = 0;   // CPU clock edges, all CPUs
    uint64_t work = 0;         // scenario-specific: accesses, interrupts
    uint64_t log_hash = 0;     // FNV-1a of the JSON access log: identical results
    uint64_t reference_edges = 0;
    long peak_rss_kib = 0;
    // scenario 2: the memory-mapped path's, the bare loop's and the two plumbing floors' host time
    double other_host_seconds[4] = {};
    char error[256] = {};
};

run_figures in_child(const std::function<run_figures()>& body) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    std::cout.flush();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        run_figures r;
        try {
            r = body();
        } catch (const std::exception& e) {
            r.ok = false;
            std::snprintf(r.error, sizeof r.error, "%s", e.what());
        }
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        r.peak_rss_kib = u.ru_maxrss;
        r.reference_edges = reference_world::instance().edges_delivered();
        ssize_t n = write(fds[1], &r, sizeof r);
        _exit(n == ssize_t(sizeof r) ? 0 : 1);
    }
    close(fds[1]);
    run_figures r;
    ssize_t got = read(fds[0], &r, sizeof r);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != ssize_t(sizeof r)) {
        r = run_figures{};
        std::snprintf(r.error, sizeof r.error, "child run died (status %d)", status);
    }
    return r;
}

uint64_t fnv1a_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    uint64_t h = 1469598103934665603ULL;
    char c;
    while (in.get(c)) h = (h ^ uint8_t(c)) * 1099511628211ULL;
    return h;
}

std::string temp_path(const std::string& what) { return fmt::format("/tmp/pmusim-bench-{}-{}.jsonl", getpid(), what); }

// Runs sequence text on a platform in this (child) process, the way `pmusim run` does, with the
// JSON access log (`--log-json`) unless `access_log` is false (then log_hash is 0).
run_figures run_sequence(const std::string& platform_name, const std::string& text, bool reference,
                         const std::function<uint64_t(platform&)>& work_of, double* sc_start_cpu_seconds = nullptr,
                         bool access_log = true) {
    register_all_units();
    platform_config cfg = load_platform(platform_name);
    auto statements = seq::parse_sequence(text, "bench.seq");
    set_reference_mode(reference);
    run_recorder rec;
    const std::string log = temp_path(reference ? "reference" : "fast");
    std::ofstream json_log;
    if (access_log) {
        json_log.open(log);
        rec.json = &json_log;
    }
    platform p(cfg);
    sequence_runner runner("runner", p, rec);
    runner.load(statements);
    timespec cpu_start{}, cpu_end{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start);
    const auto start = std::chrono::steady_clock::now();
    sc_core::sc_start();
    run_figures r;
    r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_end);
    if (sc_start_cpu_seconds)
        *sc_start_cpu_seconds = double(cpu_end.tv_sec - cpu_start.tv_sec) + 1e-9 * double(cpu_end.tv_nsec - cpu_start.tv_nsec);
    r.exit_status = runner.exit_status();
    r.ok = runner.exit_status() == exit_ok;
    if (!r.ok) std::snprintf(r.error, sizeof r.error, "%s", runner.error_message().c_str());
    r.sim_fs = now_fs();
    for (const auto& core : p.system().cores) r.sim_cycles += core->clock().edges_at(now_fs());
    r.work = work_of(p);
    if (access_log) {
        json_log.close();
        r.log_hash = fnv1a_file(log);
        std::remove(log.c_str());
    }
    return r;
}

std::string human(double v) {
    const char* units[] = {"", "k", "M", "G", "T"};
    int i = 0;
    while (v >= 1000 && i < 4) v /= 1000, ++i;
    return fmt::format("{:.3g}{}", v, units[i]);
}

void print_run(const std::string& label, const run_figures& r, const std::string& work_name) {
    if (!r.ok && r.error[0]) {
        std::cout << fmt::format("  {:<28} FAILED: {}\n", label, r.error);
        return;
    }
    std::cout << fmt::format("  {:<28} simulated {:>10}  sim_cycles {:>8}  host_seconds {:8.3f}  "
                             "cycles_per_host_second {:>7}  {} {:>8} ({}/host s)  peak RSS {} MiB\n",
                             label, format_time(r.sim_fs), human(double(r.sim_cycles)), r.host_seconds,
                             human(r.sim_cycles / r.host_seconds), work_name, r.work,
                             human(r.work / r.host_seconds), r.peak_rss_kib / 1024);
}

// ------------------------------------------------------------------ scenario 1: AMU

// A platform of n CPUs with the AMU, each in its own 2-3 GHz clock domain.
std::string amu_platform_file(unsigned cpus) {
    std::string y = fmt::format("name: amu-bench-{}\ndescription: \"benchmark: {} AMU CPUs\"\narch: arm\nclocks:\n"
                                "  - {{ name: const, frequency: 100MHz }}\n", cpus, cpus);
    for (unsigned i = 0; i < cpus; ++i) y += fmt::format("  - {{ name: cpu{}, frequency: {}MHz }}\n", i, 2000 + (i % 5) * 250);
    y += "cpus:\n";
    for (unsigned i = 0; i < cpus; ++i)
        y += fmt::format("  - {{ name: cpu{0}, clock: cpu{0}, cluster: {1}, features: {{ amu: v1p1 }} }}\n", i, i / 4);
    y += "firmware: { profile: tf-a }\n";
    const std::string path = fmt::format("/tmp/pmusim-bench-{}-amu{}.yaml", getpid(), cpus);
    std::ofstream(path) << y;
    return path;
}

struct amu_schedule {
    fs_t duration, phase, dvfs, read;
};

// Workload phases on every CPU each `phase`, DVFS of every CPU each `dvfs` (2-3 GHz),
// the four architected counters of every CPU read each `read`; all from a fixed seed.
std::string amu_sequence(unsigned cpus, const amu_schedule& s) {
    std::mt19937_64 rng(7);
    std::ostringstream out;
    const char* rates[] = {"1", "3/2", "2", "1/3", "5/4", "7/8", "2/7", "3"};
    const char* stalls[] = {"0", "1/10", "1/4", "1/2", "3/5", "1/100"};
    for (fs_t t = 0; t < s.duration; t += s.phase) {
        if (t % s.dvfs == 0 && t > 0)
            for (unsigned c = 0; c < cpus; ++c) out << fmt::format("freq cpu{} {}MHz\n", c, 2000 + rng() % 1001);
        for (unsigned c = 0; c < cpus; ++c)
            out << fmt::format("workload cpu{} inst={} mem_stall={}\n", c, rates[rng() % 8], stalls[rng() % 6]);
        if (t % s.read == 0)
            for (unsigned c = 0; c < cpus; ++c) {
                out << fmt::format("as cpu{} el1\n", c);
                for (unsigned n = 0; n < 4; ++n) out << fmt::format("read AMEVCNTR0{}_EL0\n", n);
            }
        out << fmt::format("run {}ns\n", s.phase / 1'000'000);
    }
    for (unsigned c = 0; c < cpus; ++c) {
        out << fmt::format("as cpu{} el1\n", c);
        for (unsigned n = 0; n < 4; ++n) out << fmt::format("read AMEVCNTR0{}_EL0\n", n);
    }
    return out.str();
}

run_figures amu_run(unsigned cpus, const amu_schedule& s, bool reference) {
    const std::string plat = amu_platform_file(cpus);
    return in_child([&] {
        return run_sequence(plat, amu_sequence(cpus, s), reference, [&](platform&) {
            return uint64_t((s.duration + s.read - 1) / s.read + 1) * cpus * 4; // counter reads
        });
    });
}

constexpr fs_t us = 1'000'000'000ULL, ms = 1000 * us;

void scenario_amu(bool quick) {
    std::cout << "Scenario 1: AMU, 8 CPUs at 2-3 GHz; workload phase every 100 us per CPU, DVFS every 10 ms, "
                 "counter reads every 1 ms\n";
    const amu_schedule full{quick ? 100 * ms : 1000 * ms, 100 * us, 10 * ms, 1 * ms};
    const amu_schedule scaled{2 * ms, 100 * us, 500 * us, 100 * us}; // same kinds of events, denser
    run_figures fast = amu_run(8, full, false);
    print_run(fmt::format("fast, {}", format_time(full.duration)), fast, "reads");
    run_figures fast_scaled = amu_run(8, scaled, false);
    print_run("fast, scaled run", fast_scaled, "reads");
    run_figures ref = amu_run(8, scaled, true);
    print_run("reference, scaled run", ref, "reads");
    const bool same = fast_scaled.ok && ref.ok && fast_scaled.log_hash == ref.log_hash;
    std::cout << fmt::format("  results on the scaled run: {} (JSON logs {:016x} / {:016x})\n",
                             same ? "identical" : "DIFFERENT", fast_scaled.log_hash, ref.log_hash);
    std::cout << fmt::format("  speed-up, fast (full run) over reference (cycles per host second): {:.0f}x  "
                             "(target >= 1000x)\n\n",
                             (fast.sim_cycles / fast.host_seconds) / (ref.sim_cycles / ref.host_seconds));
}

void scenario_scaling() {
    std::cout << "Scaling: scenario 1 at 1, 8, 64 and 256 CPUs, 100 ms simulated (phase 100 us, DVFS 10 ms, "
                 "reads 1 ms)\n";
    std::cout << "  CPUs  host s per simulated s  host ms per simulated s per CPU  peak RSS MiB\n";
    const amu_schedule s{100 * ms, 100 * us, 10 * ms, 1 * ms};
    for (unsigned cpus : {1u, 8u, 64u, 256u}) {
        run_figures r = amu_run(cpus, s, false);
        if (!r.ok) {
            std::cout << fmt::format("  {:>4}  FAILED: {}\n", cpus, r.error);
            continue;
        }
        const double per_sim_s = r.host_seconds / (double(r.sim_fs) / fs_per_second);
        std::cout << fmt::format("  {:>4}  {:>22.3f}  {:>31.2f}  {:>12}\n", cpus, per_sim_s, 1000 * per_sim_s / cpus,
                                 r.peak_rss_kib / 1024);
    }
    std::cout << '\n';
}

// ------------------------------------------------------------------ scenario 2: register path

struct reader : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<reader> to_platform{"to_platform"};
    tlm_utils::simple_initiator_socket<reader> to_trivial{"to_trivial"};
    tlm_utils::simple_initiator_socket<reader> to_one_hop{"to_one_hop"};
    tlm_utils::simple_initiator_socket<reader> to_three_hops{"to_three_hops"};
    std::function<void(reader&)> body;
    SC_HAS_PROCESS(reader);
    explicit reader(const sc_core::sc_module_name& n) : sc_module(n) { SC_THREAD(thread); }
    void thread() { body(*this); }
};

struct trivial_target : sc_core::sc_module {
    tlm_utils::simple_target_socket<trivial_target> in{"in"};
    uint64_t value = 42;
    explicit trivial_target(const sc_core::sc_module_name& n) : sc_module(n) {
        in.register_b_transport(this, &trivial_target::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time&) {
        std::memcpy(t.get_data_ptr(), &value, 8);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// The plumbing floor: what every hop of the register path does before its own work, and nothing
// else. A plain target socket (one virtual call), the access context looked up, the payload passed
// on; the last hop answers with a fixed value. One such hop (the gate; it calls the unit directly) and a
// chain of three (gate, bus, unit) bound the cost of the two register paths' topology, whatever the hops decide.
struct plumbing_hop : sc_core::sc_module, tlm::tlm_fw_transport_if<> {
    tlm::tlm_target_socket<> in{"in"};
    tlm_utils::simple_initiator_socket_optional<plumbing_hop> out{"out"}; // unbound on the last hop
    bool last = false;
    uint64_t value = 42;
    plumbing_hop(const sc_core::sc_module_name& n, bool last_hop) : sc_module(n), last(last_hop) { in.bind(*this); }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) override {
        if (!t.get_extension<access_context>()) return t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        if (!last) return out->b_transport(t, delay);
        std::memcpy(t.get_data_ptr(), &value, 8);
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase&, sc_core::sc_time&) override {
        t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE); // the benchmark uses b_transport only
        return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
};

void scenario_register_path(bool quick) {
    std::cout << "Scenario 2: register reads against a bare b_transport loop to a trivial target: AMEVCNTR00_EL0 on "
                 "cpu0 at EL3 (initiator, gate, AMU unit, bank, lazy counter) and dsu0's memory-mapped PMCCNTR "
                 "(initiator, gate, system bus, DSU unit, bank, lazy counter)\n";
    const uint64_t reads = quick ? 200'000 : 20'000'000;
    const unsigned rounds = quick ? 1 : 5;
    std::cout << fmt::format("  each path: the best of {} interleaved rounds of {} reads\n", rounds, reads);
    struct path_figures {
        double sysreg_s = 0, mmio_s = 0, bare_s = 0, one_hop_s = 0, three_hops_s = 0;
        bool all_ok = true;
    };
    path_figures paths;
    run_figures r = in_child([&] {
        register_all_units();
        platform p(load_platform("arm-default"));
        auto counter = p.resolve_register("AMEVCNTR00_EL0", 0);
        auto cycle_counter = p.resolve_register("dsu0.PMCCNTR", 0);
        reader initiator("initiator");
        trivial_target target("target");
        initiator.to_platform.bind(p.gate().from_initiators);
        initiator.to_trivial.bind(target.in);
        plumbing_hop gate_hop("gate_hop", true);
        plumbing_hop gate_hop3("gate_hop3", false), bus_hop3("bus_hop3", false), unit_hop3("unit_hop3", true);
        initiator.to_one_hop.bind(gate_hop.in);
        initiator.to_three_hops.bind(gate_hop3.in);
        gate_hop3.out.bind(bus_hop3.in);
        bus_hop3.out.bind(unit_hop3.in);

        run_figures f;
        f.ok = true;
        uint64_t checksum = 0;
        enum class path { system_register, memory_mapped, bare, one_hop, three_hops };
        auto loop = [&](reader& self, path which, double& seconds) {
            auto& socket = which == path::bare         ? self.to_trivial
                           : which == path::one_hop    ? self.to_one_hop
                           : which == path::three_hops ? self.to_three_hops
                                                       : self.to_platform;
            tlm::tlm_generic_payload t;
            uint64_t data = 0;
            access_context ctx;
            ctx.initiator = initiator_kind::cpu;
            ctx.cpu = 0;
            ctx.el = 3; // after TF-A (no firmware boot runs here), EL3 reads the counters untrapped
            ctx.secure = true;
            ctx.path = which == path::memory_mapped ? access_path::memory_mapped : access_path::system_register;
            t.set_command(tlm::TLM_READ_COMMAND);
            t.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
            t.set_data_length(8);
            t.set_streaming_width(8);
            sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
            auto write = [&](uint64_t address, unsigned bytes, uint64_t value) {
                t.set_command(tlm::TLM_WRITE_COMMAND);
                t.set_address(address);
                t.set_data_length(bytes);
                t.set_streaming_width(bytes);
                data = value;
                socket->b_transport(t, delay);
                paths.all_ok &= t.is_response_ok();
                t.set_command(tlm::TLM_READ_COMMAND);
                t.set_data_length(8);
                t.set_streaming_width(8);
            };
            uint64_t address = 0;
            if (which != path::bare) t.set_extension(&ctx);
            if (which == path::system_register) {
                // Enable the four architected counters (what TF-A does), so that reads evaluate them.
                write(p.resolve_register("AMCNTENSET0_EL0", 0)->key, 8, 0xf);
                address = counter->key;
            } else if (which == path::memory_mapped) {
                // Linux's arm_dsu_pmu would use the system registers; the frame is what a debugger or
                // an SCP sees. PMCNTENSET.C (bit 31) and PMCR.E enable the cycle counter.
                write(p.resolve_register("dsu0.PMCNTENSET", 0)->address, 4, 1ULL << 31); // 32-bit registers
                write(p.resolve_register("dsu0.PMCR", 0)->address, 4, 1);
                address = cycle_counter->address;
            }
            t.set_address(address);
            const auto start = std::chrono::steady_clock::now();
            for (uint64_t i = 0; i < reads; ++i) {
                t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
                socket->b_transport(t, delay);
                checksum += data;
                if ((i & 1023) == 1023) sc_core::wait(sc_core::sc_time::from_value(333'333)); // time moves on
            }
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            paths.all_ok &= t.is_response_ok() && data != 0; // the last read counted something
            if (which != path::bare) t.clear_extension(&ctx);
        };
        initiator.body = [&](reader& self) {
            sc_core::wait(sc_core::SC_ZERO_TIME); // multi sockets bind at the start of simulation
            // Each path's best of `rounds` interleaved rounds: a burst of load from other jobs then
            // slows one round of every path, not all rounds of the path that happened to run in it.
            for (unsigned round = 0; round < rounds; ++round) {
                auto best = [&](path which, double& best_seconds) {
                    double seconds = 0;
                    loop(self, which, seconds);
                    if (round == 0 || seconds < best_seconds) best_seconds = seconds;
                };
                best(path::system_register, paths.sysreg_s);
                best(path::memory_mapped, paths.mmio_s);
                best(path::bare, paths.bare_s);
                best(path::one_hop, paths.one_hop_s);
                best(path::three_hops, paths.three_hops_s);
            }
            sc_core::sc_stop();
        };
        sc_core::sc_start();
        if (!paths.all_ok) {
            f.ok = false;
            std::snprintf(f.error, sizeof f.error, "a register access was refused or a counter read 0");
        }
        f.host_seconds = paths.sysreg_s;
        f.other_host_seconds[0] = paths.mmio_s;
        f.other_host_seconds[1] = paths.bare_s;
        f.other_host_seconds[2] = paths.one_hop_s;
        f.other_host_seconds[3] = paths.three_hops_s;
        f.work = checksum;
        return f;
    });
    if (!r.ok) {
        std::cout << "  FAILED: " << r.error << "\n\n";
        return;
    }
    const double mmio_s = r.other_host_seconds[0], bare_s = r.other_host_seconds[1];
    auto line = [&](const char* what, double seconds) {
        std::cout << fmt::format("  {:<26} {} reads in {:.3f} host s = {:5.1f} ns/read ({} reads/host s)", what, reads,
                                 seconds, 1e9 * seconds / reads, human(reads / seconds));
    };
    line("system register (AMU):", r.host_seconds);
    std::cout << fmt::format("  {:.1f}x the bare loop (target, issue 30: within 2.5x)\n", r.host_seconds / bare_s);
    line("memory-mapped (DSU frame):", mmio_s);
    std::cout << fmt::format("  {:.1f}x the bare loop (target, issue 30: within 3x)\n", mmio_s / bare_s);
    line("bare loop:", bare_s);
    std::cout << "\n";
    // The floor of the topology (plumbing_hop): what the hops cost before any of them does its work.
    line("plumbing, 1 hop:", r.other_host_seconds[2]);
    std::cout << fmt::format("  {:.1f}x the bare loop (the system-register path's gate, doing nothing)\n",
                             r.other_host_seconds[2] / bare_s);
    line("plumbing, 3 hops:", r.other_host_seconds[3]);
    std::cout << fmt::format("  {:.1f}x the bare loop (the memory-mapped path's gate, bus and unit, doing nothing)\n\n",
                             r.other_host_seconds[3] / bare_s);
}

// ------------------------------------------------------------------ scenario 5: IMC trace

// Linux's trace_imc on thread 0 of each of power9-default's 4 cores (cpu0, cpu4, cpu8, cpu12):
// skiboot's TRACE_IMC_SCOM (a record every 251 ticks of 32 MHz = 7843.75 ns), one 256 KiB
// buffer each (the platform's 1 MiB imc_counters memory holds four), then reads of slot 0.
std::string imc_trace_sequence(fs_t duration) {
    std::ostringstream out;
    for (unsigned core = 0; core < 4; ++core)
        out << fmt::format("as cpu{0} hv\nopal imc_counters_init trace 0 cpu{0}\nwrite LDBAR {1:#x}\n"
                           "opal imc_counters_start trace cpu{0}\n",
                           4 * core, 0x4000000010400000ULL + core * 0x40000ULL);
    out << fmt::format("run {}ns\nas cpu0 hv\n", duration / 1000000);
    for (unsigned core = 0; core < 4; ++core)
        for (unsigned word = 0; word < 8; ++word) out << fmt::format("read64 {:#x}\n", 0x10400000 + core * 0x40000 + 8 * word);
    return out.str();
}

run_figures imc_trace_run(fs_t duration, bool reference) {
    return in_child([&] {
        return run_sequence("power9-default", imc_trace_sequence(duration), reference, [](platform& p) {
            auto* imc = dynamic_cast<imc_unit*>(p.find_unit("imc0"));
            uint64_t records = 0;
            for (unsigned cpu = 0; imc && cpu < 16; ++cpu) records += imc->trace_records(cpu);
            return records;
        });
    });
}

void scenario_imc_trace(bool quick) {
    std::cout << "Scenario 5: POWER9 IMC trace, skiboot's sample period (7843.75 ns), one tracing thread on each of "
                 "4 cores (power9-default: 3.2 GHz cores, 2 GHz nest, 512 MHz timebase)\n";
    run_figures fast = imc_trace_run(quick ? 100 * ms : 1000 * ms, false);
    print_run(fmt::format("fast, {}", format_time(fast.sim_fs)), fast, "records");
    run_figures fast_scaled = imc_trace_run(200 * us, false);
    print_run("fast, scaled run", fast_scaled, "records");
    run_figures ref = imc_trace_run(200 * us, true);
    print_run("reference, scaled run", ref, "records");
    const bool same = fast_scaled.ok && ref.ok && fast_scaled.log_hash == ref.log_hash;
    std::cout << fmt::format("  results on the scaled run: {} (JSON logs {:016x} / {:016x})\n",
                             same ? "identical" : "DIFFERENT", fast_scaled.log_hash, ref.log_hash);
    std::cout << fmt::format("  records per host second, fast (full run) over reference: {:.1f}x\n\n",
                             (fast.work / fast.host_seconds) / (ref.work / ref.host_seconds));
}

// ------------------------------------------------------------------ scenario 4: DSU storm

std::string dsu_storm_sequence(fs_t duration, unsigned cycles_between) {
    // The Linux handler's shape: on nCLUSTERPMUIRQ, clear the flag and reload the counter.
    const uint64_t preload = ~uint64_t(0) - cycles_between + 1; // wraps after `cycles_between` DSU cycles
    std::ostringstream out;
    out << "as cpu0 el1\nwrite CLUSTERPMSELR_EL1 0\nwrite CLUSTERPMXEVTYPER_EL1 0x11\n"
        << fmt::format("write CLUSTERPMXEVCNTR_EL1 {:#x}\n", preload)
        << "write CLUSTERPMINTENSET_EL1 0x1\nwrite CLUSTERPMCNTENSET_EL1 0x1\nwrite CLUSTERPMCR_EL1 1\n";
    const uint64_t interrupts = duration / (uint64_t(cycles_between) * 1'000'000ULL); // DSU at 1 GHz
    for (uint64_t i = 0; i < interrupts; ++i)
        out << "wait irq dsu0_pmu_irq high timeout 1ms\nwrite CLUSTERPMOVSCLR_EL1 0x1\n"
            << fmt::format("write CLUSTERPMXEVCNTR_EL1 {:#x}\n", preload);
    out << "read CLUSTERPMOVSSET_EL1\nread CLUSTERPMXEVCNTR_EL1\n";
    return out.str();
}

run_figures dsu_storm_run(fs_t duration, bool reference) {
    const std::string plat = pmusim::source_dir() + "/bench/dsu-storm.yaml";
    return in_child([&] {
        return run_sequence(plat, dsu_storm_sequence(duration, 3000), reference,
                            [](platform& p) { return p.find_irq("dsu0_pmu_irq")->rising_edges(); });
    });
}

void scenario_dsu_storm(bool quick) {
    std::cout << "Scenario 4: DSU overflow storm: a counter of DSU cycles preloaded 3000 cycles before the wrap, "
                 "reloaded by the interrupt handler (DSU at 1 GHz, one interrupt every ~3 us)\n";
    run_figures fast = dsu_storm_run(quick ? 10 * ms : 100 * ms, false);
    print_run(fmt::format("fast, {}", format_time(fast.sim_fs)), fast, "interrupts");
    run_figures fast_scaled = dsu_storm_run(2 * ms, false);
    print_run("fast, scaled run", fast_scaled, "interrupts");
    run_figures ref = dsu_storm_run(2 * ms, true);
    print_run("reference, scaled run", ref, "interrupts");
    const bool same = fast_scaled.ok && ref.ok && fast_scaled.log_hash == ref.log_hash;
    std::cout << fmt::format("  results on the scaled run: {} (JSON logs {:016x} / {:016x})\n",
                             same ? "identical" : "DIFFERENT", fast_scaled.log_hash, ref.log_hash);
    std::cout << fmt::format("  interrupts per host second, fast (full run) over reference: {:.1f}x\n\n",
                             (fast.work / fast.host_seconds) / (ref.work / ref.host_seconds));
}

// ------------------------------------------------------------------ scenario 3: CMN-600 traffic

// A mesh_x x mesh_y CMN-600 in the default layout (docs/cmn.md: HN-D and SN-F at XP (0,0), RN-I
// and SN-F at the last XP, an RN-F and an HN-F at every other XP), a request generator on every
// requester port (62 RN-Fs and the RN-I on 8x8), mesh clock 1 GHz. Written to a temporary file.
std::string cmn_bench_platform(unsigned mesh, const std::string& rate) {
    std::ostringstream y;
    y << fmt::format("name: cmn-bench-{0}x{0}\ndescription: \"benchmark: CMN-600 {0}x{0} mesh, every requester "
                     "injecting\"\narch: arm\nclocks:\n  - {{ name: cpu0, frequency: 2GHz }}\n"
                     "  - {{ name: cmn0, frequency: 1GHz }}\ncpus:\n  - {{ name: cpu0, clock: cpu0, cluster: 0 }}\n"
                     "firmware: {{ profile: none }}\nunits:\n  - name: cmn0\n    type: cmn600\n    base: 0x40000000\n"
                     "    size: 64MiB\n    clock: cmn0\n    irq: cmn0_pmu_irq\n    params:\n      mesh_x: {0}\n"
                     "      mesh_y: {0}\n      traffic: |\n",
                     mesh);
    unsigned seed = 1;
    for (unsigned yy = 0; yy < mesh; ++yy)
        for (unsigned xx = 0; xx < mesh; ++xx)
            if (xx || yy) // XP (0,0) holds the HN-D and an SN-F: no requester
                y << fmt::format("        {},{} p0 rate={} range=0x80000000-0x8fffffff "
                                 "mix=ReadShared:3,WriteBackFull:1 seed={}\n",
                                 xx, yy, rate, seed++);
    const std::string path = fmt::format("/tmp/pmusim-bench-{}-cmn{}.yaml", getpid(), mesh);
    std::ofstream(path) << y.str();
    return path;
}

// Linux-style programming with watchpoint matching on at every XP: WP0 counts the ReadShared
// requests uploaded on port 0 (CMN-600 REQ group 0 opcode [36:31]), WP2 every DAT flit downloaded
// on port 1; DTM counter 0 (WP0) is paired to global counter 0, counter 1 (WP2) to global 1,
// counter 2 counts the XP's eastward REQ flits. Reads of the global and cycle counters and two
// XPs' local counters every tenth of the run.
std::string cmn_bench_sequence(unsigned mesh, uint64_t mesh_cycles) {
    std::ostringstream out;
    out << "as cpu0 el1\n";
    for (unsigned yy = 0; yy < mesh; ++yy)
        for (unsigned xx = 0; xx < mesh; ++xx) {
            const std::string xp = fmt::format("cmn0.xp_{}_{}", xx, yy);
            out << fmt::format("write {0}.por_dtm_wp0_config 0x0\nwrite {0}.por_dtm_wp0_val {1:#x}\n"
                               "write {0}.por_dtm_wp0_mask {2:#x}\n"
                               "write {0}.por_dtm_wp2_config 0x7\nwrite {0}.por_dtm_wp2_val 0\n"
                               "write {0}.por_dtm_wp2_mask 0xffffffffffffffff\n"
                               "write {0}.pmu_event_sel 0x01\n"
                               "write {0}.por_dtm_pmu_config 0x0004_0200_0010_0031\n",
                               xp, uint64_t(1) << 31, ~(uint64_t(0x3F) << 31));
        }
    out << "write cmn0.dtc0.por_dt_dtc_ctl 1\nwrite cmn0.dtc0.por_dt_pmcr 0x41\n";
    for (unsigned i = 0; i < 10; ++i)
        out << fmt::format("run {} cycles of cmn0\nprint cmn0.dtc0.por_dt_pmevcntab\nprint cmn0.dtc0.por_dt_pmccntr\n"
                           "print cmn0.xp_1_1.por_dtm_pmevcnt\nprint cmn0.xp_{}_{}.por_dtm_pmevcnt\n",
                           mesh_cycles / 10, mesh - 1, mesh - 1);
    return out.str();
}

std::string cmn_rate = "1/20"; // requests per mesh cycle per requester (--cmn-rate)

run_figures cmn_traffic_run(unsigned mesh, uint64_t mesh_cycles, bool reference) {
    return in_child([&] {
        const std::string plat = cmn_bench_platform(mesh, cmn_rate);
        run_figures r = run_sequence(plat, cmn_bench_sequence(mesh, mesh_cycles), reference, [](platform& p) {
            const auto* cmn = dynamic_cast<const cmn600*>(p.find_unit("cmn0"));
            return cmn ? cmn->flit_hops() : 0;
        });
        std::remove(plat.c_str());
        return r;
    });
}

void scenario_cmn(bool quick) {
    std::cout << "Scenario 3: CMN-600 mesh traffic, mesh clock 1 GHz, every requester issuing " << cmn_rate
              << " requests per mesh cycle (ReadShared:3, WriteBackFull:1 over 256 MB), watchpoints WP0 and WP2 "
                 "matching at every XP\n";
    const uint64_t cycles = quick ? 100'000 : 1'000'000; // 1 ms of mesh time (quick: 100 us)
    double hops_per_s_8x8 = 0;
    for (unsigned mesh : {2u, 4u, 8u}) {
        run_figures r = cmn_traffic_run(mesh, cycles, false);
        print_run(fmt::format("fast, {0}x{0}, {1}", mesh, format_time(r.sim_fs)), r, "flit hops");
        if (r.ok)
            std::cout << fmt::format("  {:<28} host seconds per simulated second {:.0f}, per XP {:.1f}\n", "",
                                     r.host_seconds / (double(r.sim_fs) / 1e15),
                                     r.host_seconds / (double(r.sim_fs) / 1e15) / (mesh * mesh));
        if (mesh == 8 && r.ok) hops_per_s_8x8 = r.work / r.host_seconds;
    }
    // The same traffic and programming per edge (reference mode), on a scaled 4x4 run.
    run_figures fast = cmn_traffic_run(4, 20'000, false);
    run_figures ref = cmn_traffic_run(4, 20'000, true);
    print_run("fast, 4x4, scaled run", fast, "flit hops");
    print_run("reference, 4x4, scaled run", ref, "flit hops");
    const bool same = fast.ok && ref.ok && fast.log_hash == ref.log_hash;
    std::cout << fmt::format("  results on the scaled run: {} (JSON logs {:016x} / {:016x})\n",
                             same ? "identical" : "DIFFERENT", fast.log_hash, ref.log_hash);
    std::cout << fmt::format("  8x8 flit hops per host second: {}\n\n", human(hops_per_s_8x8));
}

// ------------------------------------------------------------------ scenario 7: firmware on the ISS

// A64 encodings (Arm ARM C6.2) of the few instructions the benchmark's firmware uses.
namespace a64 {
constexpr uint32_t movz_x(unsigned rd, uint16_t imm) { return 0xd2800000u | uint32_t(imm) << 5 | rd; }
constexpr uint32_t movk_x_lsl16(unsigned rd, uint16_t imm) { return 0xf2a00000u | uint32_t(imm) << 5 | rd; }
constexpr uint32_t subs_x0_1 = 0xf1000400u;                  // SUBS X0, X0, #1
constexpr uint32_t b_ne(int words) { return 0x54000001u | (uint32_t(words) & 0x7ffff) << 5; }
constexpr uint32_t ldr_x1_here = 0x58000001u;                // LDR X1, . (literal: the word at its own address)
constexpr uint32_t adr_x5_here = 0x10000005u;                // ADR X5, .
constexpr uint32_t ldr_x4_x5 = 0xf94000a4u;                  // LDR X4, [X5]
constexpr uint32_t mrs_x1_amevcntr00 = 0xd53bd401u;           // MRS X1, AMEVCNTR00_EL0 (S3_3_C13_C4_0)
constexpr uint32_t mrs_x1_currentel = 0xd5384241u;            // MRS X1, CurrentEL (S3_0_C4_C2_2)
constexpr uint32_t msr_amcntenset0_x2 = 0xd51bd2a2u;          // MSR AMCNTENSET0_EL0, X2 (S3_3_C13_C2_5)
constexpr uint32_t adr_x1(unsigned bytes) { return 0x10000001u | (bytes >> 2) << 5; }
constexpr uint32_t hlt_semihosting = 0xd45e0000u;             // HLT #0xF000
} // namespace a64

constexpr uint64_t firmware_base = 0x80000000; // arm-default's DRAM (docs/firmware.md)

// Scenario 7 times by the process's CPU time: its runs are single-threaded, and on a shared
// machine wall time charges them for other jobs' time slices (a ratio of two such runs then
// measures the load, not the paths).
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// `iterations` of a loop of SUBS and B.NE, with `body` (MRS words) first in each iteration, then
// SYS_EXIT(ADP_Stopped_ApplicationExit, 0). Returns the words; *loop_end is the byte offset of
// the instruction after the loop.
std::vector<uint32_t> firmware_loop(uint32_t iterations, const std::vector<uint32_t>& body, size_t* loop_end) {
    std::vector<uint32_t> w{a64::movz_x(2, 0xf), a64::msr_amcntenset0_x2, a64::movz_x(0, uint16_t(iterations)),
                            a64::movk_x_lsl16(0, uint16_t(iterations >> 16))};
    for (uint32_t b : body) w.push_back(b);
    w.push_back(a64::subs_x0_1);
    w.push_back(a64::b_ne(-int(body.size() + 1)));
    *loop_end = 4 * w.size();
    const size_t exit_at = w.size();
    w.push_back(0); // ADR X1, block (patched below)
    w.push_back(a64::movz_x(0, 0x18)); // SYS_EXIT
    w.push_back(a64::hlt_semihosting);
    if (w.size() % 2) w.push_back(0);
    const size_t block = w.size();
    w[exit_at] = a64::adr_x1(unsigned(4 * (block - exit_at)));
    w.push_back(0x20026); // ADP_Stopped_ApplicationExit, subcode 0
    w.push_back(0);
    w.push_back(0);
    w.push_back(0);
    return w;
}

// A static ELF-64 AArch64 executable (one RWX PT_LOAD at firmware_base, entry there).
void write_firmware_elf(const std::string& path, const std::vector<uint32_t>& words) {
    std::vector<uint8_t> f(64 + 56, 0);
    auto put = [&](size_t off, uint64_t v, unsigned bytes) { std::memcpy(f.data() + off, &v, bytes); };
    std::memcpy(f.data(), "\x7f" "ELF\x02\x01\x01", 7); // ELFCLASS64, ELFDATA2LSB, EV_CURRENT
    put(16, 2, 2);          // ET_EXEC
    put(18, 183, 2);        // EM_AARCH64
    put(20, 1, 4);          // e_version
    put(24, firmware_base, 8);
    put(32, 64, 8);         // e_phoff
    put(52, 64, 2);         // e_ehsize
    put(54, 56, 2);         // e_phentsize
    put(56, 1, 2);          // e_phnum
    const uint64_t size = 4 * words.size();
    put(64, 1, 4);          // PT_LOAD
    put(68, 7, 4);          // PF_R | PF_W | PF_X
    put(72, 120, 8);        // p_offset
    put(80, firmware_base, 8);
    put(88, firmware_base, 8);
    put(96, size, 8);
    put(104, size, 8);
    put(112, 8, 8);
    const auto* bytes = reinterpret_cast<const uint8_t*>(words.data());
    f.insert(f.end(), bytes, bytes + size);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(f.data()), std::streamsize(f.size()));
}

// Host seconds of `pmusim firmware ELF` (sc_start only) on arm-default, cpu0 at EL3, without the
// JSON access log unless `access_log` (the C++ initiator it is compared with writes none).
run_figures firmware_run(const std::vector<uint32_t>& words, bool access_log = false) {
    const std::string elf = fmt::format("/tmp/pmusim-bench-{}.elf", getpid());
    write_firmware_elf(elf, words);
    double sc_start_cpu = 0;
    run_figures r = run_sequence("arm-default", "exec cpu0 el3 secure " + elf + "\n", false,
                                 [](platform&) -> uint64_t { return 0; }, &sc_start_cpu, access_log);
    r.host_seconds = sc_start_cpu;
    std::remove(elf.c_str());
    return r;
}

// The floor of an exact instruction count with Unicorn 2.1.1's API: one UC_HOOK_BLOCK hook, which
// Unicorn calls directly from the translated code at every block's start (tcg-op.h
// gen_uc_tracecode, add_inline_hook while it is the only block hook); an empty one, and one that only
// adds the block's instructions to a counter (docs/performance.md scenario 7).
enum class block_hook { none, empty, counting };

void empty_block_hook(uc_engine*, uint64_t, uint32_t, void*) {}

void counting_block_hook(uc_engine*, uint64_t, uint32_t size, void* counter) { *static_cast<uint64_t*>(counter) += size / 4; }

// The same loop on a bare Unicorn engine: memory mapped, no hook but `hook`, run until the loop's end.
// `instructions`: those from the loop counter's MOVZ to the loop's end, which the counting hook must count.
run_figures bare_unicorn_run(const std::vector<uint32_t>& words, size_t loop_end, block_hook hook = block_hook::none,
                             uint64_t instructions = 0) {
    run_figures r;
    uc_engine* uc = nullptr;
    if (uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc) != UC_ERR_OK) throw std::runtime_error("uc_open failed");
    uc_mem_map(uc, firmware_base, 16u << 20, UC_PROT_ALL);
    uc_mem_write(uc, firmware_base, words.data(), 4 * words.size());
    uint64_t counted = 0;
    uc_hook h;
    if (hook == block_hook::empty)
        uc_hook_add(uc, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&empty_block_hook), nullptr, 1, 0);
    if (hook == block_hook::counting)
        uc_hook_add(uc, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&counting_block_hook), &counted, 1, 0);
    // Process CPU time, as the ISS runs are timed (wall time would charge this run for other jobs).
    const double start = cpu_seconds();
    // From the loop counter's MOVZ: Unicorn's CPU has no AMU (the MSR before it is UNDEFINED there).
    uc_err e = uc_emu_start(uc, firmware_base + 8, firmware_base + loop_end, 0, 0);
    r.host_seconds = cpu_seconds() - start;
    r.ok = e == UC_ERR_OK;
    if (!r.ok) std::snprintf(r.error, sizeof r.error, "Unicorn: %s", uc_strerror(e));
    if (r.ok && hook == block_hook::counting && counted != instructions) {
        r.ok = false;
        std::snprintf(r.error, sizeof r.error, "the counting block hook counted %llu instructions, not %llu",
                      (unsigned long long)counted, (unsigned long long)instructions);
    }
    r.work = counted;
    uc_close(uc);
    return r;
}

// AMEVCNTR00_EL0 read `reads` times by a C++ initiator through the gate (scenario 2's path, with
// time moving on as the firmware's does: one CPU cycle per read).
run_figures cpp_sysreg_reads(uint64_t reads) {
    register_all_units();
    platform p(load_platform("arm-default"));
    const uint32_t counter = uint32_t(p.resolve_register("AMEVCNTR00_EL0", 0)->key);
    const uint32_t enable = uint32_t(p.resolve_register("AMCNTENSET0_EL0", 0)->key);
    reader initiator("initiator");
    trivial_target target("target");
    initiator.to_platform.bind(p.gate().from_initiators);
    initiator.to_trivial.bind(target.in);
    plumbing_hop one("one", true), three_a("three_a", false), three_b("three_b", false), three_c("three_c", true);
    initiator.to_one_hop.bind(one.in);
    initiator.to_three_hops.bind(three_a.in);
    three_a.out.bind(three_b.in);
    three_b.out.bind(three_c.in);
    run_figures r;
    initiator.body = [&](reader& self) {
        sc_core::wait(sc_core::SC_ZERO_TIME);
        tlm::tlm_generic_payload t;
        uint64_t data = 0xf;
        access_context ctx;
        ctx.initiator = initiator_kind::cpu;
        ctx.cpu = 0;
        ctx.el = 3;
        ctx.secure = true;
        ctx.path = access_path::system_register;
        t.set_extension(&ctx);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
        t.set_data_length(8);
        t.set_streaming_width(8);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(enable);
        self.to_platform->b_transport(t, delay);
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(counter);
        const sc_core::sc_time cycle = sc_core::sc_time::from_value(500'000); // cpu0: 2 GHz
        const double start = cpu_seconds();
        for (uint64_t i = 0; i < reads; ++i) {
            t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            self.to_platform->b_transport(t, delay);
            sc_core::wait(cycle);
        }
        r.host_seconds = cpu_seconds() - start;
        r.ok = t.is_response_ok() && data != 0;
        r.work = data;
        t.clear_extension(&ctx);
        sc_core::sc_stop();
    };
    sc_core::sc_start();
    if (!r.ok) std::snprintf(r.error, sizeof r.error, "the C++ initiator's AMEVCNTR00_EL0 reads failed");
    return r;
}

void scenario_firmware(bool quick) {
    std::cout << "Scenario 7: firmware on the ISS (cpu0 of arm-default at EL3, docs/firmware.md) against bare Unicorn, "
                 "and an MRS of AMEVCNTR00_EL0 from firmware against the same read from a C++ initiator\n";
    const uint32_t loop_iterations = quick ? 20'000'000 : 200'000'000; // 2 instructions each
    const uint32_t mrs_iterations = quick ? 100'000 : 1'000'000;
    const unsigned rounds = quick ? 1 : 3;
    double bare_s = 0, empty_hook_s = 0, counting_hook_s = 0, iss_s = 0, bare_load_s = 0, iss_load_s = 0, bare_two_s = 0, iss_two_s = 0, amu_s = 0, amu_logged_s = 0, exit_s = 0, cpp_s = 0;
    auto best = [&](double& best_s, const run_figures& r, const char* what) {
        if (!r.ok) throw std::runtime_error(fmt::format("{}: {}", what, r.error));
        if (best_s == 0 || r.host_seconds < best_s) best_s = r.host_seconds;
    };
    try {
        size_t plain_end = 0, load_end = 0, two_end = 0, unused = 0;
        const auto plain = firmware_loop(loop_iterations, {}, &plain_end);
        const auto load = firmware_loop(loop_iterations / 2, {a64::ldr_x1_here}, &load_end);
        // The second register-addressed load of a straight-line run carries a code hook (an access
        // point, docs/firmware.md "Inside the ISS").
        const auto two = firmware_loop(loop_iterations / 2, {a64::adr_x5_here, a64::ldr_x4_x5, a64::ldr_x4_x5}, &two_end);
        const auto amu = firmware_loop(mrs_iterations, {a64::mrs_x1_amevcntr00}, &unused);
        const auto local = firmware_loop(mrs_iterations, {a64::mrs_x1_currentel}, &unused);
        for (unsigned round = 0; round < rounds; ++round) {
            best(bare_s, in_child([&] { return bare_unicorn_run(plain, plain_end); }), "bare Unicorn");
            best(empty_hook_s, in_child([&] { return bare_unicorn_run(plain, plain_end, block_hook::empty); }),
                 "Unicorn with an empty block hook");
            best(counting_hook_s, in_child([&] {
                     return bare_unicorn_run(plain, plain_end, block_hook::counting, 2 + 2 * uint64_t(loop_iterations));
                 }), "Unicorn with a counting block hook");
            best(iss_s, in_child([&] { return firmware_run(plain); }), "ISS loop");
            best(bare_load_s, in_child([&] { return bare_unicorn_run(load, load_end); }), "bare Unicorn, loads");
            best(iss_load_s, in_child([&] { return firmware_run(load); }), "ISS loop with loads");
            best(bare_two_s, in_child([&] { return bare_unicorn_run(two, two_end); }), "bare Unicorn, two loads");
            best(iss_two_s, in_child([&] { return firmware_run(two); }), "ISS loop with two loads");
            best(amu_s, in_child([&] { return firmware_run(amu); }), "ISS MRS AMEVCNTR00_EL0");
            best(amu_logged_s, in_child([&] { return firmware_run(amu, true); }), "ISS MRS AMEVCNTR00_EL0, logged");
            best(exit_s, in_child([&] { return firmware_run(local); }), "ISS MRS CurrentEL");
            best(cpp_s, in_child([&] { return cpp_sysreg_reads(mrs_iterations); }), "C++ initiator");
        }
    } catch (const std::exception& e) {
        std::cout << "  FAILED: " << e.what() << "\n\n";
        return;
    }
    const double instructions = 2.0 * loop_iterations;
    std::cout << fmt::format("  each figure: process CPU seconds, the best of {} interleaved rounds\n", rounds);
    std::cout << fmt::format("  loop of {} instructions, no peripheral: bare Unicorn {:.3f} host s ({} instructions/host s), "
                             "ISS {:.3f} host s ({}/host s): {:.2f}x bare Unicorn (target, issue 28: within 1.5x)\n",
                             instructions, bare_s, human(instructions / bare_s), iss_s, human(instructions / iss_s),
                             iss_s / bare_s);
    std::cout << fmt::format("  the floor of an exact instruction count with Unicorn 2.1.1's API (one UC_HOOK_BLOCK hook, called "
                             "from the translated code at every block), the same loop: Unicorn with an empty block hook {:.3f} "
                             "host s = {:.2f}x bare Unicorn; with a block hook that only counts the instructions {:.3f} host s "
                             "= {:.2f}x; ISS {:.2f}x the empty-hook floor\n",
                             empty_hook_s, empty_hook_s / bare_s, counting_hook_s, counting_hook_s / bare_s, iss_s / empty_hook_s);
    const double load_instructions = 3.0 * (loop_iterations / 2);
    std::cout << fmt::format("  the loop with a load from plain memory (LDR X1 literal, SUBS, B.NE), {} instructions: bare "
                             "Unicorn {:.3f} host s, ISS {:.3f} host s: {:.2f}x (target: within 2x)\n",
                             load_instructions, bare_load_s, iss_load_s, iss_load_s / bare_load_s);
    const double two_instructions = 5.0 * (loop_iterations / 2);
    std::cout << fmt::format("  the loop with two loads through a register (ADR X5, LDR X4 [X5] twice, SUBS, B.NE; the second "
                             "load joins the first's access group: no code hook), {} instructions: bare Unicorn {:.3f} host s, "
                             "ISS {:.3f} host s: {:.2f}x (target: within 2x)\n",
                             two_instructions, bare_two_s, iss_two_s, iss_two_s / bare_two_s);
    const double per_amu = 1e9 * amu_s / mrs_iterations, per_exit = 1e9 * exit_s / mrs_iterations,
                 per_cpp = 1e9 * cpp_s / mrs_iterations, per_logged = 1e9 * amu_logged_s / mrs_iterations;
    std::cout << fmt::format("  MRS AMEVCNTR00_EL0 from firmware: {:.0f} ns per loop iteration (MRS, SUBS, B.NE)\n", per_amu);
    std::cout << fmt::format("  engine exit: {:.0f} ns per iteration with MRS CurrentEL (stop the engine at the MRS, "
                             "the ISS answers, start it again; no gate, no time synchronisation)\n", per_exit);
    std::cout << fmt::format("  the same read from a C++ initiator (gate, AMU unit, one wait per read): {:.0f} ns\n", per_cpp);
    std::cout << fmt::format("  firmware MRS in total (served in the engine's MRS hook, no engine exit): {:.0f} ns = {:.2f}x "
                             "the C++ initiator's read (target, issue 28: within 3x)\n", per_amu, per_amu / per_cpp);
    std::cout << fmt::format("  with the JSON access log (--log-json, one record per access): {:.0f} ns per iteration, "
                             "the record {:.0f} ns\n\n", per_logged, per_logged - per_amu);
}

// ------------------------------------------------------------------ scenario 8: CMN-600 flows

// An 8x8 CMN-600 in the default layout, mesh clock 2 GHz, every RN-F sending two flows (docs/cmn.md
// "Flows"): reads to one HN-F at `cmn_flow_rate` requests per cycle with a quarter missing the SLC,
// writes to another at half that rate; the RN-I reads from the HN-I at 1/50. Written to a file.
std::string cmn_flow_rate = "1/20"; // read requests per mesh cycle per RN-F (--cmn-flow-rate)

std::string cmn_flows_platform(bool per_request) {
    constexpr unsigned mesh = 8, hnfs = mesh * mesh - 2;
    std::ostringstream y;
    y << fmt::format("name: cmn-flows-bench\ndescription: \"benchmark: CMN-600 8x8 mesh with flows\"\narch: arm\n"
                     "clocks:\n  - {{ name: cpu0, frequency: 2GHz }}\n  - {{ name: cmn0, frequency: 2GHz }}\n"
                     "cpus:\n  - {{ name: cpu0, clock: cpu0, cluster: 0 }}\nfirmware: {{ profile: none }}\nunits:\n"
                     "  - name: cmn0\n    type: cmn600\n    base: 0x40000000\n    size: 64MiB\n    clock: cmn0\n"
                     "    irq: cmn0_pmu_irq\n    params:\n      mesh_x: {0}\n      mesh_y: {0}\n      flow_mode: {1}\n"
                     "      flows: |\n",
                     mesh, per_request ? "per-request" : "rate");
    const rational read = values::parse_rational(cmn_flow_rate, "--cmn-flow-rate", 0);
    const std::string write = rational(read.num, read.den * 2).str();
    for (unsigned i = 1; i + 1 < mesh * mesh; ++i) // XP i holds RN-F i - 1 (and HN-F i - 1)
        y << fmt::format("        {},{} p0 to=hnf{} op=read rate={} miss=1/4 mem={}\n"
                         "        {},{} p0 to=hnf{} op=write rate={}\n",
                         i % mesh, i / mesh, (i * 7) % hnfs, cmn_flow_rate, i % 2, i % mesh, i / mesh,
                         (i * 13 + 5) % hnfs, write);
    y << fmt::format("        {0},{0} p0 to=hni0 op=read rate=1/50\n", mesh - 1);
    const std::string path = fmt::format("/tmp/pmusim-bench-{}-flows-{}.yaml", getpid(), per_request ? "pr" : "rate");
    std::ofstream(path) << y.str();
    return path;
}

// perf stat -a -I on four aggregated arm_cmn events, as arm-cmn.c@v6.1 programs them: on every XP,
// DTM counter 0 <- the HN-F's hnf_pocq_reqs_recvd, 1 <- hnf_qos_pocq_occupancy (all), 2 <-
// hnf_cache_miss, 3 <- the XP's mxp_e_dat_txflit_valid, each paired to DTC counter 0..3, the DTC
// counters at CMN_COUNTER_INIT (0x80000000). Every tenth of the run, what arm_cmn_event_read
// does: every XP's por_dtm_pmevcnt, then each DTC counter read and rewritten to 0x80000000.
std::string cmn_flows_sequence(uint64_t mesh_cycles) {
    constexpr unsigned mesh = 8;
    std::ostringstream out;
    out << "as cpu0 el1\nwrite cmn0.dtc0.por_dt_dtc_ctl 1\n";
    for (unsigned h = 0; h < mesh * mesh - 2; ++h) out << fmt::format("write cmn0.hnf{}.pmu_event_sel 0x01_0f_05\n", h);
    for (unsigned i = 0; i < mesh * mesh; ++i)
        out << fmt::format("write cmn0.xp_{0}_{1}.pmu_event_sel 0x61\n"
                           "write cmn0.xp_{0}_{1}.por_dtm_pmu_config 0x0422_2120_3210_00f1\n",
                           i % mesh, i / mesh);
    const char* pairs[] = {"ab", "cd"};
    for (const char* p : pairs) out << fmt::format("write cmn0.dtc0.por_dt_pmevcnt{} 0x80000000_80000000\n", p);
    out << "write cmn0.dtc0.por_dt_pmcr 0x41\n";
    for (unsigned r = 0; r < 10; ++r) {
        out << fmt::format("run {} cycles of cmn0\n", mesh_cycles / 10);
        for (unsigned i = 0; i < mesh * mesh; ++i)
            out << fmt::format("read cmn0.xp_{}_{}.por_dtm_pmevcnt\n", i % mesh, i / mesh);
        for (const char* p : pairs)
            out << fmt::format("read cmn0.dtc0.por_dt_pmevcnt{0}\nwrite cmn0.dtc0.por_dt_pmevcnt{0} 0x80000000_80000000\n", p);
        out << "read cmn0.dtc0.por_dt_pmovsr\n";
    }
    return out.str();
}

run_figures cmn_flows_run(uint64_t mesh_cycles, bool per_request) {
    return in_child([&] {
        const std::string plat = cmn_flows_platform(per_request);
        run_figures r = run_sequence(plat, cmn_flows_sequence(mesh_cycles), false, [](platform& p) {
            // Requests that reached their home by the end (ground truth, the same in both modes).
            auto* cmn = dynamic_cast<cmn600*>(p.find_unit("cmn0"));
            std::vector<event_total> totals;
            if (cmn) cmn->event_totals(totals);
            uint64_t requests = 0;
            for (const auto& t : totals)
                if (t.event == "hnf_pocq_reqs_recvd" || t.event == "hni_rrt_rd_alloc" || t.event == "hni_rrt_wr_alloc")
                    requests += t.count;
            return requests;
        });
        std::remove(plat.c_str());
        return r;
    });
}

void scenario_cmn_flows(bool quick) {
    std::cout << "Scenario 8: CMN-600 flows, 8x8 mesh at 2 GHz, 62 RN-Fs each reading " << cmn_flow_rate
              << " requests per cycle (a quarter missing the SLC) from one HN-F and writing half that to another, the "
                 "RN-I reading 1/50 from the HN-I; four aggregated events on all 64 XPs (perf stat -I style)\n";
    const uint64_t second = 2'000'000'000; // mesh cycles in 1 s
    const uint64_t scaled = quick ? 20'000 : 200'000;
    run_figures flows = cmn_flows_run(quick ? second / 10 : second, false);
    print_run(fmt::format("flows, {}", format_time(flows.sim_fs)), flows, "requests");
    run_figures flows_scaled = cmn_flows_run(scaled, false);
    run_figures per_request = cmn_flows_run(scaled, true);
    print_run(fmt::format("flows, scaled {}", format_time(flows_scaled.sim_fs)), flows_scaled, "requests");
    print_run(fmt::format("per-request, scaled {}", format_time(per_request.sim_fs)), per_request, "requests");
    const bool same = flows_scaled.ok && per_request.ok && flows_scaled.log_hash == per_request.log_hash;
    std::cout << fmt::format("  counters on the scaled run: {} (JSON logs {:016x} / {:016x})\n",
                             same ? "identical" : "DIFFERENT", flows_scaled.log_hash, per_request.log_hash);
    if (flows.ok && per_request.ok) {
        const double flows_per_s = flows.host_seconds / (double(flows.sim_fs) / 1e15);
        const double pr_per_s = per_request.host_seconds / (double(per_request.sim_fs) / 1e15);
        std::cout << fmt::format("  host seconds per simulated second: flows {:.4f}, per-request {:.1f} "
                                 "(per-request / flows = {:.0f}x); requests per host second: flows {}, per-request {}\n\n",
                                 flows_per_s, pr_per_s, pr_per_s / flows_per_s, human(double(flows.work) / flows.host_seconds),
                                 human(double(per_request.work) / per_request.host_seconds));
    }
}

// ------------------------------------------------------------------ scenario 9: the linked what-if model

// `pmusim simulate` of the linked 8x8 scenario in a child; work = the HN-Fs' requests (stats.json).
run_figures linked_run(const std::string& duration, bool per_request) {
    return in_child([&] {
        register_all_units();
        simulate_options o;
        o.scenario_file = source_dir() + "/scenarios/studies/linked/linked-8x8.yaml";
        o.params["duration"] = duration;
        if (per_request) o.params["set.units.cmn0.params.flow_mode"] = "per-request";
        o.out_dir = fmt::format("/tmp/pmusim-bench-{}-linked-{}", getpid(), per_request ? "pr" : "rate");
        o.progress = false;
        const auto t0 = std::chrono::steady_clock::now();
        const int status = simulate_scenario(o);
        run_figures r;
        r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.ok = status == 0;
        r.exit_status = status;
        r.sim_fs = values::scan_duration(duration).value;
        const std::string stats = o.out_dir + "/stats.json";
        r.log_hash = fnv1a_file(stats);
        std::ifstream in(stats);
        std::string line;
        bool reqs = false;
        while (std::getline(in, line)) { // "event": "hnf_pocq_reqs_recvd", then its "count"
            if (line.find("\"hnf_pocq_reqs_recvd\"") != std::string::npos) reqs = true;
            else if (reqs && line.find("\"count\":") != std::string::npos) {
                r.work += std::stoull(line.substr(line.find(':') + 1));
                reqs = false;
            }
        }
        std::filesystem::remove_all(o.out_dir);
        return r;
    });
}

void scenario_linked(bool quick) {
    std::cout << "Scenario 9: the linked what-if model, scenarios/studies/linked/linked-8x8.yaml: cpu0..cpu3 at 2 GHz, "
                 "L3 refills and write-backs as CMN-600 flows (1/8 request per cycle) on an 8x8 mesh at 2 GHz\n";
    run_figures flows = linked_run(quick ? "100ms" : "1s", false);
    print_run(fmt::format("flows, {}", format_time(flows.sim_fs)), flows, "requests");
    run_figures scaled = linked_run("1ms", false);
    run_figures per_request = linked_run("1ms", true);
    print_run(fmt::format("flows, scaled {}", format_time(scaled.sim_fs)), scaled, "requests");
    print_run(fmt::format("per-request, scaled {}", format_time(per_request.sim_fs)), per_request, "requests");
    const bool same = scaled.ok && per_request.ok && scaled.log_hash == per_request.log_hash;
    std::cout << fmt::format("  stats.json on the scaled run: {} ({:016x} / {:016x})\n", same ? "identical" : "DIFFERENT",
                             scaled.log_hash, per_request.log_hash);
    if (flows.ok && per_request.ok) {
        const double flows_per_s = flows.host_seconds / (double(flows.sim_fs) / 1e15);
        const double pr_per_s = per_request.host_seconds / (double(per_request.sim_fs) / 1e15);
        std::cout << fmt::format("  host seconds per simulated second (whole simulate run): flows {:.4f}, per-request {:.1f} "
                                 "(per-request / flows = {:.0f}x)\n\n",
                                 flows_per_s, pr_per_s, pr_per_s / flows_per_s);
    }
}

// ------------------------------------------------------------------ scenario 6: memory of a big platform

// One platform with everything at once: 256 CPUs (each its own 2-3 GHz clock, AMU v1p1, TF-A),
// 64 DSU-110 clusters of four CPUs (each DSU its own 1 GHz clock), and an 8x8 CMN-600 in the
// default layout with every requester issuing `cmn_rate` requests per mesh cycle. Issue 7's
// memory target: peak RSS under 1 GiB.
std::string big_platform_file(unsigned cpus, unsigned per_cluster, unsigned mesh) {
    std::string y = fmt::format("name: big-{0}cpu-cmn{1}x{1}\ndescription: \"benchmark: {0} AMU CPUs, {2} DSU clusters, "
                                "CMN-600 {1}x{1}\"\narch: arm\nclocks:\n  - {{ name: const, frequency: 100MHz }}\n"
                                "  - {{ name: cmn0, frequency: 1GHz }}\n",
                                cpus, mesh, cpus / per_cluster);
    for (unsigned i = 0; i < cpus; ++i) y += fmt::format("  - {{ name: cpu{}, frequency: {}MHz }}\n", i, 2000 + (i % 5) * 250);
    for (unsigned c = 0; c < cpus / per_cluster; ++c) y += fmt::format("  - {{ name: dsu{}, frequency: 1GHz }}\n", c);
    y += "cpus:\n";
    for (unsigned i = 0; i < cpus; ++i)
        y += fmt::format("  - {{ name: cpu{0}, clock: cpu{0}, cluster: {1}, features: {{ amu: v1p1 }} }}\n", i,
                         i / per_cluster);
    y += "firmware: { profile: tf-a }\nunits:\n";
    for (unsigned c = 0; c < cpus / per_cluster; ++c) {
        std::string members;
        for (unsigned k = 0; k < per_cluster; ++k) members += fmt::format("{}cpu{}", k ? ", " : "", c * per_cluster + k);
        y += fmt::format("  - {{ name: dsu{0}, type: dsu_clusterpmu, base: {1:#x}, size: 0x10000, clock: dsu{0}, "
                         "cpus: [{2}], irq: dsu{0}_pmu_irq, params: {{ variant: dsu-110, counters: 6 }} }}\n",
                         c, 0x2A000000 + 0x10000 * c, members);
    }
    y += fmt::format("  - name: cmn0\n    type: cmn600\n    base: 0x40000000\n    size: 64MiB\n    clock: cmn0\n"
                     "    irq: cmn0_pmu_irq\n    params:\n      mesh_x: {0}\n      mesh_y: {0}\n      traffic: |\n",
                     mesh);
    unsigned seed = 1;
    for (unsigned yy = 0; yy < mesh; ++yy)
        for (unsigned xx = 0; xx < mesh; ++xx)
            if (xx || yy)
                y += fmt::format("        {},{} p0 rate={} range=0x80000000-0x8fffffff "
                                 "mix=ReadShared:3,WriteBackFull:1 seed={}\n",
                                 xx, yy, cmn_rate, seed++);
    const std::string path = fmt::format("/tmp/pmusim-bench-{}-big.yaml", getpid());
    std::ofstream(path) << y;
    return path;
}

void scenario_memory() {
    constexpr unsigned cpus = 256, per_cluster = 4, mesh = 8;
    const amu_schedule s{200 * us, 20 * us, 100 * us, 50 * us};
    std::cout << fmt::format("Scenario 6: memory: {} CPUs with AMUs, {} DSU-110 clusters, an {}x{} CMN-600 with {} "
                             "requesters at {} requests per mesh cycle; {} simulated (AMU workload phase every {}, "
                             "DVFS every {}, counter reads every {}; CMN programmed as in scenario 3)\n",
                             cpus, cpus / per_cluster, mesh, mesh, mesh * mesh - 1, cmn_rate, format_time(s.duration),
                             format_time(s.phase), format_time(s.dvfs), format_time(s.read));
    const std::string plat = big_platform_file(cpus, per_cluster, mesh);
    // The CMN programming runs first (as cpu0), then the AMU workload drives the time.
    std::string text = cmn_bench_sequence(mesh, 0);
    text = text.substr(0, text.find("run ")) + amu_sequence(cpus, s);
    run_figures r = in_child([&] {
        return run_sequence(plat, text, false, [](platform& p) {
            const auto* cmn = dynamic_cast<const cmn600*>(p.find_unit("cmn0"));
            return cmn ? cmn->flit_hops() : 0;
        });
    });
    std::remove(plat.c_str());
    print_run("fast, 256 CPUs + 8x8 CMN", r, "flit hops");
    if (r.ok)
        std::cout << fmt::format("  peak RSS {} MiB: {} the 1 GiB target\n\n", r.peak_rss_kib / 1024,
                                 r.peak_rss_kib < 1024 * 1024 ? "under" : "OVER");
}

} // namespace

int main(int argc, char** argv) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    CLI::App app{"pmusim_bench: fast mode against the per-cycle reference and a bare TLM loop (docs/performance.md)"};
    std::vector<int> scenarios{1, 2, 4};
    bool quick = false, scaling = false;
    app.add_option("--scenario", scenarios, "scenarios to run (1 2 4 by default; 3: CMN, slow at 8x8; 5: IMC trace; 6: memory of a big platform; 7: firmware on the ISS; 8: CMN flows; 9: the linked what-if model)")->delimiter(',');
    app.add_flag("--quick", quick, "shorter fast runs (100 ms instead of 1 s, ...), for a smoke check");
    app.add_flag("--scaling", scaling, "also scenario 1 at 1, 8, 64 and 256 CPUs");
    app.add_option("--cmn-rate", cmn_rate, "scenario 3: requests per mesh cycle per requester (default 1/20)");
    app.add_option("--cmn-flow-rate", cmn_flow_rate, "scenario 8: read requests per mesh cycle per RN-F (default 1/20)");
    CLI11_PARSE(app, argc, argv);
    for (int s : scenarios) {
        if (s == 1) scenario_amu(quick);
        if (s == 2) scenario_register_path(quick);
        if (s == 3) scenario_cmn(quick);
        if (s == 5) scenario_imc_trace(quick);
        if (s == 4) scenario_dsu_storm(quick);
        if (s == 6) scenario_memory();
        if (s == 7) scenario_firmware(quick);
        if (s == 8) scenario_cmn_flows(quick);
        if (s == 9) scenario_linked(quick);
    }
    if (scaling) scenario_scaling();
    return 0;
}
