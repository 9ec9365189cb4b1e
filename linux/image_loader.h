#pragma once
// Places an arm64 Linux `Image`, an initramfs and a device tree blob in a platform's DRAM the way
// a boot loader must (Linux Documentation/arm64/booting.rst, 6.1), outside the CPU, as QEMU's
// hw/arm/boot.c does. Every bad input is an input_error naming the file (exit 2) and nothing is
// written to memory unless every check passes.
#include <cstdint>
#include <string>
#include <vector>

namespace pmusim {

class platform;

// The 64-byte header at the start of an arm64 Image (booting.rst section 4).
struct arm64_image_header {
    uint64_t text_offset = 0; // image load offset from a 2 MiB aligned base
    uint64_t image_size = 0;  // effective size, bss included (0 on kernels before 3.17)
    uint64_t flags = 0;       // bit 0 big-endian, bits 1-2 page size, bit 3 placement anywhere
};
constexpr uint32_t arm64_image_magic = 0x644d5241; // "ARM\x64", little-endian at offset 56
constexpr unsigned arm64_image_magic_offset = 56;

// Reads and checks the header; throws input_error(path) when the bytes are not a little-endian
// arm64 Image this platform can boot.
arm64_image_header parse_arm64_image(const std::string& path, const std::vector<uint8_t>& bytes);

// Where everything went (physical addresses).
struct linux_boot_layout {
    uint64_t dram_base = 0, dram_size = 0;
    uint64_t kernel_entry = 0;  // = kernel load address: the primary CPU starts here
    uint64_t kernel_end = 0;    // load address + image_size
    uint64_t initrd_start = 0, initrd_end = 0; // end exclusive, as linux,initrd-end
    uint64_t dtb_address = 0;   // x0 of the primary CPU
    uint64_t dtb_size = 0;
};

// Chooses the addresses for an Image of `header`/`image_bytes`, an initramfs of `initrd_bytes` and
// a DTB of at most `dtb_max` bytes in the platform's DRAM (the memory region named `dram`, else the
// largest); input_error(initrd_path or kernel_path) when they do not fit.
linux_boot_layout plan_linux_layout(const platform& p, const arm64_image_header& header, uint64_t image_bytes,
                                    uint64_t initrd_bytes, const std::string& kernel_path,
                                    const std::string& initrd_path);

// Copies the three into memory at the layout's addresses (the layout's dtb_size is set here).
void place_linux_images(platform& p, linux_boot_layout& layout, const std::vector<uint8_t>& image,
                        const std::vector<uint8_t>& initrd, const std::vector<uint8_t>& dtb);

} // namespace pmusim
