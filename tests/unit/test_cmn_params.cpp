// `param cmn0.root_node_offset` and `param cmn0.periphbase` report the values the unit uses
// (issue 18 item 7), also when the platform leaves them to be derived: a client acting as DT or
// ACPI firmware passes them on (`arm,root-node`, the ARMHC600 root resource).
#include <catch2/catch.hpp>

#include <string>

#include "vp/platform.h"
#include "vp/platform_config.h"
#include "vp/unit_list.h"

using namespace pmusim;

TEST_CASE("cmn: param reports the root node offset and PERIPHBASE in use when the platform omits them") {
    register_all_units();
    // A 2x2 mesh with the HN-D on port 1 of XP (1,0) and no root_node_offset or periphbase.
    // ROOTNODEBASE - PERIPHBASE = X << (20 + bits) | Y << 20 | port << 14 with bits = 2 for a
    // mesh no wider or taller than 4 (SCP-firmware module/cmn600 get_root_node;
    // src/cmn600.h CMN600_ROOT_NODE_OFFSET_PORT_POS 14, _Y_POS 20): 1 << 22 | 0 << 20 | 1 << 14 = 0x404000.
    const std::string text = "name: t\narch: arm\nclocks:\n  - { name: m, frequency: 1GHz }\ncpus: []\n"
                             "units:\n  - name: cmn0\n    type: cmn600\n    base: 0x50000000\n    size: 64MiB\n"
                             "    clock: m\n    params:\n      mesh_x: 2\n      mesh_y: 2\n      nodes: |\n"
                             "        0,0 p0 rn-f\n        0,0 p1 hn-f\n        1,0 p0 sn-f\n        1,0 p1 hn-d\n";
    platform p(parse_platform(text, "t.yaml"));
    CHECK(p.param("cmn0.root_node_offset") == std::optional<std::string>("0x404000"));
    CHECK(p.param("units.cmn0.params.root_node_offset") == std::optional<std::string>("0x404000"));
    // The configuration space starts at the unit's base (docs/cmn.md: periphbase defaults to it).
    CHECK(p.param("cmn0.periphbase") == std::optional<std::string>("0x50000000"));
    // Parameters the unit does not derive answer as before.
    CHECK(p.param("cmn0.mesh_x") == std::optional<std::string>("2"));
}
