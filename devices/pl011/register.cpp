// Registers this folder's device type with the platform builder: the `pl011` descriptor.
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iterator>

#include "devices/pl011/pl011.h"
#include "models/unit_descriptor.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {

std::unique_ptr<unit> make_pl011(soc& system, const unit_entry& u, const platform_view& p) {
    for (const char* key : {"clock", "cpus"})
        if (u.key_written(key))
            throw u.key_error(key, fmt::format("a pl011 takes no '{}' (its reference clock is params.uartclk)", key));
    if (!u.has_mmio) throw u.error("a pl011 needs base and size (a 4 KB frame)");
    if (u.base % pl011_field::frame_size)
        throw u.key_error("base", fmt::format("expected a 4 KB aligned address, found {:#x}", u.base));
    if (u.size != pl011_field::frame_size)
        throw u.key_error("size", fmt::format("expected 0x1000 (Linux's amba bus reads the IDs at size - 0x20), found {:#x}", u.size));
    pl011_options o;
    o.base = u.base;
    o.uartclk_hz = u.params.frequency_hz("uartclk");
    o.periph_id = uint32_t(u.params.integer("periph_id"));
    const std::string out = u.params.text("output");
    if (out == "stdout") o.output = stdout;
    else if (out == "stderr") o.output = stderr;
    else if (!out.empty() && out != "none") {
        const std::string path = p.resolve_path(out);
        o.output = std::fopen(path.c_str(), "wb");
        if (!o.output)
            throw u.param_error("output", fmt::format("cannot write {}: {} (expected a writable file, stdout, stderr or none)",
                                                      path, std::strerror(errno)));
        o.output_owned = true;
    }
    const std::string in = u.params.text("input");
    if (in == "stdin") o.input_stdin = true;
    else if (!in.empty() && in != "none") {
        const std::string path = p.resolve_path(in);
        std::ifstream f(path, std::ios::binary);
        if (!f) throw u.param_error("input", fmt::format("cannot read {} (expected a readable file, stdin or none)", path));
        o.input.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    interrupt_line* irq = u.irq.empty() ? nullptr : &system.irq(u.irq);
    return std::make_unique<pl011_unit>(u.name.c_str(), system, std::move(o), irq);
}

} // namespace

PMUSIM_REGISTER_UNITS(register_pl011_devices, 130) {
    using pt = param_type;
    register_unit({
        "pl011",
        "Arm PrimeCell UART (PL011): transmits to stdout or a file, receives from a file or stdin at the programmed "
        "baud rate; its combined interrupt drives `irq`",
        {
            {"uartclk", pt::frequency, "24MHz", "UARTCLK, the reference clock of the baud divisor", {}, 1, UINT64_MAX},
            {"output", pt::string, "stdout", "where transmitted bytes go: stdout, stderr, none or a file path"},
            {"input", pt::string, "", "what it receives: a file path, stdin, or nothing (empty or none)"},
            {"periph_id", pt::integer, "0x00041011", "UARTPeriphID0-3 (Linux matches 0x00041011 & 0x000fffff)", {}, 0,
             0xFFFFFFFF},
        },
        {},
        {&pl011_table()},
        make_pl011,
    });
}

} // namespace pmusim
