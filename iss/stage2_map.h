#pragma once
// The engine's stage 2 translation: how the ISS finds a load or store outside plain memory (a unit
// or device window, or nothing) exactly, in any code, with the MMU on or off (docs/firmware.md
// "Inside the ISS").
//
// Unicorn reports an access to an unmapped physical address without restoring the PC (its
// load/store helpers exit the CPU loop without the host return address: the instructions before it
// in the translation block have run and the PC is the block's), so the faulting instruction cannot
// be named in code the ISS has not scanned (Linux's). A stage 2 translation fault, by contrast, is
// a guest exception: QEMU restores the PC of the faulting instruction before raising it (Unicorn
// 2.1.1 qemu/target/arm/tlb_helper.c arm_cpu_tlb_fill: cpu_restore_state, then the abort), and
// Unicorn hands it to UC_HOOK_INTR without entering it (cpu-exec.c cpu_handle_exception). So every
// engine runs its EL1&0 regime under a stage 2 that maps exactly the platform's plain memory, 1:1
// (IPA = PA), and nothing else: a data abort from the engine names the instruction that touched
// something else, before it changed anything.
//
// The tables (VMSAv8-64, 4 KB granule, Arm ARM D8.2 "Translation tables", D8.3 "Translation table
// descriptor formats"): a 39-bit IPA (VTCR_EL2.T0SZ = 25) walked from level 1 (SL0 = 1), 1 GB and
// 2 MB block descriptors where a whole block is plain memory, 4 KB pages elsewhere. They live in the
// engine's own physical memory at table_base, above the IPA range, where no guest address reaches.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pmusim {

struct stage2_map {
    std::vector<uint64_t> words; // the tables, 512 descriptors per 4 KB table, the level 1 table first
    uint64_t table_base = 0;     // their physical address (VTTBR_EL2.BADDR)
    uint64_t vtcr = 0, vttbr = 0;
    size_t bytes() const { return words.size() * 8; }
};

// Stage 2 tables that map each [base, base + size) of `memory` 1:1 with read/write/execute access
// and Normal write-back memory attributes, and nothing else. Regions must lie below 2^39 (throws
// std::invalid_argument otherwise). table_base: 4 KB aligned, at or above 2^39.
stage2_map build_stage2_map(const std::vector<std::pair<uint64_t, uint64_t>>& memory, uint64_t table_base);

// The IPA's output address through the tables, or nullopt-like false when the walk faults (for tests).
bool stage2_walk(const stage2_map& map, uint64_t ipa, uint64_t& pa);

// Where the tables go: the first 4 KB above the 39-bit IPA range.
constexpr uint64_t stage2_ipa_bits = 39;
constexpr uint64_t stage2_table_base = uint64_t(1) << stage2_ipa_bits;

} // namespace pmusim
