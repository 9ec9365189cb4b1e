// Unit tests for the IMC catalog (imc/device_tree, imc/catalog): the DTS reader's
// errors, Linux's event naming, values and scale/unit inheritance, skiboot's
// availability-vector pruning and the emitted imc-counters node.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "imc/catalog.h"
#include "models/input_error.h"

using namespace pmusim;
using namespace pmusim::imc;

namespace {

// skiboot's Mambo fixture (skiboot@ecebf4fb3d9c external/mambo/skiboot.tcl:638, imc-counters):
// a unit with unit "KiB/s" and scale "8", and events with and without their own.
const char* mambo_dts = R"(/dts-v1/;
/ {
	nest_mcs: nest-mcs-events {
		event@0 { event-name = "64B_RD_OR_WR_DISP_PORT01"; reg = <0>; unit = "MiB/s"; scale = "4"; };
		event@28 { event-name = "64B_WR_DISP_PORT01"; reg = <40>; unit = "MiB/s"; };
		event@40 { event-name = "64B_RD_DISP_PORT01"; reg = <64>; scale = "100"; };
		event@20 { event-name = "64B_XX_DISP_PORT01"; reg = <32>; };
	};
	mcs01 {
		compatible = "ibm,imc-counters";
		events-prefix = "PM_MCS01_";
		reg = <65536>;
		size = <262144>;
		offset = <1572864>;
		events = <&nest_mcs>;
		type = <16>;
		unit = "KiB/s";
		scale = "8";
	};
};
)";

const catalog_event& event(const catalog_unit& u, const std::string& name) {
    const catalog_event* e = u.find_event(name);
    REQUIRE(e);
    return *e;
}

} // namespace

TEST_CASE("imc catalog: scale and unit are inherited from the unit when an event has none") {
    catalog c = load_catalog(mambo_dts, "mambo.dts");
    REQUIRE(c.units.size() == 1);
    const catalog_unit& u = c.units[0];
    CHECK(u.pmu_name() == "nest_mcs01_imc");
    CHECK(u.domain == imc_domain::nest);
    // own unit and scale
    CHECK(event(u, "PM_MCS01_64B_RD_OR_WR_DISP_PORT01").value == 0x10000);
    CHECK(*event(u, "PM_MCS01_64B_RD_OR_WR_DISP_PORT01").unit == "MiB/s");
    CHECK(*event(u, "PM_MCS01_64B_RD_OR_WR_DISP_PORT01").scale == "4");
    CHECK_FALSE(event(u, "PM_MCS01_64B_RD_OR_WR_DISP_PORT01").scale_inherited);
    // own unit, inherited scale
    CHECK(event(u, "PM_MCS01_64B_WR_DISP_PORT01").value == 0x10000 + 40);
    CHECK(*event(u, "PM_MCS01_64B_WR_DISP_PORT01").unit == "MiB/s");
    CHECK(*event(u, "PM_MCS01_64B_WR_DISP_PORT01").scale == "8");
    CHECK(event(u, "PM_MCS01_64B_WR_DISP_PORT01").scale_inherited);
    // own scale, inherited unit
    CHECK(*event(u, "PM_MCS01_64B_RD_DISP_PORT01").scale == "100");
    CHECK(*event(u, "PM_MCS01_64B_RD_DISP_PORT01").unit == "KiB/s");
    CHECK(event(u, "PM_MCS01_64B_RD_DISP_PORT01").unit_inherited);
    // both inherited
    CHECK(*event(u, "PM_MCS01_64B_XX_DISP_PORT01").scale == "8");
    CHECK(*event(u, "PM_MCS01_64B_XX_DISP_PORT01").unit == "KiB/s");
    CHECK(event(u, "PM_MCS01_64B_XX_DISP_PORT01").value == 0x10020);
}

