#include "linux/image_loader.h"

#include <cstring>
#include <fmt/format.h>

#include "models/input_error.h"
#include "models/memory.h"
#include "vp/platform.h"

namespace pmusim {
namespace {

constexpr uint64_t two_mib = 2ull << 20;
// booting.rst: "The device tree blob (dtb) must be placed on an 8-byte boundary and must not
// exceed 2 megabytes in size"; it is mapped with 2 MiB blocks, so it gets a 2 MiB region of its own.
constexpr uint64_t dtb_limit = two_mib;
// booting.rst: image_size 0 means a kernel older than 3.17, whose text_offset is 0x80000.
constexpr uint64_t legacy_text_offset = 0x80000;

uint64_t le64(const std::vector<uint8_t>& b, size_t at) {
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= uint64_t(b[at + i]) << (8 * i);
    return v;
}

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

const memory_region_config* dram_region(const platform_config& cfg) {
    const memory_region_config* best = cfg.find_memory("dram");
    for (const auto& m : cfg.memory)
        if (!best || (best->name != "dram" && m.size > best->size)) best = &m;
    return best;
}

} // namespace

arm64_image_header parse_arm64_image(const std::string& path, const std::vector<uint8_t>& bytes) {
    if (bytes.size() < 64)
        throw input_error(path, 0, fmt::format("not an arm64 Linux Image: {} bytes, shorter than the 64-byte header "
                                               "(Documentation/arm64/booting.rst)", bytes.size()));
    const uint32_t magic = uint32_t(le64(bytes, arm64_image_magic_offset));
    if (magic != arm64_image_magic) {
        std::string hint;
        if (bytes[0] == 0x1f && bytes[1] == 0x8b) hint = " (a gzip file: a vmlinuz; decompress it, e.g. scripts/linux-kit.sh does)";
        else if (bytes[0] == 'M' && bytes[1] == 'Z' && std::memcmp(&bytes[4], "zimg", 4) == 0)
            hint = " (an EFI zboot vmlinuz; scripts/linux-kit.sh extracts its Image)";
        else if (bytes[0] == 0x7f && std::memcmp(&bytes[1], "ELF", 3) == 0) hint = " (an ELF file: give the Image, not vmlinux)";
        throw input_error(path, 0, fmt::format("not an arm64 Linux Image: expected the magic 0x644d5241 (\"ARM\\x64\") "
                                               "at offset 56, found 0x{:08x}{}", magic, hint));
    }
    arm64_image_header h;
    h.text_offset = le64(bytes, 8);
    h.image_size = le64(bytes, 16);
    h.flags = le64(bytes, 24);
    if (h.image_size == 0) h.text_offset = legacy_text_offset;
    if (h.flags & 1)
        throw input_error(path, 0, "big-endian arm64 Image (header flags bit 0): pmusim's CPUs boot little-endian kernels");
    if (h.text_offset % 4096 != 0 || h.text_offset >= two_mib)
        throw input_error(path, 0, fmt::format("arm64 Image header: text_offset 0x{:x} is not a page-aligned offset "
                                               "below 2 MiB", h.text_offset));
    if (h.image_size != 0 && h.image_size < bytes.size())
        throw input_error(path, 0, fmt::format("arm64 Image header: image_size {} is smaller than the file ({} bytes)",
                                               h.image_size, bytes.size()));
    return h;
}

linux_boot_layout plan_linux_layout(const platform& p, const arm64_image_header& header, uint64_t image_bytes,
                                    uint64_t initrd_bytes, const std::string& kernel_path,
                                    const std::string& initrd_path) {
    const memory_region_config* dram = dram_region(p.config());
    if (!dram) throw input_error(p.config().file, 0, "the platform has no memory region to boot Linux in");
    linux_boot_layout l;
    l.dram_base = dram->base;
    l.dram_size = dram->size;
    const uint64_t end = dram->base + dram->size;
    // booting.rst: "The Image must be placed text_offset bytes from a 2MB aligned base address
    // anywhere in usable system RAM"; bit 3 clear asks for a base as close as possible to the start
    // of DRAM: the first 2 MiB boundary.
    const uint64_t base = align_up(dram->base, two_mib);
    l.kernel_entry = base + header.text_offset;
    const uint64_t kernel_size = std::max(header.image_size, image_bytes);
    l.kernel_end = l.kernel_entry + kernel_size;
    if (l.kernel_end > end)
        throw input_error(kernel_path, 0, fmt::format("the Image needs {} bytes from 0x{:x}, beyond the end of "
                                                      "memory region {} (0x{:x})", kernel_size, l.kernel_entry,
                                                      dram->name, end));
    // The initramfs after the kernel, on its own 2 MiB boundary (it is inside the same 1 GiB
    // aligned window as the kernel while DRAM is under 1 GiB; checked below).
    l.initrd_start = align_up(l.kernel_end, two_mib);
    l.initrd_end = l.initrd_start + initrd_bytes;
    l.dtb_address = align_up(l.initrd_end, two_mib);
    if (initrd_bytes > dram->size || l.dtb_address + dtb_limit > end)
        throw input_error(initrd_path, 0, fmt::format("initramfs of {} bytes does not fit in memory: memory region {} "
                                                      "holds {} bytes, of which the kernel takes {} and the device "
                                                      "tree 2 MiB", initrd_bytes, dram->name, dram->size,
                                                      l.kernel_end - dram->base));
    // booting.rst: the initrd "must reside entirely within a 1 GB aligned physical memory window
    // of up to 32 GB in size that fully covers the kernel Image as well".
    const uint64_t window = 32ull << 30;
    if (initrd_bytes && (l.initrd_end - (l.kernel_entry & ~((1ull << 30) - 1))) > window)
        throw input_error(initrd_path, 0, "initramfs would end more than 32 GiB above the kernel's 1 GiB window");
    return l;
}

void place_linux_images(platform& p, linux_boot_layout& l, const std::vector<uint8_t>& image,
                        const std::vector<uint8_t>& initrd, const std::vector<uint8_t>& dtb) {
    if (dtb.size() > dtb_limit) throw input_error("", 0, fmt::format("device tree of {} bytes: booting.rst allows at most 2 MiB", dtb.size()));
    auto copy = [&](uint64_t address, const std::vector<uint8_t>& bytes) {
        if (bytes.empty()) return;
        memory* m = p.memory_at(address);
        uint64_t base = 0;
        for (const auto& [b, mem] : p.memories())
            if (mem == m) base = b;
        if (!m || address - base + bytes.size() > m->size()) throw model_error("boot image outside memory");
        std::memcpy(m->data() + (address - base), bytes.data(), bytes.size());
    };
    l.dtb_size = dtb.size();
    copy(l.kernel_entry, image);
    copy(l.initrd_start, initrd);
    copy(l.dtb_address, dtb);
}

} // namespace pmusim
