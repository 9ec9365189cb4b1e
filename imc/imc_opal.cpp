// skiboot at boot and the OPAL IMC calls (the `opal` unit command), as typed firmware steps
// (docs/imc.md "OPAL and privilege").
#include "imc/imc_state.h"

#include "models/values.h"

namespace pmusim {

using namespace imc;

// ---------------------------------------------------------------------------
// Firmware
// ---------------------------------------------------------------------------

firmware_code imc_unit::firmware_boot(const std::string& profile) {
    if (profile != "opal") return {};
    // skiboot imc_init -> pause_microcode_at_boot: pause the nest microcode of every chip.
    firmware_code s;
    unsigned hv_cpu = 0;
    for (auto& t : threads_)
        if (t) {
            hv_cpu = t->cpu;
            break;
        }
    s.push_back(firmware_access::as_hypervisor(hv_cpu));
    for (auto& c : chips_) s.push_back(firmware_access::write64(c->cb() + cb_command, cmd_pause));
    return s;
}

// ---------------------------------------------------------------------------
// The `opal` command
// ---------------------------------------------------------------------------

unit_command imc_opal_command() {
    unit_command c;
    c.verb = "opal";
    c.usage = "imc_counters_init|imc_counters_start|imc_counters_stop nest|core|trace [ADDRESS] cpuN";
    c.summary = "an OPAL IMC call as skiboot performs it, at hypervisor privilege (ADDRESS only for init)";
    c.old_spelling = unit_command::verb_first::without_unit; // `opal ARGS`, as before unit commands
    c.makes_accesses = true;
    c.logged = true;
    c.parse = [](command_words& w) {
        std::vector<std::string> args;
        for (const char* call : {"imc_counters_init", "imc_counters_start", "imc_counters_stop"})
            if (w.accept(call)) args.push_back(call);
        if (args.empty()) w.fail("an OPAL call (imc_counters_init, imc_counters_start, imc_counters_stop)", w.found());
        for (const char* domain : {"nest", "core", "trace"})
            if (args.size() == 1 && w.accept(domain)) args.push_back(domain);
        if (args.size() == 1) w.fail("an IMC domain (nest, core, trace)", w.found());
        if (args[0] == "imc_counters_init")
            args.push_back(fmt::format("{:#x}", w.number("an address (the counter memory or trace buffer)")));
        args.push_back(fmt::format("cpu{}", w.cpu_index()));
        return args;
    };
    c.run = [](unit& u, const command_call& call) { return static_cast<imc_unit&>(u).opal_call(call.args, call.caller); };
    return c;
}

command_result imc_unit::opal_call(const std::vector<std::string>& args, const access_context& caller) {
    // args: CALL DOMAIN [ADDRESS] cpuN, as imc_opal_command's parser returns them (skiboot hw/imc.c).
    command_result r;
    const std::string& call = args.front();
    const std::string& domain = args[1];
    r.source = "opal " + call;
    if (caller.initiator != initiator_kind::cpu || caller.privilege != power_privilege::hypervisor) {
        r.error = fmt::format("opal {}: OPAL is called at hypervisor privilege: write `as cpuN hv` first (now {})",
                              call, caller.describe());
        return r;
    }
    const bool init = call == "imc_counters_init", start = call == "imc_counters_start";
    const std::string& cpu_word = args.back();
    auto cpu_index = index_after(cpu_word, "cpu");
    if (!cpu_index || *cpu_index >= threads_.size() || !threads_[*cpu_index]) {
        r.error = fmt::format("opal {} {}: {} is not a CPU served by {} (OPAL_PARAMETER)", call, domain, cpu_word,
                              basename());
        return r;
    }
    // The parser wrote the address in hex; scan_integer never throws (this runs inside a SystemC
    // process, where nothing may throw: docs/reliability.md, "Sanitizers").
    const uint64_t address = init ? values::scan_integer(args[2]).value : 0;
    if (domain == "trace" && !options_.trace_supported) {
        r.error = fmt::format("opal {} trace: trace IMC needs POWER9 DD2.2 or later (OPAL_PARAMETER)", call);
        return r;
    }
    const thread_imc& t = *threads_[*cpu_index];
    const uint64_t xs = xscom_base(t.chip);
    auto scom = [&](uint32_t pcb, uint64_t value) { r.accesses.push_back(firmware_access::write64(xs + xscom_offset(pcb), value)); };
    if (domain == "nest") {
        if (!init)
            r.accesses.push_back(firmware_access::write64(chips_[t.chip]->cb() + cb_command, start ? cmd_resume : cmd_pause));
        return r; // init nest: nothing to do
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
    return r;
}

} // namespace pmusim
