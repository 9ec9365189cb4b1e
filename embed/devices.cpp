// The platform devices alone (include/pmusim/devices.h): each is a one-device platform described in
// code from its typed options (vp/platform_builder.h), checked against the device's own descriptor
// (devices/NAME/register.cpp) as a platform file is: the model a user embeds is exactly the device
// pmusim's own platforms (and the Linux kit) run.
#include "pmusim/devices.h"

#include <fmt/format.h>

#include "embed/one_unit_platform.h"
#include "models/values.h"

namespace pmusim {

namespace {

const char* const api_msg = "/pmusim/api";

// Timer signal names, in the order of the generic timer's lines (devices/generic_timer).
constexpr const char* timer_signals[] = {"cntpnsirq", "cntvirq", "cnthpirq", "cntpsirq"};

model_spec gic_spec(const gicv2_options& o) {
    model_spec s;
    s.description = "pmusim::gicv2";
    s.default_initiator = o.default_initiator;
    // Every implemented SPI and every PPI of every CPU interface is an input line with its port.
    std::string spis, ppis; // the device's spi_inputs and ppi_inputs parameters
    for (unsigned intid = 32; intid < 32 + o.spis && intid < 1020; ++intid) {
        const std::string line = fmt::format("spi{}", intid);
        spis += fmt::format("{}{}={}", spis.empty() ? "" : ", ", line, intid);
        s.irq_input_port_names[line] = line;
    }
    for (unsigned intid = 16; intid < 32; ++intid) {
        ppis += fmt::format("{}{{cpu}}_ppi{}={}", ppis.empty() ? "" : ", ", intid, intid);
        for (unsigned cpu = 0; cpu < o.cpus; ++cpu) {
            const std::string line = fmt::format("cpu{}_ppi{}", cpu, intid);
            s.irq_input_port_names[line] = line;
        }
    }
    s.platform = [o, spis, ppis, source = s.description] {
        platform_builder b = arm_platform("gicv2", source, o.cpus, 2000000000, 100000000, {{"amu", "none"}});
        b.firmware(firmware_profile::none);
        for (unsigned intid = 32; intid < 32 + o.spis && intid < 1020; ++intid) b.irq_line(fmt::format("spi{}", intid));
        b.add_unit({"gic", "gicv2", 0, 0x4000, "", {}, "", {{"spis", std::to_string(o.spis)},
                                                            {"priority_bits", std::to_string(o.priority_bits)},
                                                            {"iidr", fmt::format("{:#x}", o.gicd_iidr)},
                                                            {"gicc_iidr", fmt::format("{:#x}", o.gicc_iidr)},
                                                            {"spi_inputs", spis},
                                                            {"ppi_inputs", ppis}}});
        return b.build();
    };
    for (unsigned cpu = 0; cpu < o.cpus; ++cpu) s.irq_port_names[fmt::format("gic_cpu{}_irq", cpu)] = fmt::format("irq_cpu{}", cpu);
    return s;
}

model_spec timer_spec(const arm_generic_timer_options& o) {
    model_spec s;
    s.description = "pmusim::arm_generic_timer";
    s.default_initiator = o.default_initiator;
    s.platform = [o, source = s.description] {
        platform_builder b = arm_platform("arm_generic_timer", source, o.cpus, o.cpu_clock_hz, o.counter_hz, {{"amu", "none"}});
        b.firmware(firmware_profile::none);
        b.add_unit({"timer", "generic_timer", std::nullopt, 0, "", {}, "", {{"cntfrq", std::to_string(o.cntfrq)}}});
        return b.build();
    };
    for (unsigned cpu = 0; cpu < o.cpus; ++cpu)
        for (const char* signal : timer_signals)
            s.irq_port_names[fmt::format("timer_cpu{}_{}", cpu, signal)] = fmt::format("cpu{}_{}", cpu, signal);
    s.frequency_port_names = {{"const", "counter_in"}};
    return s;
}

model_spec uart_spec(const pl011_uart_options& o) {
    model_spec s;
    s.description = "pmusim::pl011_uart";
    s.default_initiator = o.default_initiator;
    s.platform = [o, source = s.description] {
        platform_builder b = arm_platform("pl011_uart", source, 1, 2000000000, 100000000, {{"amu", "none"}});
        b.firmware(firmware_profile::none);
        b.add_unit({"uart", "pl011", 0, 0x1000, "", {}, "irq",
                    {{"uartclk", values::format_frequency(o.uartclk_hz)},
                     {"output", o.output.empty() ? "none" : o.output},
                     {"input", o.input},
                     {"periph_id", fmt::format("{:#x}", o.periph_id)}}});
        return b.build();
    };
    s.irq_port_names = {{"irq", "irq"}};
    if (o.irq_must_be_bound) s.required_irqs = {"irq"};
    return s;
}

} // namespace

gicv2::gicv2(const sc_core::sc_module_name& name, const gicv2_options& options)
    : model(name, gic_spec(options)) {}

sc_core::sc_out<bool>& gicv2::irq_out(unsigned cpu) { return irq_port(fmt::format("gic_cpu{}_irq", cpu)); }

interrupt_in_port& gicv2::spi_in(unsigned intid) { return irq_input(fmt::format("spi{}", intid)); }

interrupt_in_port& gicv2::ppi_in(unsigned cpu, unsigned intid) {
    return irq_input(fmt::format("cpu{}_ppi{}", cpu, intid));
}

arm_generic_timer::arm_generic_timer(const sc_core::sc_module_name& name, const arm_generic_timer_options& options)
    : model(name, timer_spec(options)) {}

sc_core::sc_out<bool>& arm_generic_timer::irq(unsigned cpu, const std::string& signal) {
    for (const char* s : timer_signals)
        if (signal == s) return irq_port(fmt::format("timer_cpu{}_{}", cpu, signal));
    SC_REPORT_ERROR(api_msg, fmt::format("{}: no timer signal '{}' (expected cntpnsirq, cntvirq, cnthpirq or cntpsirq)",
                                         this->name(), signal).c_str());
    return irq_port("");
}

pl011_uart::pl011_uart(const sc_core::sc_module_name& name, const pl011_uart_options& options)
    : model(name, uart_spec(options)), irq(irq_port("irq")) {}

} // namespace pmusim
