// The exception levels' mechanics (iss/exception_levels.h) over a fake engine register file: exception
// entry, ERET with the illegal-return rules, PSTATE and SP selection, the EL2/EL3 banks. Every
// expected value is counted here from the architecture, never taken from the class's helpers:
//   [ARM] Arm Architecture Reference Manual for A-profile, DDI 0487: D1.10 "Exception entry"
//         (AArch64.TakeException: SPSR_ELx = PSTATE, ELR_ELx, ESR_ELx, FAR_ELx, PSTATE.{D,A,I,F} = 1,
//         SPSel = 1, IL = 0, EL = target, NZCV unchanged); D1.10.2 "Exception vectors", the table of
//         vector offsets: current EL with SP0 +0x000 (IRQ +0x080), current EL with SPx +0x200
//         (+0x280), lower EL using AArch64 +0x400 (+0x480); "Exception return" and the pseudo-code
//         AArch64.ExceptionReturn, IllegalExceptionReturn, ELFromSPSR, SetPSTATEFromPSR; "Illegal
//         return events from AArch64 state" (a return to a higher EL, to EL2 where it is disabled,
//         to EL1 with HCR_EL2.TGE = 1 where EL2 is enabled, M[1] = 1, EL0 with M[0] = 1, and, with no
//         AArch32 at any EL, M[4] = 1): PC = ELR, EL and SPSel unchanged, NZCV and DAIF from the
//         SPSR, PSTATE.IL = 1; "Legal returns that set PSTATE.IL to 1" (SPSR.IL = 1: the EL changes,
//         IL = 1); "The Illegal Execution state exception": EC 0x0E, ELR = the instruction, taken to
//         the current EL or EL1 from EL0; the SPSR_ELx page (N Z C V [31:28], IL [20], D A I F [9:6],
//         M[4] = 0 AArch64, M[3:0] = EL << 2 | SPSel: EL0t 0b0000, EL1t 0b0100, EL1h 0b0101, EL2t
//         0b1000, EL2h 0b1001, EL3t 0b1100, EL3h 0b1101); ESR_ELx (EC [31:26], IL [25]): SVC64 0x15,
//         HVC64 0x16, SMC64 0x17, Illegal Execution state 0x0E; SP selection (PSTATE.SP: SP_EL0 with
//         SPSel = 0, SP_ELx with SPSel = 1; SP_EL0 always at EL0); the SPSel, SP_EL1, SP_EL2 pages.
//   [LNX] Linux 6.1 arch/arm64/include/uapi/asm/ptrace.h (PSR_MODE_EL*, PSR_MODE32_BIT = 0x10,
//         PSR_*_BIT), arch/arm64/include/asm/ptrace.h (PSR_IL_BIT = 1 << 20), arch/arm64/include/asm/
//         esr.h (ESR_ELx_EC_ILL 0x0E, ESR_ELx_IL).
// The fake holds what the engine holds (it runs EL0 at its EL0, EL1-EL3 at its EL1, so its PSTATE.M
// is EL0t, EL1t or EL1h, and its SP_EL1 slot holds SP_ELx of the ISS's EL).
#include <catch2/catch.hpp>
#include <vector>

#include "iss/exception_levels.h"

using namespace pmusim;
using outcome = exception_return_result::outcome;
using r1 = engine_register_file::el1_register;

