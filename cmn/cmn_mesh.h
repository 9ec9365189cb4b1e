#pragma once
// The CMN-600 mesh as a platform describes it: X by Y crosspoints (XPs), two
// device ports per XP, the devices on each port and the configuration-space
// nodes they bring (docs/cmn.md "The mesh"). Pure C++ (no SystemC), so the
// layout, node IDs and addresses can be checked on their own.
//
// Node IDs follow the CMN-600 encoding: bits = 3 if mesh_x or mesh_y > 4, else 2;
// node_id = X << (3 + bits) | Y << 3 | port << 2 | device.
// Node addresses (offsets from PERIPHBASE) follow the address-map convention
// SCP-firmware relies on: X << (20 + bits) | Y << 20 for the XP's 1 MB window,
// the XP's own registers at +0x8000, a port's device nodes at port << 14 plus a
// 64 KB slot (slot << 16) per node; the CFG node of the HN-D is slot 0 of its
// port, so ROOTNODEBASE = X << (20 + bits) | Y << 20 | port << 14.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/input_error.h"

namespace pmusim {

// node_info.node_type values (Linux drivers/perf/arm-cmn.c@v6.1 enum cmn_node_type;
// cmn-tools src/cmn_enum.py@34baf88 CMN_NODE_*).
enum class cmn_node_type : uint16_t {
    dvm = 0x1,
    cfg = 0x2,
    dtc = 0x3,
    hni = 0x4,
    hnf = 0x5,
    xp = 0x6,
    sbsx = 0x7,
    rni = 0xA,
    rnd = 0xD,
    rnsam = 0xF,
    cxra = 0x100,
    cxha = 0x101,
    cxla = 0x102,
};
const char* to_string(cmn_node_type t); // "HN-F", "XP", ...
// Short name prefix of nodes of a type: "hnf", "xp", "dn", ...
const char* node_prefix(cmn_node_type t);
// Node types whose pmu_event_sel feeds the DTM (Linux: "these guys have PMU events").
bool has_pmu_events(cmn_node_type t);

// What a device port connects to: por_mxp_device_port_connect_info_pN.device_type
// (field [4:0]: cmn-tools data/regdefs/cmn600.regdefs@34baf88; values: Linux drivers/perf/arm-cmn.c@v6.1
// arm_cmn_device_type and cmn-tools src/cmn_enum.py CMN_PORT_DEVTYPE_*; CMN-600 subset).
enum class cmn_port_kind : uint8_t {
    none = 0x00,
    rni = 0x01,
    rnd = 0x02,
    rnf = 0x04, // RN-F_B (CHI-B)
    hni = 0x09,
    hnd = 0x0A,
    snf = 0x0C,
    sbsx = 0x0D,
    hnf = 0x0E,
    cxg = 0x12, // CCIX gateway (CXRA, CXHA, CXLA)
};
const char* port_kind_name(cmn_port_kind k); // the platform word: "rn-f", "hn-d", ...

struct cmn_node {
    cmn_node_type type;
    uint16_t node_id = 0;
    uint16_t logical_id = 0;
    uint32_t offset = 0;       // from PERIPHBASE (for external children: the child pointer's node pointer)
    unsigned x = 0, y = 0, port = 0, device = 0;
    int xp = -1;               // index of its XP in cmn_mesh::xps (-1 for the CFG node)
    bool external = false;     // child pointer has the external bit; no registers modelled
    std::string name;          // "hnf0", "xp_1_2", "cfg", "dtc0", "rnsam3" ...
};

struct cmn_port {
    cmn_port_kind kind = cmn_port_kind::none;
    unsigned devices = 0; // devices on the port (CAL: more than 1)
    unsigned line = 0;    // where the platform declared it (0: default layout)
};

struct cmn_xp {
    unsigned x = 0, y = 0;
    size_t node = 0;              // index of the XP's own node
    cmn_port ports[2];
    std::vector<size_t> children; // device nodes, in child-pointer order
};

struct cmn_mesh {
    unsigned mesh_x = 0, mesh_y = 0;
    unsigned id_bits = 2;       // X/Y field width in node IDs and addresses
    uint32_t root_offset = 0;   // ROOTNODEBASE - PERIPHBASE (the CFG node)
    std::vector<cmn_node> nodes; // [0] is the CFG node
    std::vector<cmn_xp> xps;     // row-major: index y * mesh_x + x (= the XP's logical ID)

    uint16_t node_id(unsigned x, unsigned y, unsigned port, unsigned device) const;
    uint32_t xy_offset(unsigned x, unsigned y) const;
    const cmn_node* find(const std::string& name) const;
    // Nodes with PMU events at (port, device) of an XP: DTM input_sel 0x10 + port<<4 + device<<2.
    std::vector<size_t> event_nodes_at(size_t xp, unsigned port, unsigned device) const;
    size_t node_count_of(cmn_node_type t) const;
};

// Where the `nodes` text came from, for file:line errors. A block scalar
// (`nodes: |`) starts on the line after `param_line`.
struct cmn_text_origin {
    std::string file;
    unsigned param_line = 0;
    std::string param_path; // "units[2].params.nodes"
};

// One entry of a CMN text parameter (`nodes`, `events`, `traffic`, `io`), split into words.
struct cmn_text_entry {
    unsigned line;                  // its line in the platform file
    std::string text;               // trimmed, without its comment
    std::vector<std::string> words; // separated by white space
};

// Calls `visit` for every entry of a CMN text parameter, in order: one entry per line, `#` starts a
// comment, `;` also separates entries, blank entries are skipped. A block value's rows are counted
// from the line after the parameter's; a one-line value (or a default text: `on_param_line`) sits
// on the parameter's own line.
void for_each_cmn_text_entry(const std::string& text, const cmn_text_origin& origin, bool on_param_line,
                             const std::function<void(const cmn_text_entry&)>& visit);

// Builds the mesh from the `nodes` text (docs/cmn.md): one port per line,
// `X,Y PORT KIND [xN]`, e.g. `1,0 p1 hn-f`, `#` comments, `;` also separates
// entries. An empty text gives the default layout. Throws input_error.
cmn_mesh build_cmn_mesh(unsigned mesh_x, unsigned mesh_y, const std::string& nodes_text,
                        const cmn_text_origin& origin);
// The layout used when `nodes` is empty, as `nodes` text.
std::string default_cmn_layout(unsigned mesh_x, unsigned mesh_y);

} // namespace pmusim
