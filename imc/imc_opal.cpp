// skiboot at boot and the OPAL IMC calls, as sequence statements (docs/imc.md "OPAL and privilege").
#include "imc/imc_state.h"

#include "models/values.h"

namespace pmusim {

using namespace imc;

// ---------------------------------------------------------------------------
// Firmware
// ---------------------------------------------------------------------------

std::vector<std::string> imc_unit::firmware_boot(const std::string& profile) {
    if (profile != "opal") return {};
    // skiboot imc_init -> pause_microcode_at_boot: pause the nest microcode of every chip.
    std::vector<std::string> s;
    unsigned hv_cpu = 0;
    for (auto& t : threads_)
        if (t) {
            hv_cpu = t->cpu;
            break;
        }
    s.push_back(fmt::format("as cpu{} hv", hv_cpu));
    for (auto& c : chips_) s.push_back(fmt::format("write64 {:#x} {:#x}", c->cb() + cb_command, uint64_t(cmd_pause)));
    return s;
}

bool imc_unit::serves_firmware_call(const std::string& call) const {
    return call == "imc_counters_init" || call == "imc_counters_start" || call == "imc_counters_stop";
}

bool imc_unit::firmware_call(const std::string& call, const std::vector<std::string>& args,
                             std::vector<std::string>& s, std::string& error) {
    // opal imc_counters_init|start|stop nest|core|trace [ADDRESS] cpuN  (skiboot hw/imc.c)
    const bool init = call == "imc_counters_init", start = call == "imc_counters_start",
               stop = call == "imc_counters_stop";
    if (!init && !start && !stop) {
        error = fmt::format("unknown OPAL call '{}': expected imc_counters_init, imc_counters_start or "
                            "imc_counters_stop", call);
        return false;
    }
    if (args.empty() || (args[0] != "nest" && args[0] != "core" && args[0] != "trace")) {
        error = fmt::format("opal {}: expected a domain nest, core or trace", call);
        return false;
    }
    const std::string& domain = args[0];
    size_t want = init ? 3 : 2;
    if (args.size() != want) {
        error = init ? fmt::format("opal {} {}: expected ADDRESS cpuN", call, domain)
                     : fmt::format("opal {} {}: expected cpuN", call, domain);
        return false;
    }
    const std::string& cpu_word = args.back();
    auto cpu_index = index_after(cpu_word, "cpu");
    if (!cpu_index || *cpu_index >= threads_.size() || !threads_[*cpu_index]) {
        error = fmt::format("opal {} {}: {} is not a CPU served by {} (OPAL_PARAMETER)", call, domain, cpu_word,
                            basename());
        return false;
    }
    unsigned cpu = *cpu_index;
    uint64_t address = 0;
    if (init) {
        // scan_integer, which never throws: this runs inside a SystemC process, where nothing may
        // throw (docs/reliability.md, "Sanitizers").
        const auto written = values::scan_integer(args[1]);
        if (!written) {
            error = fmt::format("opal {} {}: expected an address, found '{}'", call, domain, args[1]);
            return false;
        }
        address = *written;
    }
    if (domain == "trace" && !options_.trace_supported) {
        error = fmt::format("opal {} trace: trace IMC needs POWER9 DD2.2 or later (OPAL_PARAMETER)", call);
        return false;
    }
    const thread_imc& t = *threads_[cpu];
    uint64_t xs = xscom_base(t.chip);
    auto scom = [&](uint32_t pcb, uint64_t value) {
        s.push_back(fmt::format("write64 {:#x} {:#x}", xs + xscom_offset(pcb), value));
    };
    if (domain == "nest") {
        if (!init) s.push_back(fmt::format("write64 {:#x} {:#x}", chips_[t.chip]->cb() + cb_command,
                                           uint64_t(start ? cmd_resume : cmd_pause)));
        return true; // init nest: nothing to do
    }
    if (init && domain == "core") {
        scom(scom_pdbar(t.core), address & ldbar_address_mask);
        scom(scom_event_mask(t.core), core_event_mask);
        scom(scom_htm_mode(t.core), htm_mode_disable);
    } else if (init) { // trace
        scom(scom_htm_mode(t.core), htm_mode_disable);
        scom(scom_trace(t.core), skiboot_trace_scom);
    } else {
        scom(scom_htm_mode(t.core), start ? htm_mode_enable : htm_mode_disable);
    }
    return true;
}

} // namespace pmusim
