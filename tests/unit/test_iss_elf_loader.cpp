// The ISS's ELF loader (iss/elf_loader.h) over memory regions alone. The files are built here byte
// by byte from the ELF-64 layout ("ELF-64 Object File Format" 1.5 and the System V gABI, "ELF
// Header" and "Program Header"): e_ident (EI_MAG "\x7fELF", EI_CLASS [4] ELFCLASS64 = 2, EI_DATA
// [5] ELFDATA2LSB = 1), e_type @16 (ET_EXEC 2, ET_DYN 3), e_machine @18 (EM_AARCH64 183, "ELF for
// the Arm 64-bit Architecture", AAELF64; EM_X86_64 62), e_entry @24, e_phoff @32, e_phentsize @54
// (56), e_phnum @56; a program header: p_type @0 (PT_LOAD 1), p_flags @4 (PF_X 1, PF_W 2, PF_R 4),
// p_offset @8, p_vaddr @16, p_paddr @24, p_filesz @32, p_memsz @40. What the loader promises on bad
// input (an input_error naming the file, nothing written) is docs/firmware.md's.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "iss/elf_loader.h"
#include "models/input_error.h"
#include "models/memory.h"

using namespace pmusim;

namespace {
constexpr uint64_t dram = 0x80000000, dram_size = 1u << 20, sram = 0x10000000, sram_size = 0x1000;

std::vector<uint8_t> counting(size_t n) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i + 1);
    return v;
}

struct segment_spec {
    uint32_t type = 1, flags = 5; // PT_LOAD, R+X
    uint64_t address = dram, file_size = 8, memory_size = 32;
    std::vector<uint8_t> bytes = counting(8); // 1, 2, ..., 8
};

template <class T> void put(std::vector<uint8_t>& b, size_t off, T v) { std::memcpy(b.data() + off, &v, sizeof v); }

std::vector<uint8_t> elf(uint64_t entry, const std::vector<segment_spec>& segs, uint16_t machine = 183, uint16_t type = 2,
                         uint8_t cls = 2, uint8_t data = 1) {
    const size_t phoff = 64, data_off = phoff + 56 * segs.size();
    std::vector<uint8_t> b(data_off);
    b[0] = 0x7f, b[1] = 'E', b[2] = 'L', b[3] = 'F', b[4] = cls, b[5] = data, b[6] = 1; // EV_CURRENT
    put<uint16_t>(b, 16, type);
    put<uint16_t>(b, 18, machine);
    put<uint32_t>(b, 20, 1);
    put<uint64_t>(b, 24, entry);
    put<uint64_t>(b, 32, phoff);
    put<uint16_t>(b, 52, 64);
    put<uint16_t>(b, 54, 56);
    put<uint16_t>(b, 56, uint16_t(segs.size()));
    for (size_t i = 0; i < segs.size(); ++i) {
        const size_t h = phoff + 56 * i;
        put<uint32_t>(b, h, segs[i].type);
        put<uint32_t>(b, h + 4, segs[i].flags);
        put<uint64_t>(b, h + 8, b.size());
        put<uint64_t>(b, h + 16, segs[i].address);
        put<uint64_t>(b, h + 24, segs[i].address);
        put<uint64_t>(b, h + 32, segs[i].file_size);
        put<uint64_t>(b, h + 40, segs[i].memory_size);
        b.insert(b.end(), segs[i].bytes.begin(), segs[i].bytes.end());
    }
    return b;
}

struct regions_fixture {
    memory ram{"ram", dram_size, false}, sram_mem{"sram", sram_size, false};
    memory_regions regions{{dram, &ram}, {sram, &sram_mem}};
    regions_fixture() {
        std::memset(ram.data(), 0xaa, dram_size);
        std::memset(sram_mem.data(), 0xaa, sram_size);
    }
    bool untouched() const {
        for (uint64_t i = 0; i < 4096; ++i)
            if (const_cast<memory&>(ram).data()[i] != 0xaa) return false;
        return true;
    }
};

std::string load_error(const std::vector<uint8_t>& bytes, const memory_regions& r) {
    try {
        load_elf("t.elf", bytes, r);
    } catch (const input_error& e) {
        return e.what();
    }
    return "(loaded)";
}
} // namespace

