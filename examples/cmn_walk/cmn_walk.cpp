// A CMN-600 mesh as a plain TLM-2.0 target, discovered the way Linux's arm-cmn driver does
// (arm_cmn_discover): the root node's node_info must say CFG; its child pointers lead to the
// crosspoints (XPs), whose child pointers lead to the device nodes.
//
// Register facts (Arm CMN-600 TRM; Linux drivers/perf/arm-cmn.c): node_info at node offset 0x000,
// node_type [15:0]; child_info at 0x080, child_count [15:0], child_ptr_offset [31:16]; child
// pointer i at node + child_ptr_offset + 8*i, bit 31 external, [27:0] the child's offset from
// PERIPHBASE. Node types: CFG 0x2, DTC 0x3, HN-F 0x5, XP 0x6.
#include <cstdio>
#include <map>
#include <pmusim/pmusim.h>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

using namespace sc_core;

// The mesh the example builds: 2x2 crosspoints, two HN-Fs, the root node (CFG, DTC, DN, HN-I)
// behind the HN-D port of XP (0,0) (docs/cmn.md, "nodes").
const char* const mesh_nodes = "0,0 p0 hn-d\n"
                               "1,0 p0 rn-f\n"
                               "1,0 p1 hn-f\n"
                               "0,1 p0 sn-f\n"
                               "1,1 p1 hn-f\n";

struct walker : sc_module {
    tlm_utils::simple_initiator_socket<walker> bus{"bus"};
    int failures = 0;
    SC_HAS_PROCESS(walker);
    explicit walker(sc_module_name n) : sc_module(n) { SC_THREAD(walk); }

    uint64_t read64(uint64_t offset) {
        uint64_t value = 0;
        tlm::tlm_generic_payload t;
        t.set_read();
        t.set_address(offset);
        t.set_data_ptr(reinterpret_cast<unsigned char*>(&value)); // the host is little-endian, as the mesh
        t.set_data_length(8);
        t.set_streaming_width(8);
        sc_time delay = SC_ZERO_TIME;
        bus->b_transport(t, delay);
        if (!t.is_response_ok()) {
            std::printf("FAIL: read 0x%llx: %s\n", (unsigned long long)offset, t.get_response_string().c_str());
            ++failures;
        }
        return value;
    }
    void check(bool ok, const char* what) {
        std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
        failures += !ok;
    }

    void walk() {
        const uint64_t root = 0; // ROOTNODEBASE - PERIPHBASE
        check((read64(root) & 0xffff) == 0x2, "the root node is the CFG node");
        const uint64_t root_children = read64(root + 0x80);
        const unsigned xps = root_children & 0xffff;
        const uint64_t xp_pointers = root + ((root_children >> 16) & 0xffff);
        std::map<unsigned, unsigned> types; // node type -> count
        for (unsigned i = 0; i < xps; ++i) {
            const uint64_t xp = read64(xp_pointers + 8 * i) & 0xfffffff;
            const uint64_t xp_info = read64(xp);
            ++types[xp_info & 0xffff];
            const uint64_t xp_children = read64(xp + 0x80);
            for (unsigned c = 0; c < (xp_children & 0xffff); ++c) {
                const uint64_t pointer = read64(xp + ((xp_children >> 16) & 0xffff) + 8 * c);
                if (pointer & (1u << 31)) continue; // external: not a CMN node
                ++types[read64(pointer & 0xfffffff) & 0xffff];
            }
            std::printf("XP %u: node id %llu, %llu children\n", i, (unsigned long long)((xp_info >> 16) & 0xffff),
                        (unsigned long long)(xp_children & 0xffff));
        }
        check(xps == 4, "the CFG node has one child per crosspoint of the 2x2 mesh");
        check(types[0x6] == 4, "every child of the CFG node is an XP");
        check(types[0x5] == 2, "two HN-F nodes, as the mesh was built");
        check(types[0x3] >= 1, "a DTC (the PMU's counter block) is found");
        sc_stop();
    }
};

int sc_main(int, char*[]) {
    pmusim::cmn600_options options;
    options.mesh_x = 2;
    options.mesh_y = 2;
    options.nodes = mesh_nodes;
    pmusim::cmn600_pmu cmn("cmn", options);
    walker cpu("cpu");
    sc_signal<bool> cmn_irq("cmn_irq"); // the DTC overflow interrupt, unused here but wired
    cpu.bus.bind(cmn.target);
    cmn.irq.bind(cmn_irq);
    sc_start();
    std::printf("%s\n", cpu.failures ? "FAILED" : "PASSED");
    return cpu.failures ? 1 : 0;
}
