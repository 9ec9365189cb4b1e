// The engine driver (iss/engine_driver.h) alone: one Unicorn engine over a page of plain memory, a
// client of the test's own, no SystemC kernel and no ISS. Each program is a few instruction words;
// every expected count, PC and register value is worked out by hand from the architecture.
//
// Encodings (Arm ARM DDI 0487, C6.2, the instruction's page; each word checked with GNU as 2.40):
//   ADD Xd, Xn, #imm12 (immediate)  sf 1, op 0, S 0, 100010, sh 0, imm12, Rn, Rd: 0x91000000 | imm12 << 10 | Rn << 5 | Rd
//   SUBS Xd, Xn, #imm12             sf 1, op 1, S 1, 100010, ...:                  0xf1000000 | imm12 << 10 | Rn << 5 | Rd
//   MOVZ Xd, #imm16                 sf 1, opc 10, 100101, hw 00, imm16, Rd:        0xd2800000 | imm16 << 5 | Rd
//   B label                         0 00101, imm26 (words from the B):             0x14000000 | imm26
//   B.cond label                    0101010 0, imm19, 0, cond (NE = 0001):         0x54000000 | imm19 << 5 | cond
//   NOP                             the hint space, CRm 0000, op2 000:             0xd503201f
//   SVC #imm16                      11010100 000, imm16, 000 01:                   0xd4000001 | imm16 << 5
//   UDF #imm16                      0000000000000000, imm16 (permanently undefined): 0x00000000 | imm16
//   LDR Xt, [Xn] (unsigned offset)  11 111 0 01 01, imm12 0, Rn, Rt:               0xf9400000 | Rn << 5 | Rt
//   MRS Xt, TPIDR_EL0               1101010100 1 1 op1 011 CRn 1101 CRm 0000 op2 010: 0xd53bd040 | Rt
// Execution (C6.2 and B.cond's ConditionHolds): ADD/SUBS write Xd; SUBS sets Z when the result is 0;
// B.NE branches while Z = 0; B . branches to itself. An SVC is taken as an exception with the
// preferred return address the next instruction (Arm ARM D1.10 "Preferred exception return
// address"), which is where QEMU leaves its PC when it raises it (EXCP_SWI 2); UDF is UNDEFINED and
// QEMU raises EXCP_UDEF 1 with the PC on it. The engine stops at its UC_HOOK_INTR without entering
// either. Unicorn's reset state: EL1, MMU off, so addresses are physical.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include <unicorn/unicorn.h>

#include "iss/engine_driver.h"

using namespace pmusim;
using kind = engine_driver::stop_kind;

namespace {

constexpr uint64_t base = 0x80000000, size = 0x10000;

constexpr uint32_t add(unsigned rd, unsigned rn, unsigned imm) { return 0x91000000 | imm << 10 | rn << 5 | rd; }
constexpr uint32_t subs(unsigned rd, unsigned rn, unsigned imm) { return 0xf1000000 | imm << 10 | rn << 5 | rd; }
constexpr uint32_t movz(unsigned rd, unsigned imm) { return 0xd2800000 | imm << 5 | rd; }
constexpr uint32_t b(int words) { return 0x14000000 | (uint32_t(words) & 0x3ffffff); }
constexpr uint32_t b_ne(int words) { return 0x54000000 | (uint32_t(words) & 0x7ffff) << 5 | 1; }
constexpr uint32_t nop = 0xd503201f, udf_0 = 0x00000000;
constexpr uint32_t svc(unsigned imm) { return 0xd4000001 | imm << 5; }
constexpr uint32_t ldr(unsigned rt, unsigned rn) { return 0xf9400000 | rn << 5 | rt; }
constexpr uint32_t mrs_tpidr_el0(unsigned rt) { return 0xd53bd040 | rt; }

// The encodings above, against GNU as's words for the same instructions.
static_assert(add(0, 0, 1) == 0x91000400 && add(1, 1, 1) == 0x91000421);
static_assert(subs(0, 0, 1) == 0xf1000400 && movz(0, 10) == 0xd2800140 && movz(1, 0x1000) == 0xd2820001);
static_assert(b_ne(-1) == 0x54ffffe1 && b(-2) == 0x17fffffe && b(0) == 0x14000000 && b(3) == 0x14000003);
static_assert(svc(0x42) == 0xd4000841 && ldr(0, 1) == 0xf9400020 && mrs_tpidr_el0(3) == 0xd53bd043);

// A client that executes nothing itself unless told, and records what the driver asked.
struct test_client final : engine_client {
    std::set<uint64_t> own;             // addresses of "its" instructions (the new-block scan)
    bool stop_blocks = false;           // stop_before_block's answer
    std::vector<uint64_t> asked_blocks; // the block starts stop_before_block was asked about
    std::vector<bool> sysreg_reads;     // system_register_instruction's calls
    uint64_t fault_pc = 0;              // faulting_access's answer
    unsigned fault_calls = 0;
    bool executes_itself(uint64_t address) override { return own.count(address) != 0; }
    bool stop_before_block(uint64_t address) override {
        asked_blocks.push_back(address);
        return stop_blocks;
    }
    uint32_t system_register_instruction(uint64_t, bool is_read, int, const uc_arm64_cp_reg&) override {
        sysreg_reads.push_back(is_read);
        return 0; // the engine executes it
    }
    uint32_t system_instruction(const uc_arm64_cp_reg&) override { return 0; }
    uint64_t faulting_access() override {
        ++fault_calls;
        return fault_pc;
    }
};

// An engine over 64 KiB of plain memory at `base` holding `program` from its start, the PC there.
struct bench {
    struct free_deleter {
        void operator()(void* p) const { std::free(p); }
    };
    std::unique_ptr<uint32_t[], free_deleter> memory{static_cast<uint32_t*>(std::aligned_alloc(4096, size))};
    test_client client;
    engine_driver engine{client, size_t(8) << 20};
    explicit bench(const std::vector<uint32_t>& program) {
        std::memset(memory.get(), 0, size);
        std::memcpy(memory.get(), program.data(), program.size() * 4);
        engine.map_memory(base, size, memory.get());
        engine.set_pc(base);
    }
    static uint64_t at(unsigned index) { return base + 4 * index; }
};

} // namespace