namespace {
// SCR_EL3: NS [0], HCE [8], RW [10], EEL2 [18]; HCR_EL2.TGE [27] (the SCR_EL3 and HCR_EL2 pages).
constexpr uint64_t SCR_NS = 1u << 0, SCR_HCE = 1u << 8, SCR_RW = 1u << 10, SCR_EEL2 = 1u << 18, HCR_TGE = 1u << 27;
// PSTATE/SPSR bits ([LNX] ptrace.h).
constexpr uint64_t N = 0x80000000, Z = 0x40000000, C = 0x20000000, D = 0x200, A = 0x100, I = 0x80, F = 0x40,
                   DAIF = D | A | I | F, IL = 1u << 20;
constexpr uint64_t EL0t = 0x0, EL1t = 0x4, EL1h = 0x5, EL2t = 0x8, EL2h = 0x9, EL3t = 0xc, EL3h = 0xd;
// MRS/MSR keys (op0 << 14 | op1 << 11 | CRn << 7 | CRm << 3 | op2) of the registers the ISS holds:
// SP_EL1 S3_4_C4_C1_0, SP_EL2 S3_6_C4_C1_0, SPSR_EL2 S3_4_C4_C0_0, ELR_EL2 S3_4_C4_C0_1, ESR_EL2
// S3_4_C5_C2_0, FAR_EL2 S3_4_C6_C0_0, VBAR_EL2 S3_4_C12_C0_0; the EL3 ones with op1 = 6; SPSR_EL12
// S3_5_C4_C0_0 (the Arm ARM's encodings of each register).
constexpr uint32_t key(unsigned op1, unsigned crn, unsigned crm, unsigned op2) {
    return (3u << 14) | (op1 << 11) | (crn << 7) | (crm << 3) | op2;
}
constexpr uint32_t SP_EL1 = key(4, 4, 1, 0), SP_EL2 = key(6, 4, 1, 0);
constexpr uint32_t SPSR_EL2 = key(4, 4, 0, 0), ELR_EL2 = key(4, 4, 0, 1), ESR_EL2 = key(4, 5, 2, 0), FAR_EL2 = key(4, 6, 0, 0),
                   VBAR_EL2 = key(4, 12, 0, 0);
constexpr uint32_t SPSR_EL3 = key(6, 4, 0, 0), ELR_EL3 = key(6, 4, 0, 1), ESR_EL3 = key(6, 5, 2, 0), VBAR_EL3 = key(6, 12, 0, 0);
constexpr uint32_t SPSR_EL12 = key(5, 4, 0, 0), HPFAR_EL2 = key(4, 6, 0, 4);

// The engine's registers, each a plain field.
struct fake_engine final : engine_register_file {
    uint64_t pc_ = 0, pstate_ = 0, sp_ = 0, sp_el0_ = 0, sp_el1_ = 0;
    uint64_t el1_[5] = {};
    uint64_t scr = SCR_NS | SCR_HCE | SCR_RW, hcr = 0;
    std::vector<unsigned> iss_els; // set_iss_el's arguments, in order
    uint64_t pc() const override { return pc_; }
    void set_pc(uint64_t v) override { pc_ = v; }
    uint64_t pstate() const override { return pstate_; }
    void set_pstate(uint64_t v) override { pstate_ = v; }
    void set_iss_el(unsigned el) override { iss_els.push_back(el); }
    uint64_t sp() const override { return sp_; }
    void set_sp(uint64_t v) override { sp_ = v; }
    uint64_t sp_el0() const override { return sp_el0_; }
    void set_sp_el0(uint64_t v) override { sp_el0_ = v; }
    uint64_t sp_el1() const override { return sp_el1_; }
    void set_sp_el1(uint64_t v) override { sp_el1_ = v; }
    uint64_t el1(el1_register r) const override { return el1_[unsigned(r)]; }
    void set_el1(el1_register r, uint64_t v) override { el1_[unsigned(r)] = v; }
    uint64_t scr_el3() const override { return scr; }
    uint64_t hcr_el2() const override { return hcr; }
};
} // namespace

TEST_CASE("exception levels: reset enters ELxh with DAIF masked and SP_ELx the given stack", "[iss]") {
    fake_engine e;
    e.el1_[unsigned(r1::vbar)] = 0x1234;
    exception_levels lv(e);
    lv.reset(2, 0x82000000);
    CHECK(lv.el() == 2);
    CHECK(lv.pstate() == (DAIF | EL2h));
    CHECK(e.pstate_ == (DAIF | EL1h)); // EL2 runs at the engine's EL1, SPSel = 1
    CHECK(e.sp_ == 0x82000000);
    CHECK(e.sp_el1_ == 0x82000000);    // the engine's SP_EL1 slot holds SP_EL2
    CHECK(e.el1_[unsigned(r1::vbar)] == 0);
    CHECK(e.iss_els.back() == 2);
    CHECK_FALSE(lv.illegal_state());
}

