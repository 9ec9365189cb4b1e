#include "vp/platform_iss.h"

#include "iss/cpu_identity.h"
#include "vp/platform.h"
#include "vp/run_recorder.h"

namespace pmusim {

uint64_t cpu_mpidr(const platform_config& cfg, unsigned cpu) {
    const cpu_config& c = cfg.cpus.at(cpu);
    unsigned core_in_cluster = 0;
    for (unsigned i = 0; i < cpu; ++i)
        if (cfg.cpus[i].cluster == c.cluster) ++core_in_cluster;
    return dynamiq_mpidr(c.cluster, core_in_cluster);
}

const std::vector<std::pair<uint64_t, memory*>>& platform_iss_host::memories() const { return platform_.memories(); }
firmware_gate& platform_iss_host::gate() { return platform_.gate(); }
cpu_controls& platform_iss_host::controls() { return platform_.controls(); }

cpu_wiring platform_iss_host::wiring(unsigned cpu) {
    const cpu_config& c = platform_.config().cpus.at(cpu);
    cpu_wiring w;
    w.core = &platform_.system().core(cpu);
    for (const auto& line : c.irq)
        if (interrupt_line* l = platform_.find_irq(line)) w.irq_inputs.push_back(l);
    w.cycles_per_instruction = c.cycles_per_instruction;
    w.mpidr = cpu_mpidr(platform_.config(), cpu);
    return w;
}

void platform_iss_host::firmware_exited(unsigned cpu, fs_t t) { platform_.firmware_exited(cpu, t); }
void platform_iss_host::line(const std::string& text) { rec_.line(text); }
void platform_iss_host::program_output(const std::string& text) { rec_.program_output(text); }
std::ostream* const* platform_iss_host::access_log() const { return &rec_.json; }
void platform_iss_host::access(const access_record& record) { rec_.access(record); }

platform_iss::platform_iss(const sc_core::sc_module_name& name, platform& p, run_recorder& recorder, unsigned cpu)
    : detail::platform_iss_host_holder{platform_iss_host(p, recorder)}, aarch64_iss(name, host, cpu) {}

std::vector<aarch64_iss*> isses_on(platform& p) { return aarch64_iss::on_gate(p.gate()); }

} // namespace pmusim
