// Platform configuration: built-ins, values, unit-type registry, listing, and
// every error path with its line (vp/platform_config.h, docs/platform-config.md).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "vp/builtin_platforms.h"
#include "vp/platform_listing.h"
#include "vp/unit_list.h"
#include "models/data_files.h"

using namespace pmusim;

namespace {

const std::string source_tree = pmusim::source_dir();

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.good());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

input_error parse_error(const std::string& yaml) {
    try {
        parse_platform(yaml, "t.yaml");
    } catch (const input_error& e) {
        return e;
    }
    FAIL("expected an input_error for:\n" << yaml);
    throw std::logic_error("unreachable");
}

input_error load_error(const std::string& name_or_path) {
    try {
        load_platform(name_or_path);
    } catch (const input_error& e) {
        return e;
    }
    FAIL("expected an input_error loading " << name_or_path);
    throw std::logic_error("unreachable");
}

// The error is at `line` and its message (without "file:line: ") contains `text`.
#define CHECK_ERROR_AT(error_expr, expected_line, text)                                                   \
    do {                                                                                                  \
        const input_error err_ = (error_expr);                                                            \
        INFO("error: " << err_.what());                                                                   \
        CHECK(err_.line() == (expected_line));                                                            \
        CHECK_THAT(err_.message(), Catch::Contains(text));                                                \
    } while (0)

// A valid Arm platform of 8 lines; tests append to it (the next line is 9).
const std::string arm_head = R"(name: t
arch: arm
clocks:
  - { name: c, frequency: 1GHz }
  - { name: d, frequency: 500MHz }
cpus:
  - { name: cpu0, clock: c }
  - { name: cpu1, clock: c }
)";

} // namespace

// ---------------------------------------------------------------------------
// Built-ins
// ---------------------------------------------------------------------------

TEST_CASE("config: built-in arm-default loads with the expected shape") {
    platform_config p = load_platform("arm-default");
    CHECK(p.name == "arm-default");
    CHECK(p.file == "platforms/arm-default.yaml");
    CHECK(p.arch == arch_kind::arm);
    CHECK(p.firmware.profile == firmware_profile::tf_a);
    CHECK(p.latency.register_access_fs == 0);

    REQUIRE(p.find_clock("const"));
    CHECK(p.find_clock("const")->frequency_hz == 100000000u);
    for (const char* c : {"dsu0", "dsu1", "cmn0"}) {
        REQUIRE(p.find_clock(c));
        CHECK(p.find_clock(c)->frequency_hz == 1000000000u);
    }

    REQUIRE(p.cpus.size() == 8);
    for (unsigned i = 0; i < 8; ++i) {
        const cpu_config& c = p.cpus[i];
        CHECK(c.name == "cpu" + std::to_string(i));
        CHECK(c.index == i);
        CHECK(c.clock == c.name);
        CHECK(c.cluster == (i < 4 ? 0u : 1u));
        CHECK(c.features.at("amu") == "v1p1");
        CHECK(c.features.at("amu_aux_counters") == "0");
        CHECK(c.features.at("amu_external_view") == "false");
        CHECK(p.find_clock(c.clock)->frequency_hz == (i < 4 ? 2000000000u : 2500000000u));
    }

    REQUIRE(p.units.size() == 3);
    CHECK(p.units_of_type("dsu_clusterpmu").size() == 2);
    CHECK(p.units_of_type("cmn600").size() == 1);
    CHECK(p.units_of_type("amu").empty()); // the AMU is a CPU feature, not a unit

    const unit_config* dsu0 = p.find_unit("dsu0");
    REQUIRE(dsu0);
    CHECK(dsu0->has_mmio);
    CHECK(dsu0->base == 0x2A000000u);
    CHECK(dsu0->size == 0x10000u);
    CHECK(dsu0->clock == "dsu0");
    CHECK(dsu0->cpus == std::vector<std::string>{"cpu0", "cpu1", "cpu2", "cpu3"});
    CHECK(dsu0->irq == "dsu0_pmu_irq");
    CHECK(dsu0->param_choice("variant") == "dsu-110");
    CHECK(dsu0->param_int("counters") == 6);
    const unit_config* dsu1 = p.find_unit("dsu1");
    REQUIRE(dsu1);
    CHECK(dsu1->cpus == std::vector<std::string>{"cpu4", "cpu5", "cpu6", "cpu7"});

    const unit_config* cmn = p.find_unit("cmn0");
    REQUIRE(cmn);
    CHECK(cmn->type == "cmn600");
    CHECK(cmn->param_int("mesh_x") == 3);
    CHECK(cmn->param_int("mesh_y") == 3);
    CHECK(cmn->param_int("periphbase") == 0x50000000u);
    CHECK(cmn->params.at("periphbase") == "1342177280"); // canonical text is decimal
    CHECK(cmn->param_int("root_node_offset") == 0);
    CHECK(cmn->base == 0x50000000u);
    CHECK(cmn->size == 64u << 20);

    REQUIRE(p.memory.size() == 1);
    CHECK(p.memory[0].name == "dram");
    CHECK(p.memory[0].base == 0x80000000u);
    CHECK(p.memory[0].size == 16u << 20);
    CHECK(p.memory[0].endianness == endianness::little);

    REQUIRE(p.irq_lines.size() == 3);
    CHECK(p.find_irq_line("dsu0_pmu_irq")->driver == "dsu0");
    CHECK(p.find_irq_line("dsu1_pmu_irq")->driver == "dsu1");
    CHECK(p.find_irq_line("cmn0_pmu_irq")->driver == "cmn0");
}

