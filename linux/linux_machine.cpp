#include "linux/linux_machine.h"

#include <fmt/format.h>

#include "devices/pl011/pl011.h"
#include "devices/psci/psci.h"
#include "linux/device_tree.h"
#include "vp/platform.h"
#include "vp/platform_iss.h"
#include "vp/run_recorder.h"

namespace pmusim {

// The platform's side of PSCI (devices/psci's cpu_power_control): a power transition starts or
// stops an ISS. CPU_ON starts the target in the boot CPU's state (booting.rst: secondaries enter
// at the same EL as the primary), MMU off, x0 = context_id.
struct linux_machine::psci_glue : cpu_power_control {
    linux_machine& m;
    psci_unit* unit = nullptr;
    explicit psci_glue(linux_machine& machine) : m(machine) {}
    unsigned cpu_count() const override { return m.cpu_count(); }
    uint64_t mpidr(unsigned cpu) const override { return linux_mpidr(m.platform_.config(), cpu); }
    bool powered(unsigned cpu) const override { return cpu == 0; }
    bool cpu_on(unsigned cpu, uint64_t entry, uint64_t context_id) override {
        cpu_boot b;
        b.entry = entry;
        b.el = m.boot_el_;
        b.secure = false;
        b.x[0] = context_id;
        b.name = "Linux secondary entry";
        m.cpus_.at(cpu)->power_on(b);
        if (unit) unit->service().cpu_running(cpu);
        return true;
    }
    void cpu_off(unsigned cpu) override { m.cpus_.at(cpu)->power_off("PSCI CPU_OFF"); }
    void system_off() override { m.system_off("PSCI SYSTEM_OFF", 0); }
    void system_reset() override { m.system_off("PSCI SYSTEM_RESET", 0); }
};

linux_machine::linux_machine(const sc_core::sc_module_name& name, platform& p, run_recorder& rec)
    : sc_module(name), platform_(p), rec_(rec) {
    for (unsigned i = 0; i < p.config().cpus.size(); ++i) {
        cpus_.push_back(make_platform_iss(fmt::format("cpu{}", i), p, rec, i));
        cpus_.back()->set_call_handler([this](aarch64_iss& cpu, cpu_call& call) { return serve_call(cpu, call); });
    }
    psci_ = std::make_unique<psci_glue>(*this);
    for (unit* u : p.units())
        if (auto* ps = dynamic_cast<psci_unit*>(u)) psci_->unit = ps;
    if (psci_->unit) psci_->unit->service().connect(*psci_);
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
    // The boot loader's console: every PL011 enabled (pmusim linux stands for the loader).
    for (unit* u : platform_.units())
        if (auto* uart = dynamic_cast<pl011_unit*>(u)) uart->enable_as_console();
    if (time_limit_fs != fs_never) time_limit_event_.notify(sc_core::sc_time(double(time_limit_fs), sc_core::SC_FS));
    cpus_.front()->power_on(b); // the run's time limit is the machine's (watch), not one CPU's
    booted_.notify(sc_core::SC_ZERO_TIME);
}

bool linux_machine::serve_call(aarch64_iss& caller, cpu_call& call) {
    // The conduit the device tree names (smc or hvc) reaches PSCI; the other is the architecture's.
    if (!psci_->unit || call.hvc != (psci_->unit->conduit() == "hvc")) return false;
    const psci_result r = psci_->unit->service().call(caller.cpu(), call.x[0], call.x[1], call.x[2], call.x[3]);
    call.x = {r.x0, r.x1, r.x2, r.x3};
    return true;
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
    any |= time_limit_event_;
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