TEST_CASE("iss engine driver: a budget that ends inside a straight-line block retires exactly that many and leaves the PC there", "[iss]") {
    // Eight ADD X0, X0, #1 then B . : one straight-line block of nine instructions.
    std::vector<uint32_t> program(8, add(0, 0, 1));
    program.push_back(b(0));
    bench t(program);
    CHECK(t.engine.run(5) == 5);
    CHECK(t.engine.stop().kind == kind::budget);
    CHECK(t.engine.pc() == bench::at(5));
    CHECK(t.engine.x(0) == 5);
    // On from the middle of the block: two more.
    CHECK(t.engine.run(2) == 2);
    CHECK(t.engine.pc() == bench::at(7));
    CHECK(t.engine.x(0) == 7);
    // A budget of one: a single instruction.
    CHECK(t.engine.run(1) == 1);
    CHECK(t.engine.pc() == bench::at(8));
    CHECK(t.engine.x(0) == 8);
}

TEST_CASE("iss engine driver: a run of a loop retires exactly the budget", "[iss]") {
    // MOVZ X0, #10; loop: SUBS X0, X0, #1; B.NE loop; B .
    // The MOVZ, then ten iterations of two instructions: 21 instructions reach the B . with X0 = 0.
    const std::vector<uint32_t> program{movz(0, 10), subs(0, 0, 1), b_ne(-1), b(0)};
    SECTION("to the end of the loop") {
        bench t(program);
        CHECK(t.engine.run(21) == 21);
        CHECK(t.engine.pc() == bench::at(3));
        CHECK(t.engine.x(0) == 0);
        // B . retires once per instruction of the budget and stays.
        CHECK(t.engine.run(4) == 4);
        CHECK(t.engine.pc() == bench::at(3));
    }
    SECTION("ending between the SUBS and the B.NE of an iteration") {
        // The MOVZ and five iterations are 11 instructions (X0 = 5, PC at the SUBS); the 12th is the
        // sixth SUBS: X0 = 4, the PC on the B.NE.
        bench t(program);
        CHECK(t.engine.run(12) == 12);
        CHECK(t.engine.pc() == bench::at(2));
        CHECK(t.engine.x(0) == 4);
        // The B.NE is taken (Z = 0), then the 7th SUBS: X0 = 3, the PC on the B.NE again.
        CHECK(t.engine.run(2) == 2);
        CHECK(t.engine.pc() == bench::at(2));
        CHECK(t.engine.x(0) == 3);
    }
}

TEST_CASE("iss engine driver: the block hook counts over forward branches and a branch to itself", "[iss]") {
    // 0 ADD X0; 1 B +3 (to 4); 2 ADD X2; 3 ADD X2; 4 ADD X0; 5 ADD X0; 6 B .
    // Retired in order: 0, 1, 4, 5 (four), then 6 once per instruction: ten reach the B . six times.
    bench t({add(0, 0, 1), b(3), add(2, 2, 1), add(2, 2, 1), add(0, 0, 1), add(0, 0, 1), b(0)});
    CHECK(t.engine.run(10) == 10);
    CHECK(t.engine.pc() == bench::at(6));
    CHECK(t.engine.x(0) == 3);
    CHECK(t.engine.x(2) == 0); // skipped
}

