#include "iss/aarch64_iss.h"
#include "iss/access_groups.h"
#include "iss/cpu_identity.h"
#include "iss/load_store.h"
#include "iss/stage1_walk.h"
#include "iss/stage2_map.h"

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
#include "vp/platform.h"
#include "vp/run_recorder.h"

namespace pmusim {

using namespace sc_core;

namespace {

// A64 encodings (Arm ARM C6.2): the fixed words and the masks of the instruction classes
// the ISS decodes itself.
constexpr uint32_t insn_eret = 0xd69f03e0;
constexpr uint32_t insn_wfi = 0xd503207f, insn_wfe = 0xd503205f;
constexpr uint32_t insn_hlt_semihosting = 0xd45e0000; // HLT #0xF000 (Arm semihosting, AArch64)
constexpr uint32_t mask_exception_gen = 0xffe0001f;   // SVC/HVC/SMC: 0xd4000001/2/3 | imm16 << 5
constexpr uint32_t insn_svc = 0xd4000001, insn_hvc = 0xd4000002, insn_smc = 0xd4000003;
constexpr uint32_t mask_sysreg_move = 0xffd00000, insn_sysreg_move = 0xd5100000; // MSR/MRS (register)

// Instructions that access data memory in the engine: the A64 "Loads and Stores" encoding group
// (bits [28:25] x1x0; Unicorn 2.0.1's disas_ldst) and DC ZVA (SYS #3, C7, C4, #1), which writes.
bool accesses_memory(uint32_t w) { return (w & 0x0a000000) == 0x08000000 || (w & 0xffffffe0) == 0xd50b7420; }
// Branches (the A64 "Branches, Exception Generating and System instructions" group, as Unicorn
// 2.0.1's disas_b_exc_sys decodes it): B/BL, CBZ/CBNZ, TBZ/TBNZ, B.cond, and branches to a register
// (BR, BLR, RET, ERET, ...). Unicorn 2.0.1 ends a translation block at every one of them
// (disas_b_exc_sys: gen_goto_tb, DISAS_JUMP, or an exception for an unallocated encoding).
bool ends_block(uint32_t w) {
    return (w & 0x7c000000) == 0x14000000 || (w & 0x7e000000) == 0x34000000 || (w & 0x7e000000) == 0x36000000 ||
           (w & 0xfe000000) == 0x54000000 || (w & 0xfe000000) == 0xd6000000;
}

// PSTATE/SPSR bits (Arm ARM D1.7): NZCV [31:28], D A I F [9:6], M[3:0] = EL << 2 | SPSel.
constexpr uint64_t pstate_nzcv_daif = 0xf00003c0;
constexpr uint64_t pstate_daif = 0x3c0, pstate_i = 1u << 7;

// Exception vector offsets from VBAR_ELx (Arm ARM D1.10.2).
constexpr uint64_t vector_current_sp0 = 0x000, vector_current_spx = 0x200, vector_lower_a64 = 0x400,
                   vector_irq = 0x080;

// Control-register bits the routing reads (Arm ARM D17.2: SCR_EL3, HCR_EL2), as the control
// registers' table places them; TSC is not in that table.
using ctl::scr_irq, ctl::scr_ea, ctl::scr_smd, ctl::scr_hce, ctl::hcr_vm, ctl::hcr_imo, ctl::hcr_tsc;
constexpr uint32_t key_scr_el3 = (3u << 14) | (6u << 11) | (1u << 7) | (1u << 3), key_hcr_el2 = (3u << 14) | (4u << 11) | (1u << 7) | (1u << 3);

constexpr uint64_t page_size = 4096;
// With more than one CPU running, each runs ahead up to the next multiple of this quantum of
// simulated time (or an earlier timed event) before it lets the others run (docs/firmware.md "SMP").
constexpr fs_t smp_quantum_fs = 1'000'000'000; // 1 us
// SCTLR_EL1.nTWI (Arm ARM D17.2.118): 0 traps EL0's WFI to EL1.
constexpr unsigned sctlr_ntwi = 16;

sysreg_encoding encoding_of(uint32_t word) {
    return {uint8_t(2 + ((word >> 19) & 1)), uint8_t((word >> 16) & 7), uint8_t((word >> 12) & 15),
            uint8_t((word >> 8) & 15), uint8_t((word >> 5) & 7)};
}
constexpr uint32_t key(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2) {
    return (op0 << 14) | (op1 << 11) | (crn << 7) | (crm << 3) | op2;
}
// Registers the ISS holds (Arm ARM encodings, D17 "AArch64 System Register Descriptions").
constexpr uint32_t key_currentel = key(3, 0, 4, 2, 2), key_spsel = key(3, 0, 4, 2, 0);
constexpr uint32_t key_sp_el1 = key(3, 4, 4, 1, 0), key_sp_el2 = key(3, 6, 4, 1, 0);
// For op1 = 4 (EL2) and 6 (EL3): SPSR_ELx, ELR_ELx, ESR_ELx, FAR_ELx, VBAR_ELx.
constexpr uint32_t el_bank_key(unsigned op1, unsigned crn, unsigned crm, unsigned op2) { return key(3, op1, crn, crm, op2); }

struct uc_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
void check(uc_err e, const char* what) {
    if (e != UC_ERR_OK) throw model_error(fmt::format("Unicorn: {}: {}", what, uc_strerror(e)));
}

// SPSR_EL1 has no register id of its own in Unicorn 2.0.1: the coprocessor interface (S3_0_C4_C0_0).
uint64_t read_spsr_el1(uc_engine* uc) {
    uc_arm64_cp_reg r{4, 0, 3, 0, 0, 0};
    uc_reg_read(uc, UC_ARM64_REG_CP_REG, &r);
    return r.val;
}
void write_spsr_el1(uc_engine* uc, uint64_t v) {
    uc_arm64_cp_reg r{4, 0, 3, 0, 0, v};
    uc_reg_write(uc, UC_ARM64_REG_CP_REG, &r);
}

// Thrown by fail() to leave the run loop with the result already set.
struct firmware_stopped {};

} // namespace

aarch64_iss::aarch64_iss(const sc_module_name& name, platform& p, run_recorder& recorder, unsigned cpu)
    : sc_module(name), to_gate("to_gate"), platform_(p), rec_(recorder), cpu_(cpu), core_(p.system().core(cpu)) {
    to_gate.bind(p.gate().from_initiators);
    const cpu_config& c = p.config().cpus.at(cpu);
    cycles_per_instruction_ = c.cycles_per_instruction;
    for (const auto& line : c.irq)
        if (interrupt_line* l = p.find_irq(line)) irqs_.push_back(l);
    check(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc_), "uc_open");
    // Translated-code buffer: 128 MiB, not Unicorn's 1 GiB default, whose first flush (power_on,
    // IC IALLUIS) touches every page of it: 14 s measured on the shared machine, 0.07 s at 64 MiB.
    check(uc_ctl_set_tcg_buffer_size(uc_, 128u << 20), "setting the translation buffer size");
    // Plain memory: the memory model's own bytes, mapped once (as DMI): no callback per access.
    for (const auto& [base, m] : p.memories())
        check(uc_mem_map_ptr(uc_, base, m->size(), UC_PROT_ALL, m->data()), "mapping plain memory");
    // The engine's lower ELs are AArch64 (its arm_el_is_aa64 reads SCR_EL3.RW and HCR_EL2.RW):
    // EL0 runs at the engine's EL0. The ISS's own SCR_EL3/HCR_EL2 are the gate's registers.
    uc_arm64_cp_reg engine_scr{1, 1, 3, 6, 0, (uint64_t(1) << 10) | 1};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &engine_scr);
    // The engine's stage 2 maps plain memory only, so that any access outside it is a data abort
    // at the exact instruction (iss/stage2_map.h). Its tables are this engine's private memory.
    std::vector<std::pair<uint64_t, uint64_t>> plain;
    for (const auto& [base, m] : p.memories()) plain.emplace_back(base, m->size());
    const stage2_map s2 = build_stage2_map(plain, stage2_table_base);
    stage2_tables_.reset(static_cast<uint64_t*>(std::aligned_alloc(4096, s2.bytes())));
    std::memcpy(stage2_tables_.get(), s2.words.data(), s2.bytes());
    check(uc_mem_map_ptr(uc_, s2.table_base, s2.bytes(), UC_PROT_READ, stage2_tables_.get()), "mapping the stage 2 tables");
    uc_arm64_cp_reg vtcr{2, 1, 3, 4, 2, s2.vtcr}, vttbr{2, 1, 3, 4, 0, s2.vttbr};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &vtcr);
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &vttbr);
    engine_stage2(true);
    // MPIDR_EL1 as the engine's EL1 reads it: VMPIDR_EL2 (EL2 implemented, Non-secure EL1: QEMU's
    // mpidr_read, Arm ARM D17.2.101), this CPU's affinity in pmusim's DynamIQ layout.
    uc_arm64_cp_reg vmpidr{0, 0, 3, 4, 5, cpu_mpidr(p.config(), cpu)};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &vmpidr);
    uc_hook h;
    check(uc_hook_add(uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&aarch64_iss::on_block), this, 1, 0), "block hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&aarch64_iss::on_interrupt), this, 1, 0), "interrupt hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_MEM_UNMAPPED, reinterpret_cast<void*>(&aarch64_iss::on_unmapped), this, 1, 0), "memory hook");
    hooks_.push_back(h);
    // The address an engine run is told to stop at ("until"): none an instruction can have. Unicorn
    // drops the translated code at that address after every run, except for 0.
    for (const auto& [base, m] : p.memories())
        if (base == 0) no_until_ = 1; // odd: no instruction starts there
    // SYS instructions (TLBI, IC, DC, AT): the Inner Shareable maintenance reaches the other engines.
    check(uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&aarch64_iss::on_sys), this, 1, 0, UC_ARM64_INS_SYS),
          "SYS hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_EDGE_GENERATED, reinterpret_cast<void*>(&aarch64_iss::on_new_block), this, 1, 0),
          "new-block hook");
    hooks_.push_back(h);
    for (int insn : {UC_ARM64_INS_MRS, UC_ARM64_INS_MSR}) {
        check(uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&aarch64_iss::on_sysreg_insn), this, 1, 0, insn),
              "MRS/MSR hook");
        hooks_.push_back(h);
    }
    instances().push_back(this);
    SC_HAS_PROCESS(aarch64_iss);
    SC_THREAD(thread);
}

