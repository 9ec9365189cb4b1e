#pragma once
// The GDB stub attached to the ISS's CPUs (docs/debugging.md): a debug_target over aarch64_iss and
// the hooks its run loop calls. All-stop: when one CPU stops, every CPU holds at its next run-loop
// step until GDB resumes; a single step runs the stepped CPU alone.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <systemc>

#include "debug/gdb_stub.h"
#include "iss/aarch64_iss.h"

namespace pmusim::debug {

class iss_debugger : public debug_target, public aarch64_iss::debug_hooks {
public:
    // Listens on 127.0.0.1:port (0: any free port). `wait`: the first CPU to start holds until GDB
    // connects and resumes it (--gdb-wait).
    iss_debugger(uint16_t port, bool wait);
    uint16_t port() const { return stub_.port(); }
    void add(aarch64_iss& cpu);

    // debug_target
    std::vector<unsigned> cpus() const override;
    std::string describe(unsigned cpu) const override;
    bool read_register(unsigned cpu, unsigned regno, uint8_t* bytes) override;
    bool write_register(unsigned cpu, unsigned regno, const uint8_t* bytes) override;
    bool read_memory(unsigned cpu, uint64_t address, uint8_t* bytes, size_t length) override;
    bool write_memory(unsigned cpu, uint64_t address, const uint8_t* bytes, size_t length) override;
    bool supports(breakpoint_kind kind) const override;
    bool insert_breakpoint(breakpoint_kind kind, uint64_t address, unsigned length) override;
    bool remove_breakpoint(breakpoint_kind kind, uint64_t address, unsigned length) override;

    // aarch64_iss::debug_hooks
    uint64_t checkpoint(aarch64_iss& cpu, bool at_breakpoint) override;
    void finished(aarch64_iss& cpu) override;

    // Instructions an engine run may retire while running: bounds how long a Ctrl-C waits.
    static constexpr uint64_t run_slice = 100000;

private:
    gdb_stub stub_;
    bool wait_;
    bool waited_ = false;
    std::map<unsigned, aarch64_iss*> cpus_;
    bool halted_ = false, killed_ = false;
    std::optional<unsigned> stepping_;
    bool step_started_ = false;
    uint64_t step_from_pc_ = 0, step_from_retired_ = 0; // a step is done when either has moved
    sc_core::sc_event resume_;
    std::set<uint64_t> breakpoints_;
    std::chrono::steady_clock::time_point next_poll_{};

    aarch64_iss* find(unsigned cpu) const;
    void halt(aarch64_iss& cpu, int signal);
    void apply_breakpoints();
};

} // namespace pmusim::debug