TEST_CASE("config: built-in power9-default loads with the expected shape") {
    platform_config p = load_platform("power9-default");
    CHECK(p.name == "power9-default");
    CHECK(p.arch == arch_kind::power);
    CHECK(p.firmware.profile == firmware_profile::opal);
    REQUIRE(p.find_clock("tb"));
    CHECK(p.find_clock("tb")->frequency_hz == 512000000u);
    CHECK(p.find_clock("nest")->frequency_hz == 2000000000u);

    REQUIRE(p.cpus.size() == 16);
    for (unsigned i = 0; i < 16; ++i) {
        const cpu_config& c = p.cpus[i];
        CHECK(c.name == "cpu" + std::to_string(i));
        CHECK(c.chip == 0);
        CHECK(c.core == i / 4);
        CHECK(c.thread == i % 4);
        CHECK(c.threads == 4);
        CHECK(c.clock == "core" + std::to_string(i / 4));
        CHECK(c.features.at("amu") == "none");
        CHECK(p.find_clock(c.clock)->frequency_hz == 3200000000u);
    }

    REQUIRE(p.units.size() == 1);
    const unit_config& imc = p.units[0];
    CHECK(imc.name == "imc0");
    CHECK(imc.type == "power9_imc");
    CHECK(imc.clock == "nest");
    CHECK(imc.cpus.size() == 16);
    CHECK(imc.param_int("chips") == 1);
    CHECK_FALSE(imc.has_mmio);
    CHECK(imc.irq.empty());
    CHECK(p.irq_lines.empty());

    REQUIRE(p.memory.size() == 2);
    for (const auto& r : p.memory) CHECK(r.endianness == endianness::big);
    CHECK(p.find_memory("homer")->size == 4u << 20);
}

TEST_CASE("config: embedded built-in platforms equal the platform files") {
    REQUIRE(builtin_platforms().size() == 3);
    CHECK(builtin_platform_names() == "arm-default, arm-linux, power9-default");
    for (const auto& b : builtin_platforms()) {
        INFO(b.source_path);
        CHECK(std::string(b.source_path) == "platforms/" + std::string(b.name) + ".yaml");
        CHECK(std::string(b.yaml) == read_file(source_tree + "/" + std::string(b.source_path)));
        CHECK(load_platform(std::string(b.name)).name == b.name);
    }
    CHECK(find_builtin_platform("nope") == nullptr);
}

TEST_CASE("config: a platform file loads by path") {
    const std::string path = source_tree + "/platforms/arm-default.yaml";
    platform_config p = load_platform(path);
    CHECK(p.file == path);
    CHECK(p.name == "arm-default");
    CHECK(p.units.size() == 3);
}

// ---------------------------------------------------------------------------
// Values, defaults, accessors
// ---------------------------------------------------------------------------

TEST_CASE("config: numbers / frequencies / sizes and durations are exact") {
    platform_config p = parse_platform(R"(name: values
arch: arm
clocks:
  - { name: a, frequency: 2GHz }
  - { name: b, frequency: 2.5GHz }
  - { name: c, frequency: 32768Hz }
  - { name: d, frequency: 25000000 }
  - { name: e, frequency: 32.768kHz }
  - { name: f, frequency: 1_000 MHz }
  - { name: g, frequency: 100mhz }
cpus:
  - { name: cpu0, clock: a, cluster: 0x1_0 }
memory:
  - { name: m1, base: 0x8000_0000, size: 64KiB, endianness: big }
  - { name: m2, base: 4_294_967_296, size: 1_024 }
  - { name: m3, base: 0xFFFFFFFFFFFFF000, size: 0x1000 }
latency: { register_access: 1.5ns }
)",
                                       "values.yaml");
    CHECK(p.find_clock("a")->frequency_hz == 2000000000u);
    CHECK(p.find_clock("b")->frequency_hz == 2500000000u);
    CHECK(p.find_clock("c")->frequency_hz == 32768u);
    CHECK(p.find_clock("d")->frequency_hz == 25000000u);
    CHECK(p.find_clock("e")->frequency_hz == 32768u);
    CHECK(p.find_clock("f")->frequency_hz == 1000000000u);
    CHECK(p.find_clock("g")->frequency_hz == 100000000u);
    CHECK(p.cpus[0].cluster == 16);
    CHECK(p.find_memory("m1")->base == 0x80000000u);
    CHECK(p.find_memory("m1")->size == 65536u);
    CHECK(p.find_memory("m1")->endianness == endianness::big);
    CHECK(p.find_memory("m2")->base == 4294967296u);
    CHECK(p.find_memory("m2")->size == 1024u);
    CHECK(p.find_memory("m2")->endianness == endianness::little);
    CHECK(p.find_memory("m3")->base == 0xFFFFFFFFFFFFF000u);
    CHECK(p.latency.register_access_fs == 1500000u);
    CHECK(p.firmware.profile == firmware_profile::tf_a); // default for arm
}

