// Registers this folder's unit type with the platform builder: the `power9_imc` descriptor.
#include <fmt/format.h>

#include "imc/imc.h"
#include "models/unit_descriptor.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {
// Each chip's HOMER image (4 MiB, HOMER_IMAGE_SIZE) must be plain big-endian memory: OPAL and the
// OCC write the control block and the nest counters there (skiboot hw/imc.c; POWER9 is big-endian).
void check_homer_memory(const imc::imc_options& o, const unit_entry& u, const platform_view& p) {
    constexpr uint64_t homer_size = 0x400000;
    const std::string key = o.chips > 1 && !u.param_is_default("homer_stride") ? "homer_stride" : "homer_base";
    if (o.chips > 1 && o.homer_stride < homer_size)
        throw u.param_error("homer_stride", fmt::format("expected at least {:#x} with {} chips (their 4 MiB HOMER "
                                                        "images would overlap)", homer_size, o.chips));
    for (unsigned chip = 0; chip < o.chips; ++chip) {
        const uint64_t offset = uint64_t(chip) * o.homer_stride;
        if (o.homer_stride && offset / o.homer_stride != chip) throw u.param_error(key, "HOMER images past 2^64");
        const uint64_t base = o.homer_base + offset;
        if (base < o.homer_base || base + (homer_size - 1) < base)
            throw u.param_error(key, fmt::format("chip {}'s HOMER image (4 MiB at {:#x}) would end past 2^64", chip, base));
        const platform_memory_region* in = nullptr;
        for (const auto& r : p.memory)
            if (r.size >= homer_size && base >= r.base && base - r.base <= r.size - homer_size) in = &r;
        if (!in)
            throw u.param_error(key, fmt::format("chip {}'s HOMER image (4 MiB at {:#x}) is not inside one memory region: "
                                                 "expected a `memory:` region covering it (endianness: big)",
                                                 chip, base));
        if (!in->big_endian)
            throw u.param_error(key, fmt::format("chip {}'s HOMER image is in memory region '{}' (line {}), which is "
                                                 "little-endian: expected endianness: big (POWER9 memory)",
                                                 chip, in->name, in->line));
    }
}

std::unique_ptr<unit> make_imc(soc& system, const unit_entry& u, const platform_view& p) {
    imc::imc_options o = imc::read_imc_options(u, p);
    if (u.clock.empty()) throw u.error("a power9_imc needs `clock:` (the nest clock the PowerBus counts)");
    if (!p.has_clock("tb")) throw u.error("a power9_imc needs a clock named `tb` (the timebase) on the platform");
    if (u.cpus.empty()) throw u.error("a power9_imc needs `cpus:` (the hardware threads whose core/thread IMC it serves)");
    if (o.homer_base % 0x400000 != 0 || o.homer_stride % 0x400000 != 0)
        throw u.param_error(o.homer_base % 0x400000 ? "homer_base" : "homer_stride",
                            "HOMER images are 4 MiB aligned (HOMER_IMAGE_SIZE 0x400000)");
    check_homer_memory(o, u, p);
    // Each period is work per simulated second (a posting, an accumulation): below 1 us a run
    // does a million of them per simulated millisecond. Real ones are 500 us (occ_tick) and ms.
    constexpr uint64_t min_period_fs = 1'000'000'000; // 1 us
    if (o.occ_tick < min_period_fs) throw u.param_error("occ_tick", "expected a duration of at least 1us");
    if (o.core_update_period < min_period_fs)
        throw u.param_error("core_update_period", "expected a duration of at least 1us");
    imc::catalog catalog = imc::load_catalog_file(o.catalog_path);
    for (const auto& t : o.threads)
        if (t.chip >= o.chips)
            throw u.key_error("cpus", fmt::format("{} is on chip {}, but params.chips is {}", t.name, t.chip, o.chips));
    return std::make_unique<imc_unit>(u.name.c_str(), system, o, std::move(catalog));
}
} // namespace

imc::imc_options imc::read_imc_options(const unit_entry& u, const platform_view& p) {
    imc_options o;
    o.chips = unsigned(u.params.integer("chips"));
    o.homer_base = u.params.integer("homer_base");
    o.homer_stride = u.params.integer("homer_stride");
    o.xscom_base = u.params.integer("xscom_base");
    o.avl_vector = u.params.integer("avl_vector");
    o.core_update_period = u.params.duration_fs("core_update_period");
    o.occ_tick = u.params.duration_fs("occ_tick");
    const std::string& catalog = u.params.text("catalog");
    o.catalog_path = catalog.empty() ? builtin_catalog_path() : p.resolve_path(catalog);
    const std::string& dd = u.params.choice("dd_level"); // "2.2"
    o.trace_supported = trace_supported_on(unsigned(dd[0] - '0'), unsigned(dd[2] - '0'));
    o.nest_clock = u.clock;
    for (unsigned cpu : u.cpus) {
        const platform_cpu& c = p.cpus[cpu];
        o.threads.push_back({c.index, c.name, c.chip, c.core, c.thread, c.clock});
    }
    return o;
}

PMUSIM_REGISTER_UNITS(register_imc_units, 40) {
    using pt = param_type;
    register_unit({
        "power9_imc",
        "IBM POWER9 In-Memory Collection counters: nest (OCC microcode), core, thread and trace IMC",
        {
            {"chips", pt::integer, "1", "number of POWER9 chips (each with a HOMER image and an XSCOM window)", {}, 1,
             16},
            {"homer_base", pt::integer, "0x10000000", "HOMER base of chip 0 (4 MiB aligned)"},
            {"homer_stride", pt::integer, "0x400000", "distance between the HOMER bases of consecutive chips"},
            {"xscom_base", pt::integer, "0x603FC00000000",
             "XSCOM MMIO base of chip 0; chip n at xscom_base + (n << 42)"},
            {"avl_vector", pt::integer, "0xFFFF8073F007E000",
             "nest unit availability the OCC microcode reports (IBM bit i = skiboot nest_pmus_p9[i])"},
            {"core_update_period", pt::duration, "1ms",
             "how often the core/thread IMC logic adds its counts to memory (UNVERIFIED cadence)"},
            {"occ_tick", pt::duration, "500us",
             "OCC microcode tick (HW_MICS_PER_TICK); shorter only to keep per-cycle reference tests small"},
            {"dd_level", pt::choice, "2.2",
             "POWER9 Nimbus DD level; trace IMC exists from DD2.2 (skiboot removes the trace node before)",
             {"2.0", "2.1", "2.2", "2.3"}},
            {"catalog", pt::string, "",
             "IMC event catalog DTS (empty: imc/catalog/power9_dd2.dts; a relative path from the platform file's folder)"},
        },
        {}, // no per-CPU feature keys
        {&imc::imc_table(), &imc::imc_homer_table()},
        make_imc,
        {},                   // no unit from CPU features alone
        {imc_opal_command()}, // unit commands
        {imc::imc_device_tree_tool()}, // pmusim imc-dt
    });
}

} // namespace pmusim