TEST_CASE("exception levels: SVC from EL0 enters EL1 at VBAR_EL1 + 0x400 with SPSR ELR ESR and SP_EL1", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(1, 0x81000000);                 // SP_EL1
    e.sp_el0_ = 0x80ff0000;                  // EL1 set SP_EL0 (the engine holds it)
    e.el1_[unsigned(r1::elr)] = 0x80002000;
    e.el1_[unsigned(r1::spsr)] = EL0t;       // DAIF clear
    e.el1_[unsigned(r1::vbar)] = 0x80010000;
    e.el1_[unsigned(r1::far)] = 0xfa4;
    const auto back = lv.exception_return();
    REQUIRE(back.what == outcome::returned);
    CHECK(back.target_el == 0);
    CHECK(lv.el() == 0);
    CHECK(e.pc_ == 0x80002000);
    CHECK(e.pstate_ == 0);                   // the engine's EL0t
    CHECK(e.sp_ == 0x80ff0000);              // EL0 uses SP_EL0
    // EL0 runs: pushes, sets N and C; then SVC #7 at 0x80002040 (preferred return: the next one).
    e.sp_ = 0x80feff00;
    e.pstate_ = N | C;
    const exception_entry x = lv.take_exception(1, false, 0x56000007, 0x80002044, std::nullopt);
    CHECK(x.from_el == 0);
    CHECK(x.to_el == 1);
    CHECK(x.offset == 0x400);                // lower EL using AArch64, synchronous
    CHECK(x.vector == 0x80010400);
    CHECK(e.pc_ == 0x80010400);
    CHECK(e.el1_[unsigned(r1::elr)] == 0x80002044);
    CHECK(e.el1_[unsigned(r1::spsr)] == (N | C | EL0t)); // 0xA0000000
    CHECK(e.el1_[unsigned(r1::esr)] == 0x56000007);     // EC 0x15 << 26 | IL | imm16
    CHECK(e.el1_[unsigned(r1::far)] == 0xfa4);          // no FAR for an SVC: unchanged
    CHECK(lv.el() == 1);
    CHECK(lv.pstate() == (N | C | DAIF | EL1h));        // 0xA00003C5: NZCV kept, DAIF set
    CHECK(e.sp_ == 0x81000000);                          // SP_EL1 in use (SPSel = 1)
    CHECK(e.sp_el0_ == 0x80feff00);                      // EL0's SP saved in SP_EL0
}

TEST_CASE("exception levels: HVC from EL1 enters EL2 and SMC from EL2 enters EL3 with the banked registers", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(3, 0x82000000); // SP_EL3
    lv.write_register(VBAR_EL3, 0x80030000);
    lv.write_register(VBAR_EL2, 0x80020000);
    lv.write_register(SP_EL2, 0x82200000);
    lv.write_register(SP_EL1, 0x82100000);
    lv.write_register(ELR_EL3, 0x80001000);
    lv.write_register(SPSR_EL3, EL1h);
    CHECK(lv.exception_return().what == outcome::returned);
    CHECK(lv.el() == 1);
    CHECK(e.pc_ == 0x80001000);
    CHECK(e.pstate_ == EL1h);
    CHECK(e.sp_ == 0x82100000);
    // EL1 runs: Z set, a push; HVC #0x12 at 0x80001100.
    e.pstate_ = Z | EL1h;
    e.sp_ = 0x820ffff0;
    const exception_entry hvc = lv.take_exception(2, false, 0x5A000012, 0x80001104, std::nullopt);
    CHECK(hvc.offset == 0x400);
    CHECK(e.pc_ == 0x80020400);
    CHECK(lv.read_register(ELR_EL2) == 0x80001104);
    CHECK(lv.read_register(SPSR_EL2) == (Z | EL1h)); // 0x40000005
    CHECK(lv.read_register(ESR_EL2) == 0x5A000012);  // EC 0x16
    CHECK(lv.el() == 2);
    CHECK(lv.pstate() == (Z | DAIF | EL2h));
    CHECK(e.pstate_ == (Z | DAIF | EL1h));            // the engine's EL1h
    CHECK(e.sp_ == 0x82200000);                       // SP_EL2
    CHECK(e.sp_el1_ == 0x82200000);                   // in the engine's SP_EL1 slot
    CHECK(lv.read_register(SP_EL1) == 0x820ffff0);    // EL1's SP, saved
    CHECK(e.el1_[unsigned(r1::elr)] == 0);            // EL1's own registers untouched
    CHECK(e.el1_[unsigned(r1::esr)] == 0);
    CHECK(e.iss_els.back() == 2);
    // EL2 runs with DAIF still set; SMC #0 at 0x80020400 (preferred return: past it).
    const exception_entry smc = lv.take_exception(3, false, 0x5E000000, 0x80020404, std::nullopt);
    CHECK(smc.from_el == 2);
    CHECK(smc.offset == 0x400);
    CHECK(e.pc_ == 0x80030400);
    CHECK(lv.read_register(SPSR_EL3) == (Z | DAIF | EL2h)); // 0x400003C9
    CHECK(lv.read_register(ELR_EL3) == 0x80020404);
    CHECK(lv.read_register(ESR_EL3) == 0x5E000000);         // EC 0x17
    CHECK(lv.read_register(ESR_EL2) == 0x5A000012);         // EL2's bank untouched
    CHECK(e.sp_ == 0x82000000);                              // SP_EL3 kept since the ERET
    CHECK(lv.read_register(SP_EL2) == 0x82200000);
}