TEST_CASE("config: inexact or malformed numbers are errors") {
    CHECK_ERROR_AT(parse_error(arm_head + "latency: { register_access: 1.5fs }\n"), 9,
                   "latency.register_access: expected a duration like 10ns, found '1.5fs'");
    CHECK_ERROR_AT(parse_error(arm_head + "latency: { register_access: 10 }\n"), 9,
                   "expected a duration like 10ns, found '10'");
    CHECK_ERROR_AT(parse_error(arm_head + "memory:\n  - { name: m, base: 0x_10, size: 1 }\n"), 10,
                   "memory[0].base: expected an integer (decimal or 0x hex), found '0x_10'");
    CHECK_ERROR_AT(parse_error(arm_head + "memory:\n  - { name: m, base: 18446744073709551616, size: 1 }\n"), 10,
                   "memory[0].base: expected an integer");
    CHECK_ERROR_AT(parse_error(arm_head + "memory:\n  - { name: m, base: -1, size: 1 }\n"), 10,
                   "found '-1'");
    CHECK_ERROR_AT(parse_error(arm_head + "memory:\n  - { name: m, base: 0, size: 0 }\n"), 10,
                   "memory[0].size: expected a size above 0 like 0x10000 or 16MiB, found '0'");
    CHECK_ERROR_AT(parse_error(arm_head + "memory:\n  - { name: m, base: 0xFFFFFFFFFFFFF000, size: 0x1001 }\n"), 10,
                   "memory[0].size: the region 0xfffffffffffff000 + 0x1001 goes past the end");
    CHECK_ERROR_AT(parse_error(R"(name: t
arch: arm
clocks:
  - { name: c, frequency: 1.0000000001Hz }
)"),
                   4, "clocks[0].frequency: expected a frequency like 2GHz, found '1.0000000001Hz'");
}

TEST_CASE("config: unit params take defaults / keep lines and convert") {
    platform_config p = parse_platform(arm_head + R"(units:
  - name: dsu0
    type: dsu_clusterpmu
    clock: d
    cpus: [cpu0, cpu1]
    params:
      counters: 0x1F
  - name: cmn0
    type: cmn600
    params: { mesh_x: 2 }
)",
                                       "p.yaml");
    const unit_config& dsu = *p.find_unit("dsu0");
    CHECK(dsu.index == 0);
    CHECK(dsu.line == 10);
    CHECK(dsu.params.at("counters") == "31");
    CHECK(dsu.param_int("counters") == 31);
    CHECK(dsu.param_line("counters") == 15);
    CHECK_FALSE(dsu.param_is_default("counters"));
    CHECK(dsu.param_choice("variant") == "dsu-110"); // default
    CHECK(dsu.param_is_default("variant"));
    CHECK(dsu.param_line("variant") == 14); // the params: key
    CHECK(dsu.key_line("cpus") == 13);
    CHECK(dsu.key_line("base") == 10); // not written: the entry's line
    CHECK_FALSE(dsu.has_mmio);
    CHECK_THROWS_AS(dsu.param_int("nope"), model_error);

    input_error e = dsu.param_error("counters", "a DSU-120 has at most 8 counters");
    CHECK(std::string(e.what()) == "p.yaml:15: units[0].params.counters: a DSU-120 has at most 8 counters");
    CHECK(dsu.key_error("cpus", "too few").line() == 13);

    const unit_config& cmn = *p.find_unit("cmn0");
    CHECK(cmn.param_int("mesh_x") == 2);
    CHECK(cmn.param_int("mesh_y") == 3);
    CHECK(cmn.param_line("mesh_x") == 18);
    CHECK(cmn.params.count("periphbase")); // every declared parameter is present
}

