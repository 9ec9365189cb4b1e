#include "linux/linux_boot.h"

#include <filesystem>
#include <fmt/format.h>

#include "linux/device_tree.h"
#include "models/input_error.h"
#include "models/input_file.h"
#include "models/atomic_output.h"
#include "vp/platform.h"

namespace pmusim {
namespace {

std::vector<uint8_t> read_bytes(const std::string& path, uint64_t limit, const std::string& what,
                                const std::string& too_large) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw input_error(path, 0, fmt::format("{}: no such file", what));
    if (std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) > limit)
        throw input_error(path, 0, fmt::format("{} of {} bytes {}", what, std::filesystem::file_size(path, ec), too_large));
    std::string text = read_input_file(path, limit, what);
    return std::vector<uint8_t>(text.begin(), text.end());
}

uint64_t dram_size(const platform& p) {
    uint64_t s = 0;
    for (const auto& m : p.config().memory) s = std::max(s, m.size);
    return s;
}

} // namespace

std::string default_bootargs(const platform& p, const std::optional<std::string>& append, unsigned el) {
    const linux_devices dev = describe_linux_devices(p.config());
    // earlycon: Linux Documentation/admin-guide/kernel-parameters.txt "pl011,<addr>"; ttyAMA0 is
    // the first PL011 (drivers/tty/serial/amba-pl011.c).
    std::string args = fmt::format("console=ttyAMA0 earlycon=pl011,0x{:x} rdinit=/init", dev.uart_base);
    // Started at EL2, the kernel keeps EL2 for KVM, whose nVHE hypervisor turns on EL2's own MMU
    // (arch/arm64/kvm/hyp/nvhe/hyp-init.S); the ISS runs EL2 untranslated (docs/firmware.md "What
    // the ISS leaves out"), so KVM is switched off (kernel-parameters.txt "kvm-arm.mode=none: Forcefully
    // disable KVM"; arch/arm64/kvm/arm.c prints "KVM disabled from command line"). The hyp stub,
    // which runs with EL2's MMU off, still serves the kernel's HVCs.
    if (el == 2 && !(append && append->find("kvm-arm.mode=") != std::string::npos)) args += " kvm-arm.mode=none";
    if (append && !append->empty()) args += " " + *append;
    return args;
}

linux_boot_image prepare_linux_boot(platform& p, const linux_boot_options& o) {
    const uint64_t memory_bytes = dram_size(p);
    const std::vector<uint8_t> image =
        read_bytes(o.kernel, memory_bytes, "kernel Image", "does not fit in the platform's memory");
    const arm64_image_header header = parse_arm64_image(o.kernel, image);
    std::vector<uint8_t> initrd;
    if (!o.initrd.empty())
        initrd = read_bytes(o.initrd, memory_bytes, "initramfs",
                            fmt::format("is larger than the platform's memory ({} bytes)", memory_bytes));
    linux_boot_image b;
    b.layout = plan_linux_layout(p, header, image.size(), initrd.size(), o.kernel, o.initrd);
    std::vector<uint8_t> dtb;
    std::optional<std::string> bootargs;
    if (!o.dtb.empty()) {
        dtb = read_bytes(o.dtb, 2u << 20, "device tree blob", "is larger than booting.rst's 2 MiB");
        check_dtb(dtb, o.dtb);
        if (o.append) bootargs = *o.append; // the user's tree keeps its own bootargs unless --append
    } else {
        bootargs = default_bootargs(p, o.append, o.el);
        dtb = compile_dts(linux_dts(p.config(), describe_linux_devices(p.config()), *bootargs));
    }
    // Linux keeps COMMAND_LINE_SIZE - 1 bytes of /chosen's bootargs and drops the rest without a
    // word (arch/arm64/include/uapi/asm/setup.h COMMAND_LINE_SIZE 2048; drivers/of/fdt.c
    // early_init_dt_scan_chosen copies with strscpy): refuse what it would cut.
    constexpr size_t command_line_size = 2048;
    if (bootargs && bootargs->size() >= command_line_size)
        throw input_error("--append", 0,
                          fmt::format("the kernel command line would be {} bytes; Linux keeps at most {} "
                                      "(COMMAND_LINE_SIZE in arch/arm64/include/uapi/asm/setup.h) and drops the rest",
                                      bootargs->size(), command_line_size - 1));
    const std::string dtb_name = o.dtb.empty() ? std::string("generated device tree") : o.dtb;
    b.dtb = set_chosen(dtb, dtb_name, b.layout.initrd_start, b.layout.initrd_end, bootargs);
    b.bootargs = bootargs.value_or("");
    if (!o.dtb_out.empty()) {
        atomic_output out(o.dtb_out);
        out.stream().write(reinterpret_cast<const char*>(b.dtb.data()), std::streamsize(b.dtb.size()));
        out.commit();
    }
    place_linux_images(p, b.layout, image, initrd, b.dtb);
    return b;
}

} // namespace pmusim