aarch64_iss::~aarch64_iss() {
    auto& all = instances();
    all.erase(std::remove(all.begin(), all.end(), this), all.end());
    if (uc_) uc_close(uc_);
}

// ---------------------------------------------------------------------------------------------
// Starting

void aarch64_iss::start(const std::string& elf_path, unsigned el, bool secure, fs_t time_limit_fs) {
    if (running()) throw input_error(elf_path, 0, fmt::format("cpu{} is already running firmware", cpu_));
    image_ = load_elf_file(elf_path, platform_);
    // The instructions the ISS executes itself end translation blocks: an engine exit at each
    // address of an executable segment that holds one (ERET, WFI, HLT #0xF000, and MRS/MSR of a
    // register the gate or the ISS holds). The engine stops with the PC on it, not executed.
    // The loads and stores after the first in each straight-line run of code are access points
    // (see faulting_access), except those that join the group of an earlier one: the same base
    // register plus an immediate, not written in between. Executable segments in address order;
    // a run goes on across segments that touch.
    exits_.clear();
    access_points_.clear();
    group_members_.clear();
    std::vector<const elf_segment*> code;
    for (const auto& s : image_.segments)
        if (s.executable) code.push_back(&s);
    std::sort(code.begin(), code.end(), [](const elf_segment* a, const elf_segment* b) { return a->address < b->address; });
    bool access_in_run = false;
    // The base register of the open group; no_group when none is open (a plain sentinel, not
    // std::optional, which GCC 12 warns about here as maybe-uninitialized).
    constexpr unsigned no_group = ~0u;
    unsigned group_base = no_group;
    uint64_t run_end = 0;
    for (const elf_segment* s : code) {
        if (s->address != run_end) access_in_run = false;
        for (uint64_t a = s->address; a + 4 <= s->address + s->file_size; a += 4) {
            uint32_t w = fetch_word(a);
            if (iss_instruction(w)) exits_.push_back(a);
            if (ends_block(w)) access_in_run = false;
            else if (may_access_window(a, w)) {
                const auto form = decode_base_offset(w);
                if (access_in_run && form && group_base == unsigned(form->base)) group_members_.push_back(a);
                else {
                    if (access_in_run) access_points_.push_back(a);
                    group_base = form ? unsigned(form->base) : no_group; // it anchors a group
                }
                access_in_run = true;
            }
            if (!access_in_run || (group_base != no_group && may_write_register(w, group_base))) group_base = no_group;
        }
        run_end = s->address + s->file_size;
    }
    set_stop_points();
    // Code translated for an earlier firmware on this CPU is dropped (a whole-cache flush would
    // clear Unicorn's 1 GiB translation buffer: seconds).
    for (const auto& s : image_.segments)
        check(uc_ctl_remove_cache(uc_, s.address, s.address + s.memory_size), "dropping translated code");
    begin_run(image_.entry, el, secure, time_limit_fs, std::nullopt, "firmware " + elf_path);
}

void aarch64_iss::power_on(const cpu_boot& boot, fs_t time_limit_fs) {
    if (running()) throw input_error(boot.name, 0, fmt::format("cpu{} is already running", cpu_));
    if (!in_plain_memory(boot.entry))
        throw input_error(boot.name, 0, fmt::format("cpu{}: entry {:#x} is outside the platform's plain memory", cpu_, boot.entry));
    image_ = {};
    image_.path = boot.name;
    image_.entry = boot.entry;
    exits_.clear();
    access_points_.clear();
    group_members_.clear();
    set_stop_points();
    // The loader wrote the image behind the engine's back: no translation of old code survives.
    flush_translations();
    flush_tlb();
    begin_run(boot.entry, boot.el, boot.secure, time_limit_fs, boot.sp, boot.name);
    for (unsigned r = 0; r < 4; ++r) write_x(r, boot.x[r]);
}

void aarch64_iss::power_off(const std::string& why) {
    if (!running()) return;
    // From this CPU's own thread (its call handler) the run loop sees the state and returns; from
    // another process this CPU's thread is waiting (at sync or WFI) and sees it when it wakes.
    finish(firmware_result::state::off, 0, 0, why);
    power_off_requested_ = true;
    start_event_.cancel();
    wake_.notify(SC_ZERO_TIME);
}

std::vector<aarch64_iss*>& aarch64_iss::instances() {
    static std::vector<aarch64_iss*> all;
    return all;
}

bool aarch64_iss::other_cpus_running() const {
    for (aarch64_iss* i : on_platform(platform_))
        if (i != this && i->running()) return true;
    return false;
}

std::vector<aarch64_iss*> aarch64_iss::on_platform(const platform& p) {
    std::vector<aarch64_iss*> out;
    for (aarch64_iss* i : instances())
        if (&i->platform_ == &p) out.push_back(i);
    std::sort(out.begin(), out.end(), [](const aarch64_iss* a, const aarch64_iss* b) { return a->cpu_ < b->cpu_; });
    return out;
}

void aarch64_iss::flush_tlb() { check(uc_ctl_flush_tlb(uc_), "flushing the TLB"); }
void aarch64_iss::flush_translations() { check(uc_ctl_flush_tb(uc_), "flushing translated code"); }
void aarch64_iss::code_written(uint64_t begin, uint64_t end) {
    for (aarch64_iss* i : on_platform(platform_)) i->drop_translations_of_physical(begin, end);
}

// Unicorn drops translated code by virtual address: uc_ctl_remove_cache translates `begin` with the
// engine's instruction-fetch regime now (Unicorn 2.1.1 translate-all.c uc_invalidate_tb, through
// get_page_addr_code; a fault there drops nothing) and takes the range from that page on. With the
// engine's stage 1 off for the call its VA is its IPA, which its stage 2 maps 1:1 onto plain
// memory (iss/stage2_map.h): the physical range itself, whatever VA the code ran at, page by page.
// Writing SCTLR_EL1 through uc_reg_write does not flush the engine's TLB (the raw write, no
// sctlr_write), whose EL1&0 entries serve both settings of M: flushed on each side.
void aarch64_iss::drop_translations_of_physical(uint64_t begin, uint64_t end) {
    if (end <= begin) return;
    const uint64_t sctlr = engine_sctlr_el1();
    const bool mmu_on = sctlr & 1;
    if (mmu_on) {
        set_engine_sctlr_el1(sctlr & ~uint64_t(1));
        flush_tlb();
    }
    constexpr uint64_t page = 4096;
    for (uint64_t at = begin; at < end;) {
        const uint64_t next = std::min(end, (at & ~(page - 1)) + page);
        check(uc_ctl_remove_cache(uc_, at, next), "dropping translated code");
        at = next;
    }
    if (mmu_on) {
        set_engine_sctlr_el1(sctlr);
        flush_tlb();
    }
}

// SYS (op0 = 1) executed by the engine: TLB and instruction-cache maintenance to the Inner
// Shareable domain reaches the other engines of the platform (Arm ARM D8.13 "TLB maintenance
// instructions", D7.5 "Cache maintenance instructions"): TLBI with CRn = 8 and CRm 3 (the ...IS
// forms), 1 (the ...OS forms, a superset of Inner Shareable) or 0 (TLBI IPAS2E1IS and
// IPAS2LE1IS, op1 4); IC IALLUIS (op1 0, C7, C1, 0) and IC IVAU (op1 3, C7, C5, 1, to the PoU for
// every PE in the Inner Shareable domain). The engine executes the instruction itself (returns 0).
uint32_t aarch64_iss::on_sys(uc_struct*, int, const uc_arm64_cp_reg* cp, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    const bool tlbi_is = cp->crn == 8 && (cp->crm == 3 || cp->crm == 0 || cp->crm == 1); // CRm 0/1: TLBI ...IS of the IPA group
    const bool ic_is = cp->crn == 7 && ((cp->op1 == 0 && cp->crm == 1 && cp->op2 == 0) || (cp->op1 == 3 && cp->crm == 5 && cp->op2 == 1));
    if (!tlbi_is && !ic_is) return 0;
    // A CPU that is off holds nothing: power_on drops its TLB and translations. IC IVAU names one
    // cache line by its virtual address (Xt): only the translations of that line go (a whole flush
    // clears the engine's translation buffer: Linux issues thousands of IC IVAU while it patches
    // its own code, and each flush cost ~1 ms per engine).
    const bool ic_ivau = ic_is && cp->op1 == 3;
    for (aarch64_iss* other : on_platform(self->platform_)) {
        if (other == self || !other->running()) continue;
        if (tlbi_is) uc_ctl_flush_tlb(other->uc_);
        else if (ic_ivau) uc_ctl_remove_cache(other->uc_, cp->val & ~uint64_t(63), (cp->val & ~uint64_t(63)) + 64);
        else uc_ctl_flush_tb(other->uc_);
    }
    return 0;
}

void aarch64_iss::begin_run(uint64_t entry, unsigned el, bool secure, fs_t time_limit_fs, std::optional<uint64_t> sp,
                            const std::string& what) {
    power_off_requested_ = false;
    // Reset state (docs/firmware.md "Initial state").
    for (unsigned r = 0; r < 31; ++r) write_x(r, 0);
    std::fill(std::begin(sp_), std::end(sp_), 0);
    std::fill(std::begin(elr_), std::end(elr_), 0);
    std::fill(std::begin(spsr_), std::end(spsr_), 0);
    std::fill(std::begin(esr_), std::end(esr_), 0);
    std::fill(std::begin(far_), std::end(far_), 0);
    std::fill(std::begin(vbar_), std::end(vbar_), 0);
    el23_registers_.clear();
    uint64_t zero = 0;
    uc_reg_write(uc_, UC_ARM64_REG_VBAR_EL1, &zero);
    el_ = std::min(el, 3u);
    if (el_ < 3) {
        // What the EL3 firmware that would have run leaves behind: SCR_EL3.NS for the state asked for.
        auto& r = platform_.controls().bank(cpu_);
        auto* scr = r.find("SCR_EL3");
        if (scr) {
            uint64_t v = scr->value;
            v = secure ? (v & ~uint64_t(1)) : (v | 1);
            scr->value = v | (uint64_t(1) << ctl::scr_rw); // and AArch64 below EL3
        }
        if (el_ < 2)
            if (auto* hcr = r.find("HCR_EL2")) hcr->value |= uint64_t(1) << ctl::hcr_rw; // EL1 is AArch64
    }
    for (const auto& [base, m] : platform_.memories())
        if (entry >= base && entry - base < m->size()) sp_[el_] = (base + m->size()) & ~uint64_t(15);
    if (sp) sp_[el_] = *sp;
    load_pstate(pstate_daif | 1); // DAIF masked, SPSel = 1 (ELxh), as out of reset
    last_vector_ = ~uint64_t(0);
    set_pc(entry);

    started_at_ = now_fs();
    t_pos_ = started_at_;
    deadline_ = time_limit_fs > fs_never - started_at_ ? fs_never : started_at_ + time_limit_fs;
    result_ = {};
    result_.s = firmware_result::state::running;
    retired_ = 0;
    saved_workload_.clear();
    // The AMU counts what the firmware does: one instruction per cycles_per_instruction CPU cycles.
    std::map<std::string, rational> rates;
    for (const auto& k : core_.event_keys())
        if (!core_model::is_fixed_key(k)) rates[k] = rational(0);
    rates["inst"] = rational(1, cycles_per_instruction_);
    core_.set_workload(rates, t_pos_);
    core_.set_power(power_state::run, t_pos_);
    core_secure_ = !core_.secure();
    update_security();
    rec_.line(fmt::format("[{}] cpu{}: {} starts at EL{} {} at {:#x}", format_time(now_fs()), cpu_, what, el_,
                          secure_state() ? "Secure" : "Non-secure", entry));
    start_event_.notify(SC_ZERO_TIME);
}

