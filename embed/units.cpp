// The units alone (include/pmusim/units.h): each is a one-unit platform written from its typed
// options, so a unit in a user's platform is exactly the unit pmusim's own platforms run.
#include "pmusim/units.h"

#include <fmt/format.h>

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

namespace {

// `clocks:` and `cpus:` of an Arm platform with `cpus` CPUs in cluster 0.
std::string arm_cpus_yaml(unsigned cpus, uint64_t cpu_hz, uint64_t const_hz, const std::string& features,
                          const std::string& extra_clock) {
    std::string y = fmt::format("arch: arm\nclocks:\n  - {{ name: const, frequency: {}Hz }}\n", const_hz);
    for (unsigned i = 0; i < cpus; ++i) y += fmt::format("  - {{ name: cpu{}, frequency: {}Hz }}\n", i, cpu_hz);
    y += extra_clock;
    y += "cpus:\n";
    for (unsigned i = 0; i < cpus; ++i)
        y += fmt::format("  - {{ name: cpu{0}, clock: cpu{0}, cluster: 0, features: {{ {1} }} }}\n", i, features);
    return y;
}

std::string params_yaml(const std::map<std::string, std::string>& fixed, const std::map<std::string, std::string>& more) {
    std::string y = "    params:\n";
    std::map<std::string, std::string> all = more;
    for (auto& [k, v] : fixed) all[k] = v;
    for (auto& [k, v] : all) {
        if (v.find('\n') != std::string::npos) {
            y += fmt::format("      {}: |\n", k);
            size_t start = 0;
            while (start < v.size()) {
                size_t end = v.find('\n', start);
                if (end == std::string::npos) end = v.size();
                y += "        " + v.substr(start, end - start) + "\n";
                start = end + 1;
            }
        } else {
            y += fmt::format("      {}: \"{}\"\n", k, v);
        }
    }
    return y;
}

std::string firmware_yaml(const std::string& profile) { return fmt::format("firmware:\n  profile: {}\n", profile); }

model_spec dsu_spec(const dsu_pmu_options& o) {
    model_spec s;
    s.description = "pmusim::dsu_pmu";
    s.default_initiator = o.default_initiator;
    std::string cpus;
    for (unsigned i = 0; i < o.cpus; ++i) cpus += fmt::format("{}cpu{}", i ? ", " : "", i);
    s.platform_yaml = "name: dsu_pmu\n" +
                      arm_cpus_yaml(o.cpus, o.cpu_clock_hz, o.const_clock_hz, "amu: none",
                                    fmt::format("  - {{ name: sclk, frequency: {}Hz }}\n", o.clock_hz)) +
                      firmware_yaml(o.firmware) +
                      fmt::format("units:\n  - name: dsu\n    type: dsu_clusterpmu\n    base: 0\n    size: 0x10000\n"
                                  "    clock: sclk\n    cpus: [{}]\n    irq: irq\n",
                                  cpus) +
                      params_yaml({{"variant", o.variant}, {"counters", std::to_string(o.counters)}}, o.params);
    s.irq_port_names = {{"irq", "irq"}};
    if (o.irq_must_be_bound) s.required_irqs = {"irq"};
    s.frequency_port_names = {{"sclk", "clock_in"}};
    return s;
}

model_spec cmn_spec(const cmn600_options& o) {
    model_spec s;
    s.description = "pmusim::cmn600_pmu";
    s.default_initiator = o.default_initiator;
    std::map<std::string, std::string> fixed{{"mesh_x", std::to_string(o.mesh_x)},
                                             {"mesh_y", std::to_string(o.mesh_y)},
                                             {"periphbase", "0"}};
    if (!o.nodes.empty()) fixed["nodes"] = o.nodes + (o.nodes.back() == '\n' ? "" : "\n");
    if (!o.events.empty()) fixed["events"] = o.events + (o.events.back() == '\n' ? "" : "\n");
    s.platform_yaml = "name: cmn600_pmu\n" + arm_cpus_yaml(1, 2000000000, 100000000, "amu: none",
                                                            fmt::format("  - {{ name: mesh, frequency: {}Hz }}\n", o.clock_hz)) +
                      firmware_yaml("none") +
                      "units:\n  - name: cmn\n    type: cmn600\n    base: 0\n    size: 0x4000000\n    clock: mesh\n"
                      "    irq: irq\n" +
                      params_yaml(fixed, o.params);
    s.irq_port_names = {{"irq", "irq"}};
    if (o.irq_must_be_bound) s.required_irqs = {"irq"};
    s.frequency_port_names = {{"mesh", "clock_in"}};
    return s;
}

model_spec amu_spec(const amu_options& o) {
    model_spec s;
    s.description = "pmusim::amu_cpus";
    s.default_initiator = o.default_initiator;
    s.platform_yaml = "name: amu_cpus\n" +
                      arm_cpus_yaml(o.cpus, o.cpu_clock_hz, o.const_clock_hz,
                                    fmt::format("amu: {}, amu_aux_counters: {}", o.version, o.aux_counters), "") +
                      firmware_yaml(o.firmware);
    return s;
}

} // namespace

dsu_pmu::dsu_pmu(const sc_core::sc_module_name& name, const dsu_pmu_options& options)
    : model(name, dsu_spec(options)), irq(irq_port("irq")), clock_in(frequency_in("sclk")) {}

cmn600_pmu::cmn600_pmu(const sc_core::sc_module_name& name, const cmn600_options& options)
    : model(name, cmn_spec(options)), irq(irq_port("irq")), clock_in(frequency_in("mesh")) {}

amu_cpus::amu_cpus(const sc_core::sc_module_name& name, const amu_options& options) : model(name, amu_spec(options)) {}

} // namespace pmusim
