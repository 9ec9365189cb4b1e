#include "linux/linux_machine.h"

#include <fmt/format.h>

#include "linux/device_tree.h"
#include "tb/platform.h"
#include "tb/run_recorder.h"

namespace pmusim {

// PSCI behind the ISS's call handler. Function IDs and return codes: Arm DEN 0022D (PSCI 1.1)
// 5.1 and 5.2.2. This is the machine's own until devices/psci's psci_service serves it.
struct linux_machine::psci_glue {
    static constexpr uint64_t version = 0x84000000, cpu_off = 0x84000002, cpu_on32 = 0x84000003,
                              cpu_on64 = 0xC4000003, affinity_info32 = 0x84000004, affinity_info64 = 0xC4000004,
                              migrate_info_type = 0x84000006, system_off = 0x84000008, system_reset = 0x84000009,
                              features = 0x8400000A;
    static constexpr int64_t success = 0, not_supported = -1, invalid_parameters = -2, already_on = -4;
};

linux_machine::linux_machine(const sc_core::sc_module_name& name, platform& p, run_recorder& rec)
    : sc_module(name), platform_(p), rec_(rec) {
    for (unsigned i = 0; i < p.config().cpus.size(); ++i) {
        cpus_.push_back(std::make_unique<aarch64_iss>(fmt::format("cpu{}", i).c_str(), p, rec, i));
        cpus_.back()->set_call_handler([this](aarch64_iss& cpu, cpu_call& call) { return serve_call(cpu, call); });
    }
    SC_HAS_PROCESS(linux_machine);
    SC_THREAD(watch);
}

linux_machine::~linux_machine() = default;

uint64_t linux_machine::instructions() const {
    uint64_t n = 0;
    for (const auto& c : cpus_) n += c->instructions_retired();
    return n;
}

void linux_machine::boot(const linux_boot_image& image, unsigned el, fs_t time_limit_fs) {
    time_limit_ = time_limit_fs;
    boot_el_ = el;
    cpu_boot b;
    b.entry = image.layout.kernel_entry;
    b.el = el;
    b.secure = false;
    b.x = {image.layout.dtb_address, 0, 0, 0};
    b.name = "Linux Image";
    cpus_.front()->power_on(b); // the run's time limit is the machine's (watch), not one CPU's
    booted_.notify(sc_core::SC_ZERO_TIME);
}

bool linux_machine::serve_call(aarch64_iss& caller, cpu_call& call) {
    using g = psci_glue;
    auto ret = [&](int64_t v) {
        call.x[0] = uint64_t(v);
        return true;
    };
    auto target_of = [&](uint64_t mpidr) -> aarch64_iss* {
        for (unsigned i = 0; i < cpus_.size(); ++i)
            if ((linux_mpidr(platform_.config(), i) & 0xff00ffffffull) == (mpidr & 0xff00ffffffull)) return cpus_[i].get();
        return nullptr;
    };
    const uint64_t fn = call.x[0] & 0xffffffffull; // function IDs are 32-bit (DEN 0022D 5.1)
    switch (fn) {
    case g::version: return ret(0x10000); // 1.0: major in [31:16]
    case g::migrate_info_type: return ret(2); // Trusted OS not present
    case g::features: {
        const uint64_t f = call.x[1];
        const bool known = f == g::version || f == g::cpu_off || f == g::cpu_on32 || f == g::cpu_on64 ||
                           f == g::affinity_info32 || f == g::affinity_info64 || f == g::migrate_info_type ||
                           f == g::system_off || f == g::system_reset || f == g::features;
        return ret(known ? g::success : g::not_supported);
    }
    case g::cpu_on32:
    case g::cpu_on64: {
        aarch64_iss* t = target_of(call.x[1]);
        if (!t) return ret(g::invalid_parameters);
        if (t->running()) return ret(g::already_on);
        cpu_boot b;
        b.entry = call.x[2];
        b.el = boot_el_;
        b.secure = false;
        b.x[0] = call.x[3]; // context_id
        b.name = "Linux secondary entry";
        t->power_on(b);
        return ret(g::success);
    }
    case g::cpu_off: caller.power_off("PSCI CPU_OFF"); return true;
    case g::affinity_info32:
    case g::affinity_info64: {
        aarch64_iss* t = target_of(call.x[1]);
        if (!t) return ret(g::invalid_parameters);
        return ret(t->running() ? 0 : 1); // ON 0, OFF 1
    }
    case g::system_off: system_off("PSCI SYSTEM_OFF", 0); return true;
    case g::system_reset: system_off("PSCI SYSTEM_RESET", 0); return true;
    }
    return ret(g::not_supported);
}

void linux_machine::system_off(const std::string& why, int exit_code) {
    if (stopped_) return;
    stopped_ = true;
    exit_code_ = exit_code;
    message_ = why;
    for (auto& c : cpus_)
        if (c->running()) c->power_off(why);
    stop_.notify(sc_core::SC_ZERO_TIME);
}

void linux_machine::watch() {
    // The run ends at SYSTEM_OFF, when the boot CPU stops with an error, or at the time limit.
    wait(booted_);
    sc_core::sc_event_or_list any;
    any |= stop_;
    for (auto& c : cpus_) any |= c->finished();
    const sc_core::sc_time limit = time_limit_ == fs_never ? sc_core::sc_max_time() - sc_core::sc_time_stamp()
                                                           : sc_core::sc_time(double(time_limit_), sc_core::SC_FS);
    const sc_core::sc_time end = sc_core::sc_time_stamp() + limit;
    while (!stopped_) {
        wait(end - sc_core::sc_time_stamp(), any);
        if (stopped_) break;
        if (sc_core::sc_time_stamp() >= end) break;
        for (auto& c : cpus_) {
            const auto& r = c->result();
            if (r.s == firmware_result::state::error || r.s == firmware_result::state::failed) {
                system_off(fmt::format("{}: {}", c->name(), r.message), r.exit_code ? r.exit_code : 3);
                break;
            }
        }
    }
    sc_core::sc_stop();
}

} // namespace pmusim