TEST_CASE("exception levels: the same EL with SP0 or SPx and IRQ or synchronous use their vector offsets", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(1, 0x81000000);
    e.el1_[unsigned(r1::vbar)] = 0x80010000;
    e.sp_el0_ = 0x80f00000;
    lv.set_spsel(false); // EL1t: SP_EL0 in use
    CHECK(lv.pstate() == (DAIF | EL1t));
    CHECK(e.sp_ == 0x80f00000);
    CHECK(e.sp_el1_ == 0x81000000);
    // Synchronous from EL1t: current EL with SP0, +0x000.
    auto x = lv.take_exception(1, false, 0x02000000, 0x80003000, std::nullopt);
    CHECK(x.offset == 0x000);
    CHECK(e.pc_ == 0x80010000);
    CHECK(e.el1_[unsigned(r1::spsr)] == (DAIF | EL1t)); // 0x3C4
    CHECK(e.sp_ == 0x81000000);                         // SPSel = 1 on entry: SP_EL1
    CHECK(e.sp_el0_ == 0x80f00000);
    // IRQ from EL1h with DAIF clear: current EL with SPx, +0x280; no ESR written.
    e.pstate_ = EL1h;
    x = lv.take_exception(1, true, 0, 0x80003100, std::nullopt);
    CHECK(x.offset == 0x280);
    CHECK(e.pc_ == 0x80010280);
    CHECK(e.el1_[unsigned(r1::esr)] == 0x02000000); // the synchronous one's, kept
    CHECK(e.el1_[unsigned(r1::spsr)] == EL1h);
    CHECK(e.el1_[unsigned(r1::elr)] == 0x80003100);
    CHECK(lv.pstate() == (DAIF | EL1h));            // DAIF set on entry
    // IRQ from EL1t: +0x080.
    e.pstate_ = EL1h;
    lv.set_spsel(false);
    x = lv.take_exception(1, true, 0, 0x80003200, std::nullopt);
    CHECK(x.offset == 0x080);
    CHECK(e.el1_[unsigned(r1::spsr)] == EL1t);
    // IRQ from EL0: lower EL, +0x480.
    e.el1_[unsigned(r1::spsr)] = EL0t;
    e.el1_[unsigned(r1::elr)] = 0x80005000;
    REQUIRE(lv.exception_return().what == outcome::returned);
    x = lv.take_exception(1, true, 0, 0x80005004, std::nullopt);
    CHECK(x.offset == 0x480);
    CHECK(e.pc_ == 0x80010480);
    // At EL2: synchronous from EL2h +0x200, IRQ from EL2t +0x080 (VBAR_EL2).
    fake_engine e2;
    exception_levels lv2(e2);
    lv2.reset(2, 0x82000000);
    lv2.write_register(VBAR_EL2, 0x80020000);
    x = lv2.take_exception(2, false, 0x02000000, 0x80006000, std::nullopt);
    CHECK(x.offset == 0x200);
    CHECK(e2.pc_ == 0x80020200);
    CHECK(lv2.read_register(SPSR_EL2) == (DAIF | EL2h));
    e2.pstate_ = EL1h; // DAIF clear
    lv2.set_spsel(false);
    x = lv2.take_exception(2, true, 0, 0x80006100, std::nullopt);
    CHECK(x.offset == 0x080);
    CHECK(e2.pc_ == 0x80020080);
    CHECK(lv2.read_register(SPSR_EL2) == EL2t);
    CHECK(lv2.read_register(ESR_EL2) == 0x02000000);
}