TEST_CASE("config: registered unit types validate every parameter type") {
    register_unit({"test_unit",
                   "a unit for tests",
                   {
                       {"n", param_type::integer, "0x10", "a count", {}, 1, 100},
                       {"on", param_type::boolean, "false", "a switch"},
                       {"label", param_type::string, "", "a label"},
                       {"f", param_type::frequency, "1GHz", "a rate", {}, 1000000, 4000000000},
                       {"t", param_type::duration, "10ns", "a delay"},
                       {"mode", param_type::choice, "b", "a mode", {"a", "b"}},
                   }});
    auto info = find_unit_type("test_unit");
    REQUIRE(info);
    CHECK(info->description == "a unit for tests");
    CHECK(info->find_param("n")->default_value == "16"); // canonicalised
    CHECK(info->find_param("t")->default_value == "10000000");

    platform_config p = parse_platform(arm_head + R"(units:
  - name: u
    type: test_unit
    params: { on: true, label: hello world, f: 2.5GHz, t: 2us, mode: a }
)",
                                       "p.yaml");
    const unit_config& u = p.units[0];
    CHECK(u.param_int("n") == 16);
    CHECK(u.param_bool("on"));
    CHECK(u.param_string("label") == "hello world");
    CHECK(u.param_frequency_hz("f") == 2500000000u);
    CHECK(u.params.at("f") == "2500000000");
    CHECK(u.param_duration_fs("t") == 2000000000u);
    CHECK(u.param_choice("mode") == "a");

    const std::string head = arm_head + "units:\n  - name: u\n    type: test_unit\n    params: { ";
    CHECK_ERROR_AT(parse_error(head + "on: yes }\n"), 12,
                   "units[0].params.on: expected true or false, found 'yes'");
    CHECK_ERROR_AT(parse_error(head + "f: 500kHz }\n"), 12,
                   "units[0].params.f: expected a frequency in 1MHz..4GHz like 2GHz, found '500kHz'");
    CHECK_ERROR_AT(parse_error(head + "t: soon }\n"), 12,
                   "units[0].params.t: expected a duration like 10ns, found 'soon'");
    CHECK_ERROR_AT(parse_error(head + "mode: c }\n"), 12, "units[0].params.mode: expected one of a, b, found 'c'");
    CHECK_ERROR_AT(parse_error(head + "label: [x] }\n"), 12, "units[0].params.label: expected a text, found a list");

    // Registering again replaces the schema.
    register_unit({"test_unit", "v2", {{"only", param_type::integer, "1", "the only one"}}});
    CHECK(find_unit_type("test_unit")->params.size() == 1);
    CHECK_ERROR_AT(parse_error(head + "n: 3 }\n"), 12, "unknown parameter 'n'; parameters of unit type test_unit: only");

    // Malformed schemas are the model's fault.
    CHECK_THROWS_AS(register_unit({"bad", "", {{"x", param_type::integer, "200", "", {}, 0, 100}}}), model_error);
    CHECK_THROWS_AS(register_unit({"bad", "", {{"x", param_type::choice, "a", ""}}}), model_error);
    CHECK_THROWS_AS(register_unit({"bad", "", {{"x", param_type::integer, "1", ""}, {"x", param_type::integer, "1", ""}}}),
                    model_error);
    CHECK_THROWS_AS(register_unit({"bad type", "", {}}), model_error);
    // A feature key that needs an undeclared one is malformed too.
    CHECK_THROWS_AS(register_unit({"bad", "", {}, {{{"x", param_type::boolean, "false", ""}, false, "", "y", "needs y", ""}}}),
                    model_error);
    CHECK_FALSE(find_unit_type("bad"));
}

TEST_CASE("config: built-in unit types are registered by their folders") {
    register_all_units();
    auto types = registered_unit_types();
    for (const char* t : {"arm_cspmu", "cmn600", "dsu_clusterpmu", "power9_imc"})
        CHECK(std::find(types.begin(), types.end(), t) != types.end());
    auto dsu = find_unit_type("dsu_clusterpmu");
    REQUIRE(dsu);
    CHECK(dsu->find_param("variant")->choices == std::vector<std::string>{"original", "dsu-110", "dsu-120"});
    CHECK(dsu->find_param("counters")->min == 1);
    CHECK(dsu->find_param("counters")->max == 31);
    // Each descriptor brings its factory; the AMU also its per-CPU feature keys.
    CHECK(dsu->make);
    auto amu = find_unit_type("amu");
    REQUIRE(amu);
    CHECK(amu->make_from_features);
    std::vector<std::string> keys;
    for (const auto& f : registered_cpu_features()) keys.push_back(f.spec.name);
    CHECK(keys == std::vector<std::string>{"amu", "amu_aux_counters", "amu_external_view", "fgt"});
}

