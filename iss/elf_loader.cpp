#include "iss/elf_loader.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "models/input_error.h"
#include "models/memory.h"

namespace pmusim {

namespace {

// ELF-64 constants (System V ABI, "ELF-64 Object File Format" 1.5; AArch64 ELF ABI for EM_AARCH64).
constexpr uint8_t elfclass64 = 2, elfdata2lsb = 1;
constexpr uint16_t et_exec = 2, em_aarch64 = 183;
constexpr uint32_t pt_load = 1, pf_x = 1;
constexpr size_t ehdr_size = 64, phdr_size = 56;

memory* region_at(const memory_regions& regions, uint64_t address, uint64_t& base) {
    for (const auto& [b, m] : regions)
        if (address >= b && address - b < m->size()) {
            base = b;
            return m;
        }
    return nullptr;
}

template <class T> T get(const std::vector<uint8_t>& b, size_t off) {
    T v;
    std::memcpy(&v, b.data() + off, sizeof v); // little-endian host (checked by the build's targets: x86-64, arm64)
    return v;
}

} // namespace

elf_image load_elf(const std::string& path, const std::vector<uint8_t>& b, const memory_regions& regions) {
    auto bad = [&](const std::string& why) { return input_error(path, 0, why); };
    if (b.size() < ehdr_size || std::memcmp(b.data(), "\x7f" "ELF", 4) != 0)
        throw bad(fmt::format("not an ELF file ({} bytes, expected the \\x7fELF header of 64 bytes)", b.size()));
    if (b[4] != elfclass64) throw bad("not a 64-bit ELF (EI_CLASS is not ELFCLASS64); expected an AArch64 executable");
    if (b[5] != elfdata2lsb) throw bad("not a little-endian ELF (EI_DATA is not ELFDATA2LSB)");
    uint16_t type = get<uint16_t>(b, 16), machine = get<uint16_t>(b, 18);
    if (machine != em_aarch64)
        throw bad(fmt::format("ELF for machine {} (e_machine), expected EM_AARCH64 (183)", machine));
    if (type != et_exec) throw bad(fmt::format("ELF type {} (e_type), expected ET_EXEC (2): link a static executable", type));
    elf_image img;
    img.path = path;
    img.entry = get<uint64_t>(b, 24);
    uint64_t phoff = get<uint64_t>(b, 32);
    uint16_t phentsize = get<uint16_t>(b, 54), phnum = get<uint16_t>(b, 56);
    if (phnum == 0) throw bad("no program headers: nothing to load");
    if (phentsize != phdr_size) throw bad(fmt::format("program header size {} (e_phentsize), expected 56", phentsize));
    if (phoff > b.size() || uint64_t(phnum) * phdr_size > b.size() - phoff)
        throw bad(fmt::format("truncated: {} program headers at offset {:#x} run past the end of the file ({} bytes)",
                              phnum, phoff, b.size()));
    std::vector<std::pair<elf_segment, uint64_t>> loads; // segment, file offset
    for (unsigned i = 0; i < phnum; ++i) {
        size_t h = phoff + size_t(i) * phdr_size;
        if (get<uint32_t>(b, h) != pt_load) continue;
        elf_segment s;
        uint32_t flags = get<uint32_t>(b, h + 4);
        uint64_t offset = get<uint64_t>(b, h + 8);
        s.address = get<uint64_t>(b, h + 24); // p_paddr: where the bytes go with no MMU
        s.file_size = get<uint64_t>(b, h + 32);
        s.memory_size = get<uint64_t>(b, h + 40);
        s.executable = flags & pf_x;
        if (s.memory_size == 0) continue;
        if (s.file_size > s.memory_size)
            throw bad(fmt::format("segment {} has p_filesz {:#x} larger than p_memsz {:#x}", i, s.file_size, s.memory_size));
        if (offset > b.size() || s.file_size > b.size() - offset)
            throw bad(fmt::format("truncated: segment {} ({:#x} bytes at file offset {:#x}) runs past the end of the file ({} bytes)",
                                  i, s.file_size, offset, b.size()));
        if (s.address + s.memory_size < s.address)
            throw bad(fmt::format("segment {} at {:#x} wraps around the address space", i, s.address));
        uint64_t base = 0;
        memory* m = region_at(regions, s.address, base);
        if (!m || s.memory_size > m->size() - (s.address - base))
            throw bad(fmt::format("segment {} [{:#x}, {:#x}) is outside the platform's memory (regions: {}); link it inside a memory region",
                                  i, s.address, s.address + s.memory_size, [&] {
                                      std::string r;
                                      for (const auto& [mb, mm] : regions)
                                          r += fmt::format("{}[{:#x}, {:#x})", r.empty() ? "" : ", ", mb, mb + mm->size());
                                      return r.empty() ? std::string("none") : r;
                                  }()));
        for (const auto& [o, _] : loads)
            if (s.address < o.address + o.memory_size && o.address < s.address + s.memory_size)
                throw bad(fmt::format("segment {} [{:#x}, {:#x}) overlaps another loadable segment [{:#x}, {:#x})", i,
                                      s.address, s.address + s.memory_size, o.address, o.address + o.memory_size));
        loads.push_back({s, offset});
    }
    if (loads.empty()) throw bad("no loadable (PT_LOAD) segment");
    bool entry_ok = false;
    for (const auto& [s, _] : loads)
        if (s.executable && img.entry >= s.address && img.entry - s.address < s.memory_size) entry_ok = true;
    if (!entry_ok) throw bad(fmt::format("entry point {:#x} is not inside an executable loadable segment", img.entry));
    // Every check passed: copy.
    for (const auto& [s, offset] : loads) {
        uint64_t base = 0;
        memory* m = region_at(regions, s.address, base);
        uint8_t* dst = m->data() + (s.address - base);
        std::memcpy(dst, b.data() + offset, s.file_size);
        std::memset(dst + s.file_size, 0, s.memory_size - s.file_size);
        img.segments.push_back(s);
        img.highest_end = std::max(img.highest_end, s.address + s.memory_size);
    }
    return img;
}

elf_image load_elf_file(const std::string& path, const memory_regions& regions) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw input_error(path, 0, "cannot read the ELF file: no such file");
    if (!std::filesystem::is_regular_file(path, ec)) throw input_error(path, 0, "cannot read the ELF file (not a regular file)");
    uint64_t limit = 0;
    for (const auto& [_, m] : regions) limit += m->size();
    uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) throw input_error(path, 0, "cannot read the ELF file");
    // A larger file cannot fit its segments into memory; bounded so a huge file is not read whole.
    if (size > limit + (64u << 20))
        throw input_error(path, 0, fmt::format("ELF file of {} bytes is larger than the platform's memory ({} bytes)", size, limit));
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes(size);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size))) throw input_error(path, 0, "cannot read the ELF file");
    return load_elf(path, bytes, regions);
}

} // namespace pmusim
