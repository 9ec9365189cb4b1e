#pragma once
// The running machine of `pmusim linux`: one ISS per CPU of the platform, the boot CPU started as
// a boot loader leaves it (Documentation/arm64/booting.rst: EL1 or EL2 Non-secure, MMU off,
// x0 = the DTB), the others off until PSCI CPU_ON, SMC/HVC calls served by the PSCI model, and the
// run's end (SYSTEM_OFF: exit 0; the time limit; a CPU error).
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "iss/aarch64_iss.h"
#include "linux/linux_boot.h"

namespace pmusim {

class platform;
class run_recorder;

class linux_machine : public sc_core::sc_module {
public:
    linux_machine(const sc_core::sc_module_name& name, platform& p, run_recorder& rec);
    ~linux_machine() override;

    // Before sc_start: starts the boot CPU at the kernel's entry at `el` (1 or 2) at time 0.
    void boot(const linux_boot_image& image, unsigned el, fs_t time_limit_fs);
    // After sc_start returns: 0 SYSTEM_OFF, 1 time limit reached, 3 a CPU stopped with an error.
    int exit_code() const { return exit_code_; }
    const std::string& message() const { return message_; }
    uint64_t instructions() const;
    aarch64_iss& cpu(unsigned i) { return *cpus_.at(i); }
    unsigned cpu_count() const { return unsigned(cpus_.size()); }

    // The PSCI conduit's calls (Arm DEN 0022), for the ISS's call handler.
    bool serve_call(aarch64_iss& caller, cpu_call& call);
    void system_off(const std::string& why, int exit_code);

private:
    void watch();
    platform& platform_;
    run_recorder& rec_;
    std::vector<std::unique_ptr<aarch64_iss>> cpus_;
    struct psci_glue;
    std::unique_ptr<psci_glue> psci_;
    sc_core::sc_event stop_, booted_;
    // Notified at the time limit from boot() on: a timed event before the boot CPU's first run, so
    // that run already ends at the limit (an ISS runs ahead to the next timed event).
    sc_core::sc_event time_limit_event_;
    fs_t time_limit_ = fs_never;
    unsigned boot_el_ = 1;
    int exit_code_ = 1;
    bool stopped_ = false;
    std::string message_ = "time limit reached";
};

} // namespace pmusim