TEST_CASE("exception levels: ERET to each EL restores PC PSTATE and the stack pointer of that EL and SPSel", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(3, 0x83000000);
    lv.write_register(SP_EL2, 0x82000000);
    lv.write_register(SP_EL1, 0x81000000);
    e.sp_el0_ = 0x80000800;
    // EL3 -> EL2h with Z, D, F.
    lv.write_register(SPSR_EL3, Z | D | F | EL2h);
    lv.write_register(ELR_EL3, 0x80002000);
    CHECK(lv.exception_return().what == outcome::returned);
    CHECK(lv.el() == 2);
    CHECK(e.pc_ == 0x80002000);
    CHECK(lv.pstate() == (Z | D | F | EL2h)); // 0x40000249
    CHECK(e.pstate_ == (Z | D | F | EL1h));   // 0x40000245
    CHECK(e.sp_ == 0x82000000);
    CHECK(e.iss_els.back() == 2);
    // EL2 -> EL1t with N.
    lv.write_register(SPSR_EL2, N | EL1t);
    lv.write_register(ELR_EL2, 0x80003000);
    CHECK(lv.exception_return().what == outcome::returned);
    CHECK(lv.el() == 1);
    CHECK(lv.pstate() == (N | EL1t));
    CHECK(e.sp_ == 0x80000800);    // SP_EL0
    CHECK(e.sp_el1_ == 0x81000000); // SP_EL1 in its slot
    // EL1 -> EL0 with A.
    e.el1_[unsigned(r1::spsr)] = A | EL0t;
    e.el1_[unsigned(r1::elr)] = 0x80004000;
    CHECK(lv.exception_return().what == outcome::returned);
    CHECK(lv.el() == 0);
    CHECK(e.pc_ == 0x80004000);
    CHECK(lv.pstate() == A);
    CHECK(e.pstate_ == A);          // the engine's EL0t
    CHECK(e.sp_ == 0x80000800);
    // EL3 -> EL3t and EL3 -> EL1h (C).
    fake_engine e3;
    exception_levels lv3(e3);
    lv3.reset(3, 0x83000000);
    e3.sp_el0_ = 0x80000400;
    lv3.write_register(SPSR_EL3, EL3t);
    lv3.write_register(ELR_EL3, 0x80005000);
    CHECK(lv3.exception_return().what == outcome::returned);
    CHECK(lv3.el() == 3);
    CHECK(lv3.pstate() == EL3t);
    CHECK(e3.sp_ == 0x80000400);
    lv3.write_register(SPSR_EL3, C | EL1h);
    lv3.write_register(SP_EL1, 0x81100000);
    CHECK(lv3.exception_return().what == outcome::returned);
    CHECK(lv3.pstate() == (C | EL1h));
    CHECK(e3.sp_ == 0x81100000);
    CHECK(e3.iss_els.back() == 1);
}

TEST_CASE("exception levels: an illegal return to a higher EL keeps the EL sets PSTATE.IL and takes EC 0x0E", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(1, 0x81000000);
    e.el1_[unsigned(r1::vbar)] = 0x80010000;
    e.pstate_ = EL1h; // DAIF clear
    e.el1_[unsigned(r1::spsr)] = N | I | EL2h; // a return to EL2 from EL1
    e.el1_[unsigned(r1::elr)] = 0x80004000;
    const auto r = lv.exception_return();
    CHECK(r.what == outcome::illegal);
    CHECK(lv.el() == 1);
    CHECK(e.pc_ == 0x80004000);
    CHECK(lv.pstate() == (N | I | EL1h)); // NZCV, DAIF from the SPSR; EL1 and SPSel kept
    CHECK(e.sp_ == 0x81000000);
    CHECK(lv.illegal_state());
    const exception_entry x = lv.take_illegal_state_exception();
    CHECK(x.to_el == 1);
    CHECK(x.offset == 0x200);                               // current EL with SPx
    CHECK(e.pc_ == 0x80010200);
    CHECK(e.el1_[unsigned(r1::esr)] == 0x3A000000);         // EC 0x0E << 26 | IL
    CHECK(e.el1_[unsigned(r1::elr)] == 0x80004000);         // the instruction at ELR
    CHECK(e.el1_[unsigned(r1::spsr)] == (N | IL | I | EL1h)); // 0x80100085
    CHECK_FALSE(lv.illegal_state());                       // PSTATE.IL = 0 on entry
}

