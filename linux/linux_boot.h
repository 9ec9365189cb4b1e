#pragma once
// Everything `pmusim linux` does before the first instruction: reads and checks the kernel Image,
// the initramfs and the DTB (generated from the platform, or the user's), plans the layout in DRAM
// (linux/image_loader.h) and fills /chosen. Bad input: input_error naming the file (exit 2).
#include <optional>
#include <string>
#include <vector>

#include "linux/image_loader.h"

namespace pmusim {

class platform;

struct linux_boot_options {
    std::string kernel;              // --kernel: an arm64 Image
    std::string initrd;              // --initrd: an initramfs (cpio, optionally compressed); may be empty
    std::string dtb;                 // --dtb: the user's blob instead of the generated one
    std::string dtb_out;             // --dtb-out: write the blob booted with
    std::optional<std::string> append; // --append: kernel command line arguments
    unsigned el = 1;                 // --el: the EL the kernel starts at (1 or 2)
};

struct linux_boot_image {
    linux_boot_layout layout;
    std::vector<uint8_t> dtb;
    std::string bootargs; // as /chosen holds them
};

// The kernel command line of the generated tree: the console on the PL011 (and its early console),
// the initramfs's /init, at EL2 `kvm-arm.mode=none` (unless --append names a kvm-arm.mode), then
// --append.
std::string default_bootargs(const platform& p, const std::optional<std::string>& append, unsigned el = 1);

// Reads, checks, places everything in the platform's memory; writes --dtb-out.
linux_boot_image prepare_linux_boot(platform& p, const linux_boot_options& o);

} // namespace pmusim
