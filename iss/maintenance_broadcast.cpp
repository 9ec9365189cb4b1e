// The CPUs of one platform and the maintenance that reaches all their engines: TLBI ...IS,
// IC IALLUIS/IVAU, code written by a host (docs/firmware.md "Broadcast maintenance"). Members of
// aarch64_iss.
#include "iss/aarch64_iss.h"
#include "iss/a64_encoding.h"
#include "iss/unicorn_calls.h"

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

std::vector<aarch64_iss*>& aarch64_iss::instances() {
    static std::vector<aarch64_iss*> all;
    return all;
}

bool aarch64_iss::other_cpus_running() const {
    // Asked before every engine run and every access served in the engine: no list is built.
    for (const aarch64_iss* i : instances())
        if (i != this && &i->gate_ == &gate_ && i->running()) return true;
    return false;
}

std::vector<aarch64_iss*> aarch64_iss::on_gate(const firmware_gate& gate) {
    std::vector<aarch64_iss*> out;
    for (aarch64_iss* i : instances())
        if (&i->gate_ == &gate) out.push_back(i);
    std::sort(out.begin(), out.end(), [](const aarch64_iss* a, const aarch64_iss* b) { return a->cpu_ < b->cpu_; });
    return out;
}

void aarch64_iss::flush_tlb() { engine_.flush_tlb(); }

void aarch64_iss::flush_translations() { engine_.flush_translations(); }

void aarch64_iss::code_written(uint64_t begin, uint64_t end) {
    for (aarch64_iss* i : on_gate(gate_)) i->drop_translations_of_physical(begin, end);
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
        engine_.drop_translations(at, next);
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
uint32_t aarch64_iss::system_instruction(const uc_arm64_cp_reg& cp) {
    const bool tlbi_is = cp.crn == 8 && (cp.crm == 3 || cp.crm == 0 || cp.crm == 1); // CRm 0/1: TLBI ...IS of the IPA group
    const bool ic_is = cp.crn == 7 && ((cp.op1 == 0 && cp.crm == 1 && cp.op2 == 0) || (cp.op1 == 3 && cp.crm == 5 && cp.op2 == 1));
    if (!tlbi_is && !ic_is) return 0;
    // A CPU that is off holds nothing: power_on drops its TLB and translations. IC IVAU names one
    // cache line by its virtual address (Xt): only the translations of that line go (a whole flush
    // clears the engine's translation buffer: Linux issues thousands of IC IVAU while it patches
    // its own code, and each flush cost ~1 ms per engine).
    const bool ic_ivau = ic_is && cp.op1 == 3;
    // The other engines run only after this one's run ends (SystemC threads take turns): a TLB or
    // whole flush is applied at their next run, once however many arrived (Linux issues a TLBI
    // ...IS for every page it unmaps; flushing three engines' TLBs each time was a large part of
    // the 4-CPU boot). IC IVAU's removal translates the address with the other engine's TLB: its
    // pending flush first.
    for (aarch64_iss* other : on_gate(gate_)) {
        if (other == this || !other->running()) continue;
        if (tlbi_is) {
            other->tlb_flush_pending_ = true;
        } else if (ic_ivau) {
            other->apply_broadcast_maintenance();
            uc_ctl_remove_cache(other->uc_, cp.val & ~uint64_t(63), (cp.val & ~uint64_t(63)) + 64);
        } else {
            other->tb_flush_pending_ = true;
        }
    }
    return 0;
}

void aarch64_iss::apply_broadcast_maintenance() {
    if (tb_flush_pending_) flush_translations(); // uc_ctl_flush_tb flushes the TLB too (tb_flush -> tlb_flush)
    else if (tlb_flush_pending_) flush_tlb();
    tb_flush_pending_ = tlb_flush_pending_ = false;
}

} // namespace pmusim