TEST_CASE("config: list_params names every knob with value / type and default") {
    platform_config p = load_platform("arm-default");
    std::vector<param_listing> all = collect_params(p);
    auto find = [&](const std::string& path) -> const param_listing* {
        for (const auto& x : all)
            if (x.path == path) return &x;
        return nullptr;
    };
    REQUIRE(find("clocks.cpu4.frequency"));
    CHECK(find("clocks.cpu4.frequency")->value == "2.5GHz");
    REQUIRE(find("cpus.cpu0.features.amu"));
    CHECK(find("cpus.cpu0.features.amu")->value == "v1p1");
    CHECK(find("cpus.cpu0.features.amu")->default_value == "none");
    REQUIRE(find("firmware.profile"));
    CHECK(find("firmware.profile")->value == "tf-a");
    REQUIRE(find("units.dsu0.params.counters"));
    CHECK(find("units.dsu0.params.counters")->type == "integer 1..31");
    CHECK(find("units.dsu0.params.counters")->default_value == "6");
    CHECK_FALSE(find("units.dsu0.params.counters")->meaning.empty());
    REQUIRE(find("units.cmn0.params.periphbase"));
    CHECK(find("units.cmn0.params.periphbase")->value == "0x50000000");
    CHECK(find("units.dsu1.params.variant")->type == "choice original|dsu-110|dsu-120");
    CHECK(find("latency.register_access")->value == "0ns");
    CHECK(find("memory.dram.size")->value == "0x1000000");

    std::vector<std::string> lines = list_params(p);
    // Title, header, one row per knob; the two multi-line CMN values of platforms/arm-default.yaml
    // (15 `nodes` lines, 7 `events` lines) follow their rows, indented, instead of breaking the table.
    REQUIRE(lines.size() == all.size() + 2 + 15 + 7);
    CHECK(lines[0] == "# platform arm-default (arch arm) from platforms/arm-default.yaml");
    CHECK(lines[1].rfind("PARAMETER", 0) == 0);
    for (size_t i = 0; i + 2 < lines.size(); ++i)
        if (lines[i].rfind("units.cmn0.params.nodes ", 0) == 0) {
            CHECK_THAT(lines[i], Catch::Contains("(15 lines, below)"));
            CHECK(lines[i + 1].rfind("    0,0 p0 hn-d ", 0) == 0);
            CHECK(lines[i + 2].rfind("    0,0 p1 rn-i ", 0) == 0);
        }
    bool found = false;
    for (const auto& l : lines)
        if (l.rfind("units.dsu0.params.variant", 0) == 0) {
            found = true;
            CHECK_THAT(l, Catch::Contains("dsu-110") && Catch::Contains("choice original|dsu-110|dsu-120"));
        }
    CHECK(found);

    std::vector<std::string> p9 = list_params(load_platform("power9-default"));
    bool threads = false;
    for (const auto& l : p9) threads = threads || l.rfind("cpus.cpu15.threads", 0) == 0;
    CHECK(threads);

    std::vector<std::string> types = list_unit_types();
    // Unit implementations may replace the placeholder descriptions; the shape stays.
    bool cmn_header = false, mesh_x = false;
    for (const auto& l : types) {
        cmn_header = cmn_header || l.rfind("cmn600: ", 0) == 0;
        mesh_x = mesh_x || (l.rfind("  mesh_x ", 0) == 0 && l.find("integer 1..8") != std::string::npos);
    }
    CHECK(cmn_header);
    CHECK(mesh_x);
}

// ---------------------------------------------------------------------------
// Error paths
// ---------------------------------------------------------------------------

TEST_CASE("config: unknown top-level key") {
    input_error e = parse_error(arm_head + "colcks: []\n");
    CHECK(e.file() == "t.yaml");
    CHECK_ERROR_AT(e, 9, "unknown top-level key 'colcks'; allowed keys: name, description, arch, clocks");
}

TEST_CASE("config: unknown cpu key") {
    CHECK_ERROR_AT(parse_error(arm_head + "  - { name: cpu2, clock: c, colck: c }\n"), 9,
                   "cpus[2]: unknown key 'colck'; allowed keys: name, clock, cluster, features");
    CHECK_ERROR_AT(parse_error(arm_head + "  - { name: cpu2, clock: c, core: 1 }\n"), 9,
                   "(core is only for arch power)");
    CHECK_ERROR_AT(parse_error(arm_head + "  - { name: cpu2, clock: c, features: { amu_aux: 1 } }\n"), 9,
                   "cpus[2].features: unknown key 'amu_aux'; allowed keys: amu, amu_aux_counters, amu_external_view, fgt");
}

TEST_CASE("config: bad frequency") {
    const std::string path = source_tree + "/tests/platforms/bad-frequency.yaml";
    input_error e = load_error(path);
    CHECK(std::string(e.what()) ==
          path + ":8: clocks[2].frequency: expected a frequency like 2GHz, found 'fast'");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - { name: c, frequency: 2 GHz/s }\n"), 4,
                   "clocks[0].frequency: expected a frequency like 2GHz, found '2 GHz/s'");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - name: c\n    frequency:\n"), 5,
                   "clocks[0].frequency: expected a frequency like 2GHz, found nothing");
}

TEST_CASE("config: zero frequency") {
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - { name: c, frequency: 1GHz }\n"
                               "  - { name: z, frequency: 0MHz }\n"),
                   5, "clocks[1].frequency: expected a frequency above 0Hz like 2GHz, found '0MHz'");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - { name: z, frequency: 0 }\n"), 4,
                   "above 0Hz");
}

