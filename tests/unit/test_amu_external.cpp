// AMU external view (FEAT_AMU_EXT32 / EXT64 frames) and TF-A's power-transition
// save/restore through the sequence runner. Expected offsets are those of DDI0487
// M.a.a Tables I5-161/162/163; expected counts are computed by hand in comments.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <tlm_utils/simple_initiator_socket.h>

#include "amu/amu.h"
#include "vp/platform.h"
#include "vp/platform_config.h"
#include "tb/sequence_runner.h"
#include "vp/unit_list.h"
#include "tests/unit/tlm_test_access.h"
#include "models/data_files.h"

using namespace pmusim;

namespace {

const std::string source_tree = pmusim::source_dir();
const std::string ext_platform = source_tree + "/tests/platforms/amu-ext.yaml";
constexpr fs_t ns = 1'000'000, us = 1000 * ns;
constexpr uint64_t frame0 = 0x2B000000, frame2 = 0x2B020000; // amu-ext.yaml: cpuN at base + N * 0x10000

// cpu0 AMUv1p1 with 2 aux counters and a frame; cpu1 AMUv1 without a frame; EXT32 layout.
std::string ext32_yaml(const std::string& units_tail = "    params: { format: ext32, frame_stride: 0x2000 }\n",
                       const std::string& cpu0_view = "true", const std::string& cpu1_view = "false") {
    return "name: ext32\narch: arm\nclocks:\n  - { name: const, frequency: 100MHz }\n"
           "  - { name: c, frequency: 1GHz }\n"
           "cpus:\n"
           "  - { name: cpu0, clock: c, cluster: 3, features: { amu: v1p1, amu_aux_counters: 2, amu_external_view: " +
           cpu0_view +
           " } }\n"
           "  - { name: cpu1, clock: c, cluster: 3, features: { amu: v1, amu_external_view: " + cpu1_view +
           " } }\n"
           "firmware: { profile: tf-a }\n"
           "units:\n"
           "  - name: amu\n    type: amu\n    base: 0x40000000\n    size: 0x4000\n" +
           units_tail;
}

struct bus_initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<bus_initiator> out{"out"};
    explicit bus_initiator(const sc_core::sc_module_name& n, platform& p) : sc_module(n) {
        out.bind(p.gate().from_initiators);
    }
    testing::tlm_access_result mmio(bool write, uint64_t address, unsigned len, uint64_t value = 0) {
        access_context ctx;
        ctx.initiator = initiator_kind::debugger;
        ctx.path = access_path::memory_mapped;
        return testing::tlm_access(*out.operator->(), write, address, len, value, ctx);
    }
    uint64_t read(uint64_t address, unsigned len) {
        auto r = mmio(false, address, len);
        REQUIRE(r.status == tlm::TLM_OK_RESPONSE);
        return r.value;
    }
    uint64_t sysreg_el3(unsigned cpu, platform& p, const std::string& reg, bool write = false, uint64_t v = 0) {
        auto rr = p.resolve_register(reg, cpu);
        REQUIRE(rr);
        access_context ctx = testing::sysreg_context(cpu, 3, true);
        auto r = testing::tlm_access(*out.operator->(), write, rr->key, 8, v, ctx);
        REQUIRE(r.status == tlm::TLM_OK_RESPONSE);
        return r.value;
    }
};

void advance(fs_t d) { sc_core::sc_start(to_sc_time(d)); }

amu_unit& amu_of(platform& p) {
    auto* u = dynamic_cast<amu_unit*>(p.find_unit("amu"));
    REQUIRE(u);
    return *u;
}

std::string build_error(const std::string& yaml) {
    register_all_units();
    try {
        platform p(parse_platform(yaml, "inline.yaml"));
    } catch (const input_error& e) {
        return e.what();
    }
    FAIL("expected an input_error for:\n" << yaml);
    return "";
}

