// Registers this folder's device type with the platform builder: the `gicv2` descriptor.
#include <fmt/format.h>
#include <sstream>

#include "devices/gic/gic.h"
#include "models/unit_descriptor.h"
#include "models/values.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {

// "LINE=INTID, LINE=INTID ..." (commas or spaces between entries) as (line, INTID) pairs.
std::vector<std::pair<std::string, unsigned>> parse_inputs(const unit_entry& u, const std::string& param) {
    std::string text = u.params.text(param);
    for (char& c : text)
        if (c == ',') c = ' ';
    std::istringstream in(text);
    std::vector<std::pair<std::string, unsigned>> out;
    for (std::string item; in >> item;) {
        const auto eq = item.find('=');
        const auto id = values::scan_integer(eq == std::string::npos ? std::string() : item.substr(eq + 1));
        if (eq == 0 || eq == std::string::npos || !id || *id > 1019)
            throw u.param_error(param, fmt::format("expected LINE=INTID entries (INTID 0..1019), found '{}'", item));
        out.emplace_back(item.substr(0, eq), unsigned(*id));
    }
    return out;
}

std::unique_ptr<unit> make_gic(soc& system, const unit_entry& u, const platform_view& p) {
    for (const char* key : {"clock", "irq"})
        if (u.key_written(key))
            throw u.key_error(key, fmt::format("a gicv2 takes no '{}': it drives one line per CPU interface, "
                                               "named {}_cpuN_irq (docs/devices.md)",
                                               key, u.name));
    if (!u.has_mmio) throw u.error("a gicv2 needs base and size (Distributor at base + 0x1000, CPU interfaces at base + 0x2000)");
    if (u.base % 0x1000) throw u.key_error("base", fmt::format("expected a 4 KB aligned address, found {:#x}", u.base));
    if (u.size < 0x4000)
        throw u.key_error("size", fmt::format("expected at least 0x4000 (the CPU interfaces end at base + 0x4000), found {:#x}", u.size));
    gic_options o;
    o.base = u.base;
    if (u.cpus.empty())
        for (const auto& c : p.cpus) o.cpu_index.push_back(c.index);
    else
        o.cpu_index = u.cpus;
    if (o.cpu_index.empty()) throw u.error("a gicv2 needs at least one CPU");
    if (o.cpu_index.size() > gic_field::max_cpus)
        throw u.key_error("cpus", fmt::format("a GICv2 has at most 8 CPU interfaces, found {} CPUs (list them in cpus)",
                                              o.cpu_index.size()));
    o.cpus = unsigned(o.cpu_index.size());
    o.spis = unsigned(u.params.integer("spis"));
    if (o.spis % 32) throw u.param_error("spis", fmt::format("expected a multiple of 32, found {}", o.spis));
    o.priority_bits = unsigned(u.params.integer("priority_bits"));
    o.gicd_iidr = uint32_t(u.params.integer("iidr"));
    o.gicc_iidr = uint32_t(u.params.integer("gicc_iidr"));

    std::vector<interrupt_line*> outputs;
    for (unsigned cpu : o.cpu_index) outputs.push_back(&system.irq(fmt::format("{}_cpu{}_irq", u.name, cpu)));
    std::vector<gic_input> inputs;
    for (const auto& [line, intid] : parse_inputs(u, "spi_inputs")) {
        if (intid < gic_field::first_spi || intid >= gic_field::first_spi + o.spis)
            throw u.param_error("spi_inputs", fmt::format("{}={}: expected an SPI INTID from 32 to {}", line, intid,
                                                          gic_field::first_spi + o.spis - 1));
        if (!system.irq_lines.count(line))
            throw u.param_error("spi_inputs", fmt::format("no interrupt line named '{}' (a unit's irq or an irq_lines entry)", line));
        for (const auto& in : inputs)
            if (in.intid == intid) throw u.param_error("spi_inputs", fmt::format("INTID {} is given twice", intid));
        inputs.push_back({&system.irq(line), intid, 0});
    }
    // PPI lines are per CPU: "{cpu}" in the name stands for cpuN (a generic_timer's lines, docs/devices.md).
    for (const auto& [pattern, intid] : parse_inputs(u, "ppi_inputs")) {
        if (intid < gic_field::first_ppi || intid >= gic_field::first_spi)
            throw u.param_error("ppi_inputs", fmt::format("{}={}: expected a PPI INTID from 16 to 31", pattern, intid));
        const auto at = pattern.find("{cpu}");
        if (at == std::string::npos)
            throw u.param_error("ppi_inputs", fmt::format("{}: expected '{{cpu}}' in a PPI line name (one line per CPU)", pattern));
        for (unsigned i = 0; i < o.cpus; ++i) {
            std::string name = pattern;
            name.replace(at, 5, fmt::format("cpu{}", o.cpu_index[i]));
            inputs.push_back({&system.irq(name), intid, i});
        }
    }
    return std::make_unique<gic_unit>(u.name.c_str(), system, o, std::move(outputs), std::move(inputs));
}

} // namespace

PMUSIM_REGISTER_UNITS(register_gic_devices, 110) {
    using pt = param_type;
    register_unit({
        "gicv2",
        "GICv2 interrupt controller (GIC-400 layout: Distributor at base + 0x1000, CPU interfaces at base + 0x2000); "
        "drives NAME_cpuN_irq per CPU",
        {
            {"spis", pt::integer, "64", "implemented SPIs, a multiple of 32 (INTIDs 32 .. 31 + spis)", {}, 0, 960},
            {"priority_bits", pt::integer, "5", "implemented priority bits (GIC-400: 5)", {}, 4, 8},
            {"spi_inputs", pt::string, "", "interrupt lines as SPIs: 'LINE=INTID, ...' (INTID 32 + the DT's SPI number)"},
            {"ppi_inputs", pt::string, "",
             "per-CPU lines as PPIs: 'PATTERN=INTID, ...', {cpu} in PATTERN stands for cpuN (INTID 16 + the DT's PPI number)"},
            {"iidr", pt::integer, "0x0200143B", "GICD_IIDR (GIC-400 r0p1)", {}, 0, 0xFFFFFFFF},
            {"gicc_iidr", pt::integer, "0x0202143B", "GICC_IIDR (GIC-400 r0p1; Linux checks the architecture field is 2)", {}, 0,
             0xFFFFFFFF},
        },
        {},
        {&gic_distributor_table(), &gic_cpu_interface_table()},
        make_gic,
    });
}

} // namespace pmusim
