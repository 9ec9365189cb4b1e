#pragma once
// The exception levels as the ISS models them around an engine that runs EL0 at its EL0 and EL1-EL3
// at its EL1 (docs/firmware.md "Exceptions the ISS delivers"): the state the engine does not hold
// (the current EL, SP_EL0..SP_EL3, ELR/SPSR/ESR/FAR/VBAR of EL2 and EL3, the other EL2/EL3
// registers, PSTATE.IL, the Security state last reported) and the mechanics over it: exception
// entry, ERET with the illegal-return rules, PSTATE and stack-pointer selection. It reads and writes
// the engine's registers through engine_register_file (a fake one in the unit tests) and asks
// exception_routing for the decisions. No time, no logging: aarch64_iss does those around the calls.
// Sources: Arm ARM DDI 0487 D1.10 (exception entry, AArch64.TakeException), D1.10.2 (vectors),
// the ERET rules (AArch64.ExceptionReturn, IllegalExceptionReturn, ELFromSPSR, SetPSTATEFromPSR;
// "Illegal return events from AArch64 state", "Legal returns that set PSTATE.IL to 1"), the
// SPSR_ELx, ELR_ELx, ESR_ELx and SP_ELx pages.
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "iss/exception_routing.h"

namespace pmusim {

// The registers exception_levels reads and writes outside itself: those the engine holds, and the
// control registers the firmware gate holds.
class engine_register_file {
public:
    virtual ~engine_register_file() = default;
    virtual uint64_t pc() const = 0;
    virtual void set_pc(uint64_t pc) = 0;
    // The engine's PSTATE: NZCV [31:28], DAIF [9:6], M[3:0] = the engine's EL << 2 | SPSel.
    virtual uint64_t pstate() const = 0;
    // Writes it; the engine takes the new EL and SPSel for what it caches of them.
    virtual void set_pstate(uint64_t pstate) = 0;
    // The ISS's EL is `el` from now on (before each PSTATE write): the engine follows its
    // translation regime (aarch64_iss: EL2 and EL3 run untranslated).
    virtual void set_iss_el(unsigned el) = 0;
    // The stack pointer in use (SP), and the engine's banked SP_EL0 and SP_EL1.
    virtual uint64_t sp() const = 0;
    virtual void set_sp(uint64_t sp) = 0;
    virtual uint64_t sp_el0() const = 0;
    virtual void set_sp_el0(uint64_t sp) = 0;
    virtual uint64_t sp_el1() const = 0;
    virtual void set_sp_el1(uint64_t sp) = 0;
    // The EL1 registers of exception entry and return, which the engine holds.
    enum class el1_register { elr, spsr, esr, far, vbar };
    virtual uint64_t el1(el1_register r) const = 0;
    virtual void set_el1(el1_register r, uint64_t value) = 0;
    // The control registers (the gate's).
    virtual uint64_t scr_el3() const = 0;
    virtual uint64_t hcr_el2() const = 0;
};

// One exception taken: what entry wrote, for the caller's log, trace and checks.
struct exception_entry {
    unsigned from_el = 0, to_el = 0;
    bool irq = false;
    uint64_t esr = 0;  // written to ESR_ELx (not for an IRQ)
    uint64_t elr = 0;
    std::optional<uint64_t> far;
    uint64_t spsr = 0;
    uint64_t vbar = 0, offset = 0, vector = 0; // vector = VBAR_ELx of the target + offset: the new PC
};

// What an ERET did.
struct exception_return_result {
    enum class outcome {
        returned,     // to target_el: PC = ELR, PSTATE from the SPSR
        illegal,      // an illegal exception return: PC = ELR, EL and SPSel kept, PSTATE.IL = 1
        undefined,    // at EL0: UNDEFINED; nothing changed
        not_modelled, // from EL3 to EL1/EL2 with SCR_EL3.RW = 0 (AArch32 below EL3); nothing changed
    };
    outcome what = outcome::returned;
    unsigned from_el = 0, target_el = 0; // target_el: SPSR.M[3:2]
    uint64_t spsr = 0, elr = 0;
};

class exception_levels {
public:
    explicit exception_levels(engine_register_file& regs) : regs_(regs) {}

    // Out of reset at `el` (docs/firmware.md "Initial state"): every banked register 0 (VBAR_EL1
    // too), SP_ELx of that EL = `sp`, PSTATE.DAIF masked, SPSel = 1 (ELxh), PSTATE.IL = 0.
    void reset(unsigned el, uint64_t sp);

