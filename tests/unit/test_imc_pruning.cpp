// IMC catalog pruning as skiboot and Linux do it (issue 18 item 6), through what `pmusim imc-dt`
// prints (imc_device_tree_text: the tree, and with --linux-events the sysfs events):
//  - skiboot hw/imc.c check_imc_device_type(): a unit whose `type` is missing, or is none of
//    IMC_COUNTER_CHIP 0x10, CORE 0x4, THREAD 0x1 (TRACE 0x2 on Nimbus DD2.2 and later), is
//    deleted from the tree (dt_free) rather than refusing the catalog;
//  - Linux arch/powerpc/platforms/powernv/opal-imc.c opal_imc_counters_probe(): "If core imc is
//    not registered, unregister thread-imc" (`!core_imc_reg && thread_imc_reg`).
// The catalog tests/platforms/imc-no-type.dts holds one unit of each kind.
#include <catch2/catch.hpp>

#include <string>

#include "imc/catalog.h"
#include "imc/imc.h"
#include "models/data_files.h"
#include "vp/platform_config.h"
#include "imc_device_tree_of.h"

using namespace pmusim;
using namespace pmusim::imc;

namespace {
std::string platform_path(const std::string& name) { return pmusim::source_dir() + "/tests/platforms/" + name; }
bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }
} // namespace

TEST_CASE("imc pruning: skiboot drops units of missing or unknown type instead of refusing the catalog") {
    const platform_config p = load_platform(platform_path("imc-no-type.yaml"));
    const std::string tree = imc_device_tree_of(p, "", false, std::nullopt);
    INFO(tree);
    CHECK(contains(tree, "mcs01@c8 {"));
    CHECK(contains(tree, "thread@18 {")); // skiboot keeps thread: it knows type 0x1
    CHECK_FALSE(contains(tree, "untyped@40"));
    CHECK_FALSE(contains(tree, "mystery@60"));
    // The catalog itself loads; the dropped units are not PMU units pmusim models.
    const catalog c = load_catalog_file(platform_path("imc-no-type.dts"));
    CHECK(c.find_unit("mcs01"));
    CHECK(c.find_unit("thread"));
    CHECK_FALSE(c.find_unit("untyped"));
    CHECK_FALSE(c.find_unit("mystery"));
}

TEST_CASE("imc pruning: Linux unregisters thread_imc when there is no core_imc") {
    const platform_config p = load_platform(platform_path("imc-no-type.yaml"));
    const std::string events = imc_device_tree_of(p, "", true, std::nullopt);
    INFO(events);
    CHECK(contains(events, "nest_mcs01_imc/PM_MCS01_64B_RD_DISP_PORT01 event=0xc8"));
    CHECK_FALSE(contains(events, "thread_imc/"));
    CHECK_FALSE(contains(events, "PM_UNTYPED_"));
    CHECK_FALSE(contains(events, "PM_MYSTERY_"));
    // With a core unit (the built-in catalog on power9-default) thread_imc stays.
    const std::string with_core = imc_device_tree_of(load_platform("power9-default"), "", true, std::nullopt);
    CHECK(contains(with_core, "core_imc/"));
    CHECK(contains(with_core, "thread_imc/"));
}