// ---------------------------------------------------------------------------------------------
// Engine

void aarch64_iss::on_block(uc_struct*, uint64_t address, uint32_t size, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    ++self->block_serial_;
    uint64_t n = size / 4;
    // Every block Unicorn translates gets the edge hook's scan before it runs, except the first
    // one this engine ever runs (Unicorn has no previous block then): scanned here.
    if (!self->engine_warm_ && self->counted_ == 0 && self->scan_block(address, size)) return;
    if (self->irq_watch_ && self->counted_ > 0 && self->irq_target()) {
        // A pending IRQ became unmasked in the block before: taken at this instruction boundary.
        self->stop_.kind = stop_kind::irq;
        self->block_start_ = address;
        uc_emu_stop(self->uc_);
        return;
    }
    if (self->budget_check_ && self->counted_ + n > self->budget_) {
        self->stop_.kind = stop_kind::budget;
        self->block_start_ = address;
        uc_emu_stop(self->uc_);
        return;
    }
    self->before_block_ = self->counted_;
    self->block_start_ = address;
    self->access_from_ = address;
    self->counted_ += n;
}

bool aarch64_iss::iss_instruction(uint32_t w) const {
    return w == insn_eret || w == insn_wfi || w == insn_wfe || w == insn_hlt_semihosting ||
           ((w & mask_sysreg_move) == insn_sysreg_move && handled_here(encoding_of(w)));
}

void aarch64_iss::on_new_block(uc_struct*, void* cur, void*, void* self_ptr) {
    const auto* tb = static_cast<const uc_tb*>(cur);
    static_cast<aarch64_iss*>(self_ptr)->scan_block(tb->pc, tb->size);
}

// The block is about to run for the first time (or, from the block hook, is the first of a run):
// the engine stops before it runs when it holds an instruction of the ISS's without a stop point.
// With the MMU off the block's addresses are physical, as the engine's memory reads take them.
bool aarch64_iss::scan_block(uint64_t address, uint32_t size) {
    if (stop_.kind != stop_kind::none) return false;
    std::vector<uint64_t> found;
    for (uint64_t a = address; a + 4 <= address + size; a += 4)
        if (iss_instruction(fetch_word(a)) && !std::binary_search(exits_.begin(), exits_.end(), a)) found.push_back(a);
    if (found.empty()) return false;
    found_exits_ = std::move(found);
    rescan_size_ = size;
    stop_.kind = stop_kind::rescan;
    stop_.address = address;
    uc_emu_stop(uc_);
    return true;
}

uint32_t aarch64_iss::on_sysreg_insn(uc_struct* uc, int, const ::uc_arm64_cp_reg* cp, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    uint64_t pc = 0;
    uc_reg_read(uc, UC_ARM64_REG_PC, &pc); // the engine stores the PC before the hook
    if (std::binary_search(self->exits_.begin(), self->exits_.end(), pc)) return 0; // a stop point: already handled
    const sysreg_encoding enc{uint8_t(cp->op0), uint8_t(cp->op1), uint8_t(cp->crn), uint8_t(cp->crm), uint8_t(cp->op2)};
    if (!self->handled_here(enc)) return 0; // the engine's own register
    uc_arm64_cp_reg probe = *cp;
    if (uc_reg_read(uc, UC_ARM64_REG_CP_REG, &probe) != UC_ERR_OK)
        return 0; // a register the engine lacks: it raises UNDEFINED with the PC on it (handle_exception)
    if (!self->missed_sysreg_) {
        self->missed_sysreg_ = true;
        self->missed_sysreg_pc_ = pc;
        uc_emu_stop(uc);
    }
    return 1; // not executed by the engine
}

bool aarch64_iss::handled_here(const sysreg_encoding& enc) const {
    uint32_t k = enc.key();
    return platform_.gate().sysreg_owner(cpu_, k) || k == key_currentel || k == key_spsel || enc.op1 == 4 ||
           enc.op1 == 5 || enc.op1 == 6;
}

// A code hook on an instruction runs before it, with the PC stored; stopping the engine there
// leaves the instruction unexecuted. (Unicorn's exits, uc_ctl_set_exits, stop there too, but
// Unicorn drops the code translated at every exit after each run and translates it again: about
// 2 us per engine run with Unicorn 2.0.1, more with more exits; a hook costs nothing elsewhere.)
// A breakpoint on a stop point stops here too: Unicorn calls an address's code hooks in the order
// they were added and none after one that stopped the engine, and a breakpoint's hook is added
// again after the stop points whenever GDB changes the breakpoints.
void aarch64_iss::on_stop_point(uc_struct* uc, uint64_t address, uint32_t, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    if (!self->breakpoints_.empty() && self->breakpoint_stops_at(address) && self->stop_.kind == stop_kind::none)
        self->stop_.kind = stop_kind::breakpoint;
    uc_emu_stop(uc);
}

void aarch64_iss::on_access_point(uc_struct*, uint64_t address, uint32_t, void* self) {
    static_cast<aarch64_iss*>(self)->access_from_ = address;
}

void aarch64_iss::set_stop_points() {
    for (uint64_t h : stop_hooks_) uc_hook_del(uc_, h);
    stop_hooks_.clear();
    // One hook per run of consecutive addresses (a boot's MSRs often follow each other, as do the
    // loads and stores of a copy).
    auto add_hooks = [this](const std::vector<uint64_t>& addresses, void (*callback)(uc_struct*, uint64_t, uint32_t, void*)) {
        for (size_t i = 0; i < addresses.size();) {
            size_t j = i;
            while (j + 1 < addresses.size() && addresses[j + 1] == addresses[j] + 4) ++j;
            uc_hook h;
            check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(callback), this, addresses[i], addresses[j]),
                  "code hook");
            stop_hooks_.push_back(h);
            i = j + 1;
        }
    };
    add_hooks(exits_, &aarch64_iss::on_stop_point);
    add_hooks(access_points_, &aarch64_iss::on_access_point);
}

uint64_t aarch64_iss::run_until(uint64_t from, uint64_t exit_address) {
    // Unicorn's own exit ("until") ends the translation block there and stops the engine before
    // it; a code hook would let the engine translate the whole block behind it again for every
    // run, which is the reference mode's every instruction. The block at `from` may have been
    // translated before, through exit_address: translate it again. After the run Unicorn drops
    // the block ending at exit_address itself.
    check(uc_ctl_remove_cache(uc_, from, from + 4), "dropping a translated block");
    stop_ = {};
    counted_ = before_block_ = 0;
    block_start_ = from;
    budget_check_ = false;
    ++engine_runs_;
    // Unicorn's exit is an imitated WFI (unicorn 2.1.1 qemu/target/arm/translate-a64.c
    // aarch64_tr_translate_insn: uc_addr_is_exit -> DISAS_WFI -> helper_wfi), and helper_wfi honours
    // the WFI traps (op_helper.c check_wfx_trap): at EL0 with SCTLR_EL1.nTWI = 0, as Linux runs user
    // space (arch/arm64/include/asm/sysreg.h INIT_SCTLR_EL1_MMU_ON sets nTWE, not nTWI), it moves
    // the PC back onto the instruction before the exit, which has already run, and raises UNDEFINED
    // (exception 1) there: user space got SIGILL on a plain ADD. The engine's HCR_EL2/SCR_EL3 never
    // set TWI; the engine's SCTLR_EL1.nTWI is set for the run. The firmware's own WFIs never run in
    // the engine (they are the ISS's stop points, wait_trap_target), and the engine's SCTLR_EL1
    // write is raw (no TLB flush; nTWI is in none of its cached translation flags).
    const bool exit_would_trap = el_ == 0 && !((engine_sctlr_el1() >> sctlr_ntwi) & 1);
    if (exit_would_trap) set_engine_sctlr_el1(engine_sctlr_el1() | (uint64_t(1) << sctlr_ntwi));
    last_error_ = uc_emu_start(uc_, from, exit_address, 0, 0);
    if (exit_would_trap) set_engine_sctlr_el1(engine_sctlr_el1() & ~(uint64_t(1) << sctlr_ntwi));
    budget_check_ = true;
    if (stop_.kind == stop_kind::memory) set_pc(faulting_access());
    return retired_in_run();
}

uint64_t aarch64_iss::engine_sctlr_el1() const {
    uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, 0};
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &sctlr);
    return sctlr.val;
}

void aarch64_iss::set_engine_sctlr_el1(uint64_t value) {
    uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, value};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &sctlr);
}

// Instructions retired by the engine run that just ended: the blocks before the last one, and of
// the last one those before the PC when the engine stopped inside it. A stop outside it (a
// branch or a fall-through to an engine exit, which starts a block of its own) means the last
// block ran to its end: the PC minus its start would count a backward branch as a huge number
// and a forward one as the instructions skipped.
uint64_t aarch64_iss::retired_in_run() const {
    const uint64_t pc = engine_pc(), in_block = counted_ - before_block_;
    if (pc >= block_start_ && pc - block_start_ < 4 * in_block) return before_block_ + (pc - block_start_) / 4;
    return counted_;
}