// Offsets of a table by register name.
std::map<std::string, uint64_t> offsets(const register_table& t) {
    std::map<std::string, uint64_t> out;
    for (const auto& r : t.registers) {
        REQUIRE(r.offset);
        CHECK_FALSE(r.sysreg);
        out[r.name] = *r.offset;
    }
    return out;
}

// The JSON lines of a run of `text` on `platform_path` (the runner's --log-json).
std::vector<nlohmann::json> run_logged(const std::string& platform_path, const std::string& text,
                                       const std::string& log_name, int& status) {
    register_all_units();
    platform p(load_platform(platform_path));
    run_recorder rec;
    auto path = std::filesystem::temp_directory_path() / log_name;
    std::ofstream json_log(path);
    rec.json = &json_log;
    sequence_runner runner("runner", p, rec);
    runner.load(seq::parse_sequence(text, "test.seq"));
    sc_core::sc_start();
    status = runner.exit_status();
    INFO(runner.error_message());
    json_log.close();
    rec.json = nullptr;
    std::vector<nlohmann::json> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    std::filesystem::remove(path);
    return out;
}

} // namespace

TEST_CASE("amu external: tables place every register at its ARMARM offset") {
    // Table I5-162 (EXT64) and I5-163 (identification, both layouts).
    auto x64 = offsets(amu_external_table(amu_ext_format::ext64));
    CHECK(x64.at("AMEVCNTR00") == 0x000);
    CHECK(x64.at("AMEVCNTR03") == 0x018);
    CHECK(x64.at("AMEVCNTR10") == 0x100);
    CHECK(x64.at("AMEVCNTR115") == 0x178);
    CHECK(x64.at("AMEVTYPER00") == 0x400);
    CHECK(x64.at("AMEVTYPER03") == 0x418);
    CHECK(x64.at("AMEVTYPER10") == 0x500);
    CHECK(x64.at("AMEVTYPER115") == 0x578);
    CHECK(x64.at("AMCNTENSET") == 0xC00);
    CHECK(x64.at("AMCNTEN") == 0xC10);
    CHECK(x64.at("AMCNTENCLR") == 0xC20);
    CHECK(x64.at("AMCGCR") == 0xCE0);
    CHECK(x64.at("AMCFGR") == 0xE00);
    CHECK(x64.at("AMIIDR") == 0xE08);
    CHECK(x64.at("AMCR") == 0xE10);
    CHECK(x64.at("AMDEVAFF") == 0xFA8);
    CHECK(x64.at("AMDEVARCH") == 0xFBC);
    CHECK(x64.at("AMDEVTYPE") == 0xFCC);
    CHECK(x64.at("AMPIDR4") == 0xFD0);
    CHECK(x64.at("AMPIDR0") == 0xFE0);
    CHECK(x64.at("AMPIDR3") == 0xFEC);
    CHECK(x64.at("AMCIDR0") == 0xFF0);
    CHECK(x64.at("AMCIDR3") == 0xFFC);
    // counters and types, 3 enable views, AMCGCR AMCFGR AMIIDR AMCR, AMDEVAFF/ARCH/TYPE, 5 PIDR, 4 CIDR
    CHECK(x64.size() == 4 + 16 + 4 + 16 + 3 + 4 + 3 + 5 + 4);
    // Table I5-161 (EXT32): 32-bit type and configuration registers, split enables, AMCR at 0xE04.
    auto x32 = offsets(amu_external_table(amu_ext_format::ext32));
    CHECK(x32.at("AMEVCNTR02") == 0x010);
    CHECK(x32.at("AMEVCNTR11") == 0x108);
    CHECK(x32.at("AMEVTYPER01") == 0x404);
    CHECK(x32.at("AMEVTYPER10") == 0x480);
    CHECK(x32.at("AMEVTYPER115") == 0x4BC);
    CHECK(x32.at("AMCNTENSET0") == 0xC00);
    CHECK(x32.at("AMCNTENSET1") == 0xC04);
    CHECK(x32.at("AMCNTENCLR0") == 0xC20);
    CHECK(x32.at("AMCNTENCLR1") == 0xC24);
    CHECK(x32.at("AMCGCR") == 0xCE0);
    CHECK(x32.at("AMCR") == 0xE04);
    CHECK(x32.at("AMIIDR") == 0xE08);
    CHECK(x32.at("AMDEVAFF0") == 0xFA8);
    CHECK(x32.at("AMDEVAFF1") == 0xFAC);
    CHECK(x32.count("AMCNTEN") == 0);
    for (const auto& r : amu_external_table(amu_ext_format::ext32).registers)
        CHECK(r.width == (r.name.rfind("AMEVCNTR", 0) == 0 ? 64u : 32u));
    // AMDEVARCH: ARCHITECT 0x23B << 21 | PRESENT << 20 | ARCHID.
    CHECK(amu_external_table(amu_ext_format::ext32).find("AMDEVARCH")->reset == 0x47700A66);
    CHECK(amu_external_table(amu_ext_format::ext64).find("AMDEVARCH")->reset == 0x47700A67);
}