TEST_CASE("config: cpu clock not found") {
    CHECK_ERROR_AT(parse_error(arm_head + "  - name: cpu2\n    clock: fast\n"), 10,
                   "cpus[2].clock: no clock named 'fast'; clocks are: c, d");
    CHECK_ERROR_AT(parse_error(arm_head + "  - { name: cpu2 }\n"), 9,
                   "cpus[2]: missing required key 'clock'");
}

TEST_CASE("config: duplicate unit name") {
    const std::string path = source_tree + "/tests/platforms/duplicate-unit.yaml";
    CHECK_ERROR_AT(load_error(path), 15, "units[1].name: duplicate unit name 'dsu0' (first defined at line 9)");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - { name: c, frequency: 1GHz }\n"
                               "  - { name: c, frequency: 2GHz }\n"),
                   5, "clocks[1].name: duplicate clock name 'c' (first defined at line 4)");
    CHECK_ERROR_AT(parse_error(arm_head + "memory:\n  - { name: m, base: 0, size: 1 }\n"
                                          "  - { name: m, base: 8, size: 1 }\n"),
                   11, "memory[1].name: duplicate memory region name 'm'");
    CHECK_ERROR_AT(parse_error(arm_head + "irq_lines: [a, b,\n  a]\n"), 10,
                   "irq_lines[2]: duplicate interrupt line 'a' (first at line 9)");
}

TEST_CASE("config: duplicate YAML key") {
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - name: c\n    frequency: 1GHz\n    name: d\n"), 6,
                   "clocks[0].name: duplicate key (first at line 4)");
}

TEST_CASE("config: unknown unit type") {
    const std::string path = source_tree + "/tests/platforms/unknown-unit-type.yaml";
    CHECK_ERROR_AT(load_error(path), 10,
                   "units[0].type: unknown unit type 'dsu_clusterpm'; registered types: amu, arm_cspmu, cmn600, "
                   "dsu_clusterpmu, generic_timer, gicv2, pl011, power9_imc, psci");
}

TEST_CASE("config: unknown param") {
    CHECK_ERROR_AT(parse_error(arm_head + R"(units:
  - name: dsu0
    type: dsu_clusterpmu
    params:
      variant: dsu-120
      countrs: 4
)"),
                   14,
                   "units[0].params: unknown parameter 'countrs'; parameters of unit type dsu_clusterpmu: "
                   "variant");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - { name: u, type: cmn600, parameters: {} }\n"), 10,
                   "units[0]: unknown key 'parameters'; allowed keys: name, type, base, size, clock, cpus, irq, "
                   "params (did you mean params?)");
}

TEST_CASE("config: param out of range") {
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: dsu0\n    type: dsu_clusterpmu\n"
                                          "    params: { counters: 32 }\n"),
                   12, "units[0].params.counters: expected an integer in 1..31, found '32'");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: cmn0\n    type: cmn600\n"
                                          "    params:\n      mesh_x: 3\n      mesh_y: 0\n"),
                   14, "units[0].params.mesh_y: expected an integer in 1..8, found '0'");
}

TEST_CASE("config: wrong param type") {
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: dsu0\n    type: dsu_clusterpmu\n"
                                          "    params: { counters: six }\n"),
                   12, "units[0].params.counters: expected an integer in 1..31, found 'six'");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: dsu0\n    type: dsu_clusterpmu\n"
                                          "    params: { variant: dsu-130 }\n"),
                   12, "units[0].params.variant: expected one of original, dsu-110, dsu-120, found 'dsu-130'");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: dsu0\n    type: dsu_clusterpmu\n"
                                          "    params:\n      counters: [1, 2]\n"),
                   13, "units[0].params.counters: expected an integer in 1..31, found a list");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: dsu0\n    type: dsu_clusterpmu\n"
                                          "    params: [counters]\n"),
                   12, "units[0].params: expected a map of parameters of unit type dsu_clusterpmu, found a list");
}

TEST_CASE("config: overlapping memory regions") {
    const std::string path = source_tree + "/tests/platforms/overlapping-memory.yaml";
    CHECK_ERROR_AT(load_error(path), 10,
                   "memory[1]: memory region 'sram' [0x80ff0000, 0x8100ffff] overlaps memory region 'dram' "
                   "[0x80000000, 0x80ffffff] (line 9)");
    // A region over a unit's MMIO window.
    CHECK_ERROR_AT(parse_error(arm_head + R"(units:
  - { name: dsu0, type: dsu_clusterpmu, base: 0x2A000000, size: 0x10000 }
memory:
  - { name: m, base: 0x29FFF000, size: 0x2000 }
)"),
                   12, "memory[0]: memory region 'm' [0x29fff000, 0x2a000fff] overlaps the MMIO window of unit "
                       "'dsu0' [0x2a000000, 0x2a00ffff] (line 10)");
    // Two units' windows.
    CHECK_ERROR_AT(parse_error(arm_head + R"(units:
  - { name: dsu0, type: dsu_clusterpmu, base: 0x2A000000, size: 0x10000 }
  - name: dsu1
    type: dsu_clusterpmu
    base: 0x2A00F000
    size: 0x10000
)"),
                   13, "units[1]: the MMIO window of unit 'dsu1'");
    // Touching regions do not overlap.
    CHECK_NOTHROW(parse_platform(arm_head + "memory:\n  - { name: a, base: 0, size: 0x1000 }\n"
                                            "  - { name: b, base: 0x1000, size: 0x1000 }\n",
                                 "t.yaml"));
}