// Unicorn 2.0.1 reports a load or store outside plain memory with a stale PC (it stores the PC
// before a load or store only while a memory read/write hook exists, and such a hook sends every
// load and store through its slow path), after the instructions before it in the translation
// block have run. The access is at or after the last point whose address a callback saw: the
// start of the block (the block hook) or an access point (a code hook on every load and store
// after the first in a straight-line run, set when the ELF is loaded), and before the next access
// point (a block ends at every branch). Between them, the loads and stores after the first are
// members of one group (see start): the same base register Rn plus an immediate, Rn written by
// nothing from the group's first access up to them. So each member's address, computed from the
// registers now, is the address it used (or, the faulting one, is about to use); those before the
// faulting one accessed plain memory without fault, so the first whose bytes hold the faulting
// address is the one. Code outside the ELF's executable segments has no access points: a second
// load or store after the point there makes the access ambiguous.
uint64_t aarch64_iss::faulting_access() {
    const uint64_t block_end = block_start_ + 4 * (counted_ - before_block_);
    uint64_t at = access_from_;
    while (at < block_end && !may_access_window(at, fetch_word(at))) at += 4;
    if (at >= block_end)
        fail(3, fmt::format("{}: an access to {:#x} outside plain memory from no load or store of the block at {:#x}",
                            where(access_from_), stop_.address, block_start_));
    std::vector<uint64_t> candidates{at};
    for (uint64_t later = at + 4; later < block_end; later += 4) {
        if (!may_access_window(later, fetch_word(later))) continue;
        if (std::binary_search(access_points_.begin(), access_points_.end(), later)) break; // its hook did not run
        if (!std::binary_search(group_members_.begin(), group_members_.end(), later))
            fail(3, fmt::format("{}: an access to {:#x} outside plain memory in code outside the ELF's executable segments, "
                                "from one of several loads and stores of the block at {:#x}: not modelled",
                                where(at), stop_.address, block_start_));
        candidates.push_back(later);
    }
    if (candidates.size() == 1) return at;
    for (uint64_t c : candidates)
        if (reaches_fault(c)) return c;
    fail(3, fmt::format("{}: an access to {:#x} outside plain memory from none of the loads and stores of its group: not modelled",
                        where(at), stop_.address));
}

bool aarch64_iss::reaches_fault(uint64_t pc) const {
    const auto form = decode_base_offset(fetch_word(pc));
    if (!form || form->is_load == stop_.is_write) return false;
    uint64_t base = 0;
    if (form->base == 31) uc_reg_read(uc_, UC_ARM64_REG_SP, &base);
    else base = read_x(form->base);
    // With the MMU on the engine reports the fault's physical address: translate the register's.
    bool translated = false;
    const auto pa = stage1_translate(base + uint64_t(form->offset), translated);
    return pa && stop_.address - *pa < form->bytes;
}

void aarch64_iss::on_interrupt(uc_struct* uc, uint32_t intno, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    self->stop_.kind = stop_kind::exception;
    self->stop_.intno = intno;
    uc_emu_stop(uc);
}

bool aarch64_iss::on_unmapped(uc_struct* uc, int type, uint64_t address, int size, int64_t, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    if (type == UC_MEM_FETCH_UNMAPPED) {
        self->stop_.kind = stop_kind::fetch_fault;
        self->stop_.address = address;
        return false;
    }
    if (self->stop_.kind == stop_kind::none) {
        self->stop_.kind = stop_kind::memory;
        self->stop_.address = address;
        self->stop_.size = unsigned(size);
        self->stop_.is_write = type == UC_MEM_WRITE_UNMAPPED;
    }
    (void)uc;
    return false; // the engine stops with the PC on the instruction, before it changed anything
}

uint64_t aarch64_iss::run_engine(uint64_t budget) {
    stop_ = {};
    budget_ = budget;
    counted_ = 0;
    before_block_ = 0;
    uint64_t pc = engine_pc();
    block_start_ = pc;
    budget_check_ = true;
    irq_watch_ = irq_pending();
    ++engine_runs_;
    // Only the CPU resuming from a breakpoint it halted at runs that breakpoint's instruction; a
    // run that starts on a breakpoint for any other reason (after an instruction the ISS executed,
    // an exception entry, an ERET, a budget stop) stops there first.
    if (resume_breakpoint_ && *resume_breakpoint_ != pc) resume_breakpoint_.reset();
    if (resume_breakpoint_) skip_breakpoint_at(pc);
    else skip_breakpoint_ = false;
    last_error_ = uc_emu_start(uc_, pc, no_until_, 0, 0);
    irq_watch_ = false;
    engine_warm_ = engine_warm_ || counted_ > 0;
    if (stop_.kind == stop_kind::memory) set_pc(faulting_access());
    if (missed_sysreg_) {
        missed_sysreg_ = false;
        fail(3, fmt::format("{}: MRS/MSR of a register the ISS or the gate owns in code the ISS could not scan before it "
                            "ran: not modelled (docs/firmware.md \"What is not modelled\")", where(missed_sysreg_pc_)));
    }
    uint64_t retired;
    if (stop_.kind == stop_kind::irq) {
        // As for the budget stop below: the PC may be stale, the block at block_start_ did not run.
        set_pc(block_start_);
        return counted_;
    }
    if (stop_.kind == stop_kind::rescan) {
        // The new block did not run (the engine stopped before it): the blocks before it did, whole.
        // Its instructions of the ISS's become stop points and it is translated again with their hooks.
        const uint64_t at = stop_.address;
        for (uint64_t a : found_exits_) exits_.insert(std::upper_bound(exits_.begin(), exits_.end(), a), a);
        for (uint64_t a : found_exits_) {
            uc_hook h;
            check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&aarch64_iss::on_stop_point), this, a, a),
                  "code hook");
            stop_hooks_.push_back(h);
        }
        check(uc_ctl_remove_cache(uc_, at, at + rescan_size_), "dropping a translated block");
        set_pc(at);
        stop_.kind = stop_kind::budget; // nothing to handle: run again from the block
        return counted_;
    }
    if (stop_.kind == stop_kind::budget) {
        // The block hook stopped the engine before the block at block_start_ ran. While any code
        // hook exists (the stop points), Unicorn does not restore the PC to that block's start, and
        // a chained jump between blocks does not store it: the engine may leave its PC on the
        // branch that led there, and running from it again would execute that branch twice.
        set_pc(block_start_);
        retired = counted_;
        uint64_t rest = budget - counted_;
        uint64_t from = engine_pc();
        // The block that would overshoot is straight-line: run exactly `rest` of it.
        if (rest > 0) retired += run_until(from, from + 4 * rest);
        else stop_.kind = stop_kind::none; // the stop point test below, as for any other stop
    } else {
        retired = retired_in_run();
    }
    if (stop_.kind == stop_kind::none && std::binary_search(exits_.begin(), exits_.end(), engine_pc()))
        stop_.kind = stop_kind::special;
    if (uc_err(last_error_) != UC_ERR_OK && stop_.kind != stop_kind::memory && stop_.kind != stop_kind::fetch_fault) {
        stop_.kind = stop_kind::engine_error;
        stop_.intno = unsigned(last_error_);
    }
    if (stop_.kind == stop_kind::none) stop_.kind = stop_kind::budget;
    return retired;
}

uint64_t aarch64_iss::engine_pc() const {
    uint64_t pc = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PC, &pc);
    return pc;
}
void aarch64_iss::set_pc(uint64_t pc) { uc_reg_write(uc_, UC_ARM64_REG_PC, &pc); }
// Stage 1 translation at EL1/EL0 for the ISS's own reads of code and addresses (the engine
// translates by itself; uc_mem_read takes physical addresses): the VMSAv8-64 table walk for the
// 4 KB granule (Arm ARM D8.2, D8.3: TTBR0_EL1 below, TTBR1_EL1 above the hole, TCR_EL1.T0SZ/T1SZ,
// table/page descriptors 0b11, block descriptors 0b01, output address [47:12]). nullopt: no MMU
// translation applies (EL2/EL3, MMU off) -- the address is physical -- or the walk faults.
std::optional<uint64_t> aarch64_iss::stage1_translate(uint64_t va, bool& translated) const {
    translated = false;
    if (el_ > 1) return va;
    uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, 0}; // SCTLR_EL1
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &sctlr);
    if (!(sctlr.val & 1)) return va;
    translated = true;
    uc_arm64_cp_reg tcr{2, 0, 3, 0, 2, 0}; // TCR_EL1
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &tcr);
    const bool upper = (va >> 55) & 1;
    const unsigned txsz = unsigned(upper ? (tcr.val >> 16) & 0x3f : tcr.val & 0x3f);
    const unsigned tg = unsigned(upper ? (tcr.val >> 30) & 3 : (tcr.val >> 14) & 3);
    if ((upper && tg != 2) || (!upper && tg != 0)) return std::nullopt; // only the 4 KB granule
    uc_arm64_cp_reg ttbr{2, 0, 3, 0, upper ? 1u : 0u, 0}; // TTBR1_EL1 / TTBR0_EL1
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &ttbr);
    const unsigned va_bits = 64 - txsz;
    int level = va_bits > 39 ? 0 : va_bits > 30 ? 1 : 2;
    uint64_t table = ttbr.val & 0x0000fffffffff000ull & ~((1ull << 12) - 1);
    for (; level <= 3; ++level) {
        const unsigned shift = 12 + 9 * (3 - level);
        const uint64_t index = (va >> shift) & 0x1ff;
        uint64_t desc = 0;
        if (uc_mem_read(uc_, table + index * 8, &desc, 8) != UC_ERR_OK) return std::nullopt;
        if (!(desc & 1)) return std::nullopt;
        const uint64_t out = desc & 0x0000fffffffff000ull;
        if (level == 3 || !(desc & 2)) { // page, or block (levels 1, 2)
            if (level == 3 && !(desc & 2)) return std::nullopt;
            if (level == 0) return std::nullopt;
            const uint64_t mask = (1ull << shift) - 1;
            return (out & ~mask) | (va & mask);
        }
        table = out;
    }
    return std::nullopt;
}