TEST_CASE("imc catalog: the built-in P9 DD2 subset gives the catalog's event values") {
    catalog c = load_catalog_file(builtin_catalog_path());
    const catalog_unit* mcs01 = c.find_unit("mcs01");
    REQUIRE(mcs01);
    CHECK(mcs01->pmu_name() == "nest_mcs01_imc");
    CHECK(event(*mcs01, "PM_MCS01_64B_RD_DISP_PORT01").value == 0xc8);
    CHECK(event(*mcs01, "PM_MCS01_128B_RD_DISP_PORT01").value == 0xd0);
    CHECK(event(*mcs01, "PM_MCS01_128B_WR_DISP_PORT23").value == 0xf8);
    CHECK(*event(*mcs01, "PM_MCS01_128B_WR_DISP_PORT23").scale == "256"); // inherited
    CHECK_FALSE(event(*mcs01, "PM_MCS01_128B_WR_DISP_PORT23").unit);     // no unit anywhere
    CHECK(event(*c.find_unit("mcs23"), "PM_MCS23_64B_RD_DISP_PORT01").value == 0x48);
    CHECK(event(*c.find_unit("powerbus0"), "PM_PB_CYC").value == 0x80);
    const catalog_unit* core = c.domain_unit(imc_domain::core);
    REQUIRE(core);
    CHECK(core->pmu_name() == "core_imc");
    CHECK(core->size == 0x2000);
    CHECK(event(*core, "CPM_0THRD_NON_IDLE_PCYC").value == 0xe0);
    CHECK(event(*core, "CPM_NON_IDLE_INST").value == 0x28);
    CHECK(event(*core, "CPM_CS_PCYC_KERNEL").value == 0x1818);
    CHECK(*event(*core, "CPM_PCYC").scale == "512");
    const catalog_unit* thread = c.domain_unit(imc_domain::thread);
    REQUIRE(thread);
    CHECK(thread->pmu_name() == "thread_imc");
    CHECK(event(*thread, "CPM_CS_PCYC_USER").value == 0x1018);
    CHECK(event(*thread, "CPM_CS_32MHZ_CYC_USER").value == 0x10e0);
    const catalog_unit* trace = c.domain_unit(imc_domain::trace);
    REQUIRE(trace);
    CHECK(trace->pmu_name() == "trace_imc");
    CHECK(event(*trace, "trace_cycles").value == 0x10200000);
    CHECK(event(*trace, "trace_cycles").desc == "Reference cycles");
}

TEST_CASE("imc catalog: malformed device-tree source names the file and line") {
    try {
        parse_dts("/dts-v1/;\n/ {\n\tnode {\n\t\tprop = 12;\n\t};\n};\n", "bad.dts");
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK(e.line() == 4);
        CHECK_THAT(e.message(), Catch::Contains("a string") && Catch::Contains("cells <...>"));
    }
    CHECK_THROWS_AS(parse_dts("/ { };", "x.dts"), input_error); // no /dts-v1/
    CHECK_THROWS_AS(parse_dts("/dts-v1/;\n/ { a = <1 2>; ", "x.dts"), input_error);
    CHECK_THROWS_AS(parse_dts("/dts-v1/;\n/ { a = <0x1_0000_0000>; };", "x.dts"), input_error);
    // A unit without `size` is an error in a catalog pmusim loads (Linux would not register it).
    const char* no_size = "/dts-v1/;\n/ {\n\tev: evs { e { event-name = \"X\"; reg = <0>; }; };\n"
                          "\tu@0 {\n\t\tcompatible = \"ibm,imc-counters\";\n\t\treg = <0>;\n\t\ttype = <0x4>;\n"
                          "\t\tevents-prefix = \"P_\";\n\t\tevents = <&ev>;\n\t};\n};\n";
    try {
        load_catalog(no_size, "no_size.dts");
        FAIL("no error");
    } catch (const input_error& e) {
        CHECK(e.line() == 4);
        CHECK_THAT(e.message(), Catch::Contains("`size`"));
    }
    dt_node root = parse_dts(no_size, "no_size.dts");
    CHECK(read_units(root, "no_size.dts", false).empty()); // Linux: imc_pmu_create fails
    // A unit without `type` is no error: skiboot deletes it (tests/unit/test_imc_pruning.cpp).
}