TEST_CASE("config: cpu name not matching its index") {
    CHECK_ERROR_AT(parse_error(arm_head + "  - { name: cpu3, clock: c }\n"), 9,
                   "cpus[2].name: expected 'cpu2' (a CPU is named cpu followed by its index in the cpus list), "
                   "found 'cpu3'");
}

TEST_CASE("config: bad amu version") {
    CHECK_ERROR_AT(parse_error(arm_head + "  - name: cpu2\n    clock: c\n    features:\n      amu: v2\n"), 12,
                   "cpus[2].features.amu: expected one of none, v1, v1p1, found 'v2'");
}

TEST_CASE("config: aux counters above 16") {
    CHECK_ERROR_AT(parse_error(arm_head + "  - name: cpu2\n    clock: c\n    features:\n      amu: v1\n"
                                          "      amu_aux_counters: 17\n"),
                   13, "cpus[2].features.amu_aux_counters: expected an integer in 0..16, found '17'");
    CHECK_ERROR_AT(parse_error(arm_head + "  - { name: cpu2, clock: c, features: { amu_aux_counters: 2 } }\n"), 9,
                   "auxiliary AMU counters need an AMU (amu is none");
    platform_config p =
        parse_platform(arm_head + "  - { name: cpu2, clock: c, features: { amu: v1, amu_aux_counters: 16, "
                                  "amu_external_view: true } }\n",
                       "t.yaml");
    CHECK(p.cpus[2].features.at("amu_aux_counters") == "16");
    CHECK(p.cpus[2].features.at("amu_external_view") == "true");
    CHECK(p.cpus[2].features.at("fgt") == "false");
    platform_config g = parse_platform(arm_head + "  - { name: cpu2, clock: c, features: { amu: v1, fgt: true } }\n", "t.yaml");
    CHECK(g.cpus[2].features.at("fgt") == "true");
    CHECK_ERROR_AT(parse_error(arm_head + "  - { name: cpu2, clock: c, features: { fgt: maybe } }\n"), 9,
                   "cpus[2].features.fgt: expected");
}

TEST_CASE("config: malformed YAML") {
    const std::string path = source_tree + "/tests/platforms/malformed.yaml";
    input_error e = load_error(path);
    INFO(e.what());
    CHECK(e.file() == path);
    CHECK(e.line() == 7); // yaml-cpp notices the unclosed list at the next key
    CHECK(e.message() == "malformed YAML: end of sequence flow not found");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - { name: c, frequency: 1GHz\n"), 5,
                   "malformed YAML");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\n  clocks: []\n"), 3, "malformed YAML");
    CHECK_ERROR_AT(parse_error(""), 1, "top level: expected a map of platform keys");
    CHECK_ERROR_AT(parse_error("- a\n- b\n"), 1, "top level: expected a map of platform keys");
}

TEST_CASE("config: missing file and unknown platform name") {
    input_error e = load_error("/nonexistent/dir/p.yaml");
    CHECK(e.file() == "/nonexistent/dir/p.yaml");
    CHECK(e.line() == 0);
    CHECK_THAT(e.message(), Catch::Contains("cannot open platform file") &&
                                Catch::Contains("built-in platforms: arm-default, arm-linux, power9-default"));
    input_error n = load_error("arm-defualt");
    CHECK_THAT(std::string(n.what()),
               Catch::Contains("unknown platform 'arm-defualt'; expected a built-in platform (arm-default, "
                               "arm-linux, power9-default) or the path of a YAML file (did you mean arm-default?)"));
    CHECK_THAT(std::string(load_error("power8-default").what()), Catch::Contains("(did you mean power9-default?)"));
    CHECK_THAT(std::string(load_error("zzz").what()), !Catch::Contains("did you mean"));
    CHECK_THAT(load_error(source_tree + "/platforms").message(), Catch::Contains("is a directory"));
}

TEST_CASE("config: required keys and top-level types") {
    CHECK_ERROR_AT(parse_error("arch: arm\n"), 1, "top level: missing required key 'name'");
    CHECK_ERROR_AT(parse_error("name: t\n"), 1, "top level: missing required key 'arch'");
    CHECK_ERROR_AT(parse_error("name: t\narch: x86\n"), 2, "arch: expected one of arm, power, found 'x86'");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks: { a: 1 }\n"), 3, "clocks: expected a list of clocks");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - 1GHz\n"), 4,
                   "clocks[0]: expected a clock map {name, frequency}, found '1GHz'");
    CHECK_ERROR_AT(parse_error("name: t\narch: arm\nclocks:\n  - { name: 0c, frequency: 1GHz }\n"), 4,
                   "clocks[0].name: expected a clock name");
    CHECK_NOTHROW(parse_platform("name: empty\narch: arm\nclocks:\nunits:\n", "t.yaml"));
}