uint32_t aarch64_iss::fetch_word(uint64_t pc) const {
    uint32_t w = 0;
    bool translated = false;
    const auto pa = stage1_translate(pc, translated);
    if (!pa || uc_mem_read(uc_, *pa, &w, 4) != UC_ERR_OK) return 0;
    return w;
}
uint64_t aarch64_iss::read_x(unsigned r) const {
    if (r >= 31) return 0; // XZR
    uint64_t v = 0;
    int id = r <= 28 ? UC_ARM64_REG_X0 + int(r) : r == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30;
    uc_reg_read(uc_, id, &v);
    return v;
}
void aarch64_iss::write_x(unsigned r, uint64_t v) {
    if (r >= 31) return;
    int id = r <= 28 ? UC_ARM64_REG_X0 + int(r) : r == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30;
    uc_reg_write(uc_, id, &v);
}
bool aarch64_iss::in_plain_memory(uint64_t address) const { return platform_.memory_at(address) != nullptr; }

bool aarch64_iss::may_access_window(uint64_t pc, uint32_t word) const {
    if (!accesses_memory(word)) return false;
    // LDR (literal) and PRFM (literal) ("Load register (literal)"): the address is the PC plus
    // imm19 words; opc [31:30] and V [26] give the size (PRFM: none). One whose bytes are plain
    // memory cannot fault, as assemblers' `LDR Xn, =constant` pools are.
    if ((word & 0x3b000000) != 0x18000000) return true;
    const unsigned opc = word >> 30;
    const bool simd = (word >> 26) & 1;
    if (!simd && opc == 3) return false; // PRFM: no access
    if (simd && opc == 3) return true;   // unallocated: the engine raises UNDEFINED
    const unsigned size = simd ? 4u << opc : opc == 1 ? 8 : 4;
    const int64_t offset = int64_t(int32_t(word << 8) >> 13) * 4; // imm19 [23:5], sign-extended
    const uint64_t address = pc + uint64_t(offset);
    return !in_plain_memory(address) || !in_plain_memory(address + size - 1);
}

// ---------------------------------------------------------------------------------------------
// Time

void aarch64_iss::retire(uint64_t instructions) {
    if (instructions == 0) return;
    retired_ += instructions;
    t_pos_ = core_.clock().time_after_edges(t_pos_, instructions * cycles_per_instruction_);
}

void aarch64_iss::sync() {
    fs_t now = now_fs();
    if (t_pos_ > now) {
        qk_.set(to_sc_time(t_pos_ - now));
        qk_.sync(); // wait() for the local time offset: SystemC time is now t_pos_
    }
    // Other processes due at this instant (an overflow raising an interrupt line, a sequence
    // statement) act first, so the instruction sees the state of its own instant. Bounded: two
    // ISSs yielding to each other would otherwise never stop.
    for (int i = 0; i < 8 && sc_pending_activity_at_current_time(); ++i) wait(SC_ZERO_TIME);
}

// ---------------------------------------------------------------------------------------------
// The run loop

void aarch64_iss::thread() {
    for (;;) {
        wait(start_event_);
        try {
            run_loop();
        } catch (const firmware_stopped&) {
        } catch (const input_error& e) {
            finish(firmware_result::state::error, 2, 0, e.what());
        } catch (const std::exception& e) {
            finish(firmware_result::state::error, 3, 0, std::string("model error: ") + e.what());
        }
        if (!stdout_line_.empty()) {
            rec_.program_output(fmt::format("cpu{}: {}", cpu_, stdout_line_));
            stdout_line_.clear();
        }
    }
}

void aarch64_iss::run_loop() {
    while (running()) {
        sync();
        if (!running()) return; // powered off by another process while this one waited
        // sc_stop() ends the simulation after the current delta: a run now (nothing is pending any
        // more) would go on to the next device access, far past the end (pmusim linux's time limit).
        if (sc_get_curr_simcontext()->sim_status() == SC_SIM_USER_STOP) return;
        if (now_fs() >= deadline_)
            fail(2, fmt::format("{}: the firmware did not exit within {} (time limit)", where(engine_pc()),
                                format_time(deadline_ - started_at_)));
        uint64_t cap = ~uint64_t(0);
        if (debug_) {
            cap = debug_->checkpoint(*this, at_breakpoint_); // may hold the CPU (halted)
            at_breakpoint_ = false;
            if (cap == 0) {
                finish(firmware_result::state::failed, 1, 0, "killed by the debugger");
                return;
            }
        }
        if (try_take_irq()) continue;
        // Run ahead: up to the next instant anything else is due (nothing else can change what the
        // firmware sees before then) or the time limit.
        sc_time gap = sc_time_to_pending_activity();
        fs_t limit = deadline_;
        const bool smp = other_cpus_running();
        if (gap == SC_ZERO_TIME && smp) {
            // What is still runnable at this instant after sync()'s yields is the other CPUs'
            // ISSs, each about to run its own quantum: not a reason to stop. Their next instants
            // are quantum boundaries (below) or exact accesses, both timed events.
            sc_time next = sc_max_time();
            gap = sc_get_curr_simcontext()->next_time(next) ? next - sc_time_stamp() : sc_max_time() - sc_time_stamp();
        }
        if (gap != SC_ZERO_TIME && gap.value() < limit - now_fs()) limit = now_fs() + gap.value();
        if (gap == SC_ZERO_TIME) limit = now_fs();
        if (smp) limit = std::min(limit, (now_fs() / smp_quantum_fs + 1) * smp_quantum_fs);
        const clock_domain& clk = core_.clock();
        uint64_t edges = clk.edges_at(limit) - clk.edges_at(t_pos_);
        uint64_t budget = std::min(cap, std::max<uint64_t>(1, edges / cycles_per_instruction_));
        uint64_t retired = run_engine(budget);
        retire(retired);
        uint64_t pc = engine_pc();
        // The breakpoint's instruction ran (its hook let it pass): the resume is over. A run that
        // stopped before reaching it (an engine rescan, an interrupt) leaves it for the next run.
        if (resume_breakpoint_ && !skip_breakpoint_) resume_breakpoint_.reset();
        // A debugger's step (budget 1) whose instruction the engine retired, stopped on one the
        // ISS executes itself (an MRS/MSR it serves, ERET, WFI, semihosting): that one is the next
        // step's, not this one's.
        if (debug_ && cap == 1 && retired >= budget && stop_.kind == stop_kind::special) stop_.kind = stop_kind::budget;
        switch (stop_.kind) {
        case stop_kind::budget:
        case stop_kind::irq:
        case stop_kind::rescan: break;
        case stop_kind::breakpoint:
            at_breakpoint_ = true;
            resume_breakpoint_ = pc;
            break;
        case stop_kind::sysreg: handle_sysreg(pc); break;
        case stop_kind::memory: handle_memory(pc, stop_); break;
        case stop_kind::exception: handle_exception(pc, stop_.intno); break;
        case stop_kind::special: handle_special(pc); break;
        case stop_kind::fetch_fault:
            fail(2, fmt::format("{}: instruction fetch from {:#x}, outside the platform's plain memory", where(pc), stop_.address));
        case stop_kind::engine_error:
        case stop_kind::none:
            fail(3, fmt::format("{}: the engine stopped: {}", where(pc), uc_strerror(uc_err(stop_.intno))));
        }
    }
}

std::string aarch64_iss::where(uint64_t pc) const {
    return fmt::format("{}: cpu{} PC {:#x} EL{}", image_.path, cpu_, pc, el_);
}

void aarch64_iss::finish(firmware_result::state s, int exit_code, uint64_t status, const std::string& message) {
    save_stack_pointers();
    result_.s = s;
    result_.exit_code = exit_code;
    result_.exit_status = status;
    result_.message = message;
    // The CPU stops running firmware; its activity returns to what it was (the AMU's view of an
    // idle text-sequence CPU).
    fs_t t = std::max(t_pos_, now_fs());
    std::map<std::string, rational> back;
    for (const auto& k : core_.event_keys())
        if (!core_model::is_fixed_key(k)) back[k] = rational(k == "inst" ? 1 : 0);
    core_.set_workload(back, t);
    platform_.firmware_exited(cpu_, t);
    rec_.line(fmt::format("[{}] cpu{}: {} {} after {} instructions{}", format_time(t), cpu_,
                          image_.segments.empty() ? image_.path : "firmware " + image_.path,
                          s == firmware_result::state::passed   ? "passed"
                          : s == firmware_result::state::failed ? "failed"
                          : s == firmware_result::state::off    ? "powered off"
                                                                : "stopped",
                          retired_, message.empty() ? "" : ": " + message));
    finished_.notify(SC_ZERO_TIME);
    if (debug_) debug_->finished(*this);
}

void aarch64_iss::fail(int exit_code, const std::string& message) {
    finish(firmware_result::state::error, exit_code, 0, message);
    throw firmware_stopped{};
}

void aarch64_iss::report_unmodelled(control reg, uint64_t written) {
    uint64_t bits = cpu_controls::unmodelled_bits(reg, written) & ~reported_unmodelled_[reg == control::hcr_el2];
    if (!bits) return;
    reported_unmodelled_[reg == control::hcr_el2] |= bits;
    const register_def* def = cpu_controls_table().find(register_name(reg));
    for (unsigned b = 0; b < 64; ++b) {
        if (!((bits >> b) & 1)) continue;
        std::string field;
        if (def)
            for (const auto& f : def->fields)
                if (b >= f.lsb && b < f.lsb + f.width) field = " (" + f.name + ")";
        log_note(fmt::format("{} bit {}{} set: not modelled, no behaviour follows (docs/firmware.md \"What is not "
                             "modelled\"); reported once",
                             register_name(reg), b, field));
    }
}

void aarch64_iss::log_note(const std::string& text) { rec_.line(fmt::format("[{}] cpu{}: {}", format_time(now_fs()), cpu_, text)); }

// ---------------------------------------------------------------------------------------------
// Accesses through the gate

access_context aarch64_iss::context() const {
    access_context ctx;
    ctx.initiator = initiator_kind::cpu;
    ctx.cpu = cpu_;
    ctx.el = el_;
    ctx.secure = secure_state();
    ctx.guest = guest();
    return ctx;
}

