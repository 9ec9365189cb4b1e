// Scenario and sweep files: what they load to, and every error with its file:line
// (tb/scenario.h, tb/sweep.h, docs/whatif.md).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "tb/scenario.h"
#include "tb/sweep.h"
#include "vp/unit_list.h"

using namespace pmusim;

namespace {

const std::string header = "platform: arm-default\nduration: 10ms\n"; // lines 1-2

input_error scenario_error(const std::string& yaml, const std::map<std::string, std::string>& params = {}) {
    register_all_units();
    try {
        parse_scenario(yaml, "s.yaml", params);
    } catch (const input_error& e) {
        return e;
    }
    FAIL("expected an input_error for:\n" << yaml);
    throw std::logic_error("unreachable");
}

std::string temp_file(const std::string& name, const std::string& text) {
    auto p = std::filesystem::temp_directory_path() / ("pmusim-whatif-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream(p) << text;
    return p.string();
}

} // namespace

TEST_CASE("scenario: every section loads to its values") {
    register_all_units();
    scenario s = parse_scenario(header + R"(params: { f: 500MHz }
set: { clocks.const.frequency: "${f}", units.dsu0.params.counters: 4 }
workload:
  - { at: 1ms, cpu: cpu2, rates: { inst: 3/2, l3_access_rd: 0.25 } }
dvfs:
  - { at: 2ms, clock: cpu0, frequency: 1.5GHz }
power:
  - { at: 3ms, cpu: cpu1, state: wfe }
sequences:
  - at: 4ms
    every: 1ms
    count: 3
    text: |
      as cpu0 el1
      run 10 cycles
sample: { every_cycles: 1000, clock: dsu0, counters: ["dsu0.*"], clocks: false }
)",
                                "s.yaml");
    REQUIRE(s.params.at("f") == "500MHz");
    REQUIRE(s.platform.find_clock("const")->frequency_hz == 500'000'000);       // the override applied
    REQUIRE(s.platform.find_unit("dsu0")->param_int("counters") == 4);
    REQUIRE(s.duration == 10'000'000'000'000ull);                               // 10 ms in fs
    REQUIRE(s.workloads.size() == 1);
    REQUIRE(s.workloads[0].cpu == 2);
    REQUIRE(s.workloads[0].at == 1'000'000'000'000ull);
    REQUIRE(s.workloads[0].rates[0].first == "inst");
    REQUIRE(s.workloads[0].rates[0].second == rational(3, 2));
    REQUIRE(s.workloads[0].rates[1].second == rational(1, 4));
    REQUIRE(s.dvfs[0].hz == 1'500'000'000);
    REQUIRE(s.power[0].state == seq::cpu_power_state::wfe);
    REQUIRE(s.sequences[0].every == 1'000'000'000'000ull);
    REQUIRE(s.sequences[0].count == 3);
    // The block starts on line 16 (after `text: |` on line 15): statements keep their file lines.
    REQUIRE(s.sequences[0].bodies[0].size() == 2);
    REQUIRE(s.sequences[0].bodies[0][0].line == 16);
    REQUIRE(s.sequences[0].bodies[0][1].line == 17);
    REQUIRE(s.sampling.enabled);
    REQUIRE(s.sampling.every_cycles == 1000);
    REQUIRE(s.sampling.clock == "dsu0");
    REQUIRE_FALSE(s.sampling.clocks);
}

TEST_CASE("scenario: sample start and truth patterns") {
    // The first sample at `start`, then every `every` (tb/sampler.cpp); truth patterns are kept
    // as written (matched against the units' event totals when the run starts).
    const auto s = parse_scenario(header + "sample:\n  every: 2ms\n  start: 250us\n  truth: [\"dsu0.l3d_*\", cpu0.cpu_cycles]\n",
                                  "s.yaml");
    REQUIRE(s.sampling.every_fs == 2'000'000'000'000ull);
    REQUIRE(s.sampling.start_fs == 250'000'000'000ull);
    REQUIRE(s.sampling.truth == std::vector<std::string>{"dsu0.l3d_*", "cpu0.cpu_cycles"});
    REQUIRE(s.sampling.truth_line == 6);
    REQUIRE(parse_scenario(header + "sample: { every: 1ms }\n", "s.yaml").sampling.start_fs == 0); // 0: at `every`

    auto e = scenario_error(header + "sample:\n  every_cycles: 10\n  clock: dsu0\n  start: 1ms\n");
    REQUIRE(e.line() == 6);
    REQUIRE(e.message() == "sample.start: only with 'every' (a duration), not with every_cycles");
    e = scenario_error(header + "sample:\n  every: 1ms\n  start: 11ms\n");
    REQUIRE(e.line() == 5);
    REQUIRE(e.message() == "sample.start: 11 ms is after the scenario's end (duration 10 ms)");
    e = scenario_error(header + "sample:\n  every: 1ms\n  start: soon\n");
    REQUIRE(e.line() == 5);
    REQUIRE(e.message().find("sample.start: expected a duration") == 0);
    e = scenario_error(header + "sample:\n  every: 1ms\n  truth: dsu0.l3d_cache\n");
    REQUIRE(e.message().find("sample.truth: expected a list") == 0);
}

TEST_CASE("scenario: params are substituted and overridden by --set") {
    register_all_units();
    const std::string yaml = header + "params: { step: 2ms }\ndvfs:\n  - { at: \"${step}\", clock: cpu0, frequency: 1GHz }\n";
    REQUIRE(parse_scenario(yaml, "s.yaml").dvfs[0].at == 2'000'000'000'000ull);
    REQUIRE(parse_scenario(yaml, "s.yaml", {{"step", "7ms"}}).dvfs[0].at == 7'000'000'000'000ull);
    auto e = scenario_error(yaml, {{"stpe", "1ms"}});
    REQUIRE(std::string(e.what()).find("parameter 'stpe' is not declared") != std::string::npos);
    e = scenario_error(header + "dvfs:\n  - { at: \"${nope}\", clock: cpu0, frequency: 1GHz }\n");
    REQUIRE(e.line() == 4);
    REQUIRE(e.message().find("${nope}: unknown parameter") != std::string::npos);
}

TEST_CASE("scenario: set.PATH values override the platform like the file's set") {
    register_all_units();
    const std::string yaml = header + "set: { clocks.const.frequency: 25MHz }\n";
    // Replaces the file's override of the same path ...
    REQUIRE(parse_scenario(yaml, "s.yaml", {{"set.clocks.const.frequency", "1GHz"}}).platform.find_clock("const")->frequency_hz ==
            1'000'000'000);
    // ... or adds one.
    scenario s = parse_scenario(yaml, "s.yaml", {{"set.units.dsu1.params.counters", "3"}});
    REQUIRE(s.platform.find_clock("const")->frequency_hz == 25'000'000);
    REQUIRE(s.platform.find_unit("dsu1")->param_int("counters") == 3);
    auto e = scenario_error(yaml, {{"set.clocks.const.frequency", "slow"}});
    REQUIRE(e.line() == 0); // it came from the command line
    REQUIRE(e.message().find("set.clocks.const.frequency: the platform with this override is invalid") == 0);
}

TEST_CASE("scenario: errors name file line key and expectation") {
    auto e = scenario_error(header + "workloads: []\n");
    REQUIRE(e.file() == "s.yaml");
    REQUIRE(e.line() == 3);
    REQUIRE(e.message().find("unknown top-level key 'workloads'") != std::string::npos);

    e = scenario_error(header + "dvfs:\n  - { at: 1ms, clock: cpu0, frequency: fast }\n");
    REQUIRE(e.line() == 4);
    REQUIRE(e.message() == "dvfs[0].frequency: expected a frequency like 2GHz, found 'fast'");

    e = scenario_error(header + "power:\n  - { at: 11ms, cpu: cpu1, state: off }\n");
    REQUIRE(e.line() == 4);
    REQUIRE(e.message().find("is after the scenario's end") != std::string::npos);

    e = scenario_error(header + "power:\n  - { cpu: cpu9, state: off }\n");
    REQUIRE(e.message().find("power[0].cpu: expected a CPU of platform arm-default") != std::string::npos);

    e = scenario_error(header + "sample: { every: 1ms, every_cycles: 10 }\n");
    REQUIRE(e.line() == 3);
    REQUIRE(e.message().find("exactly one of 'every'") != std::string::npos);

    e = scenario_error(header + "set: { clocks.nosuch.frequency: 1GHz }\n");
    REQUIRE(e.line() == 3);
    REQUIRE(e.message().find("the platform has no 'nosuch'") != std::string::npos);

    e = scenario_error(header + "set:\n  clocks.cpu0.frequency: 1GHz\n  clocks.const.frequency: slow\n");
    REQUIRE(e.line() == 5); // the override that breaks the platform, not the first one
    REQUIRE(e.message().find("set.clocks.const.frequency: the platform with this override is invalid") == 0);
    REQUIRE(e.message().find("expected a frequency") != std::string::npos);

    e = scenario_error("platform: arm-default\n");
    REQUIRE(e.message().find("missing required key 'duration'") != std::string::npos);

    e = scenario_error(header + "dvfs: [ { at: 1ms\n");
    REQUIRE(e.message().find("malformed YAML") != std::string::npos);
}

TEST_CASE("scenario: sequence errors point into the scenario or the sequence file") {
    auto e = scenario_error(header + "sequences:\n  - at: 1ms\n    text: |\n      as cpu0 el1\n      wirte X 1\n");
    REQUIRE(e.file() == "s.yaml");
    REQUIRE(e.line() == 7); // the second line of the block
    std::string seq = temp_file("bad.seq", "as cpu0 el1\nrun ten cycles\n");
    e = scenario_error(header + "sequences:\n  - { at: 1ms, file: \"" + seq + "\" }\n");
    REQUIRE(e.file() == seq);
    REQUIRE(e.line() == 2);
    e = scenario_error(header + "sequences:\n  - { at: 1ms, text: \"platform arm-default\" }\n");
    REQUIRE(e.message().find("remove 'platform'") != std::string::npos);
    std::remove(seq.c_str());
}

TEST_CASE("scenario: event streams load sorted and bad lines are named") {
    register_all_units();
    std::string ok = temp_file("ev.jsonl", "{\"time\": \"2ms\", \"unit\": \"dsu0\", \"event\": \"l3d_cache\", \"count\": 5}\n"
                                           "\n"
                                           "{\"time_fs\": 1000, \"unit\": \"amu\", \"node\": \"cpu0\", \"event\": \"aux0\", "
                                           "\"count\": 7, \"over\": \"1us\"}\n");
    scenario s = parse_scenario(header + "events:\n  - file: \"" + ok + "\"\n", "s.yaml");
    REQUIRE(s.events.size() == 2);
    REQUIRE(s.events[0].at == 1000); // sorted by time
    REQUIRE(s.events[0].node == "cpu0");
    REQUIRE(s.events[0].over == 1'000'000'000ull);
    REQUIRE(s.events[0].line == 3);
    REQUIRE(s.events[1].count == 5);
    std::string bad = temp_file("bad.jsonl", "{\"time\": \"1ms\", \"unit\": \"dsu0\", \"event\": \"x\", \"count\": 1}\n"
                                             "{\"time\": \"1ms\", \"unit\": \"dsu0\", \"event\": \"x\", \"count\": -4}\n");
    auto e = scenario_error(header + "events:\n  - file: \"" + bad + "\"\n");
    REQUIRE(e.file() == bad);
    REQUIRE(e.line() == 2);
    REQUIRE(e.message().find("count: expected an unsigned integer") != std::string::npos);
    std::remove(ok.c_str());
    std::remove(bad.c_str());
}

TEST_CASE("sweep: grid points in order and shards") {
    // The swept names are the scenario's params: a sweep's first point must load (docs/whatif.md).
    std::string scen = temp_file("sc.yaml", header + "params: { a: 1, b: x }\n");
    std::string sw = temp_file("sw.yaml", "scenario: " + std::filesystem::path(scen).filename().string() +
                                              "\ngrid:\n  a: [1, 2]\n  b: [x, y, z]\n");
    sweep_spec s = load_sweep(sw);
    REQUIRE(s.params == std::vector<std::string>{"a", "b"});
    REQUIRE(s.point_count == 6);
    // The first parameter varies slowest.
    REQUIRE(s.point(0) == std::vector<std::string>{"1", "x"});
    REQUIRE(s.point(1) == std::vector<std::string>{"1", "y"});
    REQUIRE(s.point(3) == std::vector<std::string>{"2", "x"});
    REQUIRE(s.point(5) == std::vector<std::string>{"2", "z"});
    REQUIRE(parse_shard("2/4") == std::pair<uint64_t, uint64_t>{2, 4});
    REQUIRE_THROWS_AS(parse_shard("4/4"), input_error);
    REQUIRE_THROWS_AS(parse_shard("1"), input_error);
    // Range: N up to 2^64-1; beyond, signs, spaces and a zero N are refused (never wrapped).
    REQUIRE(parse_shard("0/4294967297") == std::pair<uint64_t, uint64_t>{0, 4294967297ull});
    REQUIRE(parse_shard("0/18446744073709551615") == std::pair<uint64_t, uint64_t>{0, UINT64_MAX});
    for (const char* bad : {"0/18446744073709551616", "0/0", "-1/4", "1/-4", "+1/4", " 1/4", "1/4 ", "1/", "/4", "0x1/4"})
        REQUIRE_THROWS_AS(parse_shard(bad), input_error);
    std::remove(sw.c_str());
    std::remove(scen.c_str());
}

// Typed results columns (tb/results_columns.h, docs/whatif.md "Results for analysis"): values a
// sweep writes as text, as numbers worked out by hand.
#include "tb/results_columns.h"
TEST_CASE("results: parameter values as numbers", "[whatif]") {
    using pmusim::numeric_value;
    CHECK(numeric_value("25MHz") == "25000000");
    CHECK(numeric_value("19.2MHz") == "19200000");
    CHECK(numeric_value("12ms") == "0.012");
    CHECK(numeric_value("15.9ms") == "0.0159");
    CHECK(numeric_value("1s") == "1");
    CHECK(numeric_value("1/4") == "0.25");
    CHECK(numeric_value("1/10") == "0.1");
    CHECK(numeric_value("1/3") == "0.3333333333333333");
    CHECK(numeric_value("3/2") == "1.5");
    CHECK(numeric_value("7") == "7");
    CHECK(numeric_value("0x10") == "16");
    CHECK(numeric_value("arm-default") == "");
    CHECK(pmusim::fs_as_seconds(1) == "0.000000000000001");
    CHECK(pmusim::fs_as_seconds(96'000'000'000'000ull) == "0.096");
    CHECK(pmusim::typed_column_names({"slice"}) ==
          std::vector<std::string>{"platform", "pmusim_version", "duration_s", "slice_value"});
}

// Random and Latin-hypercube sampling of a grid (tb/sweep_sampling.h): the Latin property checked
// directly (every value of a 4-value list taken exactly once by 4 points, for each parameter),
// determinism per seed, and the sweep file's `sample:` giving listed points.
#include "tb/sweep_sampling.h"
TEST_CASE("sweep: random and Latin-hypercube sampling", "[whatif]") {
    using pmusim::sample_grid;
    using pmusim::sweep_sampling;
    const auto lhs = sample_grid({4, 4, 8}, sweep_sampling::lhs, 4, 7);
    REQUIRE(lhs.size() == 4);
    for (size_t p = 0; p < 2; ++p) {
        std::set<size_t> seen;
        for (const auto& r : lhs) seen.insert(r[p]);
        CHECK(seen == std::set<size_t>{0, 1, 2, 3}); // one point per stratum = per value
    }
    std::set<size_t> pairs; // 8 values, 4 strata: stratum k holds values 2k and 2k+1
    for (const auto& r : lhs) pairs.insert(r[2] / 2);
    CHECK(pairs == std::set<size_t>{0, 1, 2, 3});
    CHECK(sample_grid({4, 4, 8}, sweep_sampling::lhs, 4, 7) == lhs);   // same seed, same points
    CHECK(sample_grid({4, 4, 8}, sweep_sampling::lhs, 4, 8) != lhs);   // another seed, others
    const auto rnd = sample_grid({3, 5}, sweep_sampling::random, 1000, 1);
    std::vector<int> counts(3, 0);
    for (const auto& r : rnd) {
        REQUIRE(r[0] < 3);
        REQUIRE(r[1] < 5);
        ++counts[r[0]];
    }
    for (int c : counts) CHECK((c > 250 && c < 420)); // 1000/3 each, far inside 5 sigma (~75)

    const std::string dir = (std::filesystem::temp_directory_path() / ("pmusim-sample-" + std::to_string(getpid()))).string();
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/s.yaml") << "platform: arm-default\nduration: 1us\n";
    auto spec = pmusim::parse_sweep("scenario: s.yaml\ngrid:\n  a: [1, 2, 3, 4]\n  b: [x, y]\nsample: { method: lhs, points: 4, seed: 3 }\n",
                                    dir + "/sweep.yaml");
    CHECK(spec.point_count == 4);
    std::set<std::string> a_values;
    for (uint64_t i = 0; i < 4; ++i) a_values.insert(spec.point(i)[0]);
    CHECK(a_values == std::set<std::string>{"1", "2", "3", "4"});
    CHECK_THROWS_WITH(pmusim::parse_sweep("scenario: s.yaml\ngrid:\n  a: [1]\nsample: { method: sobol, points: 4 }\n", dir + "/sweep.yaml"),
                      Catch::Contains("sweep.yaml:4: sample.method: expected random or lhs"));
    CHECK_THROWS_WITH(pmusim::parse_sweep("scenario: s.yaml\npoints:\n  - { a: 1 }\nsample: { method: lhs, points: 4 }\n", dir + "/sweep.yaml"),
                      Catch::Contains("sample: only with 'grid'"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("scenario: link write-backs and the DSU-side queue feed the flows", "[whatif]") {
    // docs/whatif.md "Linked system model": cpu0 at arm-default's 2 GHz makes 1/2 L3 read access a
    // cycle from 0 to 1 ms; miss ratio 1/2, writeback ratio 1/4: refills 1/4 a cycle, write-backs
    // 1/16; demand (1/4 + 1/16) x 2 GHz / 1 GHz (cmn0) = 5/8 request a mesh cycle, above port_rate
    // 1/2: the port sends 1/2 for the 1,000,000 edges to 1 ms, the backlog reaches 1/8 x 1e6 = 125,000
    // and drains at 1/2 in 250,000 edges (to edge 1,250,000 < 2,000,000 at 2 ms).
    register_all_units();
    const std::string text = "platform: arm-default\nduration: 2ms\n"
                             "workload:\n"
                             "  - { at: 0, cpu: cpu0, rates: { l3_access_rd: 1/2 } }\n"
                             "  - { at: 1ms, cpu: cpu0, rates: { inst: 1 } }\n"
                             "link:\n"
                             "  - dsu: dsu0\n" // line 7
                             "    cmn: cmn0\n"
                             "    requester: \"1,0 p0\"\n"
                             "    l3_miss_ratio: 1/2\n"
                             "    writeback_ratio: 1/4\n"
                             "    port_rate: 1/2\n"
                             "    slc_miss_ratio: 0\n";
    scenario s = parse_scenario(text, "s.yaml");
    auto rate = [&](size_t w, const std::string& key) {
        for (const auto& [k, r] : s.workloads[w].rates)
            if (k == key) return r.str();
        return std::string("none");
    };
    REQUIRE(rate(0, "l3_refill_rd") == "1/4");
    REQUIRE(rate(0, "l3_writeback") == "1/16");
    REQUIRE(rate(0, "bus_access_wr") == "1/16");
    REQUIRE(rate(1, "l3_writeback") == "0");
    REQUIRE(s.link_reports.size() == 1);
    const link_report& r = s.link_reports[0];
    REQUIRE(r.segments.size() == 3); // then nothing to send until the end (edge 2,000,000)
    REQUIRE((r.segments[0].start_edge == 0 && r.segments[0].stop_edge == 1'000'000));
    REQUIRE((r.segments[0].demand.str() == "5/8" && r.segments[0].issue.str() == "1/2"));
    REQUIRE((r.segments[1].start_edge == 1'000'000 && r.segments[1].stop_edge == 1'250'000));
    REQUIRE(r.segments[1].issue.str() == "1/2");
    REQUIRE((r.segments[2].stop_edge == 2'000'000 && r.segments[2].issue.is_zero()));
    REQUIRE(r.peak == "125000");
    REQUIRE(r.stall_cycles == 1'250'000);
    // 125,000 x 1,000,000 / 2 + 125,000 x 250,000 / 2
    REQUIRE(r.occupancy == "78125000000");
    // reads 4/5 of 1/2, over 16 (HN-F, memory) pairs: 1/40 each; writes 1/5 of 1/2 over 4 HN-Fs: 1/40
    const std::string flows = s.platform.find_unit("cmn0")->params.at("flows");
    REQUIRE(flows.find("1,0 p0 to=hnf0 op=read rate=1/40 miss=0 mem=0 start=0 stop=1000000\n") != std::string::npos);
    REQUIRE(flows.find("1,0 p0 to=hnf3 op=write rate=1/40 miss=0 mem=0 start=1000000 stop=1250000\n") != std::string::npos);

    auto e = scenario_error(text + "    mesh: traffic\n");
    REQUIRE(e.line() == 7);
    REQUIRE(e.message() == "link: writeback_ratio needs mesh: flows (the per-request link sends refills only)");
}