    unsigned el() const { return el_; }
    // PSTATE as the architecture has it: NZCV, DAIF, M[3:0] = EL << 2 | SPSel (SPSel 0 at EL0).
    uint64_t pstate() const;
    // PSTATE.IL: set by an illegal exception return or an ERET with SPSR.IL = 1; the next
    // instruction takes an Illegal Execution state exception (take_illegal_state_exception).
    bool illegal_state() const { return illegal_state_; }

    // The routing decisions at the current EL, over the control registers given (the caller's,
    // read once) or read now.
    exception_routing routing(uint64_t scr_el3, uint64_t hcr_el2) const;
    exception_routing routing() const { return routing(regs_.scr_el3(), regs_.hcr_el2()); }

    // Exception entry to `target_el` (AArch64.TakeException): SPSR_ELx = PSTATE (with IL),
    // ELR_ELx = `elr`, ESR_ELx = `esr` (not for an IRQ), FAR_ELx when given; PSTATE.DAIF = 1111,
    // SPSel = 1, IL = 0, EL = target; the stack pointers swapped; PC = VBAR_ELx + the vector offset.
    exception_entry take_exception(unsigned target_el, bool irq, uint64_t esr, uint64_t elr, std::optional<uint64_t> far);
    // The Illegal Execution state exception of the instruction at the PC (PSTATE.IL = 1): EC 0x0E,
    // IL 1, ELR = the PC, to the current EL or EL1 from EL0 (EL2 with HCR_EL2.TGE), as UNDEFINED.
    exception_entry take_illegal_state_exception();

    // ERET at the current EL (AArch64.ExceptionReturn).
    exception_return_result exception_return();

    // The stack pointers the engine holds, saved into SP_EL0..SP_EL3 (before anything reads them or
    // the EL or SPSel changes).
    void save_stack_pointers();
    // PSTATE.NZCV and DAIF from `nzcv_daif` and SPSel from its bit 0 (0 at EL0) at the current EL,
    // then the engine's stack pointers for them.
    void load_pstate(uint64_t nzcv_daif_spsel);
    // The engine's stack pointers from SP_EL0..SP_EL3 again, PSTATE unchanged.
    void reload_stack_pointers();
    bool spsel() const;
    void set_spsel(bool spsel);

    // The registers of EL2 and EL3 the ISS holds, by MRS/MSR key (a64::key; op1 = 4, 5 or 6):
    // SP_EL1 and SP_EL2, SPSR/ELR/ESR/FAR/VBAR_EL2 and _EL3, any other stored as written.
    uint64_t read_register(uint32_t key);
    void write_register(uint32_t key, uint64_t value);
    // The same for a register other than SP_EL1/SP_EL2, without changing anything (0 if never
    // written): e.g. TCR_EL2/TCR_EL3 for the ISS's own walk at EL2/EL3.
    uint64_t stored_register(uint32_t key) const;
    // VBAR_ELx of `el` (1..3).
    uint64_t vbar(unsigned el) const;

    // The Security state now (EL3, or SCR_EL3.NS = 0) when it differs from the one last reported;
    // it is then the one reported.
    std::optional<bool> security_change();
    void set_reported_security(bool secure) { reported_secure_ = secure; }

    // A synchronous exception whose preferred return is the vector the previous exception entered,
    // with no instruction retired since (`retired`: the count so far): it would loop at one
    // instant. Records this entry's vector either way.
    bool loops(const exception_entry& e, uint64_t retired);

private:
    void write_pstate(uint64_t nzcv_daif_spsel, bool keep_engine_pstate);
    const uint64_t* bank_slot(uint32_t key) const; // SPSR/ELR/ESR/FAR/VBAR of EL2 or EL3, else null
    uint64_t* bank_slot(uint32_t key) { return const_cast<uint64_t*>(std::as_const(*this).bank_slot(key)); }

    engine_register_file& regs_;
    unsigned el_ = 3;
    bool illegal_state_ = false;
    bool reported_secure_ = true;
    uint64_t sp_[4] = {}; // SP_EL0..SP_EL3 while not live in the engine
    uint64_t elr_[4] = {}, spsr_[4] = {}, esr_[4] = {}, far_[4] = {}, vbar_[4] = {}; // [2], [3] used
    std::map<uint32_t, uint64_t> el23_registers_; // other EL2/EL3 registers nobody models: stored
    uint64_t last_vector_ = ~uint64_t(0), retired_at_vector_ = 0;
};

} // namespace pmusim
