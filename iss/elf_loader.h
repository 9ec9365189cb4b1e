#pragma once
// Loads an ELF64 AArch64 executable into the platform's plain memory (the ISS's image).
//
// Checks follow the ELF-64 Object File Format and the AArch64 ELF ABI (EM_AARCH64 = 183):
// class, byte order, machine, type, header and segment bounds within the file, no two
// PT_LOAD segments overlapping in memory, each inside one memory region, the entry point
// inside an executable segment. Any violation is an input_error naming the file.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pmusim {

class memory;
// Plain-memory regions as (base address, memory), as platform::memories() gives them.
using memory_regions = std::vector<std::pair<uint64_t, memory*>>;

struct elf_segment {
    uint64_t address = 0;   // p_paddr == p_vaddr (no MMU): physical
    uint64_t file_size = 0; // bytes copied from the file
    uint64_t memory_size = 0;
    bool executable = false;
};

struct elf_image {
    std::string path;
    uint64_t entry = 0;
    std::vector<elf_segment> segments;
    uint64_t highest_end = 0; // end of the highest loaded segment
};

// Parses `bytes` (the file's contents) and copies the segments into the memory regions.
// Throws input_error(path, 0, reason) on bad input; nothing is written to memory unless
// every check passes.
elf_image load_elf(const std::string& path, const std::vector<uint8_t>& bytes, const memory_regions& regions);
// Reads the file (bounded by the regions' total size) and loads it.
elf_image load_elf_file(const std::string& path, const memory_regions& regions);

} // namespace pmusim