TEST_CASE("iss engine driver: a stop point stops the engine before its instruction", "[iss]") {
    // 0-2 ADD X0; 3 ADD X1 (the stop point); 4 B .
    bench t({add(0, 0, 1), add(0, 0, 1), add(0, 0, 1), add(1, 1, 1), b(0)});
    t.engine.set_stop_points({bench::at(3)});
    CHECK(t.engine.run(100) == 3);
    CHECK(t.engine.stop().kind == kind::stop_point);
    CHECK(t.engine.pc() == bench::at(3));
    CHECK(t.engine.x(0) == 3);
    CHECK(t.engine.x(1) == 0); // not executed
    // The client executes it itself and steps on: the engine goes on after it.
    t.engine.set_pc(bench::at(4));
    CHECK(t.engine.run(2) == 2);
    CHECK(t.engine.pc() == bench::at(4));
}

TEST_CASE("iss engine driver: a stop point reached by a branch counts the whole block before it", "[iss]") {
    // 0 ADD X0; 1 B +2 (to 3); 2 ADD X2; 3 ADD X1 (the stop point). Retired: 0 and 1.
    bench t({add(0, 0, 1), b(2), add(2, 2, 1), add(1, 1, 1), b(0)});
    t.engine.set_stop_points({bench::at(3)});
    CHECK(t.engine.run(100) == 2);
    CHECK(t.engine.stop().kind == kind::stop_point);
    CHECK(t.engine.pc() == bench::at(3));
    CHECK(t.engine.x(1) == 0);
}

TEST_CASE("iss engine driver: an SVC and an UNDEFINED instruction arrive at the interrupt hook with the PC on them", "[iss]") {
    // 0 ADD X0; 1 SVC #0x42; 2 UDF #0.
    bench t({add(0, 0, 1), svc(0x42), udf_0});
    // The SVC has retired (its exception is taken after it: the PC is past it).
    CHECK(t.engine.run(100) == 2);
    CHECK(t.engine.stop().kind == kind::exception);
    CHECK(t.engine.stop().intno == engine_driver::excp_swi);
    CHECK(t.engine.pc() == bench::at(2));
    // UDF has not: the PC on it, nothing retired.
    CHECK(t.engine.run(100) == 0);
    CHECK(t.engine.stop().kind == kind::exception);
    CHECK(t.engine.stop().intno == engine_driver::excp_udef);
    CHECK(t.engine.pc() == bench::at(2));
}

TEST_CASE("iss engine driver: the start-up check passes on this Unicorn", "[iss]") {
    // It runs NOPs, SVC #1 and UDF #0 on an engine of its own (engine_driver::self_check) and
    // names what differed; every driver's construction depends on it.
    CHECK(engine_driver::self_check() == "");
}

TEST_CASE("iss engine driver: a new block holding an instruction of the client's stops before it runs and makes it a stop point", "[iss]") {
    // 0-1 ADD X0; 2 ADD X1 (the client's own); 3 B .
    bench t({add(0, 0, 1), add(0, 0, 1), add(1, 1, 1), b(0)});
    t.client.own = {bench::at(2)};
    // The first block of the first run is scanned by the block hook: the engine stops before it.
    CHECK(t.engine.run(100) == 0);
    CHECK(t.engine.stop().kind == kind::budget);
    CHECK(t.engine.pc() == bench::at(0));
    CHECK(t.engine.stop_points() == std::vector<uint64_t>{bench::at(2)});
    // Translated again with the stop point's hook: the engine stops before the client's instruction.
    CHECK(t.engine.run(100) == 2);
    CHECK(t.engine.stop().kind == kind::stop_point);
    CHECK(t.engine.pc() == bench::at(2));
    CHECK(t.engine.x(1) == 0);
}

TEST_CASE("iss engine driver: a soft budget ends the run at the first block boundary at or after it", "[iss]") {
    // MOVZ X0, #10; loop: SUBS; B.NE loop. Blocks: [MOVZ SUBS B.NE] (3), then [SUBS B.NE] (2 each).
    bench t({movz(0, 10), subs(0, 0, 1), b_ne(-1), b(0)});
    CHECK(t.engine.run(100, 4) == 5); // 3 < 4, so the second block runs too; 5 >= 4 stops before the third
    CHECK(t.engine.soft_stopped());
    CHECK(t.engine.stop().kind == kind::budget);
    CHECK(t.engine.pc() == bench::at(1));
    CHECK(t.engine.x(0) == 8);
}

