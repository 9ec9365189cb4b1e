// Registers this folder's device type with the platform builder: the `generic_timer` descriptor.
#include <fmt/format.h>

#include "devices/generic_timer/generic_timer.h"
#include "models/unit_descriptor.h"
#include "vp/unit_list.h"

namespace pmusim {

namespace {

std::unique_ptr<unit> make_generic_timer(soc& system, const unit_entry& u, const platform_view& p) {
    if (u.key_written("irq"))
        throw u.key_error("irq", fmt::format("a generic_timer takes no 'irq': it drives {}_cpuN_cntpnsirq, _cntvirq, "
                                             "_cnthpirq and _cntpsirq per CPU (wire them as GIC PPIs, docs/devices.md)",
                                             u.name));
    if (u.has_mmio) throw u.key_error("base", "a generic_timer has system registers only: expected no base and size");
    const std::string clock = u.clock.empty() ? "const" : u.clock;
    if (!p.has_clock(clock))
        throw u.key_error("clock", fmt::format("the system counter needs a clock: expected a `{}` clock or a clock key",
                                               clock));
    generic_timer_options o;
    if (u.cpus.empty())
        for (const auto& c : p.cpus) o.cpus.push_back(c.index);
    else
        o.cpus = u.cpus;
    if (p.power_arch) throw u.error("the Arm generic timer needs arch arm");
    const clock_domain& counter = system.clock(clock);
    o.cntfrq = u.params.integer("cntfrq");
    if (o.cntfrq == 0) o.cntfrq = counter.initial_frequency_hz();
    if (o.cntfrq > 0xFFFFFFFF)
        throw u.param_error("cntfrq", fmt::format("CNTFRQ_EL0 holds 32 bits: {} Hz does not fit", o.cntfrq));
    std::vector<std::array<interrupt_line*, unsigned(timer_kind::count)>> lines;
    for (unsigned cpu : o.cpus) {
        std::array<interrupt_line*, unsigned(timer_kind::count)> l{};
        for (unsigned k = 0; k < l.size(); ++k)
            l[k] = &system.irq(fmt::format("{}_cpu{}_{}", u.name, cpu, timer_signal(timer_kind(k))));
        lines.push_back(l);
    }
    return std::make_unique<generic_timer_unit>(u.name.c_str(), system, counter, o, std::move(lines));
}

} // namespace

PMUSIM_REGISTER_UNITS(register_generic_timer_devices, 120) {
    using pt = param_type;
    register_unit({
        "generic_timer",
        "Arm generic timer: system counter on the `const` clock (or the entry's clock), EL1 physical/virtual, EL2 and "
        "Secure physical timers per CPU, driving NAME_cpuN_cntpnsirq/_cntvirq/_cnthpirq/_cntpsirq",
        {
            {"cntfrq", pt::integer, "0", "CNTFRQ_EL0 at reset in Hz (0: the counter clock's frequency)", {}, 0, UINT64_MAX},
        },
        {},
        {&generic_timer_table()},
        make_generic_timer,
    });
}

} // namespace pmusim
