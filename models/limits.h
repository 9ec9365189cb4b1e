#pragma once
// Input limits: absurd inputs are refused with a clear message (exit 2) instead of running out of
// memory or time. docs/reliability.md "Limits" lists them with the reasoning.
#include <cstdint>

namespace pmusim::limits {

// A platform, scenario or sweep file is a few KB. yaml-cpp builds a node tree of several hundred
// bytes per scalar (measured: 56 to 160 bytes of peak memory per byte of flow-style YAML), so the
// bound on the text bounds the memory: about 200 MB at 1 MiB (docs/reliability.md, "Limits").
constexpr uint64_t max_platform_file_bytes = 1ULL << 20; // 1 MiB
// A sequence of 10^6 lines is about 30 MB; parsing is linear.
constexpr uint64_t max_sequence_file_bytes = 256ULL << 20; // 256 MiB
// Sequence files' include and repeat (docs/sequence-language.md): every line reached through an
// include or a repeat iteration, and every iteration, counts against one budget, so that neither
// nested repeats nor repeated includes can run out of memory or time while the file is read (the
// parser takes about 7 us a line: 2*10^6 lines, about 15 s).
constexpr uint64_t max_expanded_sequence_lines = 2'000'000;
// The same lines' bytes: a short file can repeat a long line (`repeat 1000000` of a 10 KB `echo`
// is 10 GB of statements), so what the expansion produces is bounded like the file itself.
constexpr uint64_t max_expanded_sequence_bytes = 256ULL << 20; // 256 MiB
// Statements after expansion, top-level lines included: each is held until the run ends.
constexpr uint64_t max_sequence_statements = 2'000'000;
constexpr uint64_t max_repeat_count = 1'000'000;
constexpr unsigned max_repeat_nesting = 8;
constexpr unsigned max_include_depth = 16;
constexpr uint64_t max_cpus = 1024;
// Every clock, unit, memory region and interrupt line is a SystemC object, and SystemC 2.3.4 keeps
// its objects, ports and exports in lists it searches linearly at each bind and at teardown, so
// building n of them costs n^2 (80000 memory regions, a 4 MiB file, took 21 s; 4096 take 0.6 s).
constexpr uint64_t max_clocks = 4096;
constexpr uint64_t max_units = 1024;
constexpr uint64_t max_memory_regions = 4096;
constexpr uint64_t max_irq_lines = 4096; // also the length of one CPU's `irq` list
// Inputs read from any file, regular or not (a FIFO, /dev/zero): read at most this much.
constexpr uint64_t max_scenario_file_bytes = 1ULL << 20;     // 1 MiB (also sweep files), as platforms
constexpr uint64_t max_event_file_bytes = 256ULL << 20;      // 256 MiB of JSON lines
constexpr uint64_t max_catalog_file_bytes = 16ULL << 20;     // the POWER9 catalog source is about 300 KB
// One `serve` statement. The longest statement in the suite is 340 bytes, and a `workload` giving
// every core event a rate (11 keys) under 200; 64 KiB leaves ample room for generated lines while
// a line is parsed in well under a millisecond (docs/reliability.md "Limits").
constexpr uint64_t max_served_line_bytes = 64ULL << 10;      // 64 KiB
// A register access takes the platform's latency.register_access; real ones take nanoseconds.
constexpr uint64_t max_register_access_latency_fs = 1'000'000'000'000'000ULL; // 1 s
// Clocks run at 1 fs resolution: 1 THz is a 1000 fs period, far beyond any silicon.
constexpr uint64_t max_clock_hz = 1'000'000'000'000ULL;
// A scenario's samples and the runs of one repeated scenario sequence: each is work and output
// (a sample is a row per counter), so a period of 1 fs over a millisecond (10^12 of them) is
// refused at its line instead of running for days or filling the disk.
constexpr uint64_t max_scenario_samples = 1'000'000;
constexpr uint64_t max_scenario_sequence_runs = 1'000'000;

} // namespace pmusim::limits