aarch64_iss::gate_result aarch64_iss::gate_access(bool is_write, bool system_register, uint64_t address, unsigned bytes,
                                                  uint64_t value, uint64_t pc) {
    ++peripheral_accesses_;
    tlm::tlm_generic_payload& trans = payload_; // reused: a payload allocates its extension array
    access_context ctx = context();
    ctx.path = system_register ? access_path::system_register : access_path::memory_mapped;
    sc_time delay = SC_ZERO_TIME;
    uint64_t data = value;
    transport_register(to_gate, trans, is_write, address, bytes, data, &ctx, delay); // models/register_access.h
    gate_result r;
    r.detail = ctx.detail;
    r.syndrome = ctx.syndrome;
    r.outcome = outcome_of(trans, ctx);
    if (!is_write && r.outcome == access_outcome::ok) r.value = data;
    if (r.outcome == access_outcome::error) r.detail = bus_error_detail(trans, ctx);
    if (!rec_.json && !trace_) return r; // no access log: the record is not built (its cost is most of an access's)
    access_record a;
    a.time_fs = now_fs();
    a.time = format_time(a.time_fs);
    a.file = image_.path;
    a.pc = fmt::format("{:#x}", pc);
    a.context = context().describe();
    a.op = is_write ? "write" : "read";
    a.outcome = to_string(r.outcome);
    if (system_register) a.encoding = sysreg_encoding::from_key(uint32_t(address)).generic_name();
    else a.address = fmt::format("{:#x}", address);
    a.size = bytes; // the access's width: an LDR W is 4 bytes, an LDR X or LDP X (each register) 8
    if (is_write || r.outcome == access_outcome::ok) a.value = fmt::format("{:#x}", is_write ? value : r.value);
    if (r.syndrome) a.syndrome = fmt::format("{:#x}", r.syndrome);
    a.cpu_cycle = core_.clock().edges_at(a.time_fs);
    if (!r.detail.empty()) a.detail = r.detail;
    if (rec_.json) rec_.access(a);
    if (trace_) trace_->access(*this, a, system_register);
    return r;
}

void aarch64_iss::handle_sysreg(uint64_t pc) {
    uint32_t word = fetch_word(pc);
    sysreg_encoding enc = encoding_of(word);
    bool is_read = (word >> 21) & 1;
    unsigned rt = word & 31;
    if (local_sysreg(enc.key(), is_read, rt)) return;
    sync();
    gate_result r = gate_access(!is_read, true, enc.key(), 8, is_read ? 0 : read_x(rt), pc);
    switch (r.outcome) {
    case access_outcome::ok:
    case access_outcome::ignored:
        if (is_read) write_x(rt, r.value);
        else if (enc.key() == key_scr_el3 || enc.key() == key_hcr_el2)
            report_unmodelled(enc.key() == key_scr_el3 ? control::scr_el3 : control::hcr_el2, read_x(rt));
        set_pc(pc + 4);
        retire(1);
        return;
    case access_outcome::trap_el1:
    case access_outcome::trap_el2:
    case access_outcome::trap_el3: {
        unsigned target = r.outcome == access_outcome::trap_el1 ? 1 : r.outcome == access_outcome::trap_el2 ? 2 : 3;
        take_exception(target, false, sysreg_trap_syndrome(enc, !is_read, rt), pc, std::nullopt);
        return;
    }
    default: take_undefined(pc); return;
    }
}

// The registers the ISS holds itself; false when the access goes to the gate.
bool aarch64_iss::local_sysreg(uint32_t k, bool is_read, unsigned rt) {
    uint64_t pc = engine_pc();
    if (platform_.gate().sysreg_owner(cpu_, k)) return false;
    sysreg_encoding enc = sysreg_encoding::from_key(k);
    auto done = [&](uint64_t value) {
        if (is_read) write_x(rt, value);
        set_pc(pc + 4);
        retire(1);
        return true;
    };
    if (k == key_currentel) {
        if (!is_read || el_ == 0) { take_undefined(pc); return true; }
        return done(uint64_t(el_) << 2);
    }
    if (k == key_spsel) {
        if (el_ == 0) { take_undefined(pc); return true; }
        uint64_t ps = 0;
        uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
        if (is_read) return done(ps & 1);
        save_stack_pointers();
        load_pstate((ps & pstate_nzcv_daif) | (read_x(rt) & 1));
        return done(0);
    }
    // Minimum EL of the register by op1 (Arm ARM D17.2, "Op1" column): 4/5 EL2, 6 EL3.
    unsigned min_el = enc.op1 == 6 ? 3 : (enc.op1 == 4 || enc.op1 == 5) ? 2 : enc.op1 == 3 ? 0 : 1;
    if (el_ < min_el) { take_undefined(pc); return true; }
    if (enc.op1 != 4 && enc.op1 != 5 && enc.op1 != 6) {
        // An EL0/EL1 register that is not ours at EL0: UNDEFINED (min_el passed, so only op1 0 at EL>=1 here).
        take_undefined(pc);
        return true;
    }
    unsigned bank = enc.op1 == 6 ? 3 : 2;
    uint64_t* slot = nullptr;
    if (k == key_sp_el1) {
        save_stack_pointers();
        if (is_read) return done(sp_[1]);
        sp_[1] = read_x(rt);
        load_pstate(0x100000000ull); // reload the engine's stack pointers, PSTATE unchanged (see load_pstate)
        return done(0);
    }
    if (k == key_sp_el2) {
        save_stack_pointers();
        if (is_read) return done(sp_[2]);
        sp_[2] = read_x(rt);
        load_pstate(0x100000000ull);
        return done(0);
    }
    if (enc.op1 != 5) {
        if (k == el_bank_key(enc.op1, 4, 0, 0)) slot = &spsr_[bank];
        else if (k == el_bank_key(enc.op1, 4, 0, 1)) slot = &elr_[bank];
        else if (k == el_bank_key(enc.op1, 5, 2, 0)) slot = &esr_[bank];
        else if (k == el_bank_key(enc.op1, 6, 0, 0)) slot = &far_[bank];
        else if (k == el_bank_key(enc.op1, 12, 0, 0)) slot = &vbar_[bank];
    }
    if (!slot) slot = &el23_registers_[k];
    if (is_read) return done(*slot);
    *slot = read_x(rt);
    return done(0);
}

// ---------------------------------------------------------------------------------------------
// Memory-mapped accesses

// The engine splits an access wider than 4 bytes to an MMIO page into 4-byte callbacks (Unicorn
// 2.0.1); the bus sees the instruction's one access, as on silicon. The callbacks inside the access
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
                self->stop_.address = a.address;
                self->stop_.is_write = false;
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
        self->stop_.address = self->mmio_page_ + offset;
        self->stop_.is_write = false;
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
        self->stop_.address = address;
        self->stop_.is_write = true;
    }
}

void aarch64_iss::handle_memory(uint64_t pc, const stop_info& first_stop) {
    const stop_info st = first_stop; // a copy: the single step below overwrites stop_, which it may name
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
    uc_err e = uc_err(last_error_);
    uc_mem_unmap(uc_, page, page_size);
    bool failed = mmio_failed_;
    stop_info second = stop_;
    if (failed) {
        uc_context_restore(uc_, saved);
        uc_context_free(saved);
        uint64_t far = second.address;
        unsigned target = el_ == 0 ? route_from_el0() : el_;
        if ((scr() >> scr_ea) & 1) target = 3;
        uint32_t ec = target == el_ ? ec_dabort_same : ec_dabort_lower;
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

// HCR_EL2 of the engine (not the ISS's, which is the gate's register): RW [31] (EL1 is AArch64) and
// VM [0] (stage 2 on). The EL1&0 TLB entries combine both stages: a change flushes them.
void aarch64_iss::engine_stage2(bool on) {
    uc_arm64_cp_reg hcr{1, 1, 3, 4, 0, (uint64_t(1) << 31) | (on ? 1u : 0u)};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &hcr);
    flush_tlb();
}

// The stage 1 walk of `va` for this CPU's EL1&0 regime now (iss/stage1_walk.h).
walk_result aarch64_iss::walk(uint64_t va, bool write, bool fetch, bool el0) const {
    walk_request r;
    r.va = va;
    r.write = write;
    r.fetch = fetch;
    r.el0 = el0;
    uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, 0}, tcr{2, 0, 3, 0, 2, 0}, ttbr0{2, 0, 3, 0, 0, 0}, ttbr1{2, 0, 3, 0, 1, 0};
    for (auto* reg : {&sctlr, &tcr, &ttbr0, &ttbr1}) uc_reg_read(uc_, UC_ARM64_REG_CP_REG, reg);
    r.sctlr = el_ > 1 ? 0 : sctlr.val; // the ISS's EL2/EL3 run untranslated
    r.tcr = tcr.val;
    r.ttbr0 = ttbr0.val;
    r.ttbr1 = ttbr1.val;
    return stage1_walk(r, [this](uint64_t pa, uint64_t& value) {
        return in_plain_memory(pa) && uc_mem_read(uc_, pa, &value, 8) == UC_ERR_OK;
    });
}

// A stage 1 fault, taken as the architecture takes it (Arm ARM D1.10 exception entry; ESR_ELx
// D17.2.40): EC 0x24/0x25 data abort (0x20/0x21 instruction abort) from a lower / the same EL,
// ISS = WnR [6] (data) | DFSC/IFSC; FAR_ELx = the faulting virtual address; ELR = the instruction.
void aarch64_iss::take_stage1_fault(uint64_t pc, uint64_t va, bool fetch, bool write, const walk_result& w) {
    const unsigned target = el_ == 0 ? route_from_el0() : el_;
    const uint32_t ec = fetch ? (target == el_ ? 0x21u : 0x20u) : (target == el_ ? uint32_t(ec_dabort_same) : uint32_t(ec_dabort_lower));
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
    const bool el0 = el_ == 0 || r->unprivileged;
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
    const walk_result w = walk(pc, false, true, el_ == 0);
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
                            "EL1 exception entry with its syndrome is not modelled yet (docs/firmware.md \"What is not modelled\")",
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
            unsigned target = el_ == 0 ? route_from_el0() : el_;
            if ((scr() >> scr_ea) & 1) target = 3;
            const uint32_t ec = target == el_ ? ec_dabort_same : ec_dabort_lower;
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
    struct stage2_off {
        aarch64_iss& iss;
        explicit stage2_off(aarch64_iss& i) : iss(i) { iss.engine_stage2(false); }
        ~stage2_off() { iss.engine_stage2(true); }
    } off(*this);
    skip_breakpoint_at(pc);
    run_until(pc, pc + 4);
    const stop_info st = stop_;
    if (st.kind == stop_kind::memory) {
        handle_memory(pc, st);
        return;
    }
    if (st.kind == stop_kind::exception && st.intno == excp_data_abort)
        fail(3, fmt::format("{}: a data abort of the stage 1 translation (the code's own page tables): the engine's "
                            "EL1 exception entry with its syndrome is not modelled yet (docs/firmware.md \"What is not modelled\")",
                            where(pc)));
    fail(3, fmt::format("{}: an access outside plain memory that stage 2 refused did not repeat without it (stop {})",
                        where(pc), int(st.kind)));
}

