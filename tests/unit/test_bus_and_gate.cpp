// The router (mapped, unmapped, crossing a window, DMI, system registers) and
// the gate's decisions, through real TLM sockets on a built platform.
#include <catch2/catch.hpp>
#include <cstring>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/memory.h"
#include "models/payload_context.h"
#include "tests/unit/tlm_test_access.h"
#include "models/system_bus.h"
#include "vp/platform.h"
#include "tests/unit/facts.h"

using namespace pmusim;

namespace {

struct initiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<initiator> out{"out"};
    explicit initiator(const sc_core::sc_module_name& n) : sc_module(n) {}
    struct result {
        tlm::tlm_response_status status;
        access_outcome outcome;
        uint64_t value;
        uint64_t syndrome;
        std::string detail;
    };
    result access(bool write, uint64_t addr, unsigned len, uint64_t value, access_context ctx) {
        auto r = testing::tlm_access(*out.operator->(), write, addr, len, value, ctx);
        return {r.status, r.outcome, r.value, r.syndrome, r.detail};
    }
};

access_context cpu_ctx(unsigned el, bool secure = false, bool sysreg = true) {
    access_context c;
    c.cpu = 0;
    c.el = el;
    c.secure = secure;
    c.path = sysreg ? access_path::system_register : access_path::memory_mapped;
    return c;
}

uint32_t key(uint8_t op0, uint8_t op1, uint8_t crn, uint8_t crm, uint8_t op2) {
    return sysreg_encoding{op0, op1, crn, crm, op2}.key();
}

// A bus with a little-endian memory at 0x1000 and a big-endian one at 0x2000 (0x100 bytes each),
// elaborated, and an initiator bound to it.
struct two_memories {
    struct resolution_first {
        resolution_first() { init_time_resolution(); } // before any module exists
    } resolution;
    system_bus bus{"bus"};
    memory le{"le", 0x100, false}, be{"be", 0x100, true};
    initiator ini{"ini"};
    two_memories() {
        ini.out.bind(bus.from_gate);
        bus.map("le", 0x1000, 0x100, bus.attach(le.in));
        bus.map("be", 0x2000, 0x100, bus.attach(be.in));
        sc_core::sc_start(sc_core::SC_ZERO_TIME); // completes elaboration (binds the multi-socket)
    }
};

// A debug read (transport_dbg) through the initiator's socket; `returned` is what transport_dbg
// returned. The caller's context must still be on the payload afterwards.
uint64_t debug_read_through(initiator& ini, uint64_t address, unsigned bytes, access_context& ctx, unsigned& returned) {
    tlm::tlm_generic_payload t;
    uint64_t value = 0;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(address);
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    t.set_data_length(bytes);
    t.set_streaming_width(bytes);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    t.set_extension(&ctx);
    returned = ini.out->transport_dbg(t);
    CHECK(t.get_extension<access_context>() == &ctx);
    t.clear_extension(&ctx);
    return value;
}

// The default Arm platform, elaborated, and an initiator bound to its gate.
struct arm_gate {
    platform p{load_platform("arm-default")};
    initiator ini{"ini"};
    arm_gate() {
        ini.out.bind(p.gate().from_initiators);
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
    }
};

} // namespace

TEST_CASE("bus: memory reads back what was written and byte order applies") {
    two_memories m;
    auto& [resolution, bus, le, be, ini] = m;
    auto mm = cpu_ctx(1, false, false);
    CHECK(ini.access(true, 0x1008, 8, 0x0102030405060708, mm).status == tlm::TLM_OK_RESPONSE);
    CHECK(ini.access(false, 0x1008, 8, 0, mm).value == 0x0102030405060708);
    CHECK(le.data()[8] == 0x08); // little-endian: least significant byte first
    ini.access(true, 0x2008, 8, 0x0102030405060708, mm);
    CHECK(be.data()[8] == 0x01); // big-endian: most significant byte first
    CHECK(be.load_be64(8) == 0x0102030405060708);
    CHECK(ini.access(false, 0x2008, 4, 0, mm).value == 0x01020304);
}

