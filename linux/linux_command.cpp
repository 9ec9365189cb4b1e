#include "models/sanitizer_fibers.h"
#include "linux/linux_command.h"

#include <chrono>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "linux/linux_machine.h"
#include "models/reference_mode.h"
#include "models/values.h"
#include "models/atomic_output.h"
#include "vp/param_overrides.h"
#include "vp/platform.h"
#include "vp/run_recorder.h"
#include "tb/sequence_runner.h"
#include "vp/unit_list.h"

namespace pmusim {

linux_command::linux_command(CLI::App& app) {
    cmd_ = app.add_subcommand("linux", "boot an arm64 Linux Image and initramfs on the platform's CPUs (docs/linux.md)");
    cmd_->add_option("--kernel", boot_.kernel, "the kernel: an uncompressed arm64 Image (scripts/linux-kit.sh makes one)")
        ->required();
    cmd_->add_option("--initrd", boot_.initrd, "the initramfs (newc cpio, as the kernel accepts it)");
    cmd_->add_option("--platform", platform_, "built-in platform name or YAML file")->default_val("arm-linux");
    cmd_->add_option("--dtb", boot_.dtb, "boot with this device tree blob instead of the generated one");
    cmd_->add_option("--dtb-out", boot_.dtb_out, "write the device tree blob the kernel boots with to this file");
    cmd_->add_option("--append", append_, "kernel command line arguments (after the generated ones)");
    cmd_->add_option("--el", el_, "exception level the kernel starts at (1, or 2 as a hypervisor-capable loader)")
        ->default_val(1)
        ->check(CLI::Range(1, 2));
    cmd_->add_option("--time-limit", time_limit_, "simulated time after which a kernel that has not powered off "
                                                  "stops (exit 1)")
        ->default_val("10s");
    cmd_->add_option("--log-json", log_json_, "write one JSON object per unit register access to this file");
    cmd_->add_option("--vcd", vcd_, "write counters, enables and interrupt lines as a VCD waveform");
    cmd_->add_option("-C,--param", overrides_, override_option_help)->allow_extra_args(false);
    cmd_->add_flag("--reference", reference_, "per-cycle reference mode (docs/reference-mode.md)");
    debug::add_debug_options(*cmd_, debug_);
    cmd_->footer("Examples:\n"
                 "  scripts/linux-kit.sh build/linux-kit --script my-test.sh\n"
                 "  pmusim linux --kernel build/linux-kit/Image --initrd build/linux-kit/initramfs.cpio\n"
                 "  pmusim linux --kernel Image --initrd initrd.cpio --append 'loglevel=8' --time-limit 5s --log-json log.jsonl\n"
                 "  pmusim linux --kernel Image --initrd initrd.cpio --dtb-out board.dtb -C dsu0.counters=4\n"
                 "  pmusim linux --kernel Image --dtb board.dtb --initrd initrd.cpio --vcd wave.vcd --reference\n"
                 "Exit codes: 0 the kernel powered off (PSCI SYSTEM_OFF), 1 the time limit was reached, 2 bad input,\n"
                 "3 model error or a CPU stopped on an error.");
}

bool linux_command::selected() const { return cmd_->parsed(); }

int linux_command::run() {
    register_all_units();
    if (cmd_->count("--append")) boot_.append = append_;
    boot_.el = el_;
    const fs_t limit = values::parse_duration_fs(time_limit_, "--time-limit", 0);
    refuse_inputs_as_outputs({log_json_, vcd_, boot_.dtb_out}, {boot_.kernel, boot_.initrd, boot_.dtb, platform_});
    std::vector<param_override> overrides = parse_override_arguments(overrides_);
    platform_config cfg = load_platform_with_overrides(platform_, overrides);
    if (reference_) set_reference_mode(true);
    platform p(cfg);
    run_recorder rec;
    rec.log = &std::cerr; // stdout is the console
    std::unique_ptr<atomic_output> json_out;
    if (!log_json_.empty()) {
        json_out = std::make_unique<atomic_output>(log_json_);
        rec.json = &json_out->stream();
    }
    if (!vcd_.empty()) {
        std::vector<observable> signals;
        for (unit* u : p.units()) {
            u->observables(signals);
            u->control_registers(signals);
        }
        for (auto& [name, line] : p.system().irq_lines) {
            interrupt_line* l = line.get();
            signals.push_back({"irq." + name, 1, [l] { return uint64_t(l->level()); }});
        }
        rec.vcd = std::make_unique<vcd_writer>(std::move(signals));
    }
    linux_machine machine("linux", p, rec);
    // The platform's firmware profile (tf-a: what EL3 firmware leaves enabled for the kernel, e.g.
    // EL1 access to the AMU and the DSU PMU) runs before the kernel's first instruction.
    sequence_runner firmware("firmware", p, rec);
    firmware.boot_embedded();
    const linux_boot_image image = prepare_linux_boot(p, boot_);
    rec.line(fmt::format("pmusim linux: {} on platform {}: Image at 0x{:x}, initramfs 0x{:x}-0x{:x}, DTB at 0x{:x} "
                         "({} bytes), bootargs \"{}\"",
                         boot_.kernel, cfg.name, image.layout.kernel_entry, image.layout.initrd_start,
                         image.layout.initrd_end, image.layout.dtb_address, image.layout.dtb_size, image.bootargs));
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    sanitizer_fibers::main_stack_resumed();
    machine.boot(image, el_, limit);
    // After the machine built its CPUs' ISSs: the attachment takes every ISS of the platform.
    std::unique_ptr<debug::debug_attachment> debugging;
    if (debug_.any()) debugging = std::make_unique<debug::debug_attachment>(debug_, p);
    const auto host_start = std::chrono::steady_clock::now();
    sc_core::sc_start();
    sanitizer_fibers::main_stack_resumed();
    const double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
    std::cout.flush();
    rec.line(fmt::format("pmusim linux: {} after {} simulated, {} instructions", machine.message(),
                         format_time(now_fs()), machine.instructions()));
    std::cerr << fmt::format("pmusim: linux: host_seconds {:.3f} instructions {} mips {:.1f}\n", host_seconds,
                             machine.instructions(), host_seconds > 0 ? machine.instructions() / host_seconds / 1e6 : 0);
    if (json_out) json_out->commit();
    if (rec.vcd) {
        atomic_output v(vcd_);
        rec.vcd->write(v.stream(), "pmusim");
        v.commit();
    }
    return machine.exit_code();
}

} // namespace pmusim