// ---------------------------------------------------------------------------------------------
// Exceptions

uint64_t aarch64_iss::scr() const { return platform_.controls().value(cpu_, control::scr_el3); }
uint64_t aarch64_iss::hcr() const { return platform_.controls().value(cpu_, control::hcr_el2); }
bool aarch64_iss::secure_state() const { return el_ == 3 || !(scr() & 1); }
bool aarch64_iss::guest() const {
    // EL0/EL1 under a hypervisor: EL2 enabled, stage 2 on (HCR_EL2.VM) and not the host (TGE).
    uint64_t h = hcr();
    return el_ <= 1 && cpu_controls::el2_enabled_by(scr(), secure_state()) && ((h >> hcr_vm) & 1) &&
           !((h >> ctl::hcr_tge) & 1);
}
unsigned aarch64_iss::route_from_el0() const {
    return ((hcr() >> ctl::hcr_tge) & 1) && cpu_controls::el2_enabled_by(scr(), secure_state()) ? 2 : 1;
}

void aarch64_iss::take_undefined(uint64_t pc) {
    unsigned target = el_ == 0 ? route_from_el0() : el_;
    take_exception(target, false, esr::syndrome(ec_unknown), pc, std::nullopt);
}

void aarch64_iss::save_stack_pointers() {
    uint64_t ps = 0, sp = 0, other = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
    uc_reg_read(uc_, UC_ARM64_REG_SP, &sp);
    if (el_ == 0) {
        sp_[0] = sp;
        return;
    }
    if (ps & 1) { // SPSel = 1: the live SP is SP_ELx; the engine keeps SP_EL0 in its bank
        sp_[el_] = sp;
        uc_reg_read(uc_, UC_ARM64_REG_SP_EL0, &other);
        sp_[0] = other;
    } else {
        sp_[0] = sp;
        uc_reg_read(uc_, UC_ARM64_REG_SP_EL1, &other);
        sp_[el_] = other;
    }
}

// Writes PSTATE (NZCV, DAIF, SPSel from `value`; bit 32 set: keep the engine's) for the ISS's
// current EL, and the stack pointers of that state. The engine always runs at EL1: its SP_EL1
// slot holds SP_ELx of the ISS's EL.
void aarch64_iss::load_pstate(uint64_t value) {
    uint64_t ps = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
    if (!(value >> 32)) ps = (value & pstate_nzcv_daif) | (value & 1);
    uint64_t spsel = el_ == 0 ? 0 : (ps & 1);
    // EL0 runs at the engine's EL0 (EL0t), so the engine itself refuses EL1-only registers and
    // instructions there; EL1-EL3 run at the engine's EL1 (EL1t / EL1h).
    uint64_t engine = (ps & pstate_nzcv_daif) | (el_ == 0 ? 0 : (1u << 2) | spsel);
    uc_reg_write(uc_, UC_ARM64_REG_PSTATE, &engine);
    // Writing PSTATE does not recompute the engine's cached translation flags (its EL among them,
    // QEMU's hflags); writing a system register does (arm_rebuild_hflags in Unicorn 2.1.1's
    // reg_write for UC_ARM64_REG_CP_REG). TPIDR_EL1 written with its own value changes nothing else.
    uc_arm64_cp_reg tpidr{13, 0, 3, 0, 4, 0};
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &tpidr);
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &tpidr);
    uint64_t own = sp_[el_ == 0 ? 0 : el_];
    uc_reg_write(uc_, UC_ARM64_REG_SP_EL0, &sp_[0]);
    uc_reg_write(uc_, UC_ARM64_REG_SP_EL1, &own);
    uint64_t live = spsel ? own : sp_[0];
    uc_reg_write(uc_, UC_ARM64_REG_SP, &live);
}

void aarch64_iss::update_security() {
    bool s = secure_state();
    if (s == core_secure_) return;
    core_secure_ = s;
    core_.set_secure(s, std::max(t_pos_, now_fs()));
}

void aarch64_iss::take_exception(unsigned target, bool irq, uint64_t esr, uint64_t elr, std::optional<uint64_t> far) {
    uint64_t ps = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
    uint64_t spsel = el_ == 0 ? 0 : (ps & 1);
    uint64_t spsr = (ps & pstate_nzcv_daif) | (uint64_t(el_) << 2) | spsel;
    uint64_t offset = target > el_ ? vector_lower_a64 : spsel ? vector_current_spx : vector_current_sp0;
    if (irq) offset += vector_irq;
    save_stack_pointers();
    unsigned from = el_;
    el_ = target;
    uint64_t vbar;
    if (target == 1) {
        uc_reg_write(uc_, UC_ARM64_REG_ELR_EL1, &elr);
        write_spsr_el1(uc_, spsr);
        if (!irq) uc_reg_write(uc_, UC_ARM64_REG_ESR_EL1, &esr);
        if (far) uc_reg_write(uc_, UC_ARM64_REG_FAR_EL1, &*far);
        uc_reg_read(uc_, UC_ARM64_REG_VBAR_EL1, &vbar);
    } else {
        elr_[target] = elr;
        spsr_[target] = spsr;
        if (!irq) esr_[target] = esr;
        if (far) far_[target] = *far;
        vbar = vbar_[target];
    }
    load_pstate((ps & 0xf0000000) | pstate_daif | 1);
    uint64_t vector = vbar + offset;
    update_security();
    if (trace_) trace_->exception(*this, std::max(t_pos_, now_fs()), from, target, irq, irq ? 0 : esr, elr, far, vector);
    rec_.line(fmt::format("[{}] cpu{}: {} EL{} -> EL{} at {:#x} (ESR {:#x}, ELR {:#x})", format_time(now_fs()), cpu_,
                          irq ? "IRQ" : "exception", from, target, vector, irq ? 0 : esr, elr));
    // A synchronous exception at the vector it leads to, with nothing retired since that vector
    // was entered (no handler there: zeros are UNDEFINED), would loop forever at one instant.
    if (!irq && elr == last_vector_ && retired_ == retired_at_vector_)
        fail(2, fmt::format("{}: exception loop: the exception taken at the vector {:#x} (ESR {:#x}) leads to that vector "
                            "again without an instruction retiring (no handler at VBAR_EL{} + {:#x})",
                            where(elr), vector, esr, target, offset));
    last_vector_ = vector;
    retired_at_vector_ = retired_;
    // The vector is a virtual address at EL1 with the MMU on (stage1_translate reads the new EL's regime).
    bool translated = false;
    const auto vector_pa = stage1_translate(vector, translated);
    if (!vector_pa || !in_plain_memory(*vector_pa))
        fail(2, fmt::format("{}: exception to EL{} (ESR {:#x}) but VBAR_EL{} = {:#x} holds no vector table in memory",
                            where(elr), target, irq ? 0 : esr, target, vbar));
    set_pc(vector);
}

void aarch64_iss::exception_return(uint64_t pc) {
    if (el_ == 0) { take_undefined(pc); return; }
    uint64_t elr, spsr;
    if (el_ == 1) {
        uc_reg_read(uc_, UC_ARM64_REG_ELR_EL1, &elr);
        spsr = read_spsr_el1(uc_);
    } else {
        elr = elr_[el_];
        spsr = spsr_[el_];
    }
    unsigned target = (spsr >> 2) & 3;
    if ((spsr >> 4) & 1) fail(2, fmt::format("{}: ERET to AArch32 (SPSR {:#x}): not modelled", where(pc), spsr));
    if (target > el_ || (target == 0 && (spsr & 1)))
        fail(2, fmt::format("{}: illegal exception return from EL{} (SPSR_EL{} {:#x})", where(pc), el_, el_, spsr));
    // SCR_EL3.RW = 0 makes the ELs below EL3 AArch32 (Arm ARM D1.4 "Execution state"): an ERET into
    // them is to AArch32, which pmusim does not model. HCR_EL2.RW is not checked: pmusim resets
    // HCR_EL2 to 0, and firmware that leaves EL2 unused (this repo's tests) need not set it.
    if (target < 3 && target > 0 && el_ == 3 && !((scr() >> ctl::scr_rw) & 1))
        fail(2, fmt::format("{}: ERET to EL{} with SCR_EL3.RW = 0 (AArch32 below EL3): not modelled", where(pc), target));
    if (target == 2 && !cpu_controls::el2_enabled_by(scr(), el_ == 3 ? !(scr() & 1) : secure_state()))
        fail(2, fmt::format("{}: ERET to EL2, which is disabled in this security state (SCR_EL3 {:#x})", where(pc), scr()));
    save_stack_pointers();
    el_ = target;
    load_pstate(spsr & (pstate_nzcv_daif | 1));
    update_security();
    set_pc(elr);
    retire(1);
}

void aarch64_iss::handle_special(uint64_t pc) {
    uint32_t w = fetch_word(pc);
    if ((w & mask_sysreg_move) == insn_sysreg_move) {
        handle_sysreg(pc);
        return;
    }
    sync();
    if (w == insn_hlt_semihosting) {
        semihosting_call(pc);
        return;
    }
    if (w == insn_eret) {
        exception_return(pc);
        return;
    }
    if (w == insn_wfi || w == insn_wfe) {
        if (unsigned target = wait_trap_target(w == insn_wfe)) {
            // EC 0x01 "Trapped WFI or WFE"; ISS: CV [24] = 1, COND [23:20] = 0b1110 (taken from AArch64),
            // TI [1:0] = 0 WFI, 1 WFE (Arm ARM D24.2.47 ESR_ELx, ISS encoding for an exception from a
            // WFI or WFE instruction; QEMU's syn_wfx(1, 0xe, ti, false)). Preferred return: the WFx.
            const uint64_t iss = (uint64_t(1) << 24) | (uint64_t(0xe) << 20) | (w == insn_wfe ? 1 : 0);
            take_exception(target, false, esr::syndrome(ec_wfx, iss), pc, std::nullopt);
            return;
        }
        if (w == insn_wfe) { // no event register is modelled: WFE completes at once, as a NOP
            set_pc(pc + 4);
            retire(1);
            return;
        }
    }
    // WFI: the CPU waits (the AMU stops counting) until its IRQ input is high; it wakes even
    // when PSTATE.I masks the interrupt (Arm ARM D1.16.2).
    set_pc(pc + 4);
    retire(1);
    sync();
    if (irq_pending()) return;
    core_.set_power(power_state::wfi, now_fs());
    sc_event_or_list wake;
    for (auto* l : irqs_) wake |= l->changed_event();
    wake |= wake_;
    while (!irq_pending() && now_fs() < deadline_ && running()) wait(to_sc_time(deadline_ - now_fs()), wake);
    if (!running()) return;
    core_.set_power(power_state::run, now_fs());
    t_pos_ = now_fs();
}

