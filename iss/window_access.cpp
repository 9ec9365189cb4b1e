// Memory outside plain memory: a load or store the engine's stage 2 refused is a stage 1 fault of
// the code's own tables or a window access through the gate (docs/firmware.md "Memory outside plain
// memory and stage 1 faults"), and the one-instruction MMIO slow path. Members of aarch64_iss.
#include "iss/aarch64_iss.h"
#include "iss/a64_encoding.h"
#include "iss/unicorn_calls.h"
#include "iss/load_store.h"
#include "iss/stage1_walk.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <unicorn/unicorn.h>

#include "models/core.h"
#include "models/cpu_controls.h"
#include "models/input_error.h"
#include "models/interrupt_line.h"
#include "models/memory.h"
#include "models/register_access.h"

namespace pmusim {

using namespace sc_core;
using namespace a64;

// Stage 1 translation for the ISS's own reads of code and addresses (the engine translates by itself;
// uc_mem_read takes physical addresses): the same walk as the faults' (walk(), iss/stage1_walk.h)
// with no permission or access-flag check. translated: the MMU translated it (EL0/EL1 with
// SCTLR_EL1.M = 1); nullopt: the walk faults.
std::optional<uint64_t> aarch64_iss::stage1_translate(uint64_t va, bool& translated) const {
    const walk_result w = walk(va, false, false, false, true);
    translated = w.translated;
    if (w.fault != walk_fault::none) return std::nullopt;
    return w.pa;
}

// The engine splits an access wider than 4 bytes to an MMIO page into 4-byte callbacks (Unicorn
// 2.1.1: uc_mmio_map leaves impl.max_access_size 0, which qemu/softmmu/memory.c line 653 makes 4);
// the bus sees the instruction's one access, as on silicon. The callbacks inside the access
// the fault reported (address and size) are served from one gate access (a read) or gathered into
// one (a write); the second register of an LDP/STP is a second access of that size.
// The second register of an LDP/STP (or the upper half of a 16-byte access) follows the first as
// an access of the same size just after it: it is one bus access of its own.
void aarch64_iss::next_mmio_access(uint64_t address, bool is_write) {
    mmio_split& a = mmio_access_;
    const bool complete = is_write ? a.bytes_seen == (1u << a.size) - 1 : a.done;
    if (a.size > 4 && a.size <= 8 && complete && a.is_write == is_write && address == a.address + a.size) {
        a.address = address;
        a.done = false;
        a.bytes_seen = 0;
        a.value = 0;
    }
}

bool aarch64_iss::in_mmio_access(uint64_t address, unsigned size) const {
    return mmio_access_.size > 4 && mmio_access_.size <= 8 && address >= mmio_access_.address &&
           address + size <= mmio_access_.address + mmio_access_.size;
}

uint64_t aarch64_iss::on_mmio_read(uc_struct*, uint64_t offset, unsigned size, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    if (self->mmio_failed_) return 0;
    const uint64_t address = self->mmio_page_ + offset;
    self->next_mmio_access(address, false);
    if (self->in_mmio_access(address, size) && !self->mmio_access_.is_write) {
        mmio_split& a = self->mmio_access_;
        if (!a.done) {
            gate_result r = self->gate_access(false, false, a.address, a.size, 0, self->mmio_pc_);
            a.done = true;
            if (r.outcome != access_outcome::ok) {
                self->mmio_failed_ = true;
                self->mmio_error_ = r;
                self->engine_.stop().address = a.address;
                self->engine_.stop().is_write = false;
                return 0;
            }
            a.value = r.value;
        }
        const unsigned shift = unsigned(address - a.address) * 8;
        return size >= 8 ? a.value : (a.value >> shift) & ((uint64_t(1) << (size * 8)) - 1);
    }
    gate_result r = self->gate_access(false, false, address, size, 0, self->mmio_pc_);
    if (r.outcome != access_outcome::ok) {
        self->mmio_failed_ = true;
        self->mmio_error_ = r;
        self->engine_.stop().address = self->mmio_page_ + offset;
        self->engine_.stop().is_write = false;
        return 0;
    }
    return r.value;
}

void aarch64_iss::on_mmio_write(uc_struct*, uint64_t offset, unsigned size, uint64_t value, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    if (self->mmio_failed_) return;
    uint64_t address = self->mmio_page_ + offset;
    self->next_mmio_access(address, true);
    if (self->in_mmio_access(address, size) && self->mmio_access_.is_write) {
        mmio_split& a = self->mmio_access_;
        const unsigned at = unsigned(address - a.address);
        for (unsigned i = 0; i < size; ++i) {
            a.value = (a.value & ~(uint64_t(0xff) << (8 * (at + i)))) | (((value >> (8 * i)) & 0xff) << (8 * (at + i)));
            a.bytes_seen |= 1u << (at + i);
        }
        if (a.bytes_seen != (1u << a.size) - 1) return; // the rest of the access follows
        address = a.address;
        size = a.size;
        value = a.value;
    }
    gate_result r = self->gate_access(true, false, address, size, value, self->mmio_pc_);
    if (r.outcome != access_outcome::ok && r.outcome != access_outcome::ignored) {
        self->mmio_failed_ = true;
        self->mmio_error_ = r;
        self->engine_.stop().address = address;
        self->engine_.stop().is_write = true;
    }
}

void aarch64_iss::handle_memory(uint64_t pc, const stop_info& first_stop) {
    const stop_info st = first_stop; // a copy: the single step below overwrites the engine's stop, which it may name
    // The instruction starts now: synchronise, then execute it alone with its page mapped as
    // MMIO, whose callbacks are TLM transactions at this instant.
    sync();
    uint64_t page = st.address & ~(page_size - 1);
    if (in_plain_memory(page) || (st.address + st.size - 1) / page_size != page / page_size) {
        // Straddles plain memory and a window, or two pages: not modelled.
        fail(3, fmt::format("{}: a {}-byte access at {:#x} crosses a page boundary outside plain memory", where(pc),
                            st.size, st.address));
    }
    uc_context* saved = nullptr;
    check(uc_context_alloc(uc_, &saved), "saving the context");
    uc_context_save(uc_, saved);
    mmio_page_ = page;
    mmio_pc_ = pc;
    mmio_failed_ = false;
    mmio_access_ = {};
    mmio_access_.address = st.address;
    mmio_access_.size = st.size;
    mmio_access_.is_write = st.is_write;
    check(uc_mmio_map(uc_, page, page_size, &aarch64_iss::on_mmio_read, this, &aarch64_iss::on_mmio_write, this), "mapping MMIO");
    skip_breakpoint_at(pc);
    run_until(pc, pc + 4);
    uc_err e = uc_err(engine_.last_error());
    uc_mem_unmap(uc_, page, page_size);
    bool failed = mmio_failed_;
    stop_info second = engine_.stop();
    if (failed) {
        uc_context_restore(uc_, saved);
        uc_context_free(saved);
        uint64_t far = second.address;
        unsigned target = routing().same_or_el1();
        if ((scr() >> scr_ea) & 1) target = 3;
        uint32_t ec = target == el() ? ec_dabort_same : ec_dabort_lower;
        // ISS: WnR [6], DFSC [5:0] = 0b010000 synchronous external abort (Arm ARM D17.2.37).
        const uint64_t syndrome = esr::syndrome(ec, (second.is_write ? 1u << 6 : 0) | 0x10);
        take_exception(target, false, syndrome, pc, far);
        return;
    }
    uc_context_free(saved);
    if (e != UC_ERR_OK || engine_pc() != pc + 4) {
        if (second.kind == stop_kind::memory)
            fail(3, fmt::format("{}: an instruction accessing {:#x} and {:#x} outside plain memory is not modelled", where(pc),
                                st.address, second.address));
        if (second.kind == stop_kind::exception) { handle_exception(engine_pc(), second.intno); return; }
        fail(3, fmt::format("{}: single-stepping the MMIO access at {:#x} failed: {}", where(pc), st.address, uc_strerror(e)));
    }
    retire(1);
}

// HCR_EL2 of the engine (not the ISS's, which is the gate's register): RW [31] (EL1 is AArch64),
// VM [0] (stage 2 on) and, while the ISS runs EL2 or EL3 code, DC [12] (engine_hcr_dc). The EL1&0
// TLB entries combine both stages: a change flushes them.
uint64_t aarch64_iss::engine_hcr(bool stage2) const {
    constexpr uint64_t rw = uint64_t(1) << 31, dc = uint64_t(1) << 12, vm = 1;
    return rw | (stage2 ? vm | (engine_hcr_dc_ ? dc : 0) : 0);
}

void aarch64_iss::engine_stage2(bool on) {
    uc_arm64_cp_reg hcr{1, 1, 3, 4, 0, engine_hcr(on)};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &hcr);
    flush_tlb();
}

