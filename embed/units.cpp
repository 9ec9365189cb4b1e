// The units alone (include/pmusim/units.h): each is a one-unit platform described in code from its
// typed options (vp/platform_builder.h, checked against the unit's descriptor as a platform file
// is), so a unit in a user's platform is exactly the unit pmusim's own platforms run.
#include "pmusim/units.h"

#include <fmt/format.h>

#include "embed/one_unit_platform.h"

namespace pmusim {

access_context ns_el1_cpu0() {
    access_context c;
    c.initiator = initiator_kind::cpu;
    c.cpu = 0;
    c.el = 1;
    c.secure = false;
    c.path = access_path::memory_mapped;
    return c;
}

access_context power_supervisor_cpu0() {
    access_context c = ns_el1_cpu0();
    c.is_power = true;
    c.privilege = power_privilege::supervisor;
    return c;
}

namespace {

firmware_profile profile_of(const std::string& name, firmware_profile if_named) {
    // The profile names of a platform file; anything else is left to the builder's caller: "none"
    // disables, the unit's own profile enables. An unknown name is refused by the unit's spec.
    return name == "none" ? firmware_profile::none : if_named;
}

void check_profile(const std::string& name, const char* own, const std::string& source) {
    if (name != own && name != "none")
        throw input_error(source, 0, fmt::format("firmware: expected {} or none, found '{}'", own, name));
}

model_spec dsu_spec(const dsu_pmu_options& o) {
    model_spec s;
    s.description = "pmusim::dsu_pmu";
    s.default_initiator = o.default_initiator;
    s.platform = [o, source = s.description] {
        check_profile(o.firmware, "tf-a", source);
        platform_builder b = arm_platform("dsu_pmu", source, o.cpus, o.cpu_clock_hz, o.const_clock_hz, {{"amu", "none"}});
        b.clock("sclk", o.clock_hz);
        b.firmware(profile_of(o.firmware, firmware_profile::tf_a));
        unit_spec u{"dsu", "dsu_clusterpmu", 0, 0x10000, "sclk", {}, "irq",
                    with(o.params, {{"variant", o.variant}, {"counters", std::to_string(o.counters)}})};
        for (unsigned i = 0; i < o.cpus; ++i) u.cpus.push_back(fmt::format("cpu{}", i));
        b.add_unit(u);
        return b.build();
    };
    s.irq_port_names = {{"irq", "irq"}};
    if (o.irq_must_be_bound) s.required_irqs = {"irq"};
    s.frequency_port_names = {{"sclk", "clock_in"}};
    return s;
}

model_spec cmn_spec(const cmn600_options& o) {
    model_spec s;
    s.description = "pmusim::cmn600_pmu";
    s.default_initiator = o.default_initiator;
    s.platform = [o, source = s.description] {
        platform_builder b = arm_platform("cmn600_pmu", source, 1, 2000000000, 100000000, {{"amu", "none"}});
        b.clock("mesh", o.clock_hz);
        b.firmware(firmware_profile::none);
        std::map<std::string, std::string> fixed{{"mesh_x", std::to_string(o.mesh_x)},
                                                 {"mesh_y", std::to_string(o.mesh_y)},
                                                 {"periphbase", "0"}};
        // The texts as a platform file's block scalars give them: one line each, a final newline.
        if (!o.nodes.empty()) fixed["nodes"] = o.nodes + (o.nodes.back() == '\n' ? "" : "\n");
        if (!o.events.empty()) fixed["events"] = o.events + (o.events.back() == '\n' ? "" : "\n");
        b.add_unit({"cmn", "cmn600", 0, 0x4000000, "mesh", {}, "irq", with(o.params, fixed)});
        return b.build();
    };
    s.irq_port_names = {{"irq", "irq"}};
    if (o.irq_must_be_bound) s.required_irqs = {"irq"};
    s.frequency_port_names = {{"mesh", "clock_in"}};
    return s;
}

model_spec amu_spec(const amu_options& o) {
    model_spec s;
    s.description = "pmusim::amu_cpus";
    s.default_initiator = o.default_initiator;
    s.platform = [o, source = s.description] {
        check_profile(o.firmware, "tf-a", source);
        platform_builder b = arm_platform("amu_cpus", source, o.cpus, o.cpu_clock_hz, o.const_clock_hz,
                                          {{"amu", o.version}, {"amu_aux_counters", std::to_string(o.aux_counters)}});
        b.firmware(profile_of(o.firmware, firmware_profile::tf_a));
        return b.build();
    };
    return s;
}

model_spec cspmu_spec(const coresight_pmu_options& o) {
    model_spec s;
    s.description = "pmusim::coresight_pmu";
    s.default_initiator = o.default_initiator;
    s.platform = [o, source = s.description] {
        platform_builder b = arm_platform("coresight_pmu", source, 1, 2000000000, 100000000, {{"amu", "none"}});
        b.clock("pmu_clk", o.clock_hz);
        b.firmware(firmware_profile::none);
        b.add_unit({"cspmu", "arm_cspmu", 0, 0x1000, "pmu_clk", {}, "irq",
                    with(o.params, {{"counters", std::to_string(o.counters)},
                                    {"counter_width", std::to_string(o.counter_width)},
                                    {"cycle_counter", o.cycle_counter ? "true" : "false"},
                                    {"pmiidr", fmt::format("{:#x}", o.pmiidr)}})});
        return b.build();
    };
    s.irq_port_names = {{"irq", "irq"}};
    if (o.irq_must_be_bound) s.required_irqs = {"irq"};
    s.frequency_port_names = {{"pmu_clk", "clock_in"}};
    return s;
}

model_spec imc_spec(const power9_imc_options& o) {
    model_spec s;
    s.description = "pmusim::power9_imc";
    s.default_initiator = o.default_initiator;
    s.platform = [o, source = s.description] {
        check_profile(o.firmware, "opal", source);
        if (o.cores == 0 || o.threads_per_core == 0 || o.threads_per_core > 4)
            throw input_error(source, 0, fmt::format("cores: expected at least 1 core of 1..4 threads, found {} of {}",
                                                     o.cores, o.threads_per_core));
        platform_builder b("power9_imc", source, arch_kind::power);
        for (unsigned c = 0; c < o.cores; ++c) b.clock(fmt::format("core{}", c), o.core_clock_hz);
        b.clock("nest", o.nest_clock_hz);
        b.clock("tb", o.timebase_hz);
        unit_spec u{"imc", "power9_imc", std::nullopt, 0, "nest", {}, "",
                    with(o.params, {{"chips", "1"}, {"homer_base", fmt::format("{:#x}", o.homer_base)}})};
        for (unsigned c = 0; c < o.cores; ++c)
            for (unsigned t = 0; t < o.threads_per_core; ++t) {
                u.cpus.push_back(fmt::format("cpu{}", c * o.threads_per_core + t));
                b.power_thread(fmt::format("core{}", c), 0, c, o.threads_per_core);
            }
        b.firmware(profile_of(o.firmware, firmware_profile::opal));
        // The chip's 4 MiB HOMER image (HOMER_IMAGE_SIZE) and the memory its nest counters are
        // posted to, big-endian as POWER9 memory is (the layout of platforms/power9-default.yaml).
        b.memory("homer", o.homer_base, 0x400000, endianness::big);
        b.memory("imc_counters", o.homer_base + 0x400000, 0x100000, endianness::big);
        b.add_unit(u);
        return b.build();
    };
    return s;
}

} // namespace

dsu_pmu::dsu_pmu(const sc_core::sc_module_name& name, const dsu_pmu_options& options)
    : model(name, dsu_spec(options)), irq(irq_port("irq")), clock_in(frequency_in("sclk")) {}

cmn600_pmu::cmn600_pmu(const sc_core::sc_module_name& name, const cmn600_options& options)
    : model(name, cmn_spec(options)), irq(irq_port("irq")), clock_in(frequency_in("mesh")) {}

amu_cpus::amu_cpus(const sc_core::sc_module_name& name, const amu_options& options) : model(name, amu_spec(options)) {}

coresight_pmu::coresight_pmu(const sc_core::sc_module_name& name, const coresight_pmu_options& options)
    : model(name, cspmu_spec(options)), irq(irq_port("irq")), clock_in(frequency_in("pmu_clk")) {}

power9_imc::power9_imc(const sc_core::sc_module_name& name, const power9_imc_options& options)
    : model(name, imc_spec(options)) {}

} // namespace pmusim