// The EL a WFI/WFE traps to, or 0 (Arm ARM D1.6.x "Wait for Interrupt", the trap controls' pages):
// SCTLR_EL1.nTWI/nTWE = 0 traps EL0's to EL1 (to EL2 when HCR_EL2.TGE routes EL0's exceptions);
// HCR_EL2.TWI/TWE traps EL0's and EL1's to EL2 where EL2 is enabled; SCR_EL3.TWI/TWE traps all below
// EL3 to EL3; in that priority. A WFI that would not wait (an interrupt is pending, the wake-up
// condition) completes instead: the traps apply only when the instruction would wait.
unsigned aarch64_iss::wait_trap_target(bool wfe) const {
    if (!wfe && irq_pending()) return 0;
    const uint64_t s = scr(), h = hcr();
    if (el_ == 0) {
        uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, 0}; // SCTLR_EL1: nTWI [16], nTWE [18]
        uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &sctlr);
        if (!((sctlr.val >> (wfe ? 18 : 16)) & 1)) return route_from_el0();
    }
    if (el_ <= 1 && cpu_controls::el2_enabled_by(s, secure_state()) && ((h >> (wfe ? ctl::hcr_twe : ctl::hcr_twi)) & 1))
        return 2;
    if (el_ <= 2 && ((s >> (wfe ? ctl::scr_twe : ctl::scr_twi)) & 1)) return 3;
    return 0;
}

bool aarch64_iss::irq_pending() const {
    for (auto* l : irqs_)
        if (l->level()) return true;
    return false;
}

// Routing and masking of a physical IRQ (Arm ARM D1.3.6 "Asynchronous exception routing",
// D1.3.6.1 masking): SCR_EL3.IRQ routes to EL3; HCR_EL2.IMO or TGE route EL0/EL1's to EL2 where EL2
// is enabled; an IRQ to a lower EL than the current one is not taken; PSTATE.I masks one taken to
// the current EL, never one taken to a higher EL.
unsigned aarch64_iss::irq_target() const {
    uint64_t s = scr(), h = hcr();
    unsigned target = 1;
    if ((s >> scr_irq) & 1) target = 3;
    else if (el_ <= 1 && cpu_controls::el2_enabled_by(s, secure_state()) &&
             (((h >> hcr_imo) & 1) || ((h >> ctl::hcr_tge) & 1)))
        target = 2;
    if (target < el_) return 0;
    if (target == el_) {
        uint64_t ps = 0;
        uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
        if (ps & pstate_i) return 0;
    }
    return target;
}

bool aarch64_iss::try_take_irq() {
    if (!irq_pending()) return false;
    unsigned target = irq_target();
    if (!target) return false;
    take_exception(target, true, 0, engine_pc(), std::nullopt);
    return true;
}

// A system instruction EL0 executed and the engine (at its EL0) refused. Those of op1 = 3 are the
// EL0-accessible class whose access an EL1 control enables (SCTLR_EL1.UMA for MSR DAIFSet/DAIFClr
// and MRS/MSR DAIF, UCT for CTR_EL0, DZE for DC ZVA, UCI for DC CVAU/CIVAC/IC IVAU; CNTKCTL_EL1,
// PMUSERENR_EL0 for the timer and PMU): refused, they trap to EL1 with EC 0x18 and the
// instruction's ISS (Arm ARM D24.2.47, "ISS encoding for an exception from MSR, MRS, or System
// instruction execution in AArch64 state"; the SCTLR_EL1 field pages). Every other EL1-only
// register or instruction (op1 0-2, 4-7: SCTLR_EL1, VBAR_EL1, TTBR0_EL1, TLBI, IC IALLU, ...) is
// UNDEFINED at EL0 (EC 0x00), as is one the gate owns (its rule decides, handle_sysreg).
bool aarch64_iss::el0_system_trap(uint32_t w, uint64_t at) {
    if ((w & 0xffc00000) != 0xd5000000) return false; // not a system instruction
    const unsigned op0 = (w >> 19) & 3, op1 = (w >> 16) & 7, crn = (w >> 12) & 15;
    if (op1 != 3 || op0 == 2) return false;
    const bool msr_immediate = op0 == 0 && crn == 4;
    if (op0 == 0 && !msr_immediate) return false; // hints, barriers: never refused at EL0
    const sysreg_encoding enc{uint8_t(op0), uint8_t(op1), uint8_t(crn), uint8_t((w >> 8) & 15), uint8_t((w >> 5) & 7)};
    if (op0 == 3 && handled_here(enc)) return false;
    const bool is_write = msr_immediate || !((w >> 21) & 1);
    take_exception(route_from_el0(), false, sysreg_trap_syndrome(enc, is_write, msr_immediate ? 31 : w & 31), at,
                   std::nullopt);
    return true;
}

bool aarch64_iss::host_call(uint64_t at, bool hvc, uint32_t imm16, uint64_t executed) {
    if (!call_handler_) return false;
    cpu_call call;
    call.hvc = hvc;
    call.imm16 = uint16_t(imm16);
    call.el = el_;
    call.secure = secure_state();
    for (unsigned r = 0; r < 4; ++r) call.x[r] = read_x(r);
    if (!call_handler_(*this, call)) return false;
    if (!running()) return true; // the call powered this CPU off (CPU_OFF, SYSTEM_OFF)
    for (unsigned r = 0; r < 4; ++r) write_x(r, call.x[r]);
    set_pc(at + 4);
    retire(executed);
    return true;
}

void aarch64_iss::handle_exception(uint64_t pc, uint32_t intno) {
    // SVC, HVC and SMC the engine takes itself (EXCP_SWI 2, EXCP_HVC 11, EXCP_SMC 13) arrive with
    // the PC past the instruction, which its block count already holds; UNDEFINED (EXCP_UDEF 1)
    // arrives with the PC on the instruction, not counted.
    bool past = intno == 2 || intno == 11 || intno == 13;
    uint64_t at = past ? pc - 4 : pc;
    const uint64_t executed = past ? 0 : 1;
    uint32_t w = fetch_word(at);
    sync();
    if (intno == excp_data_abort) {
        data_abort(at, w);
        return;
    }
    if (intno == excp_prefetch_abort) {
        prefetch_abort(at);
        return;
    }
    if (w == insn_hlt_semihosting) {
        semihosting_call(at);
        return;
    }
    uint32_t imm16 = (w >> 5) & 0xffff;
    uint64_t s = scr(), h = hcr();
    if ((w & mask_exception_gen) == insn_svc) {
        retire(executed);
        unsigned target = el_ == 0 ? route_from_el0() : el_;
        take_exception(target, false, esr::syndrome(ec_svc64, imm16), at + 4, std::nullopt);
        return;
    }
    if ((w & mask_exception_gen) == insn_hvc) {
        if (el_ >= 1 && host_call(at, true, imm16, executed)) return;
        // HVC is UNDEFINED at EL0, with SCR_EL3.HCE = 0, or where EL2 is disabled (Arm ARM C6.2.105).
        if (el_ == 0 || !((s >> scr_hce) & 1) || (el_ < 3 && !cpu_controls::el2_enabled_by(s, secure_state()))) {
            take_undefined(at);
            return;
        }
        retire(executed);
        take_exception(std::max(2u, el_), false, esr::syndrome(ec_hvc64, imm16), at + 4, std::nullopt);
        return;
    }
    if ((w & mask_exception_gen) == insn_smc) {
        // SMC: UNDEFINED at EL0; HCR_EL2.TSC traps it from EL1 to EL2 (preferred return: the SMC);
        // SCR_EL3.SMD disables it below EL3 (Arm ARM C6.2.263).
        if (el_ == 0) { take_undefined(at); return; }
        if (el_ == 1 && ((h >> hcr_tsc) & 1) && cpu_controls::el2_enabled_by(s, secure_state())) {
            take_exception(2, false, esr::syndrome(ec_smc64, imm16), at, std::nullopt);
            return;
        }
        if (host_call(at, false, imm16, executed)) return;
        if (el_ < 3 && ((s >> scr_smd) & 1)) { take_undefined(at); return; }
        retire(executed);
        take_exception(3, false, esr::syndrome(ec_smc64, imm16), at + 4, std::nullopt);
        return;
    }
    if (el_ == 0 && el0_system_trap(w, at)) return;
    if ((w & mask_sysreg_move) == insn_sysreg_move) {
        // Unicorn raises UNDEFINED itself for encodings its CPU lacks (EL2/EL3 registers) before
        // the MRS/MSR hooks run: the same handling as the hooks' path.
        handle_sysreg(at);
        return;
    }
    // Anything else the engine could not execute is UNDEFINED for the firmware; without a
    // vector table that ends the run (take_exception), naming the instruction.
    // QEMU raises its exception 1 (EXCP_UDEF) for UNDEFINED and for other synchronous exceptions
    // whose syndrome Unicorn does not report (FP/SIMD access with CPACR_EL1.FPEN, software step,
    // illegal execution state): the note names CPACR_EL1, MDSCR_EL1 and PSTATE (SS [21], IL [20])
    // so that the log tells them apart.
    uc_arm64_cp_reg cpacr{1, 0, 3, 0, 2, 0}, mdscr{0, 2, 2, 0, 2, 0};
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &cpacr);
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &mdscr);
    uint64_t pstate = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &pstate);
    log_note(fmt::format("instruction {:#010x} at {:#x} is UNDEFINED (engine exception {}, CPACR_EL1 {:#x}, MDSCR_EL1 {:#x}, "
                         "PSTATE {:#x})", w, at, intno, cpacr.val, mdscr.val, pstate));
    unsigned target = el_ == 0 ? route_from_el0() : el_;
    uint64_t vbar = 0;
    if (target == 1) uc_reg_read(uc_, UC_ARM64_REG_VBAR_EL1, &vbar);
    else vbar = vbar_[target];
    if (vbar == 0)
        fail(2, fmt::format("{}: instruction {:#010x} cannot be executed (UNDEFINED) and VBAR_EL{} is 0", where(at), w, target));
    take_undefined(at);
}

} // namespace pmusim