TEST_CASE("exception levels: returns to EL2 where disabled to AArch32 with M1 or EL0 SPx or under TGE are illegal", "[iss]") {
    // EL3 Secure (SCR_EL3.NS = 0) without SCR_EL3.EEL2: EL2 is disabled; a return to EL2h is illegal.
    {
        fake_engine e;
        e.scr = SCR_RW;
        exception_levels lv(e);
        lv.reset(3, 0x83000000);
        lv.write_register(VBAR_EL3, 0x80030000);
        lv.write_register(SPSR_EL3, EL2h);
        lv.write_register(ELR_EL3, 0x80002000);
        CHECK(lv.exception_return().what == outcome::illegal);
        CHECK(lv.el() == 3);
        CHECK(lv.pstate() == EL3h);
        lv.take_illegal_state_exception();
        CHECK(e.pc_ == 0x80030200);
        CHECK(lv.read_register(ESR_EL3) == 0x3A000000);
        CHECK(lv.read_register(SPSR_EL3) == (IL | EL3h)); // 0x10000D
        CHECK(lv.read_register(ELR_EL3) == 0x80002000);
        // With SCR_EL3.EEL2 Secure EL2 is enabled: the same return is legal.
        e.scr = SCR_RW | SCR_EEL2;
        lv.write_register(SPSR_EL3, EL2h);
        CHECK(lv.exception_return().what == outcome::returned);
        CHECK(lv.el() == 2);
    }
    // From EL1: M[4] = 1 (AArch32 User, 0b10000: no AArch32 here), M[1] = 1 (0b0110), EL0 with
    // SPSel = 1 (0b0001): each illegal, EL1 kept.
    for (uint64_t spsr : {uint64_t(0x10), uint64_t(0x6), uint64_t(0x1)}) {
        fake_engine e;
        exception_levels lv(e);
        lv.reset(1, 0x81000000);
        e.el1_[unsigned(r1::spsr)] = spsr;
        e.el1_[unsigned(r1::elr)] = 0x80004000;
        CHECK(lv.exception_return().what == outcome::illegal);
        CHECK(lv.el() == 1);
        CHECK(e.pc_ == 0x80004000);
        CHECK(lv.illegal_state());
    }
    // From EL2 (Non-secure, EL2 enabled) with HCR_EL2.TGE = 1: a return to EL1 is illegal, one to
    // EL0 is not; with TGE = 0 the return to EL1 is legal. From EL2 to EL3: higher, illegal.
    {
        fake_engine e;
        e.hcr = HCR_TGE;
        exception_levels lv(e);
        lv.reset(2, 0x82000000);
        lv.write_register(SPSR_EL2, EL1h);
        CHECK(lv.exception_return().what == outcome::illegal);
        CHECK(lv.el() == 2);
        lv.write_register(SPSR_EL2, EL3h);
        CHECK(lv.exception_return().what == outcome::illegal);
        lv.write_register(SPSR_EL2, EL0t);
        CHECK(lv.exception_return().what == outcome::returned);
        CHECK(lv.el() == 0);
    }
    {
        fake_engine e;
        exception_levels lv(e);
        lv.reset(2, 0x82000000);
        lv.write_register(SPSR_EL2, EL1h);
        CHECK(lv.exception_return().what == outcome::returned);
        CHECK(lv.el() == 1);
    }
}

TEST_CASE("exception levels: a legal return with SPSR.IL set changes EL and the next instruction takes EC 0x0E there", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(2, 0x82000000);
    lv.write_register(SP_EL1, 0x81000000);
    e.el1_[unsigned(r1::vbar)] = 0x80010000;
    lv.write_register(SPSR_EL2, IL | EL1h);
    lv.write_register(ELR_EL2, 0x80004000);
    CHECK(lv.exception_return().what == outcome::returned);
    CHECK(lv.el() == 1);
    CHECK(lv.illegal_state());
    const exception_entry x = lv.take_illegal_state_exception();
    CHECK(x.from_el == 1);
    CHECK(x.to_el == 1);
    CHECK(e.pc_ == 0x80010200);
    CHECK(e.el1_[unsigned(r1::esr)] == 0x3A000000);
    CHECK(e.el1_[unsigned(r1::elr)] == 0x80004000);
    CHECK(e.el1_[unsigned(r1::spsr)] == (IL | EL1h)); // 0x100005
}