TEST_CASE("amu external: EXT64 frame and system registers read the same state at the same instant") {
    register_all_units();
    platform p(load_platform(ext_platform));
    bus_initiator in("in", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    amu_unit& amu = amu_of(p);
    CHECK(amu.has_frame(0));
    CHECK_FALSE(amu.has_frame(1));
    CHECK(amu.has_frame(2));
    // No firmware boot here: enable by EL3 writes as TF-A would.
    in.sysreg_el3(0, p, "AMCNTENSET0_EL0", true, 0xf);
    in.sysreg_el3(0, p, "AMCNTENSET1_EL0", true, 0x5);
    p.system().core(0).set_workload({{"inst", rational(3, 2)}, {"mem_stall", rational(1, 10)}}, now_fs());
    advance(1 * us); // cpu0 at 2 GHz: 2000 cycles, 3000 instructions, 200 stalls; const 100 MHz: 100
    CHECK(in.read(frame0 + 0x00, 8) == 2000);
    CHECK(in.read(frame0 + 0x08, 8) == 100);
    CHECK(in.read(frame0 + 0x10, 8) == 3000);
    CHECK(in.read(frame0 + 0x18, 8) == 200);
    CHECK(in.sysreg_el3(0, p, "AMEVCNTR00_EL0") == 2000);
    CHECK(in.read(frame0 + 0xC00, 8) == 0x5'0000'000F);
    // A 64-bit counter above 2^32 through its two words.
    in.sysreg_el3(0, p, "AMCNTENCLR0_EL0", true, 0x1);
    in.sysreg_el3(0, p, "AMEVCNTR00_EL0", true, 0x1'2345'6789);
    CHECK(in.read(frame0 + 0x000, 4) == 0x2345'6789);
    CHECK(in.read(frame0 + 0x004, 4) == 0x1);
    CHECK(in.read(frame0 + 0x000, 8) == 0x1'2345'6789);
    // CG1RZ only hides group 1 from the system-register view below EL3.
    in.sysreg_el3(0, p, "AMCR_EL0", true, 0x20000);
    std::string err;
    REQUIRE(amu.inject("cpu0", "aux2", 77, 0, err));
    CHECK(in.read(frame0 + 0x110, 8) == 77);
    CHECK(in.read(frame0 + 0x108, 8) == 0); // aux1 is not enabled (0x5)
    CHECK(in.read(frame0 + 0x118, 8) == 0); // aux3 does not exist: RAZ
    CHECK(in.read(frame0 + 0xE10, 8) == 0x20000);
    CHECK(in.read(frame0 + 0x510, 8) == 0x302);
    CHECK(in.read(frame0 + 0x518, 8) == 0);
}

TEST_CASE("amu external: EXT32 layout and identification follow the parameters") {
    register_all_units();
    platform p(parse_platform(ext32_yaml("    params: { format: ext32, frame_stride: 0x2000, amiidr: 0x4C20_243B }\n"),
                              "inline.yaml"));
    bus_initiator in("in", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    const uint64_t f = 0x40000000;
    in.sysreg_el3(0, p, "AMCNTENSET0_EL0", true, 0x3);
    in.sysreg_el3(0, p, "AMCNTENSET1_EL0", true, 0x2);
    advance(1 * us); // 1 GHz: 1000 cycles
    CHECK(in.read(f + 0x000, 4) == 1000);
    CHECK(in.read(f + 0x008, 4) == 100);
    CHECK(in.read(f + 0x010, 4) == 0); // counter 2 not enabled
    CHECK(in.read(f + 0x40C, 4) == 0x4005);
    CHECK(in.read(f + 0x484, 4) == 0x301);
    CHECK(in.read(f + 0x488, 4) == 0); // aux2 does not exist
    CHECK(in.read(f + 0xC00, 4) == 0x3);
    CHECK(in.read(f + 0xC04, 4) == 0x2);
    CHECK(in.read(f + 0xC20, 4) == 0x3);
    CHECK(in.read(f + 0xC24, 4) == 0x2);
    CHECK(in.read(f + 0xCE0, 4) == 0x204);       // CG1NC=2 CG0NC=4
    CHECK(in.read(f + 0xE00, 4) == 0x1100'3F05); // NCG=1 HDBG=1 SIZE=63 N=3+2
    CHECK(in.read(f + 0xE04, 4) == 0);           // AMCR
    // amiidr 0x4C20243B: ProductID 0x4C2, Variant 0, Revision 2, Implementer 0x43B.
    CHECK(in.read(f + 0xE08, 4) == 0x4C20'243B);
    CHECK(in.read(f + 0xFE0, 4) == 0xC2);        // PART_0 = ProductID[7:0]
    CHECK(in.read(f + 0xFE4, 4) == 0xB4);        // DES_0 = 0xB, PART_1 = 4
    CHECK(in.read(f + 0xFE8, 4) == 0x0B);        // REVISION = Variant 0, JEDEC, DES_1 = 3
    CHECK(in.read(f + 0xFEC, 4) == 0x20);        // REVAND = Revision 2
    CHECK(in.read(f + 0xFD0, 4) == 0x04);        // DES_2 = 4
    CHECK(in.read(f + 0xFBC, 4) == 0x4770'0A66); // EXT32 ARCHID
    CHECK(in.read(f + 0xFA8, 4) == 0x8103'0000); // cluster 3, first core
    CHECK(in.read(f + 0xFAC, 4) == 0);
    // 64-bit accesses: fine on a 64-bit counter, refused across 32-bit registers.
    CHECK(in.read(f + 0x000, 8) == 1000);
    auto r = in.mmio(false, f + 0xC00, 8);
    CHECK(r.status == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK_THAT(r.detail, Catch::Contains("64-bit access to the 32-bit register AMCNTENSET0"));
    // cpu1 has an AMU but no external view: its slot is an address error naming why.
    r = in.mmio(false, f + 0x2000, 4);
    CHECK(r.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK_THAT(r.detail, Catch::Contains("cpu1 has no features.amu_external_view"));
    r = in.mmio(false, f + 0x1000, 4);
    CHECK(r.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK_THAT(r.detail, Catch::Contains("in no CPU's 4 KB AMU frame"));
}

TEST_CASE("amu external: writes are ignored and unsupported accesses refused") {
    register_all_units();
    platform p(load_platform(ext_platform));
    bus_initiator in("in", p);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    in.sysreg_el3(2, p, "AMCNTENSET0_EL0", true, 0x1);
    advance(1 * us); // cpu2 at 1 GHz: 1000
    for (unsigned len : {4u, 8u}) {
        auto w = in.mmio(true, frame2 + 0x000, len, 5);
        CHECK(w.status == tlm::TLM_OK_RESPONSE);
        CHECK(w.outcome == access_outcome::ignored);
        CHECK_THAT(w.detail, Catch::Contains("AMEVCNTR00 is read-only"));
    }
    CHECK(in.mmio(true, frame2 + 0xC00, 8, 0xf).outcome == access_outcome::ignored);
    CHECK(in.mmio(true, frame2 + 0x800, 4, 1).outcome == access_outcome::ignored);
    CHECK(in.read(frame2 + 0x000, 8) == 1000);
    CHECK(in.read(frame2 + 0xC00, 8) == 0x1);
    CHECK(in.read(frame2 + 0x800, 8) == 0); // reserved: RAZ
    for (auto [offset, len] : std::vector<std::pair<uint64_t, unsigned>>{{0x0, 1}, {0x0, 2}, {0x2, 4}, {0x4, 8}, {0x0, 16}}) {
        auto r = in.mmio(false, frame2 + offset, len);
        INFO("offset " << offset << " len " << len);
        CHECK(r.status == tlm::TLM_GENERIC_ERROR_RESPONSE);
        CHECK(r.outcome == access_outcome::error);
        CHECK_THAT(r.detail, Catch::Contains("cpu2 AMU frame"));
    }
    auto r = in.mmio(false, 0x2B010000, 8);
    CHECK(r.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK_THAT(r.detail, Catch::Contains("cpu1 has no AMU"));
    // Powered off: the frame reads as zero, without an error (core power domain).
    p.system().core(2).set_power(power_state::off, now_fs());
    r = in.mmio(false, frame2 + 0xFBC, 4);
    CHECK(r.status == tlm::TLM_OK_RESPONSE);
    CHECK(r.value == 0);
    p.system().core(2).set_power(power_state::run, now_fs());
    CHECK(in.read(frame2 + 0xFBC, 4) == 0x47700A67);
}

TEST_CASE("amu external: platform mistakes are reported with file and line") {
    const std::string good = ext32_yaml();
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string y = good;
        auto at = y.find(from);
        REQUIRE(at != std::string::npos);
        return y.replace(at, from.size(), to);
    };
    CHECK_THAT(build_error(ext32_yaml("    params: { format: ext32, frame_stride: 0x1800 }\n")),
               Catch::Contains("inline.yaml:15: units[0].params.frame_stride: expected a multiple of 0x1000 (each frame is 4 KB aligned), found 0x1800"));
    CHECK_THAT(build_error(ext32_yaml("    params: { frame_stride: 0x4000 }\n", "true", "true")),
               Catch::Contains("inline.yaml:14: units[0].size: the frame of cpu1 ends at base + 0x5000, past the "
                               "window's size 0x4000"));
    CHECK_THAT(build_error(ext32_yaml("    params: { amiidr: 0xBB }\n")), Catch::Contains("inline.yaml:15:") &&
                                                                           Catch::Contains("bit 7"));
    CHECK_THAT(build_error(ext32_yaml("    clock: c\n")),
               Catch::Contains("inline.yaml:15: units[0].clock: an amu unit takes no 'clock'"));
    CHECK_THAT(build_error(ext32_yaml("", "false")),
               Catch::Contains("inline.yaml:11: units[0] (amu): no CPU has features.amu_external_view: true"));
    CHECK_THAT(build_error(replaced("base: 0x40000000", "base: 0x40000800")),
               Catch::Contains("inline.yaml:13: units[0].base: expected a 4 KB aligned address"));
    CHECK_THAT(build_error(replaced("    base: 0x40000000\n    size: 0x4000\n", "")),
               Catch::Contains("inline.yaml:11: units[0] (amu): an amu unit describes the AMU's external view: it needs base and size"));
    CHECK_THAT(build_error(replaced("name: amu\n", "name: amu0\n")),
               Catch::Contains("inline.yaml:11: units[0].name: expected 'amu'"));
    CHECK_THAT(build_error(good.substr(0, good.find("units:"))),
               Catch::Contains("inline.yaml:7: cpus[0].features.amu_external_view: the external view needs its frame "
                               "addresses"));
}

TEST_CASE("amu power: TF-A save and restore are EL3 accesses in the access log") {
    int status = -1;
    auto log = run_logged(ext_platform,
                          "as cpu2 el1\n"
                          "run 1000 cycles of cpu2\n" // 1 us at 1 GHz: 1000 cycles, 100 constant, 1000 inst
                          "power cpu2 off\n"
                          "run 1us\n"
                          "power cpu2 run\n"
                          "read AMEVCNTR00_EL0 == 1000\n"
                          "read AMEVCNTR01_EL0 == 100\n"
                          "run 1000 cycles of cpu2\n"
                          "read AMEVCNTR00_EL0 == 2000\n",
                          "pmusim_amu_power_tfa.jsonl", status);
    CHECK(status == exit_ok);
    std::vector<std::string> down, up;
    for (const auto& j : log) {
        if (!j.contains("file")) continue;
        const std::string file = j["file"];
        std::string what = std::string(j["op"]) + " " + std::string(j["target"]) +
                           (j.contains("value") ? " " + std::string(j["value"]) : "");
        if (file == "firmware:tf-a:cpu2:power-down") {
            CHECK(j["context"] == "cpu2 EL3 S");
            CHECK(j["time"] == "1 us");
            CHECK(j["outcome"] == "ok");
            down.push_back(what);
        } else if (file == "firmware:tf-a:cpu2:power-up") {
            CHECK(j["context"] == "cpu2 EL3 S");
            CHECK(j["time"] == "2 us");
            CHECK(j["outcome"] == "ok");
            up.push_back(what);
        }
    }
    // cpu2 is AMUv1 without auxiliary counters: no AMCNTENCLR1, no AMCR.
    CHECK(down == std::vector<std::string>{"write AMCNTENCLR0_EL0 0xf", "read AMEVCNTR00_EL0 0x3e8",
                                           "read AMEVCNTR01_EL0 0x64", "read AMEVCNTR02_EL0 0x3e8",
                                           "read AMEVCNTR03_EL0 0x0"});
    CHECK(up == std::vector<std::string>{"write AMEVCNTR00_EL0 0x3e8", "write AMEVCNTR01_EL0 0x64",
                                         "write AMEVCNTR02_EL0 0x3e8", "write AMEVCNTR03_EL0 0x0",
                                         "write AMCNTENSET0_EL0 0x3", "write AMCNTENSET0_EL0 0xf"});
}

TEST_CASE("amu power: without firmware support power-off loses the counts and logs no firmware access") {
    int status = -1;
    auto log = run_logged(source_tree + "/tests/platforms/amu-nofw.yaml",
                          "as cpu0 el3\n"
                          "write AMCNTENSET0_EL0 0xf\n" // enabled by hand: profile none enables nothing
                          "run 2000 cycles of cpu0\n"   // 1 us at 2 GHz
                          "read AMEVCNTR00_EL0 == 2000\n"
                          "power cpu0 off\n"
                          "power cpu0 run\n"
                          "read AMEVCNTR00_EL0 == 0\n"
                          "read AMCNTENSET0_EL0 == 0\n"
                          "run 2000 cycles of cpu0\n"
                          "read AMEVCNTR00_EL0 == 0\n",
                          "pmusim_amu_power_none.jsonl", status);
    CHECK(status == exit_ok);
    unsigned user = 0;
    for (const auto& j : log) {
        if (!j.contains("file")) continue;
        const std::string file = j["file"];
        CHECK(file.rfind("firmware:", 0) != 0);
        ++user;
    }
    CHECK(user == 5); // the sequence's own accesses only: one write, four reads
}