TEST_CASE("bus: unmapped and window-crossing accesses are address errors naming the address") {
    two_memories m;
    auto mm = cpu_ctx(1, false, false);
    auto r = m.ini.access(false, 0x3000, 4, 0, mm);
    CHECK(r.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(r.outcome == access_outcome::error);
    CHECK(r.detail == "no target at address 0x3000");
    r = m.ini.access(false, 0x10FC, 8, 0, mm);
    CHECK(r.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK_THROWS_AS(m.bus.map("overlap", 0x10F0, 0x20, 0), model_error);
}

TEST_CASE("bus: an access is decoded afresh when it leaves the last window or crosses its end") {
    // The bus remembers the window of the last access: the next one in another window, one
    // crossing the remembered window's end and a system-register payload must not follow it.
    two_memories m;
    auto& [resolution, bus, le, be, ini] = m;
    auto mm = cpu_ctx(1, false, false);
    CHECK(ini.access(true, 0x1008, 8, 0x0102030405060708, mm).status == tlm::TLM_OK_RESPONSE);
    auto crossing = ini.access(false, 0x10FC, 8, 0, mm);
    CHECK(crossing.status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    CHECK(crossing.detail == "access at 0x10fc of 8 bytes crosses the end of le");
    CHECK(ini.access(true, 0x2008, 8, 0x0102030405060708, mm).status == tlm::TLM_OK_RESPONSE);
    CHECK(be.data()[8] == 0x01); // went to the big-endian memory, not the remembered window
    CHECK(ini.access(false, 0x1008, 8, 0, mm).value == 0x0102030405060708);
    auto sysreg = ini.access(false, 0x1008, 8, 0, cpu_ctx(1));
    CHECK(sysreg.status == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(sysreg.outcome == access_outcome::undefined);
    CHECK(ini.access(false, 0x10F8, 8, 0, mm).status == tlm::TLM_OK_RESPONSE); // the last 8 bytes fit
}

TEST_CASE("bus: DMI pointers are translated to bus addresses") {
    init_time_resolution();
    system_bus bus("bus");
    memory m("m", 0x100, false);
    bus.map("m", 0x1000, 0x100, bus.attach(m.in));
    initiator ini("ini");
    ini.out.bind(bus.from_gate);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    tlm::tlm_generic_payload t;
    t.set_address(0x1010);
    tlm::tlm_dmi dmi;
    REQUIRE(ini.out->get_direct_mem_ptr(t, dmi));
    CHECK(dmi.get_start_address() == 0x1000);
    CHECK(dmi.get_end_address() == 0x10FF);
    CHECK(dmi.get_dmi_ptr() == m.data());
}

TEST_CASE("bus: system registers are not on the bus (UNDEFINED: the detail says where they go)") {
    // MRS/MSR never reach the memory system; the gate hands them to their unit. A system-register
    // payload sent to the bus itself is an initiator's mistake, answered like an unknown encoding.
    init_time_resolution();
    system_bus bus("bus");
    memory m("m", 0x100, false);
    initiator ini("ini");
    ini.out.bind(bus.from_gate);
    bus.map("m", 0x0, 0x100, bus.attach(m.in));
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    // HCR_EL2's key is 0xe088, far beyond the memory window, but an address within it must not be served either.
    for (uint64_t address : {uint64_t(key(3, 4, 1, 1, 0)), uint64_t(0x10)}) {
        auto r = ini.access(false, address, 8, 0, cpu_ctx(2));
        CHECK(r.status == tlm::TLM_COMMAND_ERROR_RESPONSE);
        CHECK(r.outcome == access_outcome::undefined);
        CHECK(r.syndrome == (1ull << 25));
        CHECK(r.detail.find("system registers are not on the system bus") != std::string::npos);
    }
}

TEST_CASE_METHOD(arm_gate, "gate: the gate and the units complete a non-blocking BEGIN_REQ at once (loosely timed)") {
    // ID_AA64PFR0_EL1 (S3_0_C0_C4_0) read at EL1 through nb_transport_fw: AMU field [47:44] = 1 (AMUv1) or 2.
    access_context ctx = cpu_ctx(1);
    uint64_t data = 0;
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(key(3, 0, 0, 4, 0));
    t.set_data_ptr(reinterpret_cast<unsigned char*>(&data));
    t.set_data_length(8);
    t.set_streaming_width(8);
    t.set_extension(&ctx);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    CHECK(ini.out->nb_transport_fw(t, phase, delay) == tlm::TLM_COMPLETED);
    CHECK(phase == tlm::END_RESP);
    CHECK(t.get_response_status() == tlm::TLM_OK_RESPONSE);
    CHECK(((data >> 44) & 0xf) != 0);
    // Any other phase cannot reach a target that never answered TLM_ACCEPTED: a protocol error.
    phase = tlm::END_RESP;
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    CHECK(ini.out->nb_transport_fw(t, phase, delay) == tlm::TLM_COMPLETED);
    CHECK(t.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);
    t.clear_extension(&ctx);
}

TEST_CASE_METHOD(arm_gate, "gate: EL-suffixed control registers and unimplemented encodings") {
    // Encodings and CPTR_EL3.TAM from tests/facts/cpu.tsv (the Arm ARM, TF-A arch.h TAM_BIT).
    const uint32_t cptr_el3 = facts::fact_encoding("cpu_controls", "CPTR_EL3").key(),
                   hcr_el2 = facts::fact_encoding("cpu_controls", "HCR_EL2").key();
    const auto tam = facts::fact_field("cpu_controls", "CPTR_EL3", "TAM");
    // EL3 writes CPTR_EL3; EL2 and EL1 get UNDEFINED and nothing changes.
    CHECK(ini.access(true, cptr_el3, 8, tam.bit(), cpu_ctx(3, true)).outcome == access_outcome::ok);
    auto r = ini.access(true, cptr_el3, 8, 0, cpu_ctx(2));
    CHECK(r.outcome == access_outcome::undefined);
    CHECK(r.status == tlm::TLM_COMMAND_ERROR_RESPONSE);
    CHECK(r.syndrome == (1ull << 25)); // EC 0 (unknown reason), IL
    CHECK(p.controls().bit(0, "CPTR_EL3", tam.lsb));
    CHECK(ini.access(false, hcr_el2, 8, 0, cpu_ctx(1)).outcome == access_outcome::undefined);
    CHECK(ini.access(false, hcr_el2, 8, 0, cpu_ctx(2)).outcome == access_outcome::ok);
    // An encoding no unit implements is UNDEFINED and named in the detail.
    r = ini.access(false, key(3, 7, 15, 15, 7), 8, 0, cpu_ctx(1));
    CHECK(r.outcome == access_outcome::undefined);
    CHECK(r.detail == "S3_7_C15_C15_7 is not implemented on cpu0");
    // A payload without an access context is refused.
    tlm::tlm_generic_payload t;
    uint8_t data[8] = {};
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(0x8000'0000);
    t.set_data_ptr(data);
    t.set_data_length(8);
    sc_core::sc_time d;
    ini.out->b_transport(t, d);
    CHECK(t.get_response_status() == tlm::TLM_GENERIC_ERROR_RESPONSE);
    CHECK(p.gate().refused() == 4); // CPTR_EL3 at EL2, HCR_EL2 at EL1, the unimplemented encoding, no context
}

TEST_CASE_METHOD(arm_gate, "gate: per-CPU control registers are independent") {
    auto c1 = cpu_ctx(3, true);
    c1.cpu = 5;
    // ACTLR_EL3 and CLUSTERPMUEN from tests/facts/cpu.tsv (TF-A include/drivers/arm/dsu.h).
    const auto clusterpmuen = facts::fact_field("cpu_controls", "ACTLR_EL3", "CLUSTERPMUEN");
    CHECK(ini.access(true, facts::fact_encoding("cpu_controls", "ACTLR_EL3").key(), 8, clusterpmuen.bit(), c1).outcome ==
          access_outcome::ok);
    CHECK(p.controls().bit(5, "ACTLR_EL3", clusterpmuen.lsb));
    CHECK_FALSE(p.controls().bit(0, "ACTLR_EL3", clusterpmuen.lsb));
}

TEST_CASE_METHOD(arm_gate, "gate: a debug access to a system register reads its owner without asking the access rule") {
    // The gate hands system registers to their unit by a direct call (firmware_gate.h); transport_dbg
    // takes the same way without the rule, as a debugger sees what the register holds.
    const uint32_t cptr_el3 = key(3, 6, 1, 1, 2), amcfgr_el0 = key(3, 3, 13, 2, 1);
    auto debug_read = [&](uint32_t encoding, access_context ctx, unsigned& returned) {
        return debug_read_through(ini, encoding, 8, ctx, returned);
    };
    const auto at_el3 = ini.access(false, amcfgr_el0, 8, 0, cpu_ctx(3, true));
    REQUIRE(at_el3.outcome == access_outcome::ok);
    CHECK(((at_el3.value >> 8) & 0x3f) == 63); // AMCFGR_EL0.SIZE: 64-bit counters (ARMARM D24.6)
    // CPTR_EL3.TAM traps every AMU access below EL3 to EL3...
    CHECK(ini.access(true, cptr_el3, 8, 1u << 30, cpu_ctx(3, true)).outcome == access_outcome::ok);
    CHECK(ini.access(false, amcfgr_el0, 8, 0, cpu_ctx(2)).outcome == access_outcome::trap_el3);
    const uint64_t refused = p.gate().refused();
    // ...but not a debugger's look at the same register.
    unsigned returned = 0;
    CHECK(debug_read(amcfgr_el0, cpu_ctx(2), returned) == at_el3.value);
    CHECK(returned == 8);
    CHECK(p.gate().refused() == refused);
    // An encoding nobody implements reads nothing.
    CHECK(debug_read(key(3, 7, 15, 15, 7), cpu_ctx(2), returned) == 0);
    CHECK(returned == 0);
}

TEST_CASE_METHOD(arm_gate, "bus: a debug read of a unit's register returns its value and leaves the caller's context") {
    // A unit serves a debug access with a neutral debugger context of its own (unit::transport_dbg),
    // then puts the caller's back: the initiator still owns the payload's extension.
    const auto pmcfgr = p.resolve_register("dsu0.PMCFGR", 0);
    REQUIRE(pmcfgr);
    access_context debugger = cpu_ctx(3, true, false);
    debugger.initiator = initiator_kind::debugger;
    const auto normal = ini.access(false, pmcfgr->address, 4, 0, debugger);
    REQUIRE(normal.status == tlm::TLM_OK_RESPONSE);
    unsigned returned = 0;
    access_context caller = cpu_ctx(1, false, false);
    CHECK(debug_read_through(ini, pmcfgr->address, 4, caller, returned) == normal.value);
    CHECK(returned == 4);
    // PMCFGR.N [7:0]: "Number of counters implemented in addition to the cycle counter" (Marvell
    // CN10K DSU-110 definitions, cavm-csrs-cst_apc.h cst_apc#_clusterpmu_pmcfgr N [7:0];
    // tests/facts/dsu.tsv): 6 on arm-default's DSU-110. (The external PMCR has
    // no N field.)
    CHECK((normal.value & 0xff) == 6);
}

TEST_CASE("gate: context_of finds a payload's access context as get_extension does") {
    tlm::tlm_generic_payload t;
    CHECK(context_of(t) == nullptr);
    access_context c = cpu_ctx(1);
    t.set_extension(&c);
    CHECK(context_of(t) == &c);
    CHECK(context_of(t) == t.get_extension<access_context>());
    t.clear_extension(&c);
    CHECK(context_of(t) == nullptr);
}
