#include "linux/linux_machine.h"

#include <fmt/format.h>

#include "linux/device_tree.h"
#include "tb/platform.h"
#include "tb/run_recorder.h"

namespace pmusim {

// PSCI as a model (devices/psci) behind the ISS's call handler; filled in when the devices land.
struct linux_machine::psci_glue {};

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

bool linux_machine::serve_call(aarch64_iss&, cpu_call&) { return false; }

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