// EL2 and EL3 have translation regimes of their own, separate from EL1&0's (Arm ARM D8.1
// "Translation regimes"); the ISS runs them untranslated (SCTLR_EL2/EL3 stored, not applied). The
// engine runs their code at its EL1, where EL1&0's stage 1 (SCTLR_EL1.M, TTBR0/1_EL1) would apply:
// so while the ISS is at EL2 or EL3 the engine's HCR_EL2.DC [12] is 1, with which "the PE behaves as
// if the value of the SCTLR_EL1.M field is 0 for all purposes other than returning the value of a
// direct read of SCTLR_EL1" (Arm ARM DDI 0487, HCR_EL2, DC; Unicorn 2.1.1 helper.c
// regime_translation_disabled: HCR.DC and a stage 1 of two stages; stage 2 stays on, as DC also
// makes VM behave as 1). EL1's SCTLR_EL1, TCR and TTBRs stay as EL1 left them: MRS SCTLR_EL1 at EL3 reads
// EL1's value, and an MSR that turns EL1's MMU on from EL3 leaves EL3 untranslated. Called at every
// EL change (load_pstate); it costs a compare when the EL stays on its side. The engine's TLB holds
// the EL1&0 entries of one setting: flushed when the switch changes the translation (EL1's MMU on);
// with it off both settings are flat and the switch is one register write.
void aarch64_iss::follow_el_translation() {
    const bool flat = el() > 1;
    if (flat == engine_hcr_dc_) return;
    engine_hcr_dc_ = flat;
    uc_arm64_cp_reg hcr{1, 1, 3, 4, 0, engine_hcr(true)};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &hcr);
    if (engine_sctlr_el1() & 1) flush_tlb();
}