TEST_CASE("iss engine driver: a watching run asks the client at each block start after the first and stops before the block", "[iss]") {
    bench t({movz(0, 10), subs(0, 0, 1), b_ne(-1), b(0)});
    t.client.stop_blocks = true;
    CHECK(t.engine.run(100, engine_driver::no_budget, true) == 3); // the first block ran whole
    CHECK(t.engine.stop().kind == kind::watch);
    CHECK(t.engine.pc() == bench::at(1));
    CHECK(t.client.asked_blocks == std::vector<uint64_t>{bench::at(1)});
    CHECK(t.engine.x(0) == 9);
}

TEST_CASE("iss engine driver: a load outside mapped memory stops the run and the client names the instruction", "[iss]") {
    // 0 MOVZ X1, #0x100 (an unmapped address); 1 LDR X0, [X1]; 2 B .
    bench t({movz(1, 0x100), ldr(0, 1), b(0)});
    t.client.fault_pc = bench::at(1);
    CHECK(t.engine.run(100) == 1); // the MOVZ; the LDR did not complete
    CHECK(t.engine.stop().kind == kind::memory);
    CHECK(t.engine.stop().address == 0x100);
    CHECK(t.engine.stop().size == 8);
    CHECK_FALSE(t.engine.stop().is_write);
    CHECK(t.client.fault_calls == 1);
    CHECK(t.engine.pc() == bench::at(1));
}

TEST_CASE("iss engine driver: MRS reaches the client hook but not at a stop point", "[iss]") {
    // 0 MRS X3, TPIDR_EL0; 1 MRS X3, TPIDR_EL0 (a stop point); 2 B .
    bench t({mrs_tpidr_el0(3), mrs_tpidr_el0(3), b(0)});
    t.engine.set_stop_points({bench::at(1)});
    CHECK(t.engine.run(100) == 1);
    CHECK(t.engine.stop().kind == kind::stop_point);
    CHECK(t.client.sysreg_reads == std::vector<bool>{true});
}

TEST_CASE("iss engine driver: a breakpoint stops before its instruction and a run resuming from it passes it once", "[iss]") {
    // 0-3 ADD X0; 4 B .
    bench t({add(0, 0, 1), add(0, 0, 1), add(0, 0, 1), add(0, 0, 1), b(0)});
    t.engine.set_breakpoints({bench::at(2)});
    CHECK(t.engine.run(100) == 2);
    CHECK(t.engine.stop().kind == kind::breakpoint);
    CHECK(t.engine.pc() == bench::at(2));
    t.engine.skip_breakpoint_at(bench::at(2));
    CHECK(t.engine.run(3) == 3); // instructions 2, 3 and the B .
    CHECK(t.engine.pc() == bench::at(4));
    CHECK(t.engine.x(0) == 4);
}

TEST_CASE("iss engine driver: a budget that ends inside an EL0 block with SCTLR_EL1.nTWI = 0 is no UNDEFINED", "[iss]") {
    // Unicorn's `until` is an imitated WFI, which the WFI trap of EL0 (SCTLR_EL1.nTWI = 0, Arm ARM
    // D17.2.118 SCTLR_EL1; as Linux runs user space) would turn into an UNDEFINED on the instruction before it:
    // the driver sets nTWI for such a run and restores it. The engine at EL0t: SCR_EL3.RW [10] and
    // HCR_EL2.RW [31] make EL1 and so EL0 AArch64 (D17.2 SCR_EL3, HCR_EL2); PSTATE.M[3:0] = 0b0000.
    std::vector<uint32_t> program(8, add(0, 0, 1));
    program.push_back(b(0));
    bench t(program);
    REQUIRE(t.engine.write_system_register(3, 6, 1, 1, 0, (uint64_t(1) << 10) | 1)); // SCR_EL3: RW, NS
    REQUIRE(t.engine.write_system_register(3, 4, 1, 1, 0, uint64_t(1) << 31));      // HCR_EL2: RW
    const uint64_t ntwi = uint64_t(1) << 16;
    t.engine.set_sctlr_el1(t.engine.sctlr_el1() & ~ntwi);
    uint64_t el0t = 0x3c0; // DAIF masked, EL0t
    uc_reg_write(t.engine.uc(), UC_ARM64_REG_PSTATE, &el0t);
    uint64_t tpidr = 0; // a system register write rebuilds the engine's cached EL (its hflags)
    REQUIRE(t.engine.read_system_register(3, 0, 13, 0, 4, tpidr));
    REQUIRE(t.engine.write_system_register(3, 0, 13, 0, 4, tpidr));
    REQUIRE(((t.engine.pstate() >> 2) & 3) == 0);
    t.engine.set_pc(base);
    CHECK(t.engine.run(5) == 5);
    CHECK(t.engine.stop().kind == kind::budget);
    CHECK(t.engine.pc() == bench::at(5));
    CHECK(t.engine.x(0) == 5);
    CHECK((t.engine.sctlr_el1() & ntwi) == 0); // restored
}