TEST_CASE("exception levels: ERET at EL0 is UNDEFINED and with SCR_EL3.RW clear is not modelled and nothing changes", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(0, 0x80000800);
    e.pc_ = 0x80001000;
    CHECK(lv.exception_return().what == outcome::undefined);
    CHECK(lv.el() == 0);
    CHECK(e.pc_ == 0x80001000);
    fake_engine e3;
    e3.scr = SCR_NS;
    exception_levels lv3(e3);
    lv3.reset(3, 0x83000000);
    lv3.write_register(SPSR_EL3, EL1h);
    lv3.write_register(ELR_EL3, 0x80002000);
    e3.pc_ = 0x80001000;
    const auto r = lv3.exception_return();
    CHECK(r.what == outcome::not_modelled);
    CHECK(r.target_el == 1);
    CHECK(lv3.el() == 3);
    CHECK(e3.pc_ == 0x80001000);
}

TEST_CASE("exception levels: EL2 and EL3 banks and SPSel and the Security state reported once per change", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(3, 0x83000000);
    CHECK_FALSE(lv.security_change()); // EL3 is Secure, as reported at reset
    lv.write_register(FAR_EL2, 0xfa2);
    lv.write_register(SPSR_EL12, 0x12);   // an alias of VHE: stored, not SPSR_EL2
    lv.write_register(HPFAR_EL2, 0x4000); // a register nobody models: stored
    CHECK(lv.read_register(FAR_EL2) == 0xfa2);
    CHECK(lv.read_register(SPSR_EL2) == 0);
    CHECK(lv.read_register(SPSR_EL12) == 0x12);
    CHECK(lv.read_register(HPFAR_EL2) == 0x4000);
    CHECK(lv.stored_register(HPFAR_EL2) == 0x4000);
    CHECK(lv.stored_register(FAR_EL2) == 0xfa2);
    CHECK(lv.stored_register(key(6, 2, 0, 2)) == 0); // TCR_EL3, never written
    CHECK(lv.vbar(2) == 0);
    lv.write_register(VBAR_EL2, 0x80020000);
    CHECK(lv.vbar(2) == 0x80020000);
    CHECK(lv.read_register(VBAR_EL3) == 0);
    // SPSel: reads 1 out of reset; 0 selects SP_EL0.
    CHECK(lv.spsel());
    e.sp_el0_ = 0x80000400;
    lv.set_spsel(false);
    CHECK_FALSE(lv.spsel());
    CHECK(e.sp_ == 0x80000400);
    lv.set_spsel(true);
    CHECK(e.sp_ == 0x83000000);
    // ERET to Non-secure EL1 (SCR_EL3.NS = 1): reported once; the SMC back to EL3 is Secure again.
    lv.write_register(SPSR_EL3, EL1h);
    REQUIRE(lv.exception_return().what == outcome::returned);
    CHECK(lv.security_change() == std::optional<bool>(false));
    CHECK_FALSE(lv.security_change());
    lv.write_register(VBAR_EL3, 0x80030000); // the ISS refuses this at EL1; the class stores
    lv.take_exception(3, false, 0x5E000000, 0x4, std::nullopt);
    CHECK(lv.security_change() == std::optional<bool>(true));
}

TEST_CASE("exception levels: a synchronous exception at the vector just entered with nothing retired is a loop", "[iss]") {
    fake_engine e;
    exception_levels lv(e);
    lv.reset(1, 0x81000000);
    e.el1_[unsigned(r1::vbar)] = 0x80010000;
    const exception_entry first = lv.take_exception(1, false, 0x02000000, 0x80001000, std::nullopt);
    CHECK_FALSE(lv.loops(first, 10));
    // The vector's instruction (+0x200) is UNDEFINED: the next exception's ELR is that vector.
    const exception_entry again = lv.take_exception(1, false, 0x02000000, 0x80010200, std::nullopt);
    CHECK(lv.loops(again, 10));
    CHECK_FALSE(lv.loops(again, 11)); // an instruction retired in between (the record moved on)
    const exception_entry irq = lv.take_exception(1, true, 0, 0x80010280, std::nullopt);
    CHECK_FALSE(lv.loops(irq, 11));
}