// The stage 1 walk of `va` for this CPU's EL1&0 regime now (iss/stage1_walk.h).
walk_result aarch64_iss::walk(uint64_t va, bool write, bool fetch, bool el0, bool translate_only) const {
    walk_request r;
    r.translate_only = translate_only;
    r.va = va;
    r.write = write;
    r.fetch = fetch;
    r.el0 = el0;
    r.pa_bits = pa_bits();
    // The ISS reads its own instruction words through this walk at every engine exit: at EL2/EL3
    // (untranslated) no engine register is read, at EL0/EL1 with the MMU off only SCTLR and TCR.
    if (el() > 1) {
        // TCR_EL2/TCR_EL3 (stored by the ISS): TBI [20], TBID [29] (data accesses only).
        const uint64_t tcr_elx = levels_.stored_register(key(3, el() == 3 ? 6 : 4, 2, 0, 2));
        r.flat_tbi = ((tcr_elx >> 20) & 1) && !(fetch && ((tcr_elx >> 29) & 1));
    } else {
        uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, 0}, tcr{2, 0, 3, 0, 2, 0};
        uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &sctlr);
        uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &tcr);
        r.sctlr = sctlr.val;
        r.tcr = tcr.val;
        if (sctlr.val & 1) {
            uc_arm64_cp_reg ttbr0{2, 0, 3, 0, 0, 0}, ttbr1{2, 0, 3, 0, 1, 0};
            uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &ttbr0);
            uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &ttbr1);
            r.ttbr0 = ttbr0.val;
            r.ttbr1 = ttbr1.val;
        }
        r.flat_tbi = el10_top_byte_ignored(tcr.val, va, fetch);
    }
    return stage1_walk(r, [this](uint64_t pa, uint64_t& value) {
        return in_plain_memory(pa) && uc_mem_read(uc_, pa, &value, 8) == UC_ERR_OK;
    });
}

// The PA size: the engine CPU's ID_AA64MMFR0_EL1.PARange, as code reads it (read once: an ID
// register does not change).
unsigned aarch64_iss::pa_bits() const {
    if (!pa_bits_) {
        uc_arm64_cp_reg mmfr0{0, 7, 3, 0, 0, 0};
        uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &mmfr0);
        pa_bits_ = pa_range_bits(unsigned(mmfr0.val & 0xf));
    }
    return pa_bits_;
}