TEST_CASE("imc catalog: skiboot prunes nest units by the availability vector") {
    // IBM bit i = 1ULL << (63 - i). powerbus0 is bit 0, mcs0..7 bits 1..8.
    auto bit = [](unsigned i) { return 1ULL << (63 - i); };
    CHECK(nest_unit_kept("powerbus0", bit(0)));
    CHECK_FALSE(nest_unit_kept("powerbus0", bit(1)));
    CHECK(nest_unit_kept("mcs01", bit(1)));
    CHECK(nest_unit_kept("mcs01", bit(2)));
    CHECK_FALSE(nest_unit_kept("mcs01", bit(3)));
    CHECK(nest_unit_kept("mcs23", bit(4)));
    CHECK_FALSE(nest_unit_kept("mcs0", ~0ULL)); // debug-mode units always go
    CHECK(nest_unit_kept("phb0", bit(30)));
    CHECK(nest_unit_kept("nvlink5", bit(50)));
    CHECK(nest_units_p9().size() == 51);

    catalog c = load_catalog_file(builtin_catalog_path());
    std::vector<chip_homer> chips{{0, 0x10000000}, {1, 0x10400000}};
    // Only powerbus0 (bit 0) and mcs2 (bit 3, so mcs23) available.
    dt_node n = imc_counters_node(c, chips, bit(0) | bit(3), true, true);
    CHECK(n.name == "imc-counters");
    CHECK(*n.string_of("compatible") == "ibm,opal-in-memory-counters");
    CHECK(*n.cell_of("version-id") == 0x20);
    std::vector<std::string> names;
    for (const auto& ch : n.children) names.push_back(ch.name);
    auto has = [&](const std::string& x) { return std::find(names.begin(), names.end(), x) != names.end(); };
    CHECK(has("powerbus0@8"));
    CHECK(has("mcs23@48"));
    CHECK_FALSE(has("mcs01@c8"));
    CHECK_FALSE(has("mcs0@c8"));
    CHECK(has("core@18"));
    CHECK(has("thread@18"));
    CHECK(has("trace@0"));
    CHECK(has("nest-mcs-events"));
    for (const auto& ch : n.children)
        if (ch.name == "powerbus0@8") {
            const dt_property* base = ch.find("base-addr");
            REQUIRE(base);
            CHECK(base->cell_bits == 64);
            CHECK(base->cells == std::vector<uint64_t>{0x10000000, 0x10400000});
            CHECK(ch.find("chip-id")->cells == std::vector<uint64_t>{0, 1});
        }
    // Microcode not running: every nest unit goes. Trace unsupported (before DD2.2): trace goes.
    dt_node none = imc_counters_node(c, chips, ~0ULL, false, false);
    for (const auto& ch : none.children) {
        CHECK(ch.name != "powerbus0@8");
        CHECK(ch.name != "trace@0");
    }
}

TEST_CASE("imc catalog: Linux reads the emitted node into PMUs and sysfs events") {
    catalog c = load_catalog_file(builtin_catalog_path());
    dt_node n = imc_counters_node(c, {{0, 0x10000000}}, 1ULL << 63, true, true); // powerbus0 only
    dt_node root;
    root.name = "/";
    root.children.push_back(n);
    // Written and read back, as Linux gets it: the same events.
    std::string text = format_dts(root);
    dt_node reread = parse_dts(text, "emitted.dts");
    auto events = linux_events(reread.children.at(0), "emitted.dts");
    auto find = [&](const std::string& pmu, const std::string& name) -> const linux_event* {
        for (const auto& e : events)
            if (e.pmu == pmu && e.name == name) return &e;
        return nullptr;
    };
    REQUIRE(find("nest_powerbus0_imc", "PM_PB_CYC"));
    CHECK(find("nest_powerbus0_imc", "PM_PB_CYC")->value == 0x80);
    CHECK(*find("nest_powerbus0_imc", "PM_PB_CYC")->scale == "256");
    CHECK_FALSE(find("nest_mcs01_imc", "PM_MCS01_64B_RD_DISP_PORT01")); // pruned
    REQUIRE(find("core_imc", "CPM_NON_IDLE_INST"));
    CHECK(find("core_imc", "CPM_NON_IDLE_INST")->value == 0x28);
    REQUIRE(find("thread_imc", "CPM_CS_INST_USER"));
    REQUIRE(find("trace_imc", "trace_cycles"));
    CHECK_FALSE(find("trace_imc", "trace_cycles")->scale);

    // The device-tree compiler accepts what pmusim emits. A missing dtc is an install error, not a
    // pass (docs/reliability.md "What CI skips").
    if (std::system("command -v dtc >/dev/null 2>&1") != 0)
        FAIL("dtc not installed (scripts/install-deps.sh installs device-tree-compiler): cannot check the emitted tree");
    std::string path = "imc_emitted_test.dts";
    {
        std::ofstream f(path);
        f << text;
    }
    CHECK(std::system(("dtc -q -I dts -O dtb -o /dev/null " + path).c_str()) == 0);
    std::remove(path.c_str());
}

#include "imc/imc.h"
#include "vp/platform_config.h"
#include "imc_device_tree_of.h"
#include "vp/unit_list.h"
#include "models/data_files.h"