TEST_CASE("iss elf loader: PT_LOAD segments are copied with their bss zeroed and the entry and end recorded", "[iss]") {
    regions_fixture f;
    segment_spec text, data;
    data.flags = 6; // R+W
    data.address = sram + 0x100;
    data.file_size = 4;
    data.memory_size = 16;
    data.bytes = std::vector<uint8_t>(4, 9);
    segment_spec note;
    note.type = 4; // PT_NOTE: not loaded
    note.address = dram + 0x800;
    const elf_image img = load_elf("t.elf", elf(dram + 4, {text, data, note}), f.regions);
    CHECK(img.path == "t.elf");
    CHECK(img.entry == dram + 4);
    REQUIRE(img.segments.size() == 2);
    CHECK(img.segments[0].executable);
    CHECK_FALSE(img.segments[1].executable);
    CHECK(img.highest_end == dram + 32);
    const std::vector<uint8_t> want_text = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(std::vector<uint8_t>(f.ram.data(), f.ram.data() + 8) == want_text);
    for (int i = 8; i < 32; ++i) CHECK(f.ram.data()[i] == 0); // p_memsz beyond p_filesz: zero
    CHECK(f.ram.data()[32] == 0xaa);
    CHECK(f.ram.data()[0x800] == 0xaa); // the PT_NOTE
    CHECK(f.sram_mem.data()[0x100] == 9);
    CHECK(f.sram_mem.data()[0x104] == 0);
    CHECK(f.sram_mem.data()[0x10f] == 0);
    CHECK(f.sram_mem.data()[0x110] == 0xaa);
}

TEST_CASE("iss elf loader: a file that is not a little-endian 64-bit AArch64 executable is refused naming the field", "[iss]") {
    regions_fixture f;
    segment_spec text;
    std::vector<uint8_t> junk(100, 0);
    CHECK(load_error(junk, f.regions).find("not an ELF file") != std::string::npos);
    CHECK(load_error(elf(dram, {text}, 183, 2, 1), f.regions).find("ELFCLASS64") != std::string::npos);
    CHECK(load_error(elf(dram, {text}, 183, 2, 2, 2), f.regions).find("ELFDATA2LSB") != std::string::npos);
    CHECK(load_error(elf(dram, {text}, 62), f.regions).find("EM_AARCH64 (183)") != std::string::npos);
    CHECK(load_error(elf(dram, {text}, 183, 3), f.regions).find("ET_EXEC (2)") != std::string::npos);
    CHECK(load_error(elf(dram, {}), f.regions).find("no program headers") != std::string::npos);
    CHECK(load_error(junk, f.regions).rfind("t.elf", 0) == 0); // the message starts with the file's name
    CHECK(load_error(elf(dram, {text}), f.regions) == "(loaded)");
    CHECK(f.ram.data()[0] == 1);
}

TEST_CASE("iss elf loader: segments outside memory or overlapping or truncated and an entry outside code write nothing", "[iss]") {
    regions_fixture f;
    segment_spec text;
    // The entry point must lie in an executable PT_LOAD segment.
    CHECK(load_error(elf(dram + 0x100, {text}), f.regions).find("entry point 0x80000100") != std::string::npos);
    segment_spec rw = text;
    rw.flags = 6;
    CHECK(load_error(elf(dram, {rw}), f.regions).find("not inside an executable") != std::string::npos);
    // Outside every region, or running past the end of one.
    segment_spec outside = text;
    outside.address = 0x40000000;
    CHECK(load_error(elf(dram, {text, outside}), f.regions).find("outside the platform's memory") != std::string::npos);
    segment_spec tail = text;
    tail.address = sram + sram_size - 16;
    CHECK(load_error(elf(dram, {text, tail}), f.regions).find("outside the platform's memory") != std::string::npos);
    // Two loadable segments over the same bytes.
    segment_spec overlap = text;
    overlap.address = dram + 16;
    CHECK(load_error(elf(dram, {text, overlap}), f.regions).find("overlaps") != std::string::npos);
    // p_filesz > p_memsz, and bytes the file does not have.
    segment_spec fat = text;
    fat.memory_size = 4;
    CHECK(load_error(elf(dram, {fat}), f.regions).find("larger than p_memsz") != std::string::npos);
    segment_spec cut = text;
    cut.file_size = 4096;
    cut.memory_size = 4096;
    CHECK(load_error(elf(dram, {cut}), f.regions).find("truncated") != std::string::npos);
    CHECK(f.untouched()); // nothing written by any of them
}

TEST_CASE("iss elf loader: a missing file says no such file and a directory is not a regular file", "[iss]") {
    regions_fixture f;
    const std::string missing = (std::filesystem::temp_directory_path() / "pmusim-no-such-file.elf").string();
    std::filesystem::remove(missing);
    try {
        load_elf_file(missing, f.regions);
        FAIL("loaded a missing file");
    } catch (const input_error& e) {
        CHECK(std::string(e.what()).find("no such file") != std::string::npos);
        CHECK(std::string(e.what()).find(missing) != std::string::npos);
    }
    try {
        load_elf_file(std::filesystem::temp_directory_path().string(), f.regions);
        FAIL("loaded a directory");
    } catch (const input_error& e) {
        CHECK(std::string(e.what()).find("not a regular file") != std::string::npos);
    }
}