// A stage 1 fault, taken as the architecture takes it (Arm ARM D1.10 exception entry; ESR_ELx
// D17.2.40): EC 0x24/0x25 data abort (0x20/0x21 instruction abort) from a lower / the same EL,
// ISS = WnR [6] (data) | DFSC/IFSC; FAR_ELx = the faulting virtual address; ELR = the instruction.
void aarch64_iss::take_stage1_fault(uint64_t pc, uint64_t va, bool fetch, bool write, const walk_result& w) {
    const unsigned target = routing().same_or_el1();
    const uint32_t ec = fetch ? (target == el() ? 0x21u : 0x20u) : (target == el() ? uint32_t(ec_dabort_same) : uint32_t(ec_dabort_lower));
    take_exception(target, false, esr::syndrome(ec, w.status_code() | (!fetch && write ? 1u << 6 : 0)), pc, va);
}

// The engine stopped on a data abort at `pc`: a fault of the code's own stage 1 tables (a page
// fault: delivered to EL1 with the syndrome and FAR the ISS's walk gives), or an access outside
// plain memory (the engine's stage 2: performed through the gate).
void aarch64_iss::data_abort(uint64_t pc, uint32_t word) {
    const auto r = decode_access_range(word);
    if (!r) { // a form whose address the ISS does not decode: a window access run by the engine
        window_access(pc);
        return;
    }
    uint64_t va = 0;
    if (r->dc_zva) va = read_x(r->rn) & ~uint64_t(63);
    else {
        uint64_t sp = 0;
        uc_reg_read(uc_, UC_ARM64_REG_SP, &sp);
        const uint64_t base = r->rn == 31 ? sp : read_x(r->rn);
        const uint64_t offset = r->register_offset ? extend_register(read_x(r->rm), r->extend, r->shift) : uint64_t(r->offset);
        va = r->post_index ? base : base + offset;
    }
    const bool el0 = el() == 0 || r->unprivileged;
    walk_result first{};
    for (uint64_t a : {va, va + r->bytes - 1}) {
        const walk_result w = walk(a, r->is_write, false, el0);
        if (w.fault != walk_fault::none) {
            take_stage1_fault(pc, a == va ? va : (a & ~uint64_t(0xfff)), false, r->is_write, w);
            return;
        }
        if (a == va) first = w;
    }
    if (!in_plain_memory(first.pa)) {
        if (!emulate_load_store(pc)) window_access(pc);
        return;
    }
    fail(3, fmt::format("{}: a data abort at {:#x} (physical {:#x}, plain memory) that the ISS's stage 1 walk finds no "
                        "fault for (an alignment fault?): not modelled", where(pc), va, first.pa));
}

void aarch64_iss::prefetch_abort(uint64_t pc) {
    const walk_result w = walk(pc, false, true, el() == 0);
    if (w.fault != walk_fault::none) {
        take_stage1_fault(pc, pc, true, false, w);
        return;
    }
    if (!in_plain_memory(w.pa))
        fail(2, fmt::format("{}: instruction fetch from {:#x} (physical {:#x}), outside the platform's plain memory", where(pc),
                            pc, w.pa));
    fail(3, fmt::format("{}: an instruction abort that the ISS's stage 1 walk finds no fault for: not modelled", where(pc)));
}