TEST_CASE("imc catalog: boot on power9-default publishes every PMU and event with its scale") {
    register_all_units();
    // Event values are the catalog's unit reg + event reg (imc/catalog/power9_dd2.dts);
    // the scale is the unit's (256 nest, 512 core/thread), inherited by every event;
    // no unit anywhere; trace has no scale. Default availability 0xFFFF8073F007E000 has
    // IBM bits 0..16, 25..27, 30..35, 45..50: powerbus0, mcs01, mcs23, mba0 (bit 9),
    // xlink0 (bit 25) and phb0 (bit 30) all kept.
    const char* expected =
        "nest_powerbus0_imc/PM_PB_CYC event=0x80 scale=256\n"
        "nest_powerbus0_imc/PM_PB_INT_DATA_XFER event=0xa8 scale=256\n"
        "nest_powerbus0_imc/PM_PB_EXT_DATA_XFER event=0xb0 scale=256\n"
        "nest_mcs23_imc/PM_MCS23_64B_RD_DISP_PORT01 event=0x48 scale=256\n"
        "nest_mcs23_imc/PM_MCS23_128B_RD_DISP_PORT01 event=0x50 scale=256\n"
        "nest_mcs23_imc/PM_MCS23_128B_WR_DISP_PORT01 event=0x58 scale=256\n"
        "nest_mcs23_imc/PM_MCS23_AMO_OP_DISP_PORT01 event=0x60 scale=256\n"
        "nest_mcs23_imc/PM_MCS23_64B_RD_DISP_PORT23 event=0x68 scale=256\n"
        "nest_mcs23_imc/PM_MCS23_128B_RD_DISP_PORT23 event=0x70 scale=256\n"
        "nest_mcs23_imc/PM_MCS23_128B_WR_DISP_PORT23 event=0x78 scale=256\n"
        "nest_mcs01_imc/PM_MCS01_64B_RD_DISP_PORT01 event=0xc8 scale=256\n"
        "nest_mcs01_imc/PM_MCS01_128B_RD_DISP_PORT01 event=0xd0 scale=256\n"
        "nest_mcs01_imc/PM_MCS01_128B_WR_DISP_PORT01 event=0xd8 scale=256\n"
        "nest_mcs01_imc/PM_MCS01_AMO_OP_DISP_PORT01 event=0xe0 scale=256\n"
        "nest_mcs01_imc/PM_MCS01_64B_RD_DISP_PORT23 event=0xe8 scale=256\n"
        "nest_mcs01_imc/PM_MCS01_128B_RD_DISP_PORT23 event=0xf0 scale=256\n"
        "nest_mcs01_imc/PM_MCS01_128B_WR_DISP_PORT23 event=0xf8 scale=256\n"
        "nest_xlink0_imc/PM_XLINK0_OUT_EVEN_CYC event=0x118 scale=4096\n"
        "nest_xlink0_imc/PM_XLINK0_OUT_EVEN_DATA_COUNT event=0x128 scale=4096\n"
        "nest_xlink0_imc/PM_XLINK0_OUT_ODD_CYC event=0x138 scale=4096\n"
        "nest_xlink0_imc/PM_XLINK0_OUT_ODD_DATA_COUNT event=0x148 scale=4096\n"
        "nest_phb0_imc/PM_PHB0_CYC event=0x338 scale=1\n"
        "nest_phb0_imc/PM_PHB0_DMA_RD_FROM_PCIE event=0x340 scale=1\n"
        "nest_phb0_imc/PM_PHB0_DMA_WR_FROM_PCIE event=0x348 scale=1\n"
        "nest_phb0_imc/PM_PHB0_LD_RESP_FROM_PCIE event=0x350 scale=1\n"
        "nest_mba0_imc/PM_MBA0_READ_BYTES event=0x448 scale=1\n"
        "nest_mba0_imc/PM_MBA0_WRITE_BYTES event=0x450 scale=1\n"
        "nest_mba0_imc/PM_MBA0_CLK_CYC event=0x458 scale=1\n"
        "core_imc/CPM_PCYC event=0x18 scale=512\n"
        "core_imc/CPM_INST event=0x20 scale=512\n"
        "core_imc/CPM_NON_IDLE_INST event=0x28 scale=512\n"
        "core_imc/CPM_NON_IDLE_PCYC event=0x30 scale=512\n"
        "core_imc/CPM_CCYC event=0x98 scale=512\n"
        "core_imc/CPM_32MHZ_CYC event=0xa0 scale=512\n"
        "core_imc/CPM_0THRD_NON_IDLE_PCYC event=0xe0 scale=512\n"
        "core_imc/CPM_1THRD_NON_IDLE_INST event=0x118 scale=512\n"
        "core_imc/CPM_CS_PCYC event=0x818 scale=512\n"
        "core_imc/CPM_CS_PCYC_USER event=0x1018 scale=512\n"
        "core_imc/CPM_CS_PCYC_KERNEL event=0x1818 scale=512\n"
        "thread_imc/CPM_MSR_TA_USER_INST event=0x798 scale=512\n"
        "thread_imc/CPM_MSR_TA_USER_PCYC event=0x7a0 scale=512\n"
        "thread_imc/CPM_CS_PCYC_USER event=0x1018 scale=512\n"
        "thread_imc/CPM_CS_INST_USER event=0x1020 scale=512\n"
        "thread_imc/CPM_CS_32MHZ_CYC_USER event=0x10e0 scale=512\n"
        "trace_imc/trace_cycles event=0x10200000\n";
    CHECK(imc_device_tree_of(load_platform("power9-default"), "", true, std::nullopt) == expected);

    // An availability vector with only mcs2 (IBM bit 3): powerbus0, mcs01, xlink0, phb0 and
    // mba0 are pruned.
    std::string pruned = imc_device_tree_of(load_platform("power9-default"), "imc0", true, 1ULL << 60);
    CHECK_THAT(pruned, Catch::Contains("nest_mcs23_imc/PM_MCS23_64B_RD_DISP_PORT01 event=0x48 scale=256"));
    CHECK_THAT(pruned, !Catch::Contains("nest_powerbus0_imc"));
    CHECK_THAT(pruned, !Catch::Contains("nest_mcs01_imc"));
    CHECK_THAT(pruned, !Catch::Contains("nest_phb0_imc"));
    CHECK_THAT(pruned, !Catch::Contains("nest_mba0_imc"));
    CHECK_THAT(pruned, Catch::Contains("core_imc/CPM_PCYC"));

    // The DTS form carries base-addr and chip-id for the nest units.
    std::string dts = imc_device_tree_of(load_platform("power9-default"), "", false, std::nullopt);
    CHECK_THAT(dts, Catch::Contains("compatible = \"ibm,opal-in-memory-counters\";"));
    CHECK_THAT(dts, Catch::Contains("base-addr = /bits/ 64 <0x10000000>;"));
    CHECK_THAT(dts, Catch::Contains("chip-id = <0x0>;"));
    CHECK_THAT(dts, !Catch::Contains("mcs0@c8")); // debug-mode unit removed
}