TEST_CASE("config: unit references resolve") {
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: u\n    type: cmn600\n    clock: nope\n"), 12,
                   "units[0].clock: no clock named 'nope'; clocks are: c, d");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: u\n    type: dsu_clusterpmu\n    cpus: [cpu0,\n"
                                          "           cpu7]\n"),
                   13, "units[0].cpus[1]: no CPU named 'cpu7'; CPUs are: cpu0, cpu1");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: u\n    type: dsu_clusterpmu\n    cpus: [cpu0, cpu0]\n"),
                   12, "units[0].cpus[1]: CPU 'cpu0' is listed twice");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - name: u\n    type: dsu_clusterpmu\n    base: 0x1000\n"), 12,
                   "units[0]: 'base' needs 'size' too");
    CHECK_ERROR_AT(parse_error(arm_head + "units:\n  - { name: a, type: cmn600, irq: pmu }\n"
                                          "  - { name: b, type: cmn600, irq: pmu }\n"),
                   11, "units[1].irq: interrupt line 'pmu' is already driven by unit 'a'");
    platform_config p = parse_platform(arm_head + "irq_lines: [spare, pmu]\nunits:\n"
                                                  "  - { name: a, type: cmn600, irq: pmu }\n"
                                                  "  - { name: b, type: cmn600, irq: pmu2 }\n",
                                       "t.yaml");
    REQUIRE(p.irq_lines.size() == 3);
    CHECK(p.irq_lines[0].name == "spare");
    CHECK(p.irq_lines[0].driver.empty());
    CHECK(p.irq_lines[1].driver == "a");
    CHECK(p.irq_lines[2].name == "pmu2");
    CHECK(p.irq_lines[2].driver == "b");
}

TEST_CASE("config: POWER topology and arch-specific keys") {
    const std::string head = "name: p\narch: power\nclocks:\n  - { name: c, frequency: 1GHz }\ncpus:\n";
    platform_config p = parse_platform(head + "  - { name: cpu0, clock: c, core: 0, threads: 2 }\n"
                                              "  - { name: cpu1, clock: c, core: 0, threads: 2 }\n"
                                              "  - { name: cpu2, clock: c, chip: 1, core: 0, threads: 1 }\n",
                                       "t.yaml");
    CHECK(p.firmware.profile == firmware_profile::opal); // default for power
    CHECK(p.cpus[1].thread == 1);
    CHECK(p.cpus[2].chip == 1);
    CHECK(p.cpus[2].thread == 0);
    CHECK_ERROR_AT(parse_error(head + "  - { name: cpu0, clock: c, core: 0, threads: 1 }\n"
                                      "  - { name: cpu1, clock: c, core: 0, threads: 1 }\n"),
                   7, "cpus[1]: chip 0 core 0 already has its 1 thread(s)");
    CHECK_ERROR_AT(parse_error(head + "  - { name: cpu0, clock: c, core: 0, threads: 2 }\n"
                                      "  - { name: cpu1, clock: c, core: 0 }\n"),
                   7, "cpus[1].threads: expected 2 like the other threads of chip 0 core 0 (cpu0), found '4'");
    CHECK_ERROR_AT(parse_error(head + "  - { name: cpu0, clock: c, core: 0, threads: 8 }\n"), 6,
                   "cpus[0].threads: expected an integer in 1..4, found '8'");
    CHECK_ERROR_AT(parse_error(head + "  - { name: cpu0, clock: c }\n"), 6, "cpus[0]: missing required key 'core'");
    CHECK_ERROR_AT(parse_error(head + "  - { name: cpu0, clock: c, core: 0, cluster: 1 }\n"), 6,
                   "cluster is only for arch arm");
    CHECK_ERROR_AT(parse_error(head + "  - { name: cpu0, clock: c, core: 0, features: { amu: v1 } }\n"), 6,
                   "cpus[0].features.amu: expected none for arch power");
    CHECK_ERROR_AT(parse_error("name: p\narch: power\nfirmware:\n  profile: tf-a\n"), 4,
                   "firmware.profile: expected opal or none for arch power, found 'tf-a'");
    CHECK_ERROR_AT(parse_error("name: p\narch: arm\nfirmware: { profile: opal }\n"), 3,
                   "firmware.profile: expected tf-a or none for arch arm, found 'opal'");
    CHECK(parse_platform("name: p\narch: arm\nfirmware: { profile: none }\n", "t.yaml").firmware.profile ==
          firmware_profile::none);
}