// A general-purpose load or store outside plain memory, performed by the ISS from its decoding
// (iss/load_store.h): each register's access is one access through the gate at this instant, at the
// physical address the code's stage 1 tables give; the registers, the writeback and the PC as the
// instruction leaves them. false: not one of those forms (window_access runs it in the engine).
bool aarch64_iss::emulate_load_store(uint64_t pc) {
    const auto a = decode_load_store(fetch_word(pc));
    if (!a) return false;
    uint64_t sp = 0;
    uc_reg_read(uc_, UC_ARM64_REG_SP, &sp);
    const uint64_t base = a->rn == 31 ? sp : read_x(a->rn);
    const uint64_t offset = a->register_offset ? extend_register(read_x(a->rm), a->extend, a->shift) : uint64_t(a->offset);
    const uint64_t va = a->post_index ? base : base + offset;
    const unsigned count = a->pair ? 2 : 1, total = a->bytes * count;
    bool translated = false;
    const auto first = stage1_translate(va, translated), last = stage1_translate(va + total - 1, translated);
    if (!first || !last)
        fail(3, fmt::format("{}: a data abort of the stage 1 translation of {:#x} (the code's own page tables): the engine's "
                            "EL1 exception entry with its syndrome is not modelled yet (docs/firmware.md \"What the ISS leaves out\")",
                            where(pc), va));
    if (*last - *first != total - 1)
        fail(3, fmt::format("{}: a {}-byte access at {:#x} crosses a page boundary outside plain memory", where(pc), total, va));
    if (in_plain_memory(*first) || in_plain_memory(*last))
        fail(3, fmt::format("{}: a data abort on plain memory at {:#x} (physical {:#x}): a stage 1 permission, access flag or "
                            "alignment fault, whose EL1 exception entry is not modelled yet", where(pc), va, *first));
    const uint64_t mask = a->bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * a->bytes)) - 1;
    uint64_t loaded[2] = {};
    for (unsigned i = 0; i < count; ++i) {
        const unsigned rt = i ? a->rt2 : a->rt;
        gate_result g = gate_access(!a->is_load, false, *first + i * a->bytes, a->bytes, a->is_load ? 0 : read_x(rt) & mask, pc);
        const bool done = g.outcome == access_outcome::ok || (!a->is_load && g.outcome == access_outcome::ignored);
        if (!done) {
            // The bus refused it: a synchronous external abort (as handle_memory), FAR = the virtual address.
            unsigned target = routing().same_or_el1();
            if ((scr() >> scr_ea) & 1) target = 3;
            const uint32_t ec = target == el() ? ec_dabort_same : ec_dabort_lower;
            take_exception(target, false, esr::syndrome(ec, (a->is_load ? 0 : 1u << 6) | 0x10), pc, va + i * a->bytes);
            return true;
        }
        loaded[i] = g.value & mask;
    }
    if (a->is_load)
        for (unsigned i = 0; i < count; ++i) {
            uint64_t v = loaded[i];
            if (a->sign_extend && a->bytes < 8) v = uint64_t(int64_t(v << (64 - 8 * a->bytes)) >> (64 - 8 * a->bytes));
            if (a->to_w) v &= 0xffffffffu;
            write_x(i ? a->rt2 : a->rt, v);
        }
    if (a->writeback) {
        const uint64_t updated = base + offset;
        if (a->rn == 31) uc_reg_write(uc_, UC_ARM64_REG_SP, &updated);
        else write_x(a->rn, updated);
    }
    set_pc(pc + 4);
    retire(1);
    return true;
}

// The engine stopped on a data abort (EXCP_DATA_ABORT) at `pc`, with the instruction not executed.
// Under the engine's stage 2 it means the access is outside plain memory, unless the code's own
// stage 1 tables fault. Without stage 2 the instruction alone runs again: an access outside plain
// memory now reaches the unmapped-memory hook with its physical address, size and direction, and
// handle_memory performs it through the gate at this instant; a data abort again is the stage 1
// translation's own.
void aarch64_iss::window_access(uint64_t pc) {
    // Without stage 2 HCR_EL2.DC is off too (it would turn stage 2 on): at EL2/EL3 the engine's
    // SCTLR_EL1.M is cleared for the one instruction instead (a raw write; engine_stage2 flushes).
    struct stage2_off {
        aarch64_iss& iss;
        uint64_t sctlr_el1 = 0;
        explicit stage2_off(aarch64_iss& i) : iss(i) {
            if (iss.el() > 1 && ((sctlr_el1 = iss.engine_sctlr_el1()) & 1)) iss.set_engine_sctlr_el1(sctlr_el1 & ~uint64_t(1));
            iss.engine_stage2(false);
        }
        ~stage2_off() {
            if (sctlr_el1 & 1) iss.set_engine_sctlr_el1(sctlr_el1);
            iss.engine_stage2(true);
        }
    } off(*this);
    skip_breakpoint_at(pc);
    run_until(pc, pc + 4);
    const stop_info st = engine_.stop();
    if (st.kind == stop_kind::memory) {
        handle_memory(pc, st);
        return;
    }
    if (st.kind == stop_kind::exception && st.intno == excp_data_abort)
        fail(3, fmt::format("{}: a data abort of the stage 1 translation (the code's own page tables): the engine's "
                            "EL1 exception entry with its syndrome is not modelled yet (docs/firmware.md \"What the ISS leaves out\")",
                            where(pc)));
    fail(3, fmt::format("{}: an access outside plain memory that stage 2 refused did not repeat without it (stop {})",
                        where(pc), int(st.kind)));
}

} // namespace pmusim