TEST_CASE("imc catalog: boot with the Mambo catalog shows every inheritance case") {
    register_all_units();
    // tests/platforms/imc-mambo.dts: mcs01 reg 65536 (0x10000), unit KiB/s, scale 8.
    const char* expected =
        "nest_mcs01_imc/PM_MCS01_64B_RD_OR_WR_DISP_PORT01 event=0x10000 scale=4 unit=MiB/s\n" // both its own
        "nest_mcs01_imc/PM_MCS01_64B_WR_DISP_PORT01 event=0x10028 scale=8 unit=MiB/s\n"       // scale inherited
        "nest_mcs01_imc/PM_MCS01_64B_RD_DISP_PORT01 event=0x10040 scale=100 unit=KiB/s\n"     // unit inherited
        "nest_mcs01_imc/PM_MCS01_64B_XX_DISP_PORT01 event=0x10020 scale=8 unit=KiB/s\n"       // both inherited
        "core_imc/CPM_0THRD_NON_IDLE_PCYC event=0xe0 scale=512\n"                             // 24 + 200
        "thread_imc/CPM_0THRD_NON_IDLE_PCYC event=0xe0 scale=512\n"
        "trace_imc/trace_cycles event=0x10200000\n";
    CHECK(imc_device_tree_of(load_platform(pmusim::source_dir() + "/tests/platforms/imc-mambo.yaml"), "", true, std::nullopt) == expected);
}

TEST_CASE("imc catalog: before DD2.2 skiboot removes the trace unit") {
    register_all_units();
    std::string text =
        imc_device_tree_of(load_platform(pmusim::source_dir() + "/tests/platforms/imc-dd21.yaml"), "",
                             true, std::nullopt);
    CHECK_THAT(text, !Catch::Contains("trace_imc"));
    CHECK_THAT(text, Catch::Contains("core_imc/CPM_PCYC event=0x18 scale=512"));
    CHECK_THAT(text, Catch::Contains("thread_imc/CPM_CS_INST_USER event=0x1020 scale=512"));
    CHECK(trace_supported_on(2, 2));
    CHECK(trace_supported_on(2, 3));
    CHECK_FALSE(trace_supported_on(2, 1));
    CHECK_FALSE(trace_supported_on(2, 0));
}
