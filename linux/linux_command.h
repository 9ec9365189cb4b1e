#pragma once
// `pmusim linux`: boots an arm64 Linux Image with an initramfs on a platform's ISS CPUs
// (docs/linux.md). tb/main.cpp adds it to its CLI11 app and runs it when selected.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "debug/debug_cli.h"
#include "linux/linux_boot.h"

namespace pmusim {

class linux_command {
public:
    explicit linux_command(CLI::App& app);
    bool selected() const;
    int run(); // the exit code; throws input_error for bad input

private:
    CLI::App* cmd_ = nullptr;
    linux_boot_options boot_;
    std::string append_;
    std::string platform_ = "arm-linux";
    std::string time_limit_ = "10s";
    std::string log_json_, vcd_;
    std::vector<std::string> overrides_;
    unsigned el_ = 1;
    bool reference_ = false;
    debug::debug_options debug_; // --gdb, --gdb-wait, --trace (docs/debugging.md)
};

} // namespace pmusim
